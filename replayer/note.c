/* note.c — what pacing, settling and the replay's state machine all use:
 * a note on stderr with --verbose, and the clock (replay-private.h); and
 * each action said as it goes (the verbose log, the on_action hook).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include "quote.h"

void
note_verbose (Replay *r, const char *format, ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  if (!r->opts->verbose)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Notes hold the session's words and the windows' titles: whatever a
   * web page or another client chose, shown escaped, never sent raw. */
  line = quote_terminal (message);
  g_printerr ("xreplay: %s\n", line);
}

gint64
note_now_ms (void)
{
  return g_get_monotonic_time () / 1000;
}

/* How soon to glance again at an app at work since @at_work_since_ms:
 * REPLAY_QUIET_GLANCE_MS at first (most work is done in a few ms), then
 * a quarter of the time it has been at work, up to
 * REPLAY_QUIET_GLANCE_MAX_MS: work seen done that much later costs an
 * action a small part of what it took. */
guint
replay_glance_interval (gint64 at_work_since_ms)
{
  gint64 at_work = note_now_ms () - at_work_since_ms;

  return (guint) CLAMP (at_work / 4, REPLAY_QUIET_GLANCE_MS, REPLAY_QUIET_GLANCE_MAX_MS);
}

/* Says action @number in the verbose log and to the on_action hook (the
 * report's pictures), where it goes: in @match's window, or NULL. */
void
note_step (Replay *r, guint number, const SessionEvent *ev, const WindowsMatch *match)
{
  if (r->opts->verbose)
    {
      g_autofree char *where = match != NULL ? windows_describe (r->windows, match->window) : NULL;
      g_autofree char *words = session_event_describe (ev);

      note_verbose (r, "[%u/%u] %s%s%s", number + 1, r->actions->len, words,
                    match != NULL ? " -> " : "", match != NULL ? where : "");
    }
  if (r->opts->on_action != NULL)
    {
      g_autoptr (GArray) rects = windows_get_mapped_rects (r->windows);
      ReplayStep step = { .number = number, .ev = ev, .x = -1, .y = -1,
                          .windows = (const XRectangle *) rects->data, .n_windows = rects->len };

      if (ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_KEY_RELEASE)
        {
          step.x = match != NULL ? match->x + ev->x : ev->root_x;
          step.y = match != NULL ? match->y + ev->y : ev->root_y;
        }
      if (match != NULL)
        step.target = (XRectangle) { (short) match->x, (short) match->y,
                                     (unsigned short) match->width, (unsigned short) match->height };
      r->opts->on_action (r->dpy, &step, r->opts->hook_data);
    }
}
