/* pace-gap.c — the next action's time, once the app has taken the last:
 * at once (at least --min-gap after it), or after the recorded gap
 * (divided by --speed), always within the window that keeps a double
 * click's gaps and a held key's as they meant (pace-rules.h). pace.c and
 * flight.c both end their waits here.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

guint
pace_recorded_gap (Replay *r, guint64 from, guint64 to)
{
  double gap = to > from ? (double) (to - from) / r->opts->settings.speed : 0.0;

  return (guint) (gap + 0.5);
}

/* The next action in @ms, within its window (pace-rules.h): a double
 * click's gaps and a held key's, kept as they meant. */
Act
pace_inject_within (Replay *r, guint ms)
{
  gint64 now = note_now_ms ();
  guint bounded = pace_rules_clamp (&r->window, now, ms);

  if (bounded != ms && r->window.why != NULL)
    note_verbose (r, "action %u: in %u ms, not %u: %s", r->next + 1, bounded, ms,
                  r->window.why);
  return act_inject (bounded);
}

/* The app has taken the action: the next one after --min-gap. */
Act
pace_done (Replay *r, const char *how)
{
  gint64 waited = note_now_ms () - r->pace_started;

  if (r->pace_timer != 0)
    g_source_remove (r->pace_timer);
  r->pace_timer = 0;
  if (r->window_timer != 0)
    g_source_remove (r->window_timer);
  r->window_timer = 0;
  r->pace_waiting = FALSE;
  r->result->app_wait_ms += waited;
  r->result->app_wait_max_ms = MAX (r->result->app_wait_max_ms, waited);
  if (how != NULL)
    note_verbose (r, "action %u: %s after %" G_GINT64_FORMAT " ms", r->next + 1, how, waited);
  /* The app has taken the action: the next one goes at once, at least
   * --min-gap after this one (the wait counts). */
  return pace_inject_within (r, waited >= r->opts->settings.min_gap_ms
                             ? 0 : r->opts->settings.min_gap_ms - (guint) waited);
}
