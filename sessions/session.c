/* session.c — the Session object: header fields, the event list, outcomes,
 * descriptions in words and well-formed subsets.
 *
 * Parsing and printing live in session-parse.c, gestures in
 * session-gesture.c, line-by-line writing in session-writer.c.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"

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
  session->version = SESSION_FORMAT_VERSION;
  session->screen_width = 1280;
  session->screen_height = 1024;
  return session;
}

void
session_free (Session *session)
{
  if (session == NULL)
    return;
  g_array_unref (session->events);
  g_strfreev (session->command);
  g_free (session->keymap);
  g_free (session->warning);
  g_free (session);
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

gboolean
session_outcome_is_failure (SessionOutcome outcome)
{
  switch (outcome.kind)
    {
    case SESSION_OUTCOME_CRASHED:
    case SESSION_OUTCOME_HUNG:
      return TRUE;
    case SESSION_OUTCOME_EXITED:
      return outcome.status != 0;
    case SESSION_OUTCOME_UNKNOWN:
    case SESSION_OUTCOME_NONE:
    default:
      return FALSE;
    }
}

/* Signal names without the libc's sigabbrev_np (glibc >= 2.32 only). */
static const struct
{
  const char *name;
  int number;
} signal_names[] = {
  { "SIGHUP", SIGHUP }, { "SIGINT", SIGINT }, { "SIGQUIT", SIGQUIT },
  { "SIGILL", SIGILL }, { "SIGTRAP", SIGTRAP }, { "SIGABRT", SIGABRT },
  { "SIGBUS", SIGBUS }, { "SIGFPE", SIGFPE }, { "SIGKILL", SIGKILL },
  { "SIGUSR1", SIGUSR1 }, { "SIGSEGV", SIGSEGV }, { "SIGUSR2", SIGUSR2 },
  { "SIGPIPE", SIGPIPE }, { "SIGALRM", SIGALRM }, { "SIGTERM", SIGTERM },
  { "SIGSTKFLT", SIGSTKFLT }, { "SIGCHLD", SIGCHLD }, { "SIGCONT", SIGCONT },
  { "SIGSTOP", SIGSTOP }, { "SIGTSTP", SIGTSTP }, { "SIGTTIN", SIGTTIN },
  { "SIGTTOU", SIGTTOU }, { "SIGURG", SIGURG }, { "SIGXCPU", SIGXCPU },
  { "SIGXFSZ", SIGXFSZ }, { "SIGVTALRM", SIGVTALRM }, { "SIGPROF", SIGPROF },
  { "SIGWINCH", SIGWINCH }, { "SIGIO", SIGIO }, { "SIGPWR", SIGPWR },
  { "SIGSYS", SIGSYS },
};

const char *
session_signal_name (int signum)
{
  for (gsize i = 0; i < G_N_ELEMENTS (signal_names); i++)
    if (signal_names[i].number == signum)
      return signal_names[i].name;
  return NULL;
}

int
session_signal_from_name (const char *name)
{
  g_autofree char *upper = NULL;
  char *end = NULL;
  guint64 number;

  if (name == NULL || *name == '\0')
    return -1;
  if (g_ascii_isdigit (*name))
    {
      number = g_ascii_strtoull (name, &end, 10);
      return (*end == '\0' && number > 0 && number < 65) ? (int) number : -1;
    }
  upper = g_ascii_strup (name, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (signal_names); i++)
    if (g_str_equal (upper, signal_names[i].name)
        || g_str_equal (upper, signal_names[i].name + 3))
      return signal_names[i].number;
  return -1;
}

char *
session_outcome_to_string (SessionOutcome outcome)
{
  const char *name;

  switch (outcome.kind)
    {
    case SESSION_OUTCOME_NONE:
      return g_strdup ("none");
    case SESSION_OUTCOME_CRASHED:
      name = session_signal_name (outcome.signal);
      return name != NULL ? g_strdup_printf ("crashed %s", name)
                          : g_strdup_printf ("crashed %d", outcome.signal);
    case SESSION_OUTCOME_EXITED:
      return g_strdup_printf ("exited %d", outcome.status);
    case SESSION_OUTCOME_HUNG:
      return g_strdup ("hung");
    case SESSION_OUTCOME_UNKNOWN:
    default:
      return g_strdup ("unknown");
    }
}

gboolean
session_outcome_parse (const char *text, SessionOutcome *outcome,
                       GError **error)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  guint n = g_strv_length (words);
  SessionOutcome result = { 0 };
  char *end = NULL;
  gint64 status;

  if (n == 1 && g_str_equal (words[0], "none"))
    result.kind = SESSION_OUTCOME_NONE;
  else if (n == 1 && g_str_equal (words[0], "hung"))
    result.kind = SESSION_OUTCOME_HUNG;
  else if (n == 2 && g_str_equal (words[0], "crashed"))
    {
      result.kind = SESSION_OUTCOME_CRASHED;
      result.signal = session_signal_from_name (words[1]);
      if (result.signal <= 0)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "unknown signal '%s'", words[1]);
          return FALSE;
        }
    }
  else if (n == 2 && g_str_equal (words[0], "exited"))
    {
      status = g_ascii_strtoll (words[1], &end, 10);
      if (end == words[1] || *end != '\0' || status < 0 || status > 255)
        {
          g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                       "bad exit status '%s' (0-255)", words[1]);
          return FALSE;
        }
      result.kind = SESSION_OUTCOME_EXITED;
      result.status = (int) status;
    }
  else
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_PARSE,
                   "bad outcome '%s' (none, crashed SIGNAL, exited N or hung)",
                   text);
      return FALSE;
    }
  *outcome = result;
  return TRUE;
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
}

gboolean
session_event_is_action (const SessionEvent *ev)
{
  return ev->kind <= SESSION_EVENT_MOTION;
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

guint
session_get_n_actions (const Session *session)
{
  guint n = 0;

  for (guint i = 0; i < session->events->len; i++)
    n += session_event_is_action (session_get_event (session, i));
  return n;
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
      g_string_append_printf (out, "%s button %u",
                              ev->kind == SESSION_EVENT_BUTTON_PRESS
                                ? "press" : "release", ev->button);
      if (ev->window >= 0)
        g_string_append_printf (out, " at %d,%d", ev->x, ev->y);
      else
        g_string_append_printf (out, " at %d,%d", ev->root_x, ev->root_y);
      append_window (out, ev);
      break;
    case SESSION_EVENT_MOTION:
      if (ev->window >= 0)
        g_string_append_printf (out, "move to %d,%d", ev->x, ev->y);
      else
        g_string_append_printf (out, "move to %d,%d", ev->root_x, ev->root_y);
      append_window (out, ev);
      break;
    case SESSION_EVENT_SERVER:
      g_string_append_printf (out, "(server) %s", ev->name);
      break;
    case SESSION_EVENT_COMMENT:
    default:
      g_string_append (out, ev->text != NULL ? ev->text : "");
      break;
    }
  return g_string_free (out, FALSE);
}

/* Identity of a held input: keys by keycode (the physical key), buttons by
 * number. */
static guint
press_id (const SessionEvent *ev)
{
  if (ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
    return ev->keycode;
  return 0x10000 + ev->button;
}

/* Which action events of @session a replay of the actions @keep
 * (ascending action numbers) really sends: a release whose press was
 * dropped is dropped. A press of an input still held (its release was
 * dropped) is a new press, as a person would make it: the input is
 * released first, right after the kept action before that press (not held
 * until it: that would make a click a long press), @release_after[i]
 * saying which press event the release after event i is of (+1; 0:
 * none). Sets @kept[i] for the events sent, leaves in @held (event
 * indices, in pressing order) what is still held after them, and returns
 * the last kept event's index (G_MAXUINT if none). */
static guint
subset_plan (const Session *session, const guint *keep, guint n_keep, gboolean *kept,
             guint *release_after, GArray *held)
{
  guint action = 0, k = 0, last_kept_event = G_MAXUINT;

  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      gboolean want;

      if (!session_event_is_action (ev))
        continue;
      while (k < n_keep && keep[k] < action)
        k++;
      want = k < n_keep && keep[k] == action;
      action++;
      if (!want)
        continue;

      if (session_event_is_press (ev))
        {
          for (guint h = 0; h < held->len; h++)
            if (press_id (session_get_event (session, g_array_index (held, guint, h)))
                == press_id (ev))
              {
                /* The held press is kept, so there is a kept event before. */
                release_after[last_kept_event] = g_array_index (held, guint, h) + 1;
                g_array_remove_index (held, h);
                break;
              }
          g_array_append_val (held, i);
        }
      else if (session_event_is_release (ev))
        {
          gboolean found = FALSE;
          for (guint h = 0; h < held->len; h++)
            if (press_id (session_get_event (session, g_array_index (held, guint, h)))
                == press_id (ev))
              {
                g_array_remove_index (held, h);
                found = TRUE;
                break;
              }
          if (!found)
            continue;  /* release without its press */
        }
      kept[i] = TRUE;
      last_kept_event = i;
    }
  return last_kept_event;
}

GArray *
session_subset_actions (const Session *session, const guint *keep, guint n_keep)
{
  g_autofree gboolean *kept = g_new0 (gboolean, MAX (session->events->len, 1));
  g_autofree guint *release_after = g_new0 (guint, MAX (session->events->len, 1));
  g_autoptr (GArray) held = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *actions = g_array_new (FALSE, FALSE, sizeof (guint));
  guint action = 0;

  subset_plan (session, keep, n_keep, kept, release_after, held);
  for (guint i = 0; i < session->events->len; i++)
    if (session_event_is_action (session_get_event (session, i)))
      {
        if (kept[i])
          g_array_append_val (actions, action);
        action++;
      }
  return actions;
}

/* Appends the release of @press that the recording does not have. */
static void
append_release (Session *subset, const SessionEvent *press, guint64 time_ms)
{
  SessionEvent release;

  session_event_copy (&release, press);
  release.kind = press->kind == SESSION_EVENT_KEY_PRESS ? SESSION_EVENT_KEY_RELEASE
                                                        : SESSION_EVENT_BUTTON_RELEASE;
  release.time_ms = time_ms;
  release.added = TRUE;
  g_array_append_val (subset->events, release);
}

Session *
session_subset (const Session *session, const guint *keep, guint n_keep)
{
  Session *subset = session_new ();
  g_autoptr (GArray) held = g_array_new (FALSE, FALSE, sizeof (guint));  /* event indices */
  g_autofree gboolean *kept = g_new0 (gboolean, MAX (session->events->len, 1));
  g_autofree guint *release_after = g_new0 (guint, MAX (session->events->len, 1));
  guint last_kept_event;

  subset->version = session->version;
  subset->screen_width = session->screen_width;
  subset->screen_height = session->screen_height;
  subset->command = g_strdupv (session->command);
  subset->keymap = g_strdup (session->keymap);

  last_kept_event = subset_plan (session, keep, n_keep, kept, release_after, held);
  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (!session_event_is_action (ev) || kept[i])
        session_append (subset, ev);
      if (release_after[i] > 0)
        append_release (subset, session_get_event (session, release_after[i] - 1),
                        ev->time_ms);

      /* Release what is still held right after the last kept action. */
      if (i == last_kept_event && held->len > 0)
        {
          SessionEvent note = { .kind = SESSION_EVENT_COMMENT, .window = -1,
                                .time_ms = ev->time_ms };

          note.text = (char *) "# released here so that nothing stays held (not part of the recording)";
          session_append (subset, &note);
          for (guint h = held->len; h-- > 0;)
            append_release (subset, session_get_event (session, g_array_index (held, guint, h)),
                            ev->time_ms);
        }
    }
  return subset;
}
