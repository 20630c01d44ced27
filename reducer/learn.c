/* learn.c — what the replays teach the reducer (see reduce-private.h):
 * how long this app takes to show a window after an action, to show its
 * first, to fail after its last action; how much of a core a replay of
 * it uses, and so how many workers fit. Every replay's result comes
 * through reducer_observe(); the figures only grow, and none is learnt
 * where an option gives it (reducer_choose_learning).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "input.h"

/* A candidate without the action that opens a dialog waits for the dialog
 * in vain, for the whole --window-wait, and most candidates that pass do.
 * The replays show how fast this app, on these servers, under this load,
 * maps its windows after an action; waiting four times that (plus a
 * tenth of a second) is as good as waiting 2 s, and makes passing
 * candidates several times faster: a window still on its way then (the
 * app, the server or the window manager at work for it, under load) is
 * waited for on by xreplay while they are at work (aim.c). Every later replay refines the figure (it only
 * grows). Not with --window-wait, nor for the baseline. */
static void
learn_window_wait (Reducer *reducer, const RunResult *result)
{
  gboolean first = reducer->window_wait_ms == 0;
  guint wait;

  reducer->window_latency_ms = MAX (reducer->window_latency_ms, result->replay.window_latency_ms);
  /* Nothing learnt until a window has appeared after an action, or a
   * full replay has shown that none does. */
  if (reducer->window_latency_ms < 0
      && (reducer->verification == NULL
          || verification_get_n_started (reducer->verification) == 0))
    return;
  wait = (guint) MIN ((gint64) REPLAY_DEFAULT_WINDOW_WAIT_MS,
                      REDUCE_WINDOW_WAIT_FLOOR_MS
                        + REDUCE_WINDOW_WAIT_FACTOR * MAX (reducer->window_latency_ms, 0));
  if (wait == reducer->window_wait_ms)
    return;
  g_debug ("window latency %" G_GINT64_FORMAT " ms: window wait %u ms",
           reducer->window_latency_ms, wait);
  if (first && reducer->window_latency_ms >= 0)
    reducer_say (reducer, "the app's windows appear within %" G_GINT64_FORMAT " ms of an action: a "
                 "missing window is waited for %u ms (--window-wait to choose)",
                 reducer->window_latency_ms, wait);
  else if (first)
    reducer_say (reducer, "the app maps no window after an action: a missing window is waited for "
                 "%u ms (--window-wait to choose)", wait);
  reducer->window_wait_ms = wait;
  runner_set_window_wait (reducer->runner, wait);
}

/* The settle: how long a replay waits after its last action for the
 * failure. A candidate that fails pays nothing for it, one that does not
 * pays all of it: on a fast app most of a passing test is --settle. The
 * replays that fail after their last action show when this app fails
 * after it (a crash in the action's handler: at once; one on a timer:
 * later; nothing is learnt before one has); four
 * times the latest seen, plus the floor, is as good as the default, and
 * the settle grows anyway while the app's processes are busy. Every
 * failing replay refines the figure (it only grows). Not with --settle,
 * nor for the baseline. */
static void
learn_settle (Reducer *reducer, const RunResult *result)
{
  gboolean first = reducer->settle_ms == 0;
  gint64 delay;
  guint settle;

  /* A failure before the last action was replayed says nothing of the
   * time from the action that caused it (a browser's crash comes while
   * the replay waits for it after Return): only one after the last. */
  if (!target_still_fails (result, &reducer->target)
      || result->replay.n_replayed < result->replay.n_actions)
    return;
  delay = MAX (result->replay.settle_ms, 0);
  reducer->failure_delay_ms = MAX (reducer->failure_delay_ms, delay);
  settle = (guint) MIN ((gint64) reducer->replay.settle_ms,
                        REDUCE_SETTLE_FLOOR_MS + REDUCE_SETTLE_FACTOR * reducer->failure_delay_ms);
  if (settle == reducer->settle_ms || settle == reducer->replay.settle_ms)
    {
      /* As long as the default: nothing learnt (and none in force). */
      if (settle != reducer->settle_ms && reducer->settle_ms != 0)
        {
          reducer->settle_ms = 0;
          runner_set_settle (reducer->runner, 0);
        }
      return;
    }
  g_debug ("failure %" G_GINT64_FORMAT " ms after the last action: settle %u ms",
           reducer->failure_delay_ms, settle);
  if (first)
    reducer_say (reducer, "the app fails within %" G_GINT64_FORMAT " ms of its last action: "
                 "a candidate that does not fail is given %u ms after it (--settle to choose)",
                 reducer->failure_delay_ms, settle);
  reducer->settle_ms = settle;
  runner_set_settle (reducer->runner, settle);
}

/* A heavy app under load takes long to show its first window: the start
 * timeout grows with the slowest first window seen. */
static void
learn_start_timeout (Reducer *reducer, const RunResult *result)
{
  guint timeout;

  if (result->replay.first_window_ms <= 0)
    return;
  timeout = (guint) MAX ((gint64) REPLAY_DEFAULT_START_TIMEOUT_MS,
                         REDUCE_START_TIMEOUT_FACTOR * result->replay.first_window_ms);
  if (timeout <= reducer->start_timeout_ms)
    return;
  reducer->start_timeout_ms = timeout;
  if (timeout > REPLAY_DEFAULT_START_TIMEOUT_MS)
    {
      g_debug ("first window after %" G_GINT64_FORMAT " ms: start timeout %u ms",
               result->replay.first_window_ms, timeout);
      runner_set_start_timeout (reducer->runner, timeout);
    }
}

/* The recording measured the app's windows too: the longest time from a
 * user action to the MapNotify of a window after it. The replays start
 * from that (so that the first candidates do not wait the full 2 s for
 * a dialog they never open), and the replays' own figures can only raise
 * it (learn_window_wait). -1 if no window appeared after an action. */
static gint64
recorded_window_latency (const Session *session)
{
  guint n = session_get_n_events (session);
  gint64 last_action = -1, latency = -1;

  for (guint i = 0; i < n; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (session_event_is_action (ev))
        last_action = (gint64) ev->time_ms;
      else if (ev->kind == SESSION_EVENT_SERVER && last_action >= 0
               && g_strcmp0 (ev->name, "MapNotify") == 0)
        latency = MAX (latency, (gint64) ev->time_ms - last_action);
    }
  return latency;
}

/* The first replay that showed a window: a session for another app (the
 * demo's, typed into a terminal) would only waste the reduction's time;
 * the tests stop at once (input.h). */
static void
check_app (Reducer *reducer, const RunResult *result)
{
  g_autoptr (GError) error = NULL;
  const char *const *app = (const char *const *) result->replay.app_classes;

  if (reducer->app_checked || app == NULL || app[0] == NULL)
    return;
  reducer->app_checked = TRUE;
  if (input_check_app_classes (reducer->session, reducer->options->session_path, app, &error))
    return;
  reducer->wrong_app = g_strdup (error->message);
  runner_cancel (reducer->runner);
}

/* Every replay's result, as it comes. */
void
reducer_observe (const RunResult *result, gpointer data)
{
  Reducer *reducer = data;
  g_autofree char *reason = NULL;
  guint before, n;

  if (result->by_test)
    return;
  if (target_still_fails (result, &reducer->target)
      && result->replay.n_replayed >= result->replay.n_actions)
    reducer->latest_failure_ms = MAX (reducer->latest_failure_ms, result->replay.settle_ms);
  check_app (reducer, result);
  if (reducer->learn_wait)
    learn_window_wait (reducer, result);
  if (reducer->learn_start)
    learn_start_timeout (reducer, result);
  if (reducer->learn_settle)
    learn_settle (reducer, result);
  /* CPU time is sampled in clock ticks (10 ms): a replay shorter than
   * REDUCE_SHARE_MIN_MS says too little of its share of a core (one tick
   * of a 30 ms replay of an app starting up reads as a third). */
  if (result->replay.app_cpu_ms > 0 && result->replay.total_ms >= REDUCE_SHARE_MIN_MS)
    reducer->replay_cores = MAX (reducer->replay_cores, (double) result->replay.app_cpu_ms
                                                          / (double) result->replay.total_ms);
  /* Through a launcher the slots are the allocation's, not our cores. */
  if (reducer->options->algorithm == DD_ALGORITHM_DDMIN
      || reducer->options->launcher_argv != NULL)
    return;
  pool_observe (&reducer->pool, result->replay.app_peak_rss_kb, pool_read_busy (reducer->cpu_jiffies));
  before = runner_get_active (reducer->runner);
  n = pool_fit (&reducer->pool, &reason);
  runner_set_active (reducer->runner, n);
  n = runner_get_active (reducer->runner);
  if (n != before || reducer->pool_reason == NULL)
    {
      /* On the console: fewer workers, and the most allowed reached (the
       * progress line shows the count as it goes). */
      if (n < before || (n > before && n == reducer->options->jobs)
          || (n > before && n == 3 * g_get_num_processors () && reducer->options->jobs == 0))
        reducer_say (reducer, "%s", reason);
      g_free (reducer->pool_reason);
      reducer->pool_reason = g_steal_pointer (&reason);
    }
}

/* What xreduce learns of the app from its replays, where no option says
 * it: the window wait, the start timeout, the settle (the hierarchical
 * search's replays only). */
static void
choose_learning (Reducer *reducer)
{
  const ReduceOptions *options = reducer->options;
  gboolean learns = options->algorithm == DD_ALGORITHM_HDD && options->test_argv == NULL;

  reducer->learn_wait = learns && !reducer->replay.window_wait_given;
  reducer->learn_start = learns && !reducer->replay.start_timeout_given;
  reducer->learn_settle = learns && !reducer->replay.settle_given;
}

void
reducer_start_learning (Reducer *reducer)
{
  choose_learning (reducer);
  reducer->failure_delay_ms = -1;
  reducer->latest_failure_ms = -1;
  reducer->window_latency_ms = -1;
  if (reducer->learn_wait)
    {
      RunResult recorded = {
        .replay.window_latency_ms = recorded_window_latency (reducer->session)
      };

      if (recorded.replay.window_latency_ms >= 0)
        learn_window_wait (reducer, &recorded);
    }
}
