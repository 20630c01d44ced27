/* xserver.c — starting and stopping a private Xvfb.
 *
 * Start reading at xserver_start(). Readiness is Xvfb's own signal: with
 * -displayfd it writes the display number it chose to the descriptor once
 * it accepts connections. If it dies first the pipe reaches EOF (we hold no
 * copy of the write end), so a missing keymap compiler or a full /tmp is
 * reported at once, with the tail of the server's own messages, which go
 * to an unlinked temporary file (a pipe nobody reads could fill and stall
 * a long-lived server).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "xserver.h"
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

struct XServer
{
  pid_t pid;                 /* also its process group */
  int pidfd;                 /* owned, or -1 */
  char *display;             /* ":N" */
  gboolean running;
  int log_fd;                /* owned: the server's stdout and stderr */
  int ready_fd;              /* owned until ready: where it writes its display, or -1 */
};

G_DEFINE_QUARK (xserver-error-quark, xserver_error)

/* The last @max bytes of the server's messages, for error messages. */
static char *
xserver_log_tail (XServer *server, gsize max)
{
  struct stat st;
  g_autofree char *buf = NULL;
  off_t start;
  ssize_t n;

  if (server->log_fd < 0 || fstat (server->log_fd, &st) != 0 || st.st_size == 0)
    return g_strdup ("");
  start = st.st_size > (off_t) max ? st.st_size - (off_t) max : 0;
  buf = g_malloc0 (max + 1);
  n = pread (server->log_fd, buf, max, start);
  if (n <= 0)
    return g_strdup ("");
  buf[n] = '\0';
  return g_strstrip (g_utf8_make_valid (buf, n));
}

static void
xserver_set_died_error (XServer *server, int status, GError **error)
{
  g_autofree char *tail = xserver_log_tail (server, 600);
  g_autofree char *how = NULL;

  if (WIFSIGNALED (status))
    how = g_strdup_printf ("was killed by signal %d", WTERMSIG (status));
  else
    how = g_strdup_printf ("exited with status %d", WEXITSTATUS (status));
  g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
               "Xvfb %s before it was ready%s%s", how, *tail ? ": " : "", tail);
}

/* Reads "N\n" from @fd within @timeout_ms. */
static gboolean
xserver_read_display (XServer *server, int fd, guint timeout_ms, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  char buf[32];
  gsize len = 0;

  while (len < sizeof buf - 1)
    {
      struct pollfd p = { .fd = fd, .events = POLLIN };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      ssize_t n;
      int r;

      if (left <= 0)
        {
          g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                       "Xvfb did not report its display within %u ms", timeout_ms);
          return FALSE;
        }
      r = poll (&p, 1, (int) left);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        continue;   /* the deadline check reports the timeout */
      n = read (fd, buf + len, sizeof buf - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int status = 0;
          /* EOF: the server is gone (or closed the pipe and is going). */
          if (child_reap_within (server->pid, server->pidfd, 2000, &status))
            server->running = FALSE;
          xserver_set_died_error (server, status, error);
          return FALSE;
        }
      len += (gsize) n;
      buf[len] = '\0';
      if (strchr (buf, '\n') != NULL)
        {
          char *end = NULL;
          guint64 number = g_ascii_strtoull (buf, &end, 10);

          if (end == buf || (*end != '\n' && *end != '\r'))
            break;
          server->display = g_strdup_printf (":%" G_GUINT64_FORMAT, number);
          return TRUE;
        }
    }
  g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
               "Xvfb wrote something that is not a display number: '%s'", g_strstrip (buf));
  return FALSE;
}

XServer *
xserver_start (int width, int height, GError **error)
{
  g_autoptr (XServer) server = xserver_spawn (width, height, error);

  if (server == NULL || !xserver_wait_ready (server, error))
    return NULL;
  return g_steal_pointer (&server);
}

gboolean
xserver_wait_ready (XServer *server, GError **error)
{
  gboolean ok;

  if (server->ready_fd < 0)
    return server->display != NULL;
  ok = xserver_read_display (server, server->ready_fd, XSERVER_START_TIMEOUT_MS, error);
  close (server->ready_fd);
  server->ready_fd = -1;
  return ok;
}

XServer *
xserver_spawn (int width, int height, GError **error)
{
  g_autoptr (XServer) server = g_new0 (XServer, 1);
  g_autoptr (GError) local = NULL;
  g_autofree char *screen = NULL;
  g_autofree char *log_path = NULL;
  int fds[2];
  const int target_fd = 3;
  GPid pid = 0;
  gboolean ok;

  server->pidfd = -1;
  server->log_fd = -1;
  server->ready_fd = -1;
  if (width <= 0 || height <= 0 || width > 32767 || height > 32767)
    {
      g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                   "bad screen size %dx%d", width, height);
      return NULL;
    }
  screen = g_strdup_printf ("%dx%dx24", width, height);
  {
    g_autofree char *fd_arg = g_strdup_printf ("%d", target_fd);
    const char *argv[] = {
      "Xvfb", "-displayfd", fd_arg, "-screen", "0", screen,
      "-nolisten", "tcp", "-noreset", "-r", NULL,
    };

    server->log_fd = g_file_open_tmp ("xreduce-xvfb-XXXXXX.log", &log_path, &local);
    if (server->log_fd < 0)
      {
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                     "cannot start Xvfb: %s", local->message);
        return NULL;
      }
    g_unlink (log_path);
    if (!g_unix_open_pipe (fds, FD_CLOEXEC, &local))
      {
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                     "cannot start Xvfb: %s", local->message);
        return NULL;
      }
    ok = g_spawn_async_with_pipes_and_fds (NULL, argv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH
                                           | G_SPAWN_STDIN_FROM_DEV_NULL,
                                           child_setup_own_group,
                                           GINT_TO_POINTER ((int) getpid ()),
                                           -1, server->log_fd, server->log_fd,
                                           &fds[1], &target_fd, 1,
                                           &pid, NULL, NULL, NULL, &local);
    close (fds[1]);
  }
  if (!ok)
    {
      close (fds[0]);
      if (g_error_matches (local, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_NOT_FOUND,
                     "cannot start Xvfb: %s (is the xvfb package installed?)",
                     local->message);
      else
        g_set_error (error, XSERVER_ERROR, XSERVER_ERROR_FAILED,
                     "cannot start Xvfb: %s", local->message);
      return NULL;
    }
  server->pid = pid;
  server->running = TRUE;
  setpgid (pid, pid);
  server->pidfd = child_pidfd_open (pid);   /* -1: waits fall back to polling */

  server->ready_fd = fds[0];
  return g_steal_pointer (&server);
}

const char *
xserver_get_display (const XServer *server)
{
  return server->display;
}

pid_t
xserver_get_pid (const XServer *server)
{
  return server->pid;
}

gboolean
xserver_is_alive (XServer *server)
{
  int status;

  if (!server->running)
    return FALSE;
  if (waitpid (server->pid, &status, WNOHANG) == server->pid)
    server->running = FALSE;
  return server->running;
}

void
xserver_stop (XServer *server)
{
  if (server->running)
    {
      kill (-server->pid, SIGTERM);
      kill (server->pid, SIGTERM);
      if (!child_reap_within (server->pid, server->pidfd, 3000, NULL))
        {
          kill (-server->pid, SIGKILL);
          kill (server->pid, SIGKILL);
          child_reap_within (server->pid, server->pidfd, 5000, NULL);
        }
      server->running = FALSE;
    }
  if (server->pidfd >= 0)
    close (server->pidfd);
  server->pidfd = -1;
}

void
xserver_free (XServer *server)
{
  if (server == NULL)
    return;
  xserver_stop (server);
  if (server->ready_fd >= 0)
    close (server->ready_fd);
  if (server->log_fd >= 0)
    close (server->log_fd);
  g_free (server->display);
  g_free (server);
}
