/* session-phrase.c — phrases: the steps a person would name ("Type `ls /`
 * and press Return", "Press Alt+P", "Click at 40,12 in "Print""), the top
 * level of hierarchical reduction and the steps of reports.
 *
 * Two passes. session_get_strokes() cuts the actions into strokes, one
 * thing a hand does (see session-private.h): a key with the modifiers
 * pressed for it, a click, a drag, a run of motion. session_get_phrases()
 * groups the strokes: a run of typing (keys that type a character,
 * Shift and AltGr allowed) goes on until Return, Tab or Escape, which end
 * it and belong to it; a click, pointer motion, any other key, a focus
 * change to another window or a pause of more than PHRASE_PAUSE_MS ends
 * it too. A chord or any other key stands alone, or with its repeats
 * ("Press BackSpace 3 times"). The pointer motion that leads to a click or
 * a drag joins it; clicks of one button in quick succession are a double
 * click, notches of the wheel one scroll.
 *
 * Unlike gestures (session-gesture.c), strokes do not glue together what
 * is typed while a modifier is held: in a reduced session whose Alt is
 * never released, Alt+P and the click after it are two steps.
 *
 * The words for a phrase are in session-words.c.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"

#include <string.h>
#include <xkbcommon/xkbcommon.h>

/* A pause longer than this ends a run of typing (or a key's repeats). */
#define PHRASE_PAUSE_MS 1000
#define STROKE_MOD_CHORD (STROKE_MOD_CTRL | STROKE_MOD_ALT | STROKE_MOD_SUPER \
                          | STROKE_MOD_META | STROKE_MOD_HYPER)

static const char *const terminators[] = {
  "Return", "KP_Enter", "Tab", "ISO_Left_Tab", "Escape",
};

gboolean
session_keysym_is_terminator (const char *keysym)
{
  for (gsize i = 0; i < G_N_ELEMENTS (terminators); i++)
    if (g_str_equal (keysym, terminators[i]))
      return TRUE;
  return FALSE;
}

gboolean
session_keysym_text (const char *keysym, char out[8])
{
  xkb_keysym_t sym = xkb_keysym_from_name (keysym, XKB_KEYSYM_NO_FLAGS);
  guint32 c = sym != XKB_KEY_NoSymbol ? xkb_keysym_to_utf32 (sym) : 0;
  int n;

  if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || !g_unichar_validate (c))
    return FALSE;
  n = g_unichar_to_utf8 (c, out);
  out[n] = '\0';
  return TRUE;
}

/* The STROKE_MOD_* bit of a modifier key, 0 for another key. */
static guint
modifier_bit (const char *keysym)
{
  if (!session_keysym_is_modifier (keysym))
    return 0;
  return g_str_has_prefix (keysym, "Control") ? STROKE_MOD_CTRL
         : g_str_has_prefix (keysym, "Alt") ? STROKE_MOD_ALT
         : g_str_has_prefix (keysym, "Shift") ? STROKE_MOD_SHIFT
         : g_str_has_prefix (keysym, "Super") ? STROKE_MOD_SUPER
         : g_str_has_prefix (keysym, "Meta") ? STROKE_MOD_META
         : g_str_has_prefix (keysym, "Hyper") ? STROKE_MOD_HYPER : STROKE_MOD_ALTGR;
}

char *
stroke_mods_name (guint mods)
{
  static const struct { guint bit; const char *name; } names[] = {
    { STROKE_MOD_CTRL, "Ctrl" }, { STROKE_MOD_ALT, "Alt" }, { STROKE_MOD_SHIFT, "Shift" },
    { STROKE_MOD_SUPER, "Super" }, { STROKE_MOD_META, "Meta" }, { STROKE_MOD_HYPER, "Hyper" },
    { STROKE_MOD_ALTGR, "AltGr" },
  };
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (mods & names[i].bit)
      g_string_append_printf (out, "%s+", names[i].name);
  return g_string_free (out, FALSE);
}

/* ---- strokes ---- */

/* Within a few pixels in the same window: toolkits take a press and a
 * release, or two clicks, so close together for one place (GTK's double
 * click distance is 5). */
static gboolean
same_place (const SessionEvent *a, const SessionEvent *b)
{
  if (a->window != b->window || g_strcmp0 (a->wm_name, b->wm_name) != 0)
    return FALSE;
  if (a->window >= 0)
    return ABS (a->x - b->x) <= 4 && ABS (a->y - b->y) <= 4;
  return ABS (a->root_x - b->root_x) <= 4 && ABS (a->root_y - b->root_y) <= 4;
}

static gint
compare_actions (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

SESSION_ACTION_GROUP_CHECK (Stroke, class);

typedef struct
{
  const Session *session;
  GArray *actions;           /* action number -> event index; owned */
  GPtrArray *strokes;        /* of Stroke; owned */
  GArray *pending;           /* modifier presses not yet in a stroke */
  GHashTable *mods_held;     /* keycode -> STROKE_MOD_* bit */
  GHashTable *keys_held;     /* keycode -> its Stroke (borrowed) */
  Stroke *button;            /* the stroke of the buttons held, or NULL */
  guint buttons_held;
  guint8 button_down[256];
  Stroke *motion;            /* the run of motion going on, or NULL */
  Stroke *last;              /* the stroke of the last action, or NULL */
  Stroke *notch[8];          /* buttons 4-7: a wheel notch whose release is to come */
} Cutter;

/* Buttons 4 to 7 are a wheel's notches: pressed and released at once,
 * never held for what follows. */
static gboolean
is_wheel (guint button)
{
  return button >= 4 && button <= 7;
}

static guint
mods_held (Cutter *c)
{
  GHashTableIter iter;
  gpointer bit;
  guint mods = 0;

  g_hash_table_iter_init (&iter, c->mods_held);
  while (g_hash_table_iter_next (&iter, NULL, &bit))
    mods |= GPOINTER_TO_UINT (bit);
  return mods;
}

/* A new stroke that starts with the pending modifier presses. */
static Stroke *
stroke_new (Cutter *c, StrokeClass class, const SessionEvent *main)
{
  Stroke *stroke = session_action_group_new (c->strokes, sizeof (Stroke), class);

  stroke->main = main;
  stroke->mods = mods_held (c);
  g_array_append_vals (stroke->actions, c->pending->data, c->pending->len);
  g_array_set_size (c->pending, 0);
  return stroke;
}

static StrokeClass
key_class (const SessionEvent *press, guint mods)
{
  char text[8];

  if (mods & STROKE_MOD_CHORD)
    return STROKE_KEY;
  if (session_keysym_is_terminator (press->keysym))
    return STROKE_END;
  return session_keysym_text (press->keysym, text) ? STROKE_TEXT : STROKE_KEY;
}

/* The stroke the key press or release @ev belongs to (NULL: a modifier
 * pressed, pending). */
static Stroke *
cut_key (Cutter *c, const SessionEvent *ev)
{
  gpointer key = GUINT_TO_POINTER (ev->keycode);
  guint bit;
  Stroke *stroke;

  if (ev->kind == SESSION_EVENT_KEY_PRESS)
    {
      /* Auto-repeat: the key held produces the same keysym again. (The
       * same keycode with another keysym is another key: xdotool binds
       * one spare keycode to each character it types.) */
      if ((stroke = g_hash_table_lookup (c->keys_held, key)) != NULL
          && g_strcmp0 (stroke->main->keysym, ev->keysym) == 0)
        return stroke;
      if ((bit = modifier_bit (ev->keysym)) != 0)
        {
          if (!g_hash_table_contains (c->mods_held, key))
            g_hash_table_insert (c->mods_held, key, GUINT_TO_POINTER (bit));
          return NULL;   /* pending: it belongs to what it is held for */
        }
      stroke = stroke_new (c, STROKE_KEY, ev);
      stroke->class = key_class (ev, stroke->mods);
      g_hash_table_insert (c->keys_held, key, stroke);
      return stroke;
    }
  if ((stroke = g_hash_table_lookup (c->keys_held, key)) != NULL)
    {
      g_hash_table_remove (c->keys_held, key);
      return stroke;
    }
  if (g_hash_table_remove (c->mods_held, key) && c->pending->len > 0)
    /* A modifier pressed and released on its own. */
    return stroke_new (c, STROKE_KEY, session_get_event (c->session,
                       g_array_index (c->actions, guint,
                                      g_array_index (c->pending, guint, 0))));
  return c->last != NULL ? c->last : stroke_new (c, STROKE_OTHER, ev);
}

/* The stroke @action (event @ev) belongs to. */
static Stroke *
cut_action (Cutter *c, const SessionEvent *ev)
{
  Stroke *stroke;

  if (ev->kind != SESSION_EVENT_MOTION)
    c->motion = NULL;
  switch (ev->kind)
    {
    case SESSION_EVENT_MOTION:
      if (c->button != NULL)
        {
          if (c->button->class == STROKE_CLICK)
            c->button->class = STROKE_DRAG;
          return c->button;
        }
      if (c->motion == NULL)
        c->motion = stroke_new (c, STROKE_MOTION, ev);
      c->motion->main = ev;
      return c->motion;

    case SESSION_EVENT_KEY_PRESS:
    case SESSION_EVENT_KEY_RELEASE:
      return cut_key (c, ev);

    case SESSION_EVENT_BUTTON_PRESS:
      /* A notch is a stroke of its own, even if its release was dropped
       * (a reduced session): what follows it (a drag) is not part of it.
       * During a drag it is the drag's. */
      if (is_wheel (ev->button) && c->button == NULL)
        {
          c->notch[ev->button] = stroke_new (c, STROKE_SCROLL, ev);
          return c->notch[ev->button];
        }
      if (!c->button_down[ev->button & 0xff])
        {
          c->button_down[ev->button & 0xff] = 1;
          c->buttons_held++;
        }
      if (c->button == NULL)
        c->button = stroke_new (c, ev->button >= 4 && ev->button <= 7 ? STROKE_SCROLL
                                                                       : STROKE_CLICK, ev);
      return c->button;

    case SESSION_EVENT_BUTTON_RELEASE:
      if (is_wheel (ev->button) && c->notch[ev->button] != NULL)
        {
          stroke = c->notch[ev->button];
          c->notch[ev->button] = NULL;
          return stroke;
        }
      if (!c->button_down[ev->button & 0xff] || c->button == NULL)
        return c->last != NULL ? c->last : stroke_new (c, STROKE_OTHER, ev);
      c->button_down[ev->button & 0xff] = 0;
      stroke = c->button;
      /* Released elsewhere (a menu item chosen by dragging to it, even
       * with the motion between removed): a drag. */
      if (stroke->class == STROKE_CLICK && !ev->added && !same_place (stroke->main, ev))
        stroke->class = STROKE_DRAG;
      if (--c->buttons_held == 0)
        c->button = NULL;
      return stroke;

    case SESSION_EVENT_DROP:
      return stroke_new (c, STROKE_DROP, ev);

    case SESSION_EVENT_SERVER:
    case SESSION_EVENT_COMMENT:
    case SESSION_EVENT_SELECTION:
    case SESSION_EVENT_FILE:
    default:
      g_assert_not_reached ();
    }
}

GPtrArray *
session_get_strokes (const Session *session)
{
  Cutter c = { .session = session };

  c.actions = session_get_actions (session);
  c.strokes = g_ptr_array_new_with_free_func (session_action_group_free);
  c.pending = g_array_new (FALSE, FALSE, sizeof (guint));
  c.mods_held = g_hash_table_new (NULL, NULL);
  c.keys_held = g_hash_table_new (NULL, NULL);
  for (guint a = 0; a < c.actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (c.actions, guint, a));
      Stroke *stroke = cut_action (&c, ev);

      if (stroke == NULL)
        g_array_append_val (c.pending, a);
      else
        {
          g_array_append_val (stroke->actions, a);
          c.last = stroke;
        }
    }
  if (c.pending->len > 0)
    /* Modifiers pressed last, for nothing: a key stroke of their own. */
    stroke_new (&c, STROKE_KEY, session_get_event (session, g_array_index (
                  c.actions, guint, g_array_index (c.pending, guint, 0))));
  g_array_unref (c.pending);
  g_hash_table_unref (c.mods_held);
  g_hash_table_unref (c.keys_held);
  g_array_unref (c.actions);
  /* Strokes were created at their first action, but a modifier pressed
   * before a stroke went into it later: keep each one's list ascending. */
  for (guint i = 0; i < c.strokes->len; i++)
    g_array_sort (((Stroke *) g_ptr_array_index (c.strokes, i))->actions, compare_actions);
  return c.strokes;
}

/* ---- phrases ---- */

SESSION_ACTION_GROUP_CHECK (SessionPhrase, kind);

static SessionPhrase *
phrase_new (GPtrArray *phrases, SessionPhraseKind kind)
{
  return session_action_group_new (phrases, sizeof (SessionPhrase), kind);
}

typedef struct
{
  const Session *session;
  GArray *actions;           /* action number -> event index; owned */
  GPtrArray *phrases;        /* of SessionPhrase; the result */
  SessionPhrase *typing;     /* the run of typing still open, or NULL */
  SessionPhrase *motion;     /* motion that may lead to a click, or NULL */
  SessionPhrase *last;       /* the phrase of the previous stroke */
  StrokeClass last_class;
  char *last_key;            /* owned: the last key phrase's key, with its modifiers */
  const SessionEvent *last_window;   /* of the previous key stroke */
  guint last_button;         /* of the last click or scroll */
  const SessionEvent *last_press;   /* of the last click or scroll */
  guint clicks;              /* in the last click phrase */
} Grouping;

static const SessionEvent *
action_event (Grouping *g, guint action)
{
  return session_get_event (g->session, g_array_index (g->actions, guint, action));
}

/* Milliseconds from the action before @stroke to its first action. */
static guint64
gap_before (Grouping *g, const Stroke *stroke)
{
  guint first = g_array_index (stroke->actions, guint, 0);

  return first == 0 ? 0 : action_event (g, first)->time_ms - action_event (g, first - 1)->time_ms;
}

static gboolean
same_window (const SessionEvent *a, const SessionEvent *b)
{
  return a->window == b->window && g_strcmp0 (a->wm_name, b->wm_name) == 0
         && g_strcmp0 (a->wm_class, b->wm_class) == 0;
}

/* Another click of the last click's button soon after it (a double or
 * triple click), or another notch of the same wheel. */
static gboolean
continues_click (Grouping *g, const Stroke *stroke)
{
  if (g->last == NULL || g->motion != NULL || g->last_class != stroke->class
      || stroke->main->button != g->last_button || g->last_press == NULL)
    return FALSE;
  if (stroke->class == STROKE_SCROLL)
    return gap_before (g, stroke) <= PHRASE_PAUSE_MS;
  /* As toolkits count a double click: from one press to the next, at
   * the same place. */
  return session_within_multi_click (g->last_press->time_ms, stroke->main->time_ms)
         && same_place (stroke->main, g->last_press) && g->clicks < 3;
}

static SessionPhrase *
group_pointer (Grouping *g, const Stroke *stroke, gboolean paused)
{
  SessionPhrase *phrase;

  g->typing = NULL;
  if (stroke->class == STROKE_MOTION)
    {
      if (g->motion == NULL)
        g->motion = phrase_new (g->phrases, SESSION_PHRASE_MOTION);
      return g->motion;
    }
  if (stroke->class != STROKE_DRAG && continues_click (g, stroke))
    {
      phrase = g->last;
      g->clicks++;
    }
  else
    {
      phrase = g->motion != NULL && !paused ? g->motion : phrase_new (g->phrases,
                                                                      SESSION_PHRASE_CLICK);
      g->clicks = 1;
    }
  phrase->kind = stroke->class == STROKE_DRAG ? SESSION_PHRASE_DRAG : SESSION_PHRASE_CLICK;
  g->motion = NULL;
  g->last_button = stroke->main->button;
  g->last_press = stroke->main;
  return phrase;
}

static SessionPhrase *
group_key (Grouping *g, const Stroke *stroke, gboolean paused)
{
  gboolean same = !paused && g->last_window != NULL && same_window (g->last_window, stroke->main);
  g_autofree char *mods = stroke_mods_name (stroke->mods);
  g_autofree char *name = g_strconcat (mods, stroke->main->keysym, NULL);
  SessionPhrase *phrase = NULL;

  g->motion = NULL;
  if (stroke->class == STROKE_TEXT || stroke->class == STROKE_END)
    {
      if (g->typing != NULL && same)
        phrase = g->typing;
      else if (stroke->class == STROKE_TEXT)
        phrase = phrase_new (g->phrases, SESSION_PHRASE_TYPE);
      g->typing = stroke->class == STROKE_TEXT ? phrase : NULL;
      if (phrase != NULL)
        return phrase;
      /* Return, Tab or Escape on its own: a key. */
    }
  g->typing = NULL;
  if (g->last != NULL && g->last->kind == SESSION_PHRASE_KEY && same
      && g_strcmp0 (g->last_key, name) == 0)
    phrase = g->last;
  else
    phrase = phrase_new (g->phrases, SESSION_PHRASE_KEY);
  g_free (g->last_key);
  g->last_key = g_steal_pointer (&name);
  return phrase;
}

static void
group_stroke (Grouping *g, const Stroke *stroke)
{
  gboolean paused = gap_before (g, stroke) > PHRASE_PAUSE_MS;
  SessionPhrase *phrase;

  switch (stroke->class)
    {
    case STROKE_MOTION:
    case STROKE_CLICK:
    case STROKE_SCROLL:
    case STROKE_DRAG:
      phrase = group_pointer (g, stroke, paused);
      break;
    case STROKE_TEXT:
    case STROKE_END:
    case STROKE_KEY:
      phrase = group_key (g, stroke, paused);
      g->last_window = stroke->main;
      break;
    case STROKE_DROP:
      g->motion = g->typing = NULL;
      phrase = phrase_new (g->phrases, SESSION_PHRASE_DROP);
      break;
    case STROKE_OTHER:
    default:
      /* A release without its press: with what came before it. */
      g->motion = g->typing = NULL;
      phrase = g->last != NULL ? g->last : phrase_new (g->phrases, SESSION_PHRASE_OTHER);
      break;
    }
  g_array_append_vals (phrase->actions, stroke->actions->data, stroke->actions->len);
  g->last = phrase;
  g->last_class = stroke->class;
}

GPtrArray *
session_get_phrases (const Session *session)
{
  Grouping g = { .session = session };
  g_autoptr (GPtrArray) strokes = session_get_strokes (session);

  g.actions = session_get_actions (session);
  g.phrases = g_ptr_array_new_with_free_func (session_action_group_free);
  for (guint i = 0; i < strokes->len; i++)
    group_stroke (&g, g_ptr_array_index (strokes, i));
  /* Strokes interleave (a key pressed before the last one is released):
   * each phrase's actions ascending. */
  for (guint p = 0; p < g.phrases->len; p++)
    g_array_sort (((SessionPhrase *) g_ptr_array_index (g.phrases, p))->actions,
                  compare_actions);
  g_free (g.last_key);
  g_array_unref (g.actions);
  return g.phrases;
}

const char *
session_phrase_kind_to_string (SessionPhraseKind kind)
{
  switch (kind)
    {
    case SESSION_PHRASE_TYPE: return "type";
    case SESSION_PHRASE_KEY: return "key";
    case SESSION_PHRASE_CLICK: return "click";
    case SESSION_PHRASE_DRAG: return "drag";
    case SESSION_PHRASE_MOTION: return "motion";
    case SESSION_PHRASE_DROP: return "drop";
    case SESSION_PHRASE_OTHER:
    default: return "other";
    }
}
