/* session-words.c — a session's steps in words (see session.h):
 * session_phrase_describe() says a phrase the way a person would ("Type
 * `ls /` and press Return in "bash"", "Press Alt+P", "Double-click at
 * 40,12 in "Files""), from its strokes (session-phrase.c), quoted for
 * where the words go: typed text and window titles come from the session
 * file, that is from strangers (quote.h).
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <string.h>

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

/* A key's name: letters, digits, underscores and '+', which Markdown may
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

typedef struct
{
  const Session *session;
  GArray *actions;           /* action number -> event index; owned */
  GPtrArray *strokes;        /* the phrase's, borrowed from all */
  GPtrArray *all;            /* every stroke of the session; owned */
  GArray *starts;            /* action number -> 1 + the stroke it starts, or 0; owned */
  GPtrArray *pastes;         /* the session's (session-world.h); owned */
} Ctx;

static const SessionEvent *
action_event (const Ctx *ctx, guint action)
{
  return session_get_event (ctx->session, g_array_index (ctx->actions, guint, action));
}

/* The presses in @stroke that the user made (auto-repeats count). */
static guint
stroke_presses (const Ctx *ctx, const Stroke *stroke)
{
  guint n = 0;

  for (guint i = 0; i < stroke->actions->len; i++)
    {
      const SessionEvent *ev = action_event (ctx, g_array_index (stroke->actions, guint, i));
      n += ev->kind == stroke->main->kind && ev->keycode == stroke->main->keycode
           && ev->button == stroke->main->button;
    }
  return MAX (n, 1);
}

/* "P" for "p" after a modifier, "F5", "Shift" for a modifier alone. */
static char *
key_name (const Stroke *stroke)
{
  g_autofree char *mods = stroke_mods_name (stroke->mods);
  const char *keysym = stroke->main->keysym;
  char text[8];

  if (session_keysym_is_modifier (keysym))
    {
      const char *name = g_str_has_prefix (keysym, "Control") ? "Ctrl"
                         : g_str_equal (keysym, "ISO_Level3_Shift") ? "AltGr" : keysym;
      g_autofree char *bare = g_strndup (name, strcspn (name, "_"));
      return g_strconcat (mods, bare, NULL);
    }
  if (*mods != '\0' && session_keysym_text (keysym, text) && g_utf8_strlen (text, -1) == 1
      && !g_str_equal (text, " ") && !g_str_equal (text, "+"))
    {
      g_autofree char *upper = g_utf8_strup (text, -1);
      return g_strconcat (mods, upper, NULL);
    }
  return g_strconcat (mods, keysym, NULL);
}

static void
describe_type (const Ctx *ctx, Words *w)
{
  g_autoptr (GString) text = g_string_new (NULL);
  const Stroke *first = NULL;
  const char *end = NULL;

  for (guint i = 0; i < ctx->strokes->len; i++)
    {
      const Stroke *stroke = g_ptr_array_index (ctx->strokes, i);
      char ch[8];

      if (stroke->class != STROKE_TEXT && stroke->class != STROKE_END)
        continue;
      first = first != NULL ? first : stroke;
      if (stroke->class == STROKE_END)
        end = stroke->main->keysym;
      else if (session_keysym_text (stroke->main->keysym, ch))
        for (guint n = stroke_presses (ctx, stroke); n > 0; n--)
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
    words_window (w, first->main);
}

static void
describe_key (const Ctx *ctx, Words *w)
{
  const Stroke *first = NULL;
  guint times = 0;

  for (guint i = 0; i < ctx->strokes->len; i++)
    {
      const Stroke *stroke = g_ptr_array_index (ctx->strokes, i);

      if (stroke->class == STROKE_OTHER || stroke->class == STROKE_MOTION)
        continue;
      first = first != NULL ? first : stroke;
      times += stroke_presses (ctx, stroke);
    }
  if (first == NULL)
    return;
  {
    g_autofree char *name = key_name (first);

    words_plain (w, "Press ");
    words_name (w, name);
    if (times > 1)
      g_string_append_printf (w->out, " %u times", times);
    words_window (w, first->main);
  }
}

static void
describe_click (const Ctx *ctx, Words *w)
{
  const Stroke *first = NULL;
  g_autofree char *mods = NULL;
  g_autofree char *label = NULL;
  guint times = 0, button;
  const char *word;

  for (guint i = 0; i < ctx->strokes->len; i++)
    {
      const Stroke *stroke = g_ptr_array_index (ctx->strokes, i);

      if (stroke->class != STROKE_CLICK && stroke->class != STROKE_SCROLL)
        continue;
      first = first != NULL ? first : stroke;
      times++;
    }
  if (first == NULL)
    return;
  mods = stroke_mods_name (first->mods);
  button = first->main->button;
  if (first->class == STROKE_SCROLL)
    {
      static const char *const directions[] = { "up", "down", "left", "right" };

      g_string_append_printf (w->out, "%s%s %s", mods, *mods != '\0' ? "scroll" : "Scroll",
                              directions[button - 4]);
      if (times > 1)
        g_string_append_printf (w->out, " %u notches", times);
      words_at (w, "at", first->main, TRUE);
      return;
    }
  word = button == 1 ? (times == 2 ? "Double-click" : times == 3 ? "Triple-click" : "Click")
         : button == 2 ? "Middle-click" : button == 3 ? "Right-click" : NULL;
  label = word != NULL ? g_strdup (word) : g_strdup_printf ("Click button %u", button);
  if (*mods != '\0')
    label[0] = g_ascii_tolower (label[0]);
  g_string_append_printf (w->out, "%s%s", mods, label);
  if (button != 1 && times > 1)
    g_string_append_printf (w->out, " %u times", times);
  words_at (w, "at", first->main, TRUE);
}

static void
describe_drag (const Ctx *ctx, Words *w)
{
  const Stroke *drag = NULL;
  const SessionEvent *last = NULL;
  g_autofree char *mods = NULL;

  for (guint i = 0; i < ctx->strokes->len && drag == NULL; i++)
    if (((const Stroke *) g_ptr_array_index (ctx->strokes, i))->class == STROKE_DRAG)
      drag = g_ptr_array_index (ctx->strokes, i);
  if (drag == NULL)
    return;
  for (guint i = 0; i < drag->actions->len; i++)
    {
      const SessionEvent *ev = action_event (ctx, g_array_index (drag->actions, guint, i));
      if (ev != drag->main && ev->has_pos && !ev->added)
        last = ev;
    }
  mods = stroke_mods_name (drag->mods);
  g_string_append_printf (w->out, "%s%s", mods, *mods != '\0' ? "drag" : "Drag");
  if (drag->main->button != 1)
    g_string_append_printf (w->out, " with button %u", drag->main->button);
  words_at (w, "from", drag->main, last != NULL && !(last->window == drag->main->window
                                                     && g_strcmp0 (last->wm_name,
                                                                   drag->main->wm_name) == 0));
  if (last != NULL)
    words_at (w, "to", last, FALSE);
  words_window (w, last != NULL ? last : drag->main);
}

static void
describe_motion (const Ctx *ctx, Words *w)
{
  const Stroke *last = ctx->strokes->len > 0
                         ? g_ptr_array_index (ctx->strokes, ctx->strokes->len - 1) : NULL;

  words_plain (w, "Move the pointer");
  if (last != NULL && last->main->has_pos)
    words_at (w, "to", last->main, TRUE);
}

/* "Drop "file:///a.txt" (text/uri-list) at 40,12 in "Files"". */
static void
describe_drop (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  const SessionEvent *drop = NULL;
  const SessionPaste *data = NULL;

  for (guint i = 0; i < phrase->actions->len && drop == NULL; i++)
    {
      const SessionEvent *ev = action_event (ctx, g_array_index (phrase->actions, guint, i));
      if (ev->kind == SESSION_EVENT_DROP)
        drop = ev;
    }
  if (drop == NULL)
    return;
  for (guint p = 0; p < ctx->pastes->len && data == NULL; p++)
    {
      const SessionPaste *paste = g_ptr_array_index (ctx->pastes, p);
      if (g_str_equal (paste->selection, "XdndSelection")
          && paste->after_action != G_MAXUINT
          && action_event (ctx, paste->after_action) == drop)
        data = paste;
    }
  words_plain (w, "Drop ");
  {
    g_autofree char *text = data != NULL ? session_paste_text (data, 40) : NULL;
    g_autofree char *first = g_strndup (drop->types, strcspn (drop->types, " "));

    if (text != NULL)
      words_quoted (w, text, TRUE);
    else
      words_plain (w, "data");
    words_plain (w, " (");
    words_name (w, first);
    words_plain (w, ")");
  }
  words_at (w, "at", drop, TRUE);
}

/* A phrase that pasted: its words made a paste's. "Press Ctrl+V in "X""
 * becomes "Paste "text" (from CLIPBOARD) in "X""; a click "Paste ...
 * (from PRIMARY) with a middle-click at 40,12 in "X""; any other phrase
 * says ", pasting ... (from ...)" after its words. */
static void
describe_paste (const Ctx *ctx, const SessionPhrase *phrase, const SessionPaste *paste,
                Words *w)
{
  g_autofree char *said = g_string_free (g_steal_pointer (&w->out), FALSE);
  g_autofree char *text = session_paste_text (paste, 40);
  g_autofree char *summary = text == NULL ? session_paste_summary (paste) : NULL;
  const SessionEvent *first = action_event (ctx, g_array_index (phrase->actions, guint, 0));

  w->out = g_string_new (NULL);
  if (phrase->kind == SESSION_PHRASE_KEY || phrase->kind == SESSION_PHRASE_CLICK)
    words_plain (w, "Paste ");
  else
    {
      g_string_append (w->out, said);
      words_plain (w, ", pasting ");
    }
  if (text != NULL)
    words_quoted (w, text, TRUE);
  else
    words_plain (w, summary);
  words_plain (w, " (from ");
  words_name (w, paste->selection);
  words_plain (w, ")");
  if (phrase->kind == SESSION_PHRASE_KEY)
    {
      for (guint i = 0; i < phrase->actions->len; i++)
        {
          const SessionEvent *ev = action_event (ctx, g_array_index (phrase->actions, guint, i));
          if (ev->kind == SESSION_EVENT_KEY_PRESS && !session_keysym_is_modifier (ev->keysym))
            {
              first = ev;
              break;
            }
        }
      words_window (w, first);
    }
  else if (phrase->kind == SESSION_PHRASE_CLICK)
    {
      /* "with a middle-click at 40,12 in "X"": the click's words, lowered. */
      if (said[0] != '\0')
        said[0] = g_ascii_tolower (said[0]);
      g_string_append_printf (w->out, " with a%s %s",
                              strchr ("aeiou", said[0]) != NULL ? "n" : "", said);
    }
}

static void
describe_other (const Ctx *ctx, const SessionPhrase *phrase, Words *w)
{
  g_autoptr (GString) said = g_string_new (NULL);
  g_autofree char *quoted = NULL;

  for (guint i = 0; i < phrase->actions->len; i++)
    {
      const SessionEvent *ev = action_event (ctx, g_array_index (phrase->actions, guint, i));
      g_autofree char *one = ev->added ? NULL : session_event_describe (ev);

      if (one != NULL)
        g_string_append_printf (said, "%s%s", said->len > 0 ? ", " : "", one);
    }
  if (said->len > 0)
    said->str[0] = g_ascii_toupper (said->str[0]);
  /* session_event_describe() quotes nothing: its titles are raw. */
  quoted = w->words == SESSION_WORDS_MARKDOWN ? quote_markdown_text (said->str)
                                              : quote_terminal (said->str);
  g_string_append (w->out, quoted);
}

static int
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The session's actions and strokes, found once for all its phrases:
 * finding them per phrase made describing every phrase quadratic. */
static void
ctx_init (Ctx *ctx, const Session *session)
{
  ctx->session = session;
  ctx->actions = session_get_actions (session);
  ctx->all = session_get_strokes (session);
  ctx->strokes = g_ptr_array_new ();
  ctx->starts = g_array_new (FALSE, TRUE, sizeof (guint));
  ctx->pastes = session_get_pastes (session);
  g_array_set_size (ctx->starts, ctx->actions->len);
  for (guint i = 0; i < ctx->all->len; i++)
    {
      Stroke *stroke = g_ptr_array_index (ctx->all, i);
      guint first = g_array_index (stroke->actions, guint, 0);

      if (first < ctx->starts->len && g_array_index (ctx->starts, guint, first) == 0)
        g_array_index (ctx->starts, guint, first) = i + 1;
    }
}

static void
ctx_clear (Ctx *ctx)
{
  g_ptr_array_unref (ctx->strokes);
  g_ptr_array_unref (ctx->all);
  g_array_unref (ctx->actions);
  g_array_unref (ctx->starts);
  g_ptr_array_unref (ctx->pastes);
}

static char *
ctx_describe (Ctx *ctx, const SessionPhrase *phrase, SessionWords words)
{
  Words w = { .out = g_string_new (NULL), .words = words };

  g_autoptr (GArray) which = g_array_new (FALSE, FALSE, sizeof (guint));

  /* The strokes that start in the phrase, in the session's order. */
  g_ptr_array_set_size (ctx->strokes, 0);
  for (guint i = 0; i < phrase->actions->len; i++)
    {
      guint action = g_array_index (phrase->actions, guint, i);
      guint start = action < ctx->starts->len ? g_array_index (ctx->starts, guint, action) : 0;

      if (start > 0)
        g_array_append_val (which, start);
    }
  g_array_sort (which, compare_guint);
  for (guint i = 0; i < which->len; i++)
    g_ptr_array_add (ctx->strokes, g_ptr_array_index (ctx->all, g_array_index (which, guint, i) - 1));
  switch (phrase->kind)
    {
    case SESSION_PHRASE_TYPE:
      describe_type (ctx, &w);
      break;
    case SESSION_PHRASE_KEY:
      describe_key (ctx, &w);
      break;
    case SESSION_PHRASE_CLICK:
      describe_click (ctx, &w);
      break;
    case SESSION_PHRASE_DRAG:
      describe_drag (ctx, &w);
      break;
    case SESSION_PHRASE_MOTION:
      describe_motion (ctx, &w);
      break;
    case SESSION_PHRASE_DROP:
      describe_drop (ctx, phrase, &w);
      break;
    case SESSION_PHRASE_OTHER:
    default:
      break;
    }
  if (w.out->len == 0)
    describe_other (ctx, phrase, &w);
  /* A paste after one of the phrase's actions (not a drop's data). */
  for (guint p = 0; p < ctx->pastes->len && phrase->kind != SESSION_PHRASE_DROP; p++)
    {
      const SessionPaste *paste = g_ptr_array_index (ctx->pastes, p);

      if (paste->after_action == G_MAXUINT || g_str_equal (paste->selection, "XdndSelection")
          || !session_paste_has_data (paste))
        continue;
      for (guint i = 0; i < phrase->actions->len; i++)
        if (g_array_index (phrase->actions, guint, i) == paste->after_action)
          {
            describe_paste (ctx, phrase, paste, &w);
            p = ctx->pastes->len;
            break;
          }
    }
  return g_string_free (w.out, FALSE);
}

char *
session_phrase_describe (const Session *session, const SessionPhrase *phrase, SessionWords words)
{
  Ctx ctx = { 0 };
  char *said;

  ctx_init (&ctx, session);
  said = ctx_describe (&ctx, phrase, words);
  ctx_clear (&ctx);
  return said;
}

GPtrArray *
session_describe_phrases (const Session *session, const GPtrArray *phrases, SessionWords words)
{
  GPtrArray *said = g_ptr_array_new_full (phrases->len, g_free);
  Ctx ctx = { 0 };

  ctx_init (&ctx, session);
  for (guint p = 0; p < phrases->len; p++)
    g_ptr_array_add (said, ctx_describe (&ctx, g_ptr_array_index (phrases, p), words));
  ctx_clear (&ctx);
  return said;
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
  g_autoptr (GPtrArray) words_of = session_describe_phrases (session, phrases, words);
  GString *out = g_string_new (NULL);
  guint n_added = 0;

  for (guint i = 0; i < session_get_n_events (session); i++)
    n_added += session_get_event (session, i)->added;
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
      const char *said = g_ptr_array_index (words_of, p);

      g_string_append_printf (out, "%3u. %s", p + 1, said);
      if (with_actions)
        {
          g_autofree char *which = session_describe_actions (phrase->actions);
          g_string_append_printf (out, " (%s)", which);
        }
      g_string_append_c (out, '\n');
    }
  if (n_added > 0)
    g_string_append_printf (out, "     (and %u release%s that xreduce added, so that nothing "
                            "stays pressed)\n", n_added, n_added == 1 ? "" : "s");
  return g_string_free (out, FALSE);
}
