/* session-phrase.c — phrases: the steps a person would name ("Type `ls /`
 * and press Return", "Press Alt+P", "Click at 40,12 in "Print""), the top
 * level of hierarchical reduction and the words of reports.
 *
 * session_get_phrases() groups the gestures (session-gesture.c) in one
 * pass. A run of typing (keys that type a character, Shift and AltGr
 * allowed) goes on until Return, Tab or Escape, which end it and belong
 * to it; a click, pointer motion, any other key, a focus change to
 * another window or a pause of more than PHRASE_PAUSE_MS ends it too. A
 * chord or any other key stands alone, or with its repeats ("Press
 * BackSpace 3 times"). The pointer motion that leads to a click or a drag
 * joins it; clicks of one button in quick succession are a double click,
 * notches of the wheel one scroll.
 *
 * session_phrase_describe() says a phrase in words, quoted for where the
 * words go (a terminal or Markdown): typed text and window titles come
 * from the session file, that is from strangers.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <string.h>
#include <xkbcommon/xkbcommon.h>

/* A pause longer than this ends a run of typing (or a key's repeats). */
#define PHRASE_PAUSE_MS 1000
/* Clicks of one button closer than this are one double (triple) click. */
#define PHRASE_MULTI_CLICK_MS 400
/* Modifier state bits that make a key a chord: Control, Mod1 (Alt),
 * Mod4 (Super). Shift, Lock, NumLock (Mod2) and AltGr (Mod5) still type. */
#define PHRASE_CHORD_MASK (0x4 | 0x8 | 0x40)

typedef enum
{
  CLASS_TEXT,                /* types characters */
  CLASS_END,                 /* Return, Tab, Escape: ends a run of typing */
  CLASS_KEY,                 /* any other key or chord */
  CLASS_CLICK,
  CLASS_SCROLL,              /* a wheel notch (buttons 4 to 7) */
  CLASS_DRAG,
  CLASS_MOTION,
  CLASS_OTHER,
} GestureClass;

static const char *const typing_modifiers[] = {
  "Shift_L", "Shift_R", "ISO_Level3_Shift", "ISO_Level5_Shift", "Mode_switch", "Caps_Lock",
};

static const char *const terminators[] = {
  "Return", "KP_Enter", "Tab", "ISO_Left_Tab", "Escape",
};

static gboolean
in_list (const char *word, const char *const *list, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (word, list[i]))
      return TRUE;
  return FALSE;
}

/* The character @keysym types, as UTF-8 in @out; FALSE if it types none
 * (or a control character). */
static gboolean
keysym_text (const char *keysym, char out[8])
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

/* ---- the gestures' events ---- */

typedef struct
{
  const Session *session;
  GArray *actions;           /* action number -> event index; owned */
  GPtrArray *gestures;       /* of SessionGesture; owned */
} Ctx;

static const SessionEvent *
action_event (const Ctx *ctx, guint action)
{
  return session_get_event (ctx->session, g_array_index (ctx->actions, guint, action));
}

static const SessionEvent *
gesture_event (const Ctx *ctx, const SessionGesture *g, guint i)
{
  return action_event (ctx, g_array_index (g->actions, guint, i));
}

static GestureClass
classify (const Ctx *ctx, const SessionGesture *g)
{
  gboolean chord = FALSE, all_text = TRUE, button = FALSE, motion = FALSE, end = FALSE;
  guint keys = 0;

  switch (g->kind)
    {
    case SESSION_GESTURE_MOTION:
      return CLASS_MOTION;
    case SESSION_GESTURE_DRAG:
      return CLASS_DRAG;
    case SESSION_GESTURE_CLICK:
      return gesture_event (ctx, g, 0)->button >= 4 && gesture_event (ctx, g, 0)->button <= 7
               ? CLASS_SCROLL : CLASS_CLICK;
    case SESSION_GESTURE_OTHER:
      return CLASS_OTHER;
    case SESSION_GESTURE_KEYSTROKE:
    default:
      break;
    }
  /* A keystroke: maybe a chord, maybe a modifier held over a click. */
  for (guint i = 0; i < g->actions->len; i++)
    {
      const SessionEvent *ev = gesture_event (ctx, g, i);
      char text[8];

      button |= ev->kind == SESSION_EVENT_BUTTON_PRESS;
      motion |= ev->kind == SESSION_EVENT_MOTION;
      if (ev->kind != SESSION_EVENT_KEY_PRESS)
        continue;
      if (session_keysym_is_modifier (ev->keysym) || g_str_equal (ev->keysym, "Caps_Lock"))
        {
          chord |= !in_list (ev->keysym, typing_modifiers, G_N_ELEMENTS (typing_modifiers));
          continue;
        }
      keys++;
      chord |= (ev->state & PHRASE_CHORD_MASK) != 0;
      end |= in_list (ev->keysym, terminators, G_N_ELEMENTS (terminators));
      all_text &= keysym_text (ev->keysym, text);
    }
  if (button)
    return motion ? CLASS_DRAG : CLASS_CLICK;
  if (keys == 0 || chord)
    return CLASS_KEY;
  if (all_text)
    return CLASS_TEXT;
  return keys == 1 && end ? CLASS_END : CLASS_KEY;
}

/* The first event of @g aimed at a window, or its first event. */
static const SessionEvent *
gesture_window_event (const Ctx *ctx, const SessionGesture *g)
{
  for (guint i = 0; i < g->actions->len; i++)
    if (gesture_event (ctx, g, i)->window >= 0)
      return gesture_event (ctx, g, i);
  return gesture_event (ctx, g, 0);
}

static gboolean
same_window (const SessionEvent *a, const SessionEvent *b)
{
  return a->window == b->window && g_strcmp0 (a->wm_name, b->wm_name) == 0
         && g_strcmp0 (a->wm_class, b->wm_class) == 0;
}

/* Milliseconds from the action before @g to @g's first action. */
static guint64
gap_before (const Ctx *ctx, const SessionGesture *g)
{
  guint first = g_array_index (g->actions, guint, 0);

  if (first == 0)
    return 0;
  return action_event (ctx, first)->time_ms - action_event (ctx, first - 1)->time_ms;
}

/* "Alt+P", "Ctrl+Shift+Tab", "BackSpace", "Shift": what a key phrase's
 * keystroke presses. Keysym names are safe words (xkbcommon checked them
 * at parse time: letters, digits, underscores). */
static char *
chord_name (const Ctx *ctx, const SessionGesture *g)
{
  g_autoptr (GString) mods = g_string_new (NULL);
  g_autoptr (GString) keys = g_string_new (NULL);

  for (guint i = 0; i < g->actions->len; i++)
    {
      const SessionEvent *ev = gesture_event (ctx, g, i);
      const char *name;
      char text[8];

      if (ev->kind != SESSION_EVENT_KEY_PRESS)
        continue;
      if (session_keysym_is_modifier (ev->keysym))
        {
          name = g_str_has_prefix (ev->keysym, "Control") ? "Ctrl"
                 : g_str_has_prefix (ev->keysym, "Alt") ? "Alt"
                 : g_str_has_prefix (ev->keysym, "Shift") ? "Shift"
                 : g_str_has_prefix (ev->keysym, "Super") ? "Super"
                 : g_str_has_prefix (ev->keysym, "Meta") ? "Meta"
                 : g_str_has_prefix (ev->keysym, "Hyper") ? "Hyper"
                 : g_str_equal (ev->keysym, "ISO_Level3_Shift") ? "AltGr" : ev->keysym;
          if (strstr (mods->str, name) == NULL)
            g_string_append_printf (mods, "%s+", name);
          continue;
        }
      if (keys->len > 0)
        g_string_append (keys, ", ");
      /* Alt+P, not Alt+p: the key, as printed on it. */
      if (keysym_text (ev->keysym, text) && g_utf8_strlen (text, -1) == 1
          && !g_str_equal (text, " ") && !g_str_equal (text, "+"))
        {
          g_autofree char *upper = g_utf8_strup (text, -1);
          g_string_append (keys, mods->len > 0 ? upper : text);
        }
      else
        g_string_append (keys, ev->keysym);
    }
  if (keys->len == 0 && mods->len > 0)
    g_string_truncate (mods, mods->len - 1);   /* a modifier alone: "Shift" */
  g_string_append (mods, keys->str);
  return g_string_free (g_steal_pointer (&mods), FALSE);
}

/* ---- grouping ---- */

static void
phrase_free (SessionPhrase *phrase)
{
  g_array_unref (phrase->actions);
  g_array_unref (phrase->gestures);
  g_free (phrase);
}

static SessionPhrase *
phrase_new (GPtrArray *phrases, SessionPhraseKind kind)
{
  SessionPhrase *phrase = g_new0 (SessionPhrase, 1);

  phrase->kind = kind;
  phrase->actions = g_array_new (FALSE, FALSE, sizeof (guint));
  phrase->gestures = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (phrases, phrase);
  return phrase;
}

static gint
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

static void
phrase_add (const Ctx *ctx, SessionPhrase *phrase, guint gesture)
{
  const SessionGesture *g = g_ptr_array_index (ctx->gestures, gesture);

  g_array_append_val (phrase->gestures, gesture);
  g_array_append_vals (phrase->actions, g->actions->data, g->actions->len);
}

typedef struct
{
  SessionPhrase *typing;     /* the run of typing still open, or NULL */
  SessionPhrase *motion;     /* motion that may lead to a click, or NULL */
  SessionPhrase *last;       /* the phrase of the previous gesture */
  GestureClass last_class;
  char *last_key;            /* owned: the last key phrase's chord_name */
  const SessionEvent *last_window;   /* of the previous key gesture */
  guint last_button;         /* of the last click or scroll */
  guint64 last_release_ms;   /* of the last click or scroll */
} Grouping;

static gboolean
continues_click (const Ctx *ctx, Grouping *st, const SessionGesture *g, GestureClass class)
{
  const SessionEvent *press = gesture_event (ctx, g, 0);

  if (st->last == NULL || st->motion != NULL || st->last_class != class
      || press->button != st->last_button)
    return FALSE;
  if (class == CLASS_SCROLL)
    return gap_before (ctx, g) <= PHRASE_PAUSE_MS;
  /* A double click, or a triple one; not a fourth. */
  return press->time_ms - st->last_release_ms <= PHRASE_MULTI_CLICK_MS
         && st->last->gestures->len < 3;
}

static void
group_gesture (const Ctx *ctx, GPtrArray *phrases, Grouping *st, guint index)
{
  const SessionGesture *g = g_ptr_array_index (ctx->gestures, index);
  GestureClass class = classify (ctx, g);
  const SessionEvent *where = gesture_window_event (ctx, g);
  gboolean paused = gap_before (ctx, g) > PHRASE_PAUSE_MS;
  SessionPhrase *phrase = NULL;

  switch (class)
    {
    case CLASS_MOTION:
      st->typing = NULL;
      if (st->motion == NULL)
        st->motion = phrase_new (phrases, SESSION_PHRASE_MOTION);
      phrase = st->motion;
      break;

    case CLASS_CLICK:
    case CLASS_SCROLL:
    case CLASS_DRAG:
      st->typing = NULL;
      if (class != CLASS_DRAG && continues_click (ctx, st, g, class))
        phrase = st->last;
      else if (st->motion != NULL && !paused)
        phrase = st->motion;
      else
        phrase = phrase_new (phrases, SESSION_PHRASE_CLICK);
      phrase->kind = class == CLASS_DRAG ? SESSION_PHRASE_DRAG : SESSION_PHRASE_CLICK;
      st->motion = NULL;
      st->last_button = gesture_event (ctx, g, 0)->button;
      st->last_release_ms = gesture_event (ctx, g, g->actions->len - 1)->time_ms;
      break;

    case CLASS_TEXT:
    case CLASS_END:
      st->motion = NULL;
      if (st->typing != NULL && !paused && st->last_window != NULL
          && same_window (st->last_window, where))
        phrase = st->typing;
      else if (class == CLASS_TEXT)
        phrase = phrase_new (phrases, SESSION_PHRASE_TYPE);
      st->typing = class == CLASS_TEXT ? phrase : NULL;
      if (phrase != NULL)
        break;
      G_GNUC_FALLTHROUGH;   /* Return, Tab or Escape on its own: a key */

    case CLASS_KEY:
      {
        g_autofree char *name = chord_name (ctx, g);

        st->motion = NULL;
        st->typing = NULL;
        if (st->last != NULL && st->last->kind == SESSION_PHRASE_KEY && !paused
            && g_strcmp0 (st->last_key, name) == 0 && st->last_window != NULL
            && same_window (st->last_window, where))
          phrase = st->last;
        else
          phrase = phrase_new (phrases, SESSION_PHRASE_KEY);
        g_free (st->last_key);
        st->last_key = g_steal_pointer (&name);
      }
      break;

    case CLASS_OTHER:
    default:
      /* An unpaired press or release: with what came before it. */
      st->motion = NULL;
      st->typing = NULL;
      phrase = st->last != NULL ? st->last : phrase_new (phrases, SESSION_PHRASE_OTHER);
      break;
    }
  phrase_add (ctx, phrase, index);
  st->last = phrase;
  st->last_class = class;
  if (class == CLASS_TEXT || class == CLASS_END || class == CLASS_KEY)
    st->last_window = where;
}

GPtrArray *
session_get_phrases (const Session *session)
{
  Ctx ctx = { .session = session };
  GPtrArray *phrases = g_ptr_array_new_with_free_func ((GDestroyNotify) phrase_free);
  Grouping st = { 0 };

  ctx.actions = session_get_actions (session);
  ctx.gestures = session_get_gestures (session);
  for (guint g = 0; g < ctx.gestures->len; g++)
    group_gesture (&ctx, phrases, &st, g);
  /* Gestures interleave (a key pressed before the last one is released):
   * each phrase's actions ascending. */
  for (guint p = 0; p < phrases->len; p++)
    g_array_sort (((SessionPhrase *) g_ptr_array_index (phrases, p))->actions, compare_guint);
  g_free (st.last_key);
  g_array_unref (ctx.actions);
  g_ptr_array_unref (ctx.gestures);
  return phrases;
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
    case SESSION_PHRASE_OTHER:
    default: return "other";
    }
}

/* ---- words ---- */

typedef struct
{
  GString *out;
  SessionWords words;
} Words;

/* Our own words: safe anywhere. */
static void
words_plain (Words *w, const char *text)
{
  g_string_append (w->out, text);
}

/* A keysym name: letters, digits and underscores, which Markdown may
 * take for emphasis. */
static void
words_name (Words *w, const char *name)
{
  g_autofree char *quoted = w->words == SESSION_WORDS_MARKDOWN ? quote_markdown_text (name)
                                                                : quote_terminal (name);
  g_string_append (w->out, quoted);
}

/* Text from the session (typed text, a title), in quotes of its kind. */
static void
words_quoted (Words *w, const char *text, gboolean code)
{
  if (w->words == SESSION_WORDS_MARKDOWN && code)
    {
      g_autofree char *quoted = quote_markdown_code (text);
      g_string_append (w->out, quoted);
    }
  else
    {
      g_autofree char *quoted = w->words == SESSION_WORDS_MARKDOWN ? quote_markdown_text (text)
                                                                    : quote_terminal (text);
      g_string_append_printf (w->out, "\"%s\"", quoted);
    }
}

static void
words_window (Words *w, const SessionEvent *ev)
{
  if (ev->wm_name != NULL && *ev->wm_name != '\0')
    {
      words_plain (w, " in ");
      words_quoted (w, ev->wm_name, FALSE);
    }
  else if (ev->wm_class != NULL && *ev->wm_class != '\0')
    {
      words_plain (w, " in a window of class ");
      words_quoted (w, ev->wm_class, FALSE);
    }
  else if (ev->window >= 0)
    g_string_append_printf (w->out, " in window %d", ev->window);
}

/* " at 40,12" (@prep "at"), in the window's coordinates if it has one. */
static void
words_at (Words *w, const char *prep, const SessionEvent *ev, gboolean with_window)
{
  if (ev->window >= 0)
    g_string_append_printf (w->out, " %s %d,%d", prep, ev->x, ev->y);
  else
    g_string_append_printf (w->out, " %s %d,%d on the screen", prep, ev->root_x, ev->root_y);
  if (with_window)
    words_window (w, ev);
}

/* The phrase's events, in order, without the releases xreduce added. */
static GPtrArray *
phrase_events (const Ctx *ctx, const SessionPhrase *phrase)
{
  GPtrArray *events = g_ptr_array_new ();

  for (guint i = 0; i < phrase->actions->len; i++)
    {
      const SessionEvent *ev = action_event (ctx, g_array_index (phrase->actions, guint, i));
      if (!ev->added)
        g_ptr_array_add (events, (gpointer) ev);
    }
  return events;
}

static void
describe_type (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GPtrArray) events = phrase_events (ctx, phrase);
  g_autoptr (GString) text = g_string_new (NULL);
  const SessionEvent *first = NULL;
  const char *end = NULL;

  for (guint i = 0; i < events->len; i++)
    {
      const SessionEvent *ev = g_ptr_array_index (events, i);
      char ch[8];

      if (ev->kind != SESSION_EVENT_KEY_PRESS || session_keysym_is_modifier (ev->keysym))
        continue;
      if (first == NULL)
        first = ev;
      if (in_list (ev->keysym, terminators, G_N_ELEMENTS (terminators)))
        end = ev->keysym;
      else if (keysym_text (ev->keysym, ch))
        g_string_append (text, ch);
    }
  if (text->len > 0)
    {
      words_plain (w, "Type ");
      words_quoted (w, text->str, TRUE);
      if (end != NULL)
        words_plain (w, " and press ");
    }
  else
    words_plain (w, "Press ");
  if (end != NULL)
    words_name (w, end);
  if (first != NULL)
    words_window (w, first);
}

static void
describe_key (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  const SessionGesture *g = g_ptr_array_index (ctx->gestures,
                                               g_array_index (phrase->gestures, guint, 0));
  g_autofree char *name = chord_name (ctx, g);
  guint times = phrase->gestures->len;

  words_plain (w, "Press ");
  words_name (w, name);
  if (times > 1)
    g_string_append_printf (w->out, " %u times", times);
  words_window (w, gesture_window_event (ctx, g));
}

/* "Ctrl+" for the modifiers held in @events, or "". */
static char *
modifiers_of (GPtrArray *events)
{
  GString *mods = g_string_new (NULL);

  for (guint i = 0; i < events->len; i++)
    {
      const SessionEvent *ev = g_ptr_array_index (events, i);
      const char *name;

      if (ev->kind != SESSION_EVENT_KEY_PRESS || !session_keysym_is_modifier (ev->keysym))
        continue;
      name = g_str_has_prefix (ev->keysym, "Control") ? "Ctrl"
             : g_str_has_prefix (ev->keysym, "Alt") ? "Alt"
             : g_str_has_prefix (ev->keysym, "Shift") ? "Shift"
             : g_str_has_prefix (ev->keysym, "Super") ? "Super" : "Meta";
      if (strstr (mods->str, name) == NULL)
        g_string_append_printf (mods, "%s+", name);
    }
  return g_string_free (mods, FALSE);
}

static void
describe_click (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GPtrArray) events = phrase_events (ctx, phrase);
  g_autofree char *mods = modifiers_of (events);
  const SessionEvent *press = NULL;
  guint times = 0;
  const char *word;
  g_autofree char *label = NULL;

  for (guint i = 0; i < events->len; i++)
    {
      const SessionEvent *ev = g_ptr_array_index (events, i);
      if (ev->kind != SESSION_EVENT_BUTTON_PRESS || (press != NULL && ev->button != press->button))
        continue;
      press = press != NULL ? press : ev;
      times++;
    }
  if (press == NULL)
    {
      words_plain (w, "Move the pointer");
      return;
    }
  if (press->button >= 4 && press->button <= 7)
    {
      static const char *const directions[] = { "up", "down", "left", "right" };

      g_string_append_printf (w->out, "%sScroll %s", mods, directions[press->button - 4]);
      if (times > 1)
        g_string_append_printf (w->out, " %u notches", times);
      words_at (w, "at", press, TRUE);
      return;
    }
  word = press->button == 1 ? (times == 2 ? "Double-click" : times == 3 ? "Triple-click" : "Click")
         : press->button == 2 ? "Middle-click" : press->button == 3 ? "Right-click" : NULL;
  label = word != NULL ? g_strdup (word) : g_strdup_printf ("Click button %u", press->button);
  if (*mods != '\0')
    label[0] = g_ascii_tolower (label[0]);
  g_string_append_printf (w->out, "%s%s", mods, label);
  if (press->button != 1 && times > 1)
    g_string_append_printf (w->out, " %u times", times);
  words_at (w, "at", press, TRUE);
}

static void
describe_drag (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GPtrArray) events = phrase_events (ctx, phrase);
  g_autofree char *mods = modifiers_of (events);
  const SessionEvent *press = NULL, *last = NULL;

  for (guint i = 0; i < events->len; i++)
    {
      const SessionEvent *ev = g_ptr_array_index (events, i);
      if (ev->kind == SESSION_EVENT_BUTTON_PRESS && press == NULL)
        press = ev;
      else if (press != NULL && ev->has_pos)
        last = ev;
    }
  if (press == NULL)
    {
      words_plain (w, "Move the pointer");
      return;
    }
  g_string_append_printf (w->out, "%s%s", mods, *mods != '\0' ? "drag" : "Drag");
  if (press->button != 1)
    g_string_append_printf (w->out, " with button %u", press->button);
  words_at (w, "from", press, last != NULL && !same_window (press, last));
  if (last != NULL)
    words_at (w, "to", last, FALSE);
  words_window (w, last != NULL ? last : press);
}

static void
describe_motion (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GPtrArray) events = phrase_events (ctx, phrase);
  const SessionEvent *last = NULL;

  for (guint i = 0; i < events->len; i++)
    if (((const SessionEvent *) g_ptr_array_index (events, i))->has_pos)
      last = g_ptr_array_index (events, i);
  words_plain (w, "Move the pointer");
  if (last != NULL)
    words_at (w, "to", last, TRUE);
}

static void
describe_other (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GPtrArray) events = phrase_events (ctx, phrase);
  g_autoptr (GString) said = g_string_new (NULL);
  g_autofree char *quoted = NULL;

  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *one = session_event_describe (g_ptr_array_index (events, i));
      g_string_append_printf (said, "%s%s", i > 0 ? ", " : "", one);
    }
  if (said->len > 0)
    said->str[0] = g_ascii_toupper (said->str[0]);
  /* session_event_describe() quotes nothing: its titles are raw. */
  quoted = w->words == SESSION_WORDS_MARKDOWN ? quote_markdown_text (said->str)
                                              : quote_terminal (said->str);
  g_string_append (w->out, quoted);
}

char *
session_phrase_describe (const Session *session, const SessionPhrase *phrase, SessionWords words)
{
  Ctx ctx = { .session = session };
  Words w = { .out = g_string_new (NULL), .words = words };

  ctx.actions = session_get_actions (session);
  ctx.gestures = session_get_gestures (session);
  switch (phrase->actions->len > 0 ? phrase->kind : SESSION_PHRASE_OTHER)
    {
    case SESSION_PHRASE_TYPE:
      describe_type (&ctx, phrase, &w);
      break;
    case SESSION_PHRASE_KEY:
      describe_key (&ctx, phrase, &w);
      break;
    case SESSION_PHRASE_CLICK:
      describe_click (&ctx, phrase, &w);
      break;
    case SESSION_PHRASE_DRAG:
      describe_drag (&ctx, phrase, &w);
      break;
    case SESSION_PHRASE_MOTION:
      describe_motion (&ctx, phrase, &w);
      break;
    case SESSION_PHRASE_OTHER:
    default:
      describe_other (&ctx, phrase, &w);
      break;
    }
  g_array_unref (ctx.actions);
  g_ptr_array_unref (ctx.gestures);
  return g_string_free (w.out, FALSE);
}

char *
session_describe_actions (const GArray *actions)
{
  GString *out = g_string_new (actions->len == 1 ? "action " : "actions ");

  for (guint i = 0; i < actions->len;)
    {
      guint from = g_array_index (actions, guint, i), to = from;

      while (i + 1 < actions->len && g_array_index (actions, guint, i + 1) == to + 1)
        to = g_array_index (actions, guint, ++i);
      i++;
      g_string_append_printf (out, "%s%u", out->str[out->len - 1] == ' ' ? "" : ", ", from + 1);
      if (to > from)
        g_string_append_printf (out, "-%u", to + 1);
    }
  return g_string_free (out, FALSE);
}

char *
session_describe_steps (const Session *session, SessionWords words, gboolean with_actions)
{
  g_autoptr (GPtrArray) phrases = session_get_phrases (session);
  GString *out = g_string_new (NULL);
  guint n_added = 0;

  for (guint i = 0; i < session_get_n_events (session); i++)
    n_added += session_get_event (session, i)->added;
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
      g_autofree char *said = session_phrase_describe (session, phrase, words);

      g_string_append_printf (out, "%3u. %s", p + 1, said);
      if (with_actions)
        {
          g_autofree char *which = session_describe_actions (phrase->actions);
          g_string_append_printf (out, " (%s)", which);
        }
      g_string_append_c (out, '\n');
    }
  if (n_added > 0)
    g_string_append_printf (out, "     (and %u release%s that xreduce added at the end, so that "
                            "nothing stays pressed)\n", n_added, n_added == 1 ? "" : "s");
  return g_string_free (out, FALSE);
}
