/* worker.c — one of the runner's workers: its X server and the cookie
 * its tests get, its running test's stdin (the frame a launcher's test
 * reads) and how that test is stopped, in stages, through the launcher.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>

/* (Here, the lowest of the runner's files: all of them say their errors
 * with it.) */
G_DEFINE_QUARK (xreduce-runner-error-quark, runner_error)

void
worker_close_stdin (Worker *worker)
{
  g_clear_handle_id (&worker->stdin_source, g_source_remove);
  g_clear_pointer (&worker->frame, g_bytes_unref);
  if (worker->stdin_fd >= 0)
    close (worker->stdin_fd);
  worker->stdin_fd = -1;
}

void
worker_free (Worker *worker)
{
  /* runner_free() has asked it to stop already: through a launcher, its
   * stdin is closed and the launcher has SIGUSR1; SIGTERM only after the
   * grace, SIGKILL once it is gone (proc_child_kill). */
  if (worker->process != NULL && worker->stop_stage > 0
      && !proc_child_wait (worker->process, RUNNER_LAUNCHER_GRACE_MS))
    proc_child_kill (worker->process, RUNNER_LAUNCHER_KILL_MS);
  else if (worker->process != NULL)
    proc_child_kill (worker->process, RUNNER_KILL_GRACE_MS);
  worker_close_stdin (worker);
  g_clear_handle_id (&worker->stop_id, g_source_remove);
  g_clear_pointer (&worker->process, proc_child_free);
  g_clear_handle_id (&worker->timeout_id, g_source_remove);
  if (worker->server != NULL)
    xserver_free (worker->server);
  g_clear_pointer (&worker->background, background_free);
  g_free (worker->xauthority);
  g_free (worker->path);
  g_free (worker);
}

/* The worker's server admits only clients with its cookie (xreplay, the
 * app in its sandbox, a --test oracle): the XAUTHORITY they get is a file
 * in the workdir, which goes with it (also after a SIGKILL). */
gboolean
worker_write_xauthority (Runner *runner, Worker *worker, GError **error)
{
  g_free (worker->xauthority);
  worker->xauthority = g_strdup_printf ("%s/xauthority-%u", runner->workdir, worker->id);
  return xserver_write_xauthority (worker->server, worker->xauthority, error);
}

XServerOptions
worker_server_options (Runner *runner, Worker *worker, gboolean first)
{
  static const char *const no_glx[] = { "GLX", NULL };

  worker->no_glx = !runner->glx_needed && runner->test_argv == NULL
                   && !(first && worker->id < runner->options.glx_first);
  return (XServerOptions) { .kind = XSERVER_XVFB,
                            .width = runner->options.screen_width,
                            .height = runner->options.screen_height,
                            .no_autorepeat = TRUE, .auth = TRUE,
                            .disable = worker->no_glx ? no_glx : NULL };
}

gboolean
worker_start_server (Runner *runner, Worker *worker, GError **error)
{
  XServerOptions options;

  if ((runner->options.fresh_server && runner->test_argv == NULL)
      || runner->launcher_argv != NULL)
    return TRUE;
  g_clear_pointer (&worker->server, xserver_free);
  options = worker_server_options (runner, worker, FALSE);
  worker->server = xserver_start (&options, RUNNER_SERVER_TIMEOUT_MS, error);
  worker->ready = worker->server != NULL && worker_write_xauthority (runner, worker, error);
  return worker->ready;
}

gboolean
worker_ensure_ready (Runner *runner, Worker *worker, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (worker->server == NULL || worker->ready)
    return TRUE;
  worker->ready = xserver_wait_ready (worker->server, RUNNER_SERVER_TIMEOUT_MS, &local)
                  && worker_write_xauthority (runner, worker, &local);
  /* Its socket file taken by another server's exit (xserver.h): a new
   * server, as xserver_start() would start. */
  if (!worker->ready && g_error_matches (local, XSERVER_ERROR, XSERVER_ERROR_SOCKET_GONE))
    {
      g_debug ("worker %u: %s; starting another", worker->id, local->message);
      return worker_start_server (runner, worker, error);
    }
  if (!worker->ready)
    g_propagate_error (error, g_steal_pointer (&local));
  return worker->ready;
}

/* Workers running a test now. */
static guint
n_busy (Runner *runner)
{
  guint n = 0;

  for (guint w = 0; w < runner->workers->len; w++)
    n += ((Worker *) g_ptr_array_index (runner->workers, w))->process != NULL;
  return n;
}

/* An idle worker, if the pool may run one more test now. */
Worker *
worker_find_idle (Runner *runner)
{
  if (n_busy (runner) >= runner->active)
    return NULL;
  for (guint w = 0; w < runner->workers->len; w++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, w);
      if (worker->process == NULL)
        return worker;
    }
  return NULL;
}

gboolean
worker_timer_fired (Worker *worker, guint *id)
{
  *id = 0;
  return worker->process != NULL;
}

/* The next stage of stopping a test that runs through the launcher
 * (runner.h): SIGUSR1, SIGTERM after the grace, SIGKILL last. */
static gboolean
on_stop_stage (gpointer data)
{
  Worker *worker = data;

  if (!worker_timer_fired (worker, &worker->stop_id))
    return G_SOURCE_REMOVE;
  worker->stop_stage++;
  g_debug ("worker %u: the launcher gets %s", worker->id,
           worker->stop_stage == 2 ? "SIGUSR1" : worker->stop_stage == 3 ? "SIGTERM" : "SIGKILL");
  proc_child_signal (worker->process, worker->stop_stage == 2 ? SIGUSR1
                                      : worker->stop_stage == 3 ? SIGTERM : SIGKILL);
  if (worker->stop_stage < 4)
    worker->stop_id = g_timeout_add (worker->stop_stage == 2 ? RUNNER_LAUNCHER_GRACE_MS
                                                             : RUNNER_LAUNCHER_KILL_MS,
                                     on_stop_stage, worker);
  return G_SOURCE_REMOVE;
}

/* Stops a test that runs through the launcher: its stdin first (xreplay
 * stops and cleans up where it runs), never a signal that would cut the
 * launcher off from it first. */
void
worker_stop_launched (Worker *worker)
{
  if (worker->stop_stage > 0)
    return;
  worker->stop_stage = 1;
  g_debug ("worker %u: stopping the test through the launcher: its stdin closed", worker->id);
  worker_close_stdin (worker);
  worker->stop_id = g_timeout_add (RUNNER_LAUNCHER_SIGNAL_MS, on_stop_stage, worker);
}

void
worker_kill (Worker *worker)
{
  if (worker->process == NULL || worker->killed)
    return;
  worker->killed = TRUE;
  if (worker->launched)
    {
      worker_stop_launched (worker);
      return;
    }
  /* xreplay cleans up its app on SIGTERM; the group kill reaches
   * everything else the test started. */
  proc_child_signal (worker->process, SIGTERM);
}

/* The running tests' X servers, every RUNNER_SERVER_WATCH_MS: one that
 * is stopped (SIGSTOP: a debugger, a stray kill) answers no client, and
 * its test's xreplay waits in Xlib for ever, past any bound of its own.
 * Seen stopped RUNNER_SERVER_STOPPED_LOOKS times in a row, it costs its
 * test a second, not the per-test limit: the test is killed and is an
 * infrastructure failure (runner_on_test_done), run again on a fresh server. */
gboolean
worker_on_server_watch (gpointer data)
{
  Runner *runner = data;
  gboolean any = FALSE;

  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);

      if (worker->process == NULL || worker->server == NULL || worker->launched)
        continue;
      any = TRUE;
      if (!xserver_is_stopped (worker->server))
        {
          worker->stopped_looks = 0;
          continue;
        }
      if (++worker->stopped_looks < RUNNER_SERVER_STOPPED_LOOKS || worker->killed
          || worker->server_stopped)
        continue;
      g_debug ("worker %u: its X server %s is stopped: the test is killed", worker->id,
               xserver_get_display (worker->server));
      worker->server_stopped = TRUE;
      proc_child_signal (worker->process, SIGKILL);
    }
  if (!any)
    runner->server_watch = 0;
  return any ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Writes the frame to the launcher's stdin as it takes it; then the
 * socket stays open (closing it is the cancel). */
static gboolean
on_stdin_writable (int fd, GIOCondition condition, gpointer data)
{
  Worker *worker = data;
  gsize len = 0;
  const guint8 *bytes = g_bytes_get_data (worker->frame, &len);

  while (worker->frame_written < len)
    {
      gssize n = send (fd, bytes + worker->frame_written, len - worker->frame_written,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0)
        worker->frame_written += (gsize) n;
      else if (n < 0 && errno == EINTR)
        continue;
      else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return G_SOURCE_CONTINUE;
      else
        break;   /* the launcher is gone or reads no input: its end says the rest */
    }
  worker->stdin_source = 0;
  g_clear_pointer (&worker->frame, g_bytes_unref);
  return G_SOURCE_REMOVE;
}

/* The test's stdin through the launcher: a socket (send() without
 * SIGPIPE) whose other end the launcher gets, and the frame to write. */
gboolean
worker_open_stdin (Worker *worker, Session *session, int *child_end, GError **error)
{
  Runner *runner = worker->runner;
  g_autofree char *own = NULL;
  const char *text;

  if (session == runner->shared && runner->shared != NULL)
    {
      /* The same session for several tests: as text once. */
      if (runner->shared_text == NULL)
        runner->shared_text = session_to_string (session);
      text = runner->shared_text;
    }
  else
    text = own = session_to_string (session);
  g_autofree char *header = frame_header (strlen (text));
  g_autofree char *frame = g_strconcat (header, text, NULL);
  gsize len = strlen (frame);
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      int saved = errno;
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "cannot make a socket for a test's "
                   "stdin: %s", g_strerror (saved));
      return FALSE;
    }
  /* One way: the launcher only reads it. */
  shutdown (fds[0], SHUT_RD);
  worker->stdin_fd = fds[0];
  *child_end = fds[1];
  worker->frame = g_bytes_new_take (g_steal_pointer (&frame), len);
  worker->frame_written = 0;
  worker->stdin_source = g_unix_fd_add (worker->stdin_fd, G_IO_OUT | G_IO_ERR | G_IO_HUP,
                                        on_stdin_writable, worker);
  return TRUE;
}

void
background_free (Background *bg)
{
  if (!bg->shared)
    session_free (bg->session);
  g_free (bg->report_dir);
  g_free (bg);
}
