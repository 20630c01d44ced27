/* launch.c — one test on a worker: its candidate file, its command line
 * (xreplay's, from replay-args.h, or --test's), here or through the
 * launcher with the session on its stdin (frame.h), its time limit, and
 * what came back (launch_collect_result). Start reading at launch_test().
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner-private.h"
#include "interrupt.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

/* Who a test's status is of: xreplay, or the launcher that ran it
 * ("the launcher srun"): a launcher killed by a signal is not xreplay. */
static char *
test_runner_name (Runner *runner, gboolean launched)
{
  g_autofree char *base = NULL;

  if (!launched || runner->launcher_argv == NULL)
    return g_strdup ("xreplay");
  base = g_path_get_basename (runner->launcher_argv[0]);
  return g_strdup_printf ("the launcher %s", base);
}

/* What a finished test said: FALSE with RUNNER_ERROR_INFRA if xreplay
 * broke or answered nonsense, RUNNER_ERROR_USAGE if it refused its input.
 * @launched: it ran through the launcher, whose status @status is. */
gboolean
launch_collect_result (Runner *runner, gboolean by_test, gboolean launched, int status, const char *out,
                const char *err, RunResult *result, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *said = g_strstrip (g_strdup (err));
  int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;

  result->replay.window_latency_ms = result->replay.first_window_ms = result->replay.replay_ms = -1;
  result->replay.app_cpu_ms = result->replay.app_peak_rss_kb = -1;
  if (by_test)
    {
      verdict_from_wait_status (&result->replay.verdict, status);
      result->by_test = TRUE;
      result->replay.stderr_text = g_strdup (err);
      result->replay.stderr_len = strlen (err);
      return TRUE;
    }
  if (code == 2)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_USAGE, "%s", said);
      return FALSE;
    }
  if (code == 3 && replay_result_from_json (out, &result->replay, NULL)
      && result->replay.verdict.kind == VERDICT_INFRA_ERROR && result->replay.verdict.detail != NULL)
    {
      /* xreplay --json says why in its verdict ("the X server on ':5' did
       * not answer within 10 s"), not on stderr. */
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "xreplay: %s", result->replay.verdict.detail);
      run_result_clear (result);
      return FALSE;
    }
  run_result_clear (result);
  result->replay.window_latency_ms = result->replay.first_window_ms = result->replay.replay_ms = -1;
  result->replay.app_cpu_ms = result->replay.app_peak_rss_kb = -1;
  if (code == 3 || code < 0 || !replay_result_from_json (out, &result->replay, &local))
    {
      g_autofree char *how = proc_describe_wait_status (status);
      g_autofree char *who = test_runner_name (runner, launched);

      /* Through a launcher, a death by a signal is the launcher's
       * (xreplay's own end comes back as an exit status, which the
       * launcher passes on). */
      if (launched && code >= 0)
        {
          g_autofree char *launcher = who;
          who = g_strdup_printf ("xreplay through %s", launcher + strlen ("the launcher "));
        }
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "%s %s%s%s%s%s", who, how,
                   *said ? ": " : "", said, local != NULL ? "; " : "",
                   local != NULL ? local->message : "");
      run_result_clear (result);
      return FALSE;
    }
  if (result->replay.verdict.kind == VERDICT_INFRA_ERROR)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "replay infrastructure error: %s",
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : said);
      run_result_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* The time limit of a test of @n_actions: runner_set_test_timeout()'s,
 * else derived from the tests that finished (the verification's replays
 * of the whole session come first): four times what the slowest of them
 * took an action, for @n_actions, plus the start timeout, at least
 * RUNNER_TEST_TIMEOUT_MIN_MS; before any finished, a generous
 * RUNNER_TEST_TIMEOUT_FIRST_MS. */
guint
runner_test_timeout (const Runner *runner, guint n_actions)
{
  double ms;

  if (runner->test_timeout_ms > 0)
    return runner->test_timeout_ms;
  if (!runner->any_finished)
    return RUNNER_TEST_TIMEOUT_FIRST_MS;
  ms = 4 * runner->ms_per_action * (n_actions + 1)
       + (runner->overrides.start_timeout_ms > 0 ? runner->overrides.start_timeout_ms : 10000);
  return (guint) CLAMP (ms, RUNNER_TEST_TIMEOUT_MIN_MS, (double) G_MAXINT);
}

static gboolean
on_test_timeout (gpointer data)
{
  Worker *worker = data;

  if (!worker_timer_fired (worker, &worker->timeout_id))
    return G_SOURCE_REMOVE;
  worker->timed_out = TRUE;
  if (worker->launched)
    {
      /* Stuck or not, where it runs: the launcher's way down. */
      worker_stop_launched (worker);
      return G_SOURCE_REMOVE;
    }
  /* SIGKILL at once: a stuck xreplay may sit in an Xlib call that its
   * SIGTERM handler (in the main loop) never gets to. The keeper and its
   * sandbox's cleaner take what it started along. */
  proc_child_signal (worker->process, SIGKILL);
  return G_SOURCE_REMOVE;
}

/* The candidate file for a test of @session: a session shared by several
 * tests (the verification's full session: a million actions are seconds
 * to write) is written once, and each test gets a link to it. */
static gboolean
write_candidate (Runner *runner, const Session *session, const char *path, GError **error)
{
  /* Files of our private folder, read once by the test's replay: not
   * synced, and given up at a signal or --limit-time (G_IO_ERROR_CANCELLED). */
  GCancellable *cancellable = proc_interrupt_get_cancellable ();

  if (session != runner->shared || runner->shared == NULL)
    return session_save_scratch (session, path, cancellable, error);
  if (runner->shared_path == NULL)
    {
      g_autofree char *shared = g_strdup_printf ("%s/shared-%" G_GUINT64_FORMAT ".log",
                                                 runner->workdir, runner->serial++);

      if (!session_save_scratch (session, shared, cancellable, error))
        return FALSE;
      runner->shared_path = g_steal_pointer (&shared);
    }
  return link (runner->shared_path, path) == 0
         || session_save_scratch (session, path, cancellable, error);
}

/* The file @session is replayed from (not through the launcher: that
 * reads it on its stdin), into *@path: the report's replay's
 * session.log (its report.md names it so), else a candidate file. */
static gboolean
place_session (Runner *runner, Worker *worker, Session *session, const char *report_dir,
               char **path, GError **error)
{
  if (report_dir != NULL)
    {
      /* A replay for a report: its report.md names the session as the
       * copy beside it does, session.log, not a candidate file. */
      g_autofree char *dir = g_strdup_printf ("%s/report-%" G_GUINT64_FORMAT, runner->workdir,
                                              runner->serial++);
      if (g_mkdir (dir, 0700) != 0 && errno != EEXIST)
        {
          int saved = errno;
          g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "cannot create %s: %s", dir,
                       g_strerror (saved));
          return FALSE;
        }
      *path = g_build_filename (dir, "session.log", NULL);
    }
  else
    *path = g_strdup_printf ("%s/candidate-%u-%" G_GUINT64_FORMAT ".log",
                            runner->workdir, worker->id, runner->serial++);
  return write_candidate (runner, session, *path, error);
}

/* The test's command line into @argv (@quoted owns what ssh's quoting
 * made): --test's with the candidate file, else xreplay's (through the
 * launcher if @launched); returns what owns xreplay's words. */
static GStrv
test_command (Runner *runner, const Background *bg, gboolean by_test, gboolean launched,
              const char *display, const char *path, GPtrArray *argv, GPtrArray *quoted)
{
  const char *report_dir = bg != NULL ? bg->report_dir : NULL;
  GStrv command = NULL;

  if (by_test)
    {
      for (char **a = runner->test_argv; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      g_ptr_array_add (argv, (char *) path);
    }
  else
    {
      ReplayOverrides overrides = runner->overrides;

      overrides.report_dir = report_dir;
      overrides.no_backtrace = bg != NULL && bg->no_backtrace;
      /* The report's replay waits the full --window-wait and --settle of
       * the options, not what xreduce learnt for its tests: it may run
       * beside the last of them (runner_start_once). */
      if (report_dir != NULL)
        overrides.window_wait_ms = overrides.settle_ms = 0;
      command = replay_args_command (runner->xreplay, (const char *const *) runner->xreplay_args,
                                     &overrides, display, launched ? "-" : path,
                                     (const char *const *) runner->app_argv);
      for (char **a = launched ? runner->launcher_argv : NULL; a != NULL && *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      for (char **a = command; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
    }
  if (launched && runner->launcher_quotes)
    {
      /* ssh joins its arguments into one line for the remote shell: each
       * of ours (an option's value, the app's arguments) a quoted word of
       * it, as given. */
      for (guint i = g_strv_length (runner->launcher_argv); i < argv->len; i++)
        {
          char *word = g_shell_quote (g_ptr_array_index (argv, i));
          g_ptr_array_add (quoted, word);
          argv->pdata[i] = word;
        }
    }
  return command;
}

/* @worker runs @session's test now (@index in the batch, or -1). */
static void
worker_began (Runner *runner, Worker *worker, Session *session, gint index, gboolean by_test,
              gboolean launched, char *path)
{
  worker->launched = launched;
  worker->stop_stage = 0;
  worker->index = index;
  worker->session = session;
  worker->by_test = by_test;
  worker->killed = FALSE;
  worker->path = path;
  worker->started_us = g_get_monotonic_time ();
  worker->timed_out = FALSE;
  worker->infra_attempt = 0;
  worker->n_actions = session_get_n_actions (session);
  g_clear_handle_id (&worker->timeout_id, g_source_remove);
  /* xreplay's own waits are bounded, but not a call into Xlib on a
   * stopped X server: a time limit over it all. (A --test command is the
   * user's: it decides itself.) */
  if (!by_test)
    worker->timeout_id = g_timeout_add (runner_test_timeout (runner, worker->n_actions),
                                        on_test_timeout, worker);
  if (worker->server != NULL && !launched && runner->server_watch == 0)
    runner->server_watch = g_timeout_add (RUNNER_SERVER_WATCH_MS, worker_on_server_watch, runner);
}

gboolean
launch_test (Runner *runner, Worker *worker, Session *session, gint index,
             const Background *bg, GError **error)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GPtrArray) quoted = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  const char *display = NULL;
  g_auto (GStrv) command = NULL;
  ProcSpawnOptions spawn;

  /* The --test command decides, but extra xreplay options (the report's
   * replay) ask for xreplay itself. */
  const char *report_dir = bg != NULL ? bg->report_dir : NULL;
  gboolean by_test = runner->test_argv != NULL && report_dir == NULL;
  /* The report's replay writes its folder here: never through the
   * launcher. */
  gboolean launched = runner->launcher_argv != NULL && !by_test && report_dir == NULL;
  int child_stdin = -1;

  /* An X server that failed its last test (killed, stopped) is replaced
   * first; one that died meanwhile too; one still starting without GLX
   * that a client has since asked for is not waited for. */
  if (!(worker->restart && !worker->ready) && !worker_ensure_ready (runner, worker, error))
    return FALSE;
  if (worker->server != NULL && (worker->restart || !xserver_is_alive (worker->server))
      && !worker_start_server (runner, worker, error))
    return FALSE;
  worker->restart = FALSE;
  if (worker->server != NULL)
    display = xserver_get_display (worker->server);

  if (!by_test && runner->xreplay == NULL)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  if (!launched && !place_session (runner, worker, session, report_dir, &path, error))
    return FALSE;

  command = test_command (runner, bg, by_test, launched, display, path, argv, quoted);
  g_ptr_array_add (argv, NULL);
  /* Whether bubblewrap works here was tried once, by us (main.c). */
  if (!launched && sandbox_checked_mark () != NULL)
    envp = g_environ_setenv (envp, SANDBOX_CHECKED_ENV, sandbox_checked_mark (), TRUE);
  if (display != NULL)
    {
      envp = g_environ_setenv (envp, "DISPLAY", display, TRUE);
      envp = g_environ_setenv (envp, "XREDUCE_DISPLAY", display, TRUE);
      if (worker->xauthority != NULL)
        envp = g_environ_setenv (envp, "XAUTHORITY", worker->xauthority, TRUE);
    }

  proc_spawn_options_init (&spawn);
  spawn.argv = (const char *const *) argv->pdata;
  spawn.envp = (const char *const *) envp;
  spawn.out = PROC_OUTPUT_CAPTURE;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.on_exit = runner->test_done;
  spawn.user_data = worker;
  /* The app crashes in most replays: no core dump of it each time (a
   * browser's is hundreds of MB, and systemd-coredump compresses it).
   * A --test script is the user's: its limits are. */
  spawn.no_core_dump = !by_test;
  if (launched)
    {
      if (!worker_open_stdin (worker, session, &child_stdin, error))
        return FALSE;
      spawn.stdin_fd = child_stdin;
      /* Our death reaches the launcher as SIGUSR1, which srun passes on
       * (and its stdin closes); the keeper's SIGTERM and SIGKILL would
       * cut it off from the replay it runs (runner.h). */
      spawn.death_signal = SIGUSR1;
      spawn.no_keeper = TRUE;
    }
  worker->process = proc_spawn (&spawn, error);
  if (child_stdin >= 0)
    close (child_stdin);
  if (worker->process == NULL)
    {
      if (path != NULL)
        unlink (path);
      worker_close_stdin (worker);
      return FALSE;
    }
  worker_began (runner, worker, session, index, by_test, launched, g_steal_pointer (&path));
  g_debug ("worker %u: candidate %d (%u actions) started", worker->id, index,
           session_get_n_actions (session));
  return TRUE;
}

/* A test failed for the infrastructure (its Xvfb or xreplay died, was
 * stopped, or the test passed its time limit): not the candidate's
 * answer. The worker gets a fresh X server, the test runs again, on the
 * next idle worker; TRUE if it may. After RUNNER_INFRA_ATTEMPTS failures
 * of one test, FALSE with @error saying so. */
gboolean
launch_infra_may_retry (Runner *runner, Worker *worker, guint infra_attempt, GError **error)
{
  worker->restart = TRUE;
  runner->n_infra++;
  g_free (runner->last_infra);
  runner->last_infra = g_strdup ((*error)->message);
  g_debug ("worker %u: infrastructure failure %u of this test: %s", worker->id,
           infra_attempt, (*error)->message);
  if (runner->cancelled)
    return FALSE;
  if (infra_attempt >= RUNNER_INFRA_ATTEMPTS)
    {
      g_prefix_error (error, "%u infrastructure failures in a row of one test%s; the last: ",
                      infra_attempt, runner->launcher_argv != NULL
                                     ? ", each through the launcher" : ", each on a fresh X server");
      return FALSE;
    }
  g_clear_error (error);
  return TRUE;
}

gboolean
launch_glx_again (Runner *runner, Worker *worker, const RunResult *result)
{
  if (result->by_test || !result->replay.glx_asked)
    return FALSE;
  /* Asked, with GLX or without: every server without GLX is replaced
   * before its next test (the verification's first replays, on servers
   * with GLX, tell before the other workers' first tests). */
  if (!runner->glx_needed)
    {
      g_debug ("a replay's client asked for GLX: every X server has it from now on");
      runner->glx_needed = TRUE;
      for (guint w = 0; w < runner->workers->len; w++)
        {
          Worker *other = g_ptr_array_index (runner->workers, w);
          other->restart |= other->no_glx;
        }
    }
  if (!worker->no_glx || runner->cancelled)
    return FALSE;
  worker->restart = TRUE;
  g_debug ("worker %u: a client asked for GLX, which its X server did not have: the test "
           "runs again", worker->id);
  return TRUE;
}

/* The app could not start: FALSE if it has had all its tries, or if its
 * processes sat idle without connecting to the X server (fewer replays
 * beside it cannot help that one; then @error says so, with what the app
 * printed), else TRUE: try again, with one worker fewer from now on. */
gboolean
launch_may_retry (Runner *runner, const RunResult *result, guint attempt, GError **error)
{
  g_autofree char *tail = g_strstrip (g_strdup (result->replay.stderr_text));
  gsize len = strlen (tail);

  if (result->replay.never_connected)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED,
                   "the app could not start (%s)%s%s",
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : "no reason given",
                   len > 0 ? "; its stderr ends with: " : "",
                   tail + (len > 600 ? len - 600 : 0));
      return FALSE;
    }
  if (attempt >= RUNNER_START_ATTEMPTS)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED,
                   "the app could not start in %u tries, with fewer replays beside it each "
                   "time (%s)%s%s", attempt,
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : "no reason given",
                   len > 0 ? "; its stderr ends with: " : "",
                   tail + (len > 600 ? len - 600 : 0));
      return FALSE;
    }
  if (runner->active > 1)
    {
      runner->active--;
      runner->ceiling = runner->active;
      g_debug ("the app could not start; %u workers from now on", runner->active);
    }
  return TRUE;
}

void
run_result_clear (RunResult *result)
{
  replay_result_clear (&result->replay);
}
