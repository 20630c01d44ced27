/* session.c — the Session object: header fields, the event list, outcomes,
 * descriptions in words. Well-formed subsets are in session-subset.c.
 *
 * Parsing and printing live in session-parse.c, gestures in
 * session-gesture.c, line-by-line writing in session-writer.c.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "signame.h"

#include <signal.h>
#include <string.h>

G_DEFINE_QUARK (xreduce-session-error-quark, session_error)

Session *
session_new (void)
{
  Session *session = g_new0 (Session, 1);

  session->events = g_array_new (FALSE, TRUE, sizeof (SessionEvent));
  g_array_set_clear_func (session->events,
                          (GDestroyNotify) session_event_clear);
  /* Written as version 2 once it holds anything of version 2. */
  session->version = 1;
  session->screen_width = 1280;
  session->screen_height = 1024;
  return session;
}

static void
free_now (Session *session)
{
  g_array_unref (session->events);
  g_strfreev (session->command);
  g_free (session->keymap);
  g_strfreev (session->replay_options);
  g_free (session->warning);
  g_free (session->digest);
  g_free (session->home);
  g_free (session->cwd);
  g_free (session->host);
  g_free (session->date);
  g_free (session->wm);
  if (session->env != NULL)
    g_ptr_array_unref (session->env);
  g_free (session);
}

static void
free_aside (gpointer data, gpointer user_data)
{
  free_now (data);
}

void
session_free (Session *session)
{
  static GThreadPool *aside;

  if (session == NULL)
    return;
  if (session->events->len >= SESSION_FREE_ASIDE_EVENTS)
    {
      if (g_once_init_enter (&aside))
        g_once_init_leave (&aside, g_thread_pool_new (free_aside, NULL, 1, FALSE, NULL));
      g_thread_pool_push (aside, session, NULL);
      return;
    }
  free_now (session);
}

gpointer
session_action_group_new (GPtrArray *list, gsize size, int kind)
{
  SessionActionGroup *group = g_malloc0 (MAX (size, sizeof (SessionActionGroup)));

  group->kind = kind;
  group->actions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (list, group);
  return group;
}

void
session_action_group_free (gpointer data)
{
  SessionActionGroup *group = data;

  g_array_unref (group->actions);
  g_free (group);
}

void
session_event_clear (SessionEvent *ev)
{
  g_clear_pointer (&ev->keysym, g_free);
  g_clear_pointer (&ev->wm_class, g_free);
  g_clear_pointer (&ev->wm_name, g_free);
  g_clear_pointer (&ev->name, g_free);
  g_clear_pointer (&ev->args, g_free);
  g_clear_pointer (&ev->text, g_free);
  g_clear_pointer (&ev->selection, g_free);
  g_clear_pointer (&ev->target, g_free);
  g_clear_pointer (&ev->type, g_free);
  g_clear_pointer (&ev->data, g_free);
  g_clear_pointer (&ev->path, g_free);
  g_clear_pointer (&ev->sha256, g_free);
  g_clear_pointer (&ev->types, g_free);
  g_clear_pointer (&ev->action, g_free);
}

void
session_event_copy (SessionEvent *dest, const SessionEvent *src)
{
  *dest = *src;
  dest->keysym = g_strdup (src->keysym);
  dest->wm_class = g_strdup (src->wm_class);
  dest->wm_name = g_strdup (src->wm_name);
  dest->name = g_strdup (src->name);
  dest->args = g_strdup (src->args);
  dest->text = g_strdup (src->text);
  dest->selection = g_strdup (src->selection);
  dest->target = g_strdup (src->target);
  dest->type = g_strdup (src->type);
  dest->data = src->data != NULL ? g_memdup2 (src->data, src->data_len + 1) : NULL;
  dest->path = g_strdup (src->path);
  dest->sha256 = g_strdup (src->sha256);
  dest->types = g_strdup (src->types);
  dest->action = g_strdup (src->action);
}

void
session_get_screen (const Session *session, int *width, int *height)
{
  if (width != NULL)
    *width = session->screen_width;
  if (height != NULL)
    *height = session->screen_height;
}

void
session_set_screen (Session *session, int width, int height)
{
  g_return_if_fail (width > 0 && height > 0);
  session->screen_width = width;
  session->screen_height = height;
}

const char *
session_get_warning (const Session *session)
{
  return session->warning;
}

const char *
session_get_digest (const Session *session)
{
  return session->digest;
}

gboolean
session_check_screen (const Session *session, const char *name, int max_width,
                      int max_height, GError **error)
{
  if (session->screen_width <= max_width && session->screen_height <= max_height)
    return TRUE;
  /* 32 bits a pixel: what one Xvfb takes for its screen alone. */
  g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID,
               "%s: its screen is %dx%d, larger than the limit %dx%d (each replay's Xvfb "
               "would take %" G_GUINT64_FORMAT " MiB for it): --max-screen %dx%d replays it",
               name, session->screen_width, session->screen_height, max_width, max_height,
               (guint64) session->screen_width * (guint64) session->screen_height * 4 >> 20,
               session->screen_width, session->screen_height);
  return FALSE;
}

const char *const *
session_get_command (const Session *session)
{
  return (const char *const *) session->command;
}

void
session_set_command (Session *session, const char *const *argv)
{
  g_strfreev (session->command);
  session->command = (argv != NULL && argv[0] != NULL)
                       ? g_strdupv ((char **) argv) : NULL;
}

const char *
session_get_keymap (const Session *session)
{
  return session->keymap;
}

void
session_set_keymap (Session *session, const char *keymap)
{
  g_free (session->keymap);
  session->keymap = g_strdup (keymap);
}

SessionOutcome
session_get_outcome (const Session *session)
{
  return session->outcome;
}

void
session_set_outcome (Session *session, SessionOutcome outcome,
                     gboolean at_end)
{
  session->outcome = outcome;
  session->outcome_at_end = at_end;
}

SessionGlx
session_get_glx (const Session *session)
{
  return session->glx;
}

void
session_set_glx (Session *session, SessionGlx glx)
{
  session->glx = glx;
}

/* The `glx` line's words, by value: the one table of them. */
static const char *const glx_words[] = {
  [SESSION_GLX_UNKNOWN] = NULL,
  [SESSION_GLX_NOT_ASKED] = "not-asked",
  [SESSION_GLX_ASKED] = "asked",
};

const char *
session_glx_to_string (SessionGlx glx)
{
  return (guint) glx < G_N_ELEMENTS (glx_words) ? glx_words[glx] : NULL;
}

gboolean
session_glx_parse (const char *word, SessionGlx *glx)
{
  for (guint i = 0; i < G_N_ELEMENTS (glx_words); i++)
    if (glx_words[i] != NULL && g_str_equal (word, glx_words[i]))
      {
        *glx = (SessionGlx) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
session_outcome_is_failure (SessionOutcome outcome)
{
  switch (outcome.kind)
    {
    case SESSION_OUTCOME_CRASHED:
    case SESSION_OUTCOME_HUNG:
    case SESSION_OUTCOME_LOST:
      return TRUE;
    case SESSION_OUTCOME_EXITED:
      return outcome.status != 0;
    case SESSION_OUTCOME_UNKNOWN:
    case SESSION_OUTCOME_NONE:
    default:
      return FALSE;
    }
}

/* The outcome line's first word, by kind: the one table of the session
 * file's outcome words. A file's "unknown" is read as LOST (the app
 * vanished, xrecord --all); UNKNOWN (no outcome line) writes it too. */
static const char *const outcome_words[] = {
  [SESSION_OUTCOME_UNKNOWN] = "unknown",
  [SESSION_OUTCOME_NONE] = "none",
  [SESSION_OUTCOME_CRASHED] = "crashed",
  [SESSION_OUTCOME_EXITED] = "exited",
  [SESSION_OUTCOME_HUNG] = "hung",
  [SESSION_OUTCOME_LOST] = "unknown",
};

/* Which kinds a word of the file stands for, and whether a second word
 * (a signal, a status) follows it. */
static const struct
{
  SessionOutcomeKind kind;
  gboolean has_value;
} outcome_read[] = {
  { SESSION_OUTCOME_NONE, FALSE }, { SESSION_OUTCOME_HUNG, FALSE },
  { SESSION_OUTCOME_LOST, FALSE }, { SESSION_OUTCOME_CRASHED, TRUE },
  { SESSION_OUTCOME_EXITED, TRUE },
};

const char *
session_outcome_kind_to_string (SessionOutcomeKind kind)
{
  return (guint) kind < G_N_ELEMENTS (outcome_words) ? outcome_words[kind]
                                                     : outcome_words[SESSION_OUTCOME_UNKNOWN];
}

char *
session_outcome_to_string (SessionOutcome outcome)
{
  const char *word = session_outcome_kind_to_string (outcome.kind);
  const char *name;

  switch (outcome.kind)
    {
    case SESSION_OUTCOME_CRASHED:
      name = proc_signal_name (outcome.signal);
      return name != NULL ? g_strdup_printf ("%s %s", word, name)
                          : g_strdup_printf ("%s %d", word, outcome.signal);
    case SESSION_OUTCOME_EXITED:
      return g_strdup_printf ("%s %d", word, outcome.status);
    case SESSION_OUTCOME_NONE:
    case SESSION_OUTCOME_HUNG:
    case SESSION_OUTCOME_LOST:
    case SESSION_OUTCOME_UNKNOWN:
    default:
      return g_strdup (word);
    }
}

/* The second word of `crashed SIGNAL` or `exited N` into @result. */
static gboolean
outcome_parse_value (const char *word, SessionOutcome *result, GError **error)
{
  char *end = NULL;
  gint64 status;

  if (result->kind == SESSION_OUTCOME_CRASHED)
    {
      result->signal = proc_signal_from_name (word);
      if (result->signal <= 0)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "unknown signal '%s'", word);
          return FALSE;
        }
      return TRUE;
    }
  status = g_ascii_strtoll (word, &end, 10);
  if (end == word || *end != '\0' || status < 0 || status > 255)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "bad exit status '%s' (0-255)", word);
      return FALSE;
    }
  result->status = (int) status;
  return TRUE;
}

gboolean
session_outcome_parse (const char *text, SessionOutcome *outcome,
                       GError **error)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  guint n = g_strv_length (words);
  SessionOutcome result = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (outcome_read); i++)
    if (n == (outcome_read[i].has_value ? 2u : 1u)
        && g_str_equal (words[0], outcome_words[outcome_read[i].kind]))
      {
        result.kind = outcome_read[i].kind;
        if (outcome_read[i].has_value && !outcome_parse_value (words[1], &result, error))
          return FALSE;
        *outcome = result;
        return TRUE;
      }
  g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
               "bad outcome '%s' (none, crashed SIGNAL, exited N, hung or unknown)",
               text);
  return FALSE;
}

char *
session_outcome_describe (SessionOutcome outcome)
{
  const char *name;

  switch (outcome.kind)
    {
    case SESSION_OUTCOME_NONE:
      return g_strdup ("none");
    case SESSION_OUTCOME_LOST:
      return g_strdup ("unknown (the app was gone with its windows open)");
    case SESSION_OUTCOME_CRASHED:
      name = proc_signal_name (outcome.signal);
      return name != NULL ? g_strdup_printf ("crashed with %s", name)
                          : g_strdup_printf ("crashed with signal %d", outcome.signal);
    case SESSION_OUTCOME_EXITED:
      return g_strdup_printf ("exited with status %d", outcome.status);
    case SESSION_OUTCOME_HUNG:
      return g_strdup ("hung");
    case SESSION_OUTCOME_UNKNOWN:
    default:
      return g_strdup ("not recorded");
    }
}

guint
session_get_n_events (const Session *session)
{
  return session->events->len;
}

const SessionEvent *
session_get_event (const Session *session, guint index)
{
  g_return_val_if_fail (index < session->events->len, NULL);
  return &g_array_index (session->events, SessionEvent, index);
}

void
session_append (Session *session, const SessionEvent *ev)
{
  SessionEvent copy;

  session_event_copy (&copy, ev);
  g_array_append_val (session->events, copy);
  session_note_event (session, &copy);
}

/* Events are only ever added, never changed or removed: the count of
 * actions is kept as they come, so that asking for it costs nothing on a
 * session of millions of events. */
void
session_note_event (Session *session, const SessionEvent *ev)
{
  session->n_actions += session_event_is_action (ev);
}

gboolean
session_event_is_action (const SessionEvent *ev)
{
  return ev->kind <= SESSION_EVENT_DROP;
}

/* The one list of modifier keys. Held ones modify the keys pressed while
 * they are down (a chord: Alt+P); locks and latches are pressed and
 * released once and change the keys after them: Caps_Lock is a key of its
 * own in a phrase ("Press Caps_Lock"), not a chord's modifier, but how
 * long it is held means nothing, as for Shift (no auto-repeat of either
 * on the replay's server). */
static const struct
{
  const char *keysym;
  gboolean lock;
} modifier_keysyms[] = {
  { "Shift_L" }, { "Shift_R" }, { "Control_L" }, { "Control_R" }, { "Alt_L" }, { "Alt_R" },
  { "Meta_L" }, { "Meta_R" }, { "Super_L" }, { "Super_R" }, { "Hyper_L" }, { "Hyper_R" },
  { "ISO_Level3_Shift" }, { "ISO_Level5_Shift" }, { "Mode_switch" },
  { "Caps_Lock", TRUE }, { "Shift_Lock", TRUE },
  { "ISO_Level3_Lock", TRUE }, { "ISO_Level3_Latch", TRUE },
  { "ISO_Level5_Lock", TRUE }, { "ISO_Level5_Latch", TRUE },
};

static gboolean
keysym_is (const char *keysym, gboolean lock)
{
  for (gsize i = 0; keysym != NULL && i < G_N_ELEMENTS (modifier_keysyms); i++)
    if (g_str_equal (keysym, modifier_keysyms[i].keysym))
      return modifier_keysyms[i].lock == lock;
  return FALSE;
}

gboolean
session_keysym_is_modifier (const char *keysym)
{
  return keysym_is (keysym, FALSE);
}

gboolean
session_keysym_is_lock (const char *keysym)
{
  return keysym_is (keysym, TRUE);
}

gboolean
session_within_multi_click (guint64 earlier_ms, guint64 later_ms)
{
  return later_ms >= earlier_ms && later_ms - earlier_ms < SESSION_MULTI_CLICK_MS;
}

gboolean
session_event_is_press (const SessionEvent *ev)
{
  return ev->kind == SESSION_EVENT_KEY_PRESS
         || ev->kind == SESSION_EVENT_BUTTON_PRESS;
}

gboolean
session_event_is_release (const SessionEvent *ev)
{
  return ev->kind == SESSION_EVENT_KEY_RELEASE
         || ev->kind == SESSION_EVENT_BUTTON_RELEASE;
}

GArray *
session_get_actions (const Session *session)
{
  GArray *actions = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < session->events->len; i++)
    if (session_event_is_action (session_get_event (session, i)))
      g_array_append_val (actions, i);
  return actions;
}

/* The value of @key ("window=") in a server event's verbatim fields, as
 * a number (an XID in hex, 0/1), or @fallback. */
static guint64
server_field (const SessionEvent *ev, const char *key, guint64 fallback)
{
  gsize len = strlen (key);

  for (const char *at = ev->args; at != NULL && *at != '\0';)
    {
      if (strncmp (at, key, len) == 0)
        {
          char *end = NULL;
          guint64 value = g_ascii_strtoull (at + len, &end, 0);

          return end != at + len ? value : fallback;
        }
      at = strchr (at, ' ');
      at = at != NULL ? at + 1 : NULL;
    }
  return fallback;
}

GArray *
session_get_windows_open (const Session *session)
{
  GArray *open = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) tops = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) mapped = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      gint64 window;
      guint n;

      if (session_event_is_action (ev))
        {
          n = g_hash_table_size (mapped);
          g_array_append_val (open, n);
          continue;
        }
      if (ev->kind != SESSION_EVENT_SERVER || ev->name == NULL)
        continue;
      window = (gint64) server_field (ev, "window=", 0);
      if (window == 0)
        continue;
      if (strcmp (ev->name, "CreateNotify") == 0 && server_field (ev, "override=", 0) == 0)
        g_hash_table_add (tops, g_memdup2 (&window, sizeof window));
      else if (strcmp (ev->name, "MapNotify") == 0 && g_hash_table_contains (tops, &window))
        g_hash_table_add (mapped, g_memdup2 (&window, sizeof window));
      else if (strcmp (ev->name, "UnmapNotify") == 0 || strcmp (ev->name, "DestroyNotify") == 0)
        g_hash_table_remove (mapped, &window);
    }
  return open;
}

guint
session_get_n_actions (const Session *session)
{
  return session->n_actions;
}

static void
append_window (GString *out, const SessionEvent *ev)
{
  if (ev->wm_name != NULL && *ev->wm_name != '\0')
    g_string_append_printf (out, " in \"%s\"", ev->wm_name);
  else if (ev->wm_class != NULL && *ev->wm_class != '\0')
    g_string_append_printf (out, " in a %s window", ev->wm_class);
  else if (ev->window >= 0)
    g_string_append_printf (out, " in window %d", ev->window);
}

/* "X,Y" in the action's window (and which), else on the root. */
static void
append_place (GString *out, const SessionEvent *ev)
{
  if (ev->window >= 0)
    g_string_append_printf (out, "%d,%d", ev->x, ev->y);
  else
    g_string_append_printf (out, "%d,%d", ev->root_x, ev->root_y);
  append_window (out, ev);
}

char *
session_event_describe (const SessionEvent *ev)
{
  GString *out = g_string_new (NULL);

  switch (ev->kind)
    {
    case SESSION_EVENT_KEY_PRESS:
    case SESSION_EVENT_KEY_RELEASE:
      g_string_append_printf (out, "%s %s",
                              ev->kind == SESSION_EVENT_KEY_PRESS
                                ? "press" : "release", ev->keysym);
      break;
    case SESSION_EVENT_BUTTON_PRESS:
    case SESSION_EVENT_BUTTON_RELEASE:
      g_string_append_printf (out, "%s button %u at ",
                              ev->kind == SESSION_EVENT_BUTTON_PRESS
                                ? "press" : "release", ev->button);
      append_place (out, ev);
      break;
    case SESSION_EVENT_MOTION:
      g_string_append (out, "move to ");
      append_place (out, ev);
      break;
    case SESSION_EVENT_DROP:
      g_string_append_printf (out, "drop %s at ", ev->types != NULL ? ev->types : "");
      append_place (out, ev);
      break;
    case SESSION_EVENT_SERVER:
      g_string_append_printf (out, "(server) %s", ev->name);
      break;
    case SESSION_EVENT_SELECTION:
      g_string_append_printf (out, "(selection) %s %s", ev->selection, ev->target);
      break;
    case SESSION_EVENT_FILE:
      g_string_append_printf (out, "(file) %s", ev->path);
      break;
    case SESSION_EVENT_COMMENT:
    default:
      g_string_append (out, ev->text != NULL ? ev->text : "");
      break;
    }
  return g_string_free (out, FALSE);
}
