/* session-subset.c — a session with some of its user actions: the
 * reducer's candidates, made well-formed (see session_subset() in
 * session-model.h): a release without its press goes, a press of what is
 * held is released first, what stays pressed is released at the end, and
 * a paste's data goes with the gesture that pasted (session-world.h).
 * Start reading at subset_plan().
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"

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
  session_note_event (subset, &release);
}

static gpointer
copy_string (gconstpointer string, gpointer unused)
{
  return g_strdup (string);
}

Session *
session_subset (const Session *session, const guint *keep, guint n_keep)
{
  return session_subset_cancellable (session, keep, n_keep, NULL);
}

/* How many events are copied between two looks at the cancellable. */
#define SUBSET_CANCEL_EVERY 65536

Session *
session_subset_cancellable (const Session *session, const guint *keep, guint n_keep,
                            GCancellable *cancellable)
{
  g_autoptr (Session) subset = session_new ();
  g_autoptr (GArray) held = g_array_new (FALSE, FALSE, sizeof (guint));  /* event indices */
  g_autofree gboolean *kept = g_new0 (gboolean, MAX (session->events->len, 1));
  g_autofree guint *release_after = g_new0 (guint, MAX (session->events->len, 1));
  g_autofree gboolean *keep_event = NULL;
  guint last_kept_event;

  subset->version = session->version;
  subset->screen_width = session->screen_width;
  subset->screen_height = session->screen_height;
  subset->command = g_strdupv (session->command);
  subset->keymap = g_strdup (session->keymap);
  subset->desktop = session->desktop;
  subset->replay_options = g_strdupv (session->replay_options);
  subset->home = g_strdup (session->home);
  subset->cwd = g_strdup (session->cwd);
  subset->host = g_strdup (session->host);
  subset->date = g_strdup (session->date);
  subset->wm = g_strdup (session->wm);
  /* The app's start is the same: what it asked of the server then, it asks. */
  subset->glx = session->glx;
  if (session->env != NULL)
    subset->env = g_ptr_array_copy (session->env, copy_string, NULL);

  last_kept_event = subset_plan (session, keep, n_keep, kept, release_after, held);
  /* A paste's data goes with the gesture that pasted (session-world.h). */
  {
    g_autoptr (GArray) actions = session_get_actions (session);
    g_autofree gboolean *kept_action = g_new0 (gboolean, MAX (actions->len, 1));

    keep_event = g_new0 (gboolean, MAX (session->events->len, 1));
    for (guint a = 0; a < actions->len; a++)
      kept_action[a] = kept[g_array_index (actions, guint, a)];
    session_world_subset (session, kept_action, keep_event);
  }
  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (i % SUBSET_CANCEL_EVERY == SUBSET_CANCEL_EVERY - 1
          && g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (ev->kind == SESSION_EVENT_SELECTION ? keep_event[i]
          : !session_event_is_action (ev) || kept[i])
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
  return g_steal_pointer (&subset);
}
