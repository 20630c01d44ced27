/* setup.c — what the reducer's driver does before the search (see
 * reduce-private.h): reduce_setup() checks the input (the session, the
 * app, the target, the output: check_input), finds xreplay, makes a first
 * sandbox, starts the workers (start_workers: the pool's size, the
 * runner) and the verification, and opens OUT.journal, which resumes an
 * interrupted reduction.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "input.h"
#include "interrupt.h"
#include "quote.h"
#include "sandbox.h"

#include <string.h>

/* OUT.journal, for this reduction: what decides the outcomes (the
 * session's bytes, the app, the replay options, the failure sought, the
 * algorithm) is its key; an earlier run's outcomes with the same key are
 * reused. */
static gboolean
open_journal (Reducer *reducer, const char *want, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autofree char *app = g_strjoinv ("\x1f", reducer->app_argv);
  g_autofree char *replay = g_strjoinv ("\x1f", reducer->xreplay_args);
  g_autofree char *test = options->test_argv != NULL ? g_strjoinv ("\x1f", options->test_argv)
                                                     : g_strdup ("");
  g_autofree char *how = g_strdup_printf ("%d %d %u %d", (int) options->algorithm,
                                          options->same_crash, options->same_crash_frames,
                                          options->signal);
  g_autofree char *path = g_strconcat (reducer->output_path, ".journal", NULL);
  g_autofree char *key = NULL;
  g_autoptr (GError) local = NULL;
  gsize lengths[6];
  const char *parts[6];

  /* The file's bytes, by the sum its reading made (not read again: a
   * large session is a second of hashing, and no signal waits for it). */
  parts[0] = session_get_digest (reducer->session);
  g_assert (parts[0] != NULL);
  parts[1] = app, parts[2] = replay, parts[3] = test, parts[4] = want, parts[5] = how;
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    lengths[i] = strlen (parts[i]);
  key = journal_make_key (parts, G_N_ELEMENTS (parts), lengths);
  reducer->journal = journal_open (path, key, &local);
  if (reducer->journal == NULL)
    {
      /* No resuming then, but the reduction itself can go on. */
      reducer_say (reducer, "warning: %s: an interruption cannot be resumed", local->message);
      return TRUE;
    }
  if (journal_get_n_loaded (reducer->journal) > 0)
    reducer_say (reducer, "resuming: %u outcomes known from an interrupted run (%s)",
                 journal_get_n_loaded (reducer->journal), path);
  return TRUE;
}

static char *
find_xreplay (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self != NULL ? g_path_get_dirname (self) : NULL;
  const char *env = g_getenv ("XREPLAY");
  const char *candidates[] = { "xreplay", "../replayer/xreplay" };

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  for (gsize i = 0; dir != NULL && i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
    }
  return g_find_program_in_path ("xreplay");
}

/* --limit-time: the whole run, the verification included, stops here. */
static gboolean
on_deadline (gpointer data)
{
  Reducer *reducer = data;

  reducer->deadline = 0;
  reducer->timed_out = TRUE;
  g_debug ("the time limit, %.1f s into the run", reducer_elapsed_s (reducer));
  if (reducer->runner != NULL)
    runner_cancel (reducer->runner);
  return G_SOURCE_REMOVE;
}

/* Between the steps of the setup, each one a pass over the session at
 * most: a signal or the time limit stops it there, not after the
 * verification has started (the main context does not run meanwhile). */
static gboolean
setup_stopped (Reducer *reducer, GError **error)
{
  if (!g_cancellable_is_cancelled (proc_interrupt_get_cancellable ()))
    return FALSE;
  reducer->timed_out = proc_interrupt_get_signal () == 0;
  if (reducer->timed_out)
    g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                 "time limit of %.0f s reached before the reduction started: nothing written",
                 reducer->options->limit_time);
  else
    g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                         "interrupted before the reduction started: nothing written");
  return TRUE;
}

/* The session, the app, the target, the output: everything that can be
 * wrong with the user's input, checked before anything starts. */
static gboolean
check_input (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autoptr (GError) local = NULL;
  gboolean recorded;

  reducer->session = session_load_cancellable (options->session_path,
                                               options->replay.max_session_size,
                                               options->replay.max_actions,
                                               proc_interrupt_get_cancellable (), &local);
  if (reducer->session == NULL && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* A signal, or --limit-time, while a large session was read. */
      reducer->timed_out = proc_interrupt_get_signal () == 0;
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                   reducer->timed_out ? "time limit of %.0f s reached while reading the session: "
                                        "nothing written"
                                      : "interrupted while reading the session: nothing written",
                   options->limit_time);
      return FALSE;
    }
  if (reducer->session == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
      return FALSE;
    }
  if (session_get_warning (reducer->session) != NULL)
    reducer_say (reducer, "warning: %s", session_get_warning (reducer->session));
  if (session_get_n_actions (reducer->session) == 0)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                   "%s has no user actions: nothing to reduce", options->session_path);
      return FALSE;
    }
  /* What the session says it needs to fail (a reduced session's replay
   * line), where the command line is silent. */
  reducer->replay = options->replay;
  if (options->replay_args != NULL)
    {
      SandboxIsolate isolate = options->replay.isolate;

      if (!replay_args_take_session (options->replay_args, reducer->session, &local))
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s: %s", options->session_path,
                       local->message);
          return FALSE;
        }
      reducer->replay = *replay_args_get_settings (options->replay_args);
      reducer->replay.isolate = isolate;
      reducer->replay_argv = replay_args_to_argv_not_in_session (options->replay_args);
    }
  reducer_update_replay_line (reducer);
  if (!input_check_screen (options, reducer->session, error))
    return FALSE;
  if (!input_choose_app (options, reducer->session, &reducer->app_argv, &recorded, error))
    return FALSE;
  if (recorded)
    {
      g_autofree char *shown = quote_command_line ((const char *const *) reducer->app_argv);
      reducer_say (reducer, "running the recorded command: %s", shown);
    }
  reducer->target.by_test = options->test_argv != NULL;
  reducer->target.stderr_match = options->stderr_match;
  reducer->target.same_crash = options->same_crash;
  reducer->target.same_crash_frames = options->same_crash_frames;
  if (!target_decide (&reducer->target, reducer->session, options->session_path,
                      options->signal, error))
    return FALSE;
  if (options->stderr_match != NULL)
    {
      g_autoptr (GRegex) regex = g_regex_new (options->stderr_match, 0, 0, &local);
      if (regex == NULL)
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "--stderr-match: %s",
                       local->message);
          return FALSE;
        }
    }
  return input_check_output (options, &reducer->output_path, error);
}

/* Every replay makes a sandbox (sandbox.h): one made here first says at
 * once, before any server starts, what would stop them all (a --home that
 * cannot be copied, no dbus-daemon); with --share-home and parallel
 * workers, a warning. */
static gboolean
check_sandbox (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  SandboxOptions sandbox_options = { .home_seed = options->replay.home_seed };
  g_autoptr (GError) local = NULL;
  g_autoptr (Sandbox) sandbox = NULL;

  if (options->test_argv != NULL)
    return TRUE;
  if (options->replay.share_home)
    {
      if (options->jobs != 1 && options->algorithm == DD_ALGORITHM_HDD)
        reducer_say (reducer, "warning: --share-home with parallel workers: the replays share your "
                     "HOME and session bus, and a single-instance app or a profile lock makes them "
                     "fail each other (-j 1 avoids it)");
      return TRUE;
    }
  sandbox = sandbox_new (&sandbox_options, &local);
  if (sandbox == NULL)
    {
      g_set_error (error, REDUCE_ERROR,
                   g_error_matches (local, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME)
                     ? REDUCE_ERROR_USAGE : REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

/* The workers: as many as the cores, the memory and the options allow
 * (pool.h; *max_workers), through the launcher or each with its Xvfb
 * (runner.h). */
static gboolean
start_workers (Reducer *reducer, guint *max_workers_out, GError **error)
{
  const ReduceOptions *options = reducer->options;
  RunnerOptions runner_options = { 0 };
  g_autoptr (GError) local = NULL;
  guint max_workers;

  /* At most three workers a core by default: a replay of a small app
   * mostly waits, using a few per cent of a core; the pool (pool.h) runs
   * fewer at once when the app is heavier. */
  max_workers = options->algorithm == DD_ALGORITHM_DDMIN ? 1
                : options->launcher_argv != NULL ? pool_launcher_slots (options->jobs, g_getenv ("SLURM_NTASKS"))
                : options->jobs > 0 ? options->jobs : 3 * g_get_num_processors ();
  /* A window manager (--wm) runs on each replay's own Xvfb, which xreplay
   * starts with it: a worker's server, reused, would keep the last one's
   * properties on its root (and xreplay takes --wm or --display). */
  runner_options.fresh_server = options->algorithm == DD_ALGORITHM_DDMIN
                                || reducer->replay.wm_argv != NULL;
  session_get_screen (reducer->session, &runner_options.screen_width,
                      &runner_options.screen_height);
  /* Every worker's Xvfb holds its screen from the start: no more workers
   * than half the available memory holds (a 8192x8192 screen is some
   * 500 MB a worker). */
  pool_init (&reducer->pool, max_workers, g_get_num_processors (),
             pool_read_mem_available_kb ());
  /* Through a launcher the screens are held where the replays run. */
  if (options->launcher_argv == NULL)
    pool_set_screen (&reducer->pool, runner_options.screen_width, runner_options.screen_height);
  if (reducer->pool.max_workers < max_workers)
    reducer_say (reducer, "%u worker%s at most: each one's X server holds %" G_GUINT64_FORMAT
                 " MB for its %dx%d screen", reducer->pool.max_workers,
                 reducer->pool.max_workers == 1 ? "" : "s", reducer->pool.screen_kb / 1024,
                 runner_options.screen_width, runner_options.screen_height);
  max_workers = reducer->pool.max_workers;
  runner_options.workers = max_workers;
  /* GLX where the app asks for it (Mesa's load is two thirds of a
   * server's start): as the session says, when it says. */
  runner_options.glx_first = options->glx_first;
  if (options->glx_first == REDUCE_GLX_BY_SESSION)
    {
      SessionGlx glx = session_get_glx (reducer->session);

      runner_options.glx_first = glx == SESSION_GLX_NOT_ASKED ? 0 : REDUCE_GLX_FIRST;
      runner_options.glx_needed = glx == SESSION_GLX_ASKED;
    }
  runner_options.xreplay = reducer->xreplay;
  runner_options.xreplay_args = reducer->xreplay_args;
  runner_options.app_argv = reducer->app_argv;
  runner_options.test_argv = options->test_argv;
  runner_options.workdir = proc_tempdir_get_path (reducer->workdir);
  runner_options.launcher_argv = options->launcher_argv;
  reducer->runner = runner_new (&runner_options, &local);
  if (reducer->runner == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  if (options->test_timeout_ms > 0)
    runner_set_test_timeout (reducer->runner, options->test_timeout_ms);
  pool_read_busy (reducer->cpu_jiffies);
  if (options->launcher_argv != NULL)
    {
      g_free (reducer->pool_reason);
      reducer->pool_reason = g_strdup_printf ("%u launcher slot%s (%s)", max_workers,
                                              max_workers == 1 ? "" : "s",
                                              options->jobs > 0 ? "-j"
                                              : g_getenv ("SLURM_NTASKS") != NULL
                                              ? "SLURM_NTASKS" : "the default; -j N for more");
    }
  else if (options->algorithm == DD_ALGORITHM_HDD && options->test_argv == NULL)
    runner_set_active (reducer->runner, pool_fit (&reducer->pool, NULL));
  runner_set_observer (reducer->runner, reducer_observe, reducer);
  *max_workers_out = max_workers;
  return TRUE;
}

gboolean
reduce_setup (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autoptr (GError) local = NULL;
  g_autofree char *want = NULL;
  guint n_actions, max_workers;

  if (!check_input (reducer, error) || setup_stopped (reducer, error))
    return FALSE;
  reducer->xreplay = options->xreplay != NULL ? g_strdup (options->xreplay) : find_xreplay ();
  if (reducer->xreplay == NULL && options->test_argv == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  if (!check_sandbox (reducer, error) || setup_stopped (reducer, error))
    return FALSE;
  reducer->xreplay_args = replay_args_common ((const char *const *) options->xreplay_args,
                                             options->stderr_match, options->same_crash);
  reducer->workdir = proc_tempdir_new ("xreduce-XXXXXX", &local);
  if (reducer->workdir == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }

  if (!start_workers (reducer, &max_workers, error) || setup_stopped (reducer, error))
    return FALSE;
  /* From the start of the run, not from here: the workers' X servers
   * took their time already. */
  if (options->limit_time > 0)
    reducer->deadline = g_timeout_add ((guint) CLAMP ((options->limit_time
                                                       - reducer_elapsed_s (reducer))
                                                      * 1000, 0, G_MAXUINT),
                                       on_deadline, reducer);

  n_actions = session_get_n_actions (reducer->session);
  want = target_describe (&reducer->target);
  if (options->launcher_argv != NULL)
    reducer_say (reducer, "%u actions; reducing for: %s; %s", n_actions, want,
                 reducer->pool_reason);
  else
    reducer_say (reducer, "%u actions; reducing for: %s; up to %u worker%s", n_actions, want,
                 max_workers, max_workers == 1 ? "" : "s");
  if (!open_journal (reducer, want, error) || setup_stopped (reducer, error))
    return FALSE;
  reducer_start_learning (reducer);
  reducer->n_before = n_actions;
  {
    g_autofree guint *all = g_new (guint, n_actions);

    for (guint i = 0; i < n_actions; i++)
      all[i] = i;
    reducer_set_best (reducer, all, n_actions);
  }
  if (setup_stopped (reducer, error))
    return FALSE;
  /* The verification starts; the baseline, and --same-crash (whose
   * oracle needs the original crash's frames), wait for its verdict, the
   * hierarchical search starts beside it. Until then the best set is the
   * whole session, not written anywhere: it may not fail. */
  reducer->verification = verification_start (reducer->runner, reducer->session,
                                              &reducer->target, &reducer->replay,
                                              options->verify_runs,
                                              !reducer->replay.pace_given && options->test_argv == NULL,
                                              options->quiet);
  verification_set_world (reducer->verification, options->replay.files_dir,
                          options->replay.share_home ? g_get_home_dir ()
                                                     : options->replay.home_seed,
                          options->replay.wm_argv != NULL);
  /* `outcome unknown`: the search waits for the failure to reduce for. */
  if (options->algorithm == DD_ALGORITHM_DDMIN || options->same_crash
      || target_is_unknown (&reducer->target))
    {
      if (!verification_wait (reducer->verification, error)
          || !reducer_adopt_verdict (reducer, error))
        return FALSE;
      reducer->stop = STOP_NONE;
    }
  return TRUE;
}
