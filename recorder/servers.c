/* servers.c — starting and stopping Xephyr and Xvfb (see servers.h).
 *
 * Start reading at server_start(): spawn with fd 3 as the write end of a
 * pipe, read the display number the server writes there when it is ready.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "servers.h"

#include <errno.h>
#include <glib-unix.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

G_DEFINE_QUARK (server-error-quark, server_error)

/* Long enough for a loaded CI machine to start an X server. */
#define SERVER_START_TIMEOUT_MS 20000
#define SERVER_STOP_TIMEOUT_MS 3000

struct RecordServer
{
  GPid pid;                /* the server, leader of its process group; 0 once reaped */
  char *display;           /* ":N" */
  char *name;              /* "Xephyr", "Xvfb" */
};

void
server_child_setup (gpointer user_data)
{
  setpgid (0, 0);
  /* Nothing outlives xrecord, even a SIGKILLed one. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* Reads the display number, until a newline, EOF (the server died) or
 * the timeout. */
static char *
read_display (int fd, GError **error)
{
  char buf[32];
  gsize len = 0;
  gint64 deadline = g_get_monotonic_time () + SERVER_START_TIMEOUT_MS * 1000;

  while (len < sizeof buf - 1)
    {
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
      ssize_t n;

      if (left <= 0 || poll (&pfd, 1, left) == 0)
        {
          g_set_error (error, SERVER_ERROR, SERVER_ERROR_FAILED,
                       "did not report a display within %d s",
                       SERVER_START_TIMEOUT_MS / 1000);
          return NULL;
        }
      n = read (fd, buf + len, sizeof buf - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      len += (gsize) n;
      if (memchr (buf, '\n', len) != NULL)
        break;
    }
  buf[len] = '\0';
  g_strstrip (buf);
  if (len == 0 || buf[0] == '\0' || strspn (buf, "0123456789") != strlen (buf))
    {
      g_set_error (error, SERVER_ERROR, SERVER_ERROR_FAILED,
                   "exited before it was ready");
      return NULL;
    }
  return g_strdup_printf (":%s", buf);
}

RecordServer *
server_start (ServerKind kind, int width, int height, const char *title,
              GError **error)
{
  g_autoptr (RecordServer) server = g_new0 (RecordServer, 1);
  g_autofree char *screen = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) local_error = NULL;
  int fds[2];
  int source_fds[1], target_fds[1] = { 3 };
  char *display;

  server->name = g_strdup (kind == SERVER_XEPHYR ? "Xephyr" : "Xvfb");
  path = g_find_program_in_path (server->name);
  if (path == NULL)
    {
      g_set_error (error, SERVER_ERROR, SERVER_ERROR_NOT_INSTALLED,
                   "%s is not installed (Debian: apt install %s)", server->name,
                   kind == SERVER_XEPHYR ? "xserver-xephyr" : "xvfb");
      return NULL;
    }
  screen = kind == SERVER_XEPHYR ? g_strdup_printf ("%dx%d", width, height)
                                 : g_strdup_printf ("%dx%dx24", width, height);
  g_ptr_array_add (argv, path);
  g_ptr_array_add (argv, "-displayfd");
  g_ptr_array_add (argv, "3");
  g_ptr_array_add (argv, "-nolisten");
  g_ptr_array_add (argv, "tcp");
  g_ptr_array_add (argv, "-noreset");
  if (kind == SERVER_XEPHYR)
    {
      g_ptr_array_add (argv, "-screen");
      g_ptr_array_add (argv, screen);
      /* The user's keyboard stays the user's: no grab on the host. */
      g_ptr_array_add (argv, "-no-host-grab");
      if (title != NULL)
        {
          g_ptr_array_add (argv, "-title");
          g_ptr_array_add (argv, (char *) title);
        }
    }
  else
    {
      g_ptr_array_add (argv, "-screen");
      g_ptr_array_add (argv, "0");
      g_ptr_array_add (argv, screen);
    }
  g_ptr_array_add (argv, NULL);

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    return NULL;
  source_fds[0] = fds[1];
  /* The server's chatter goes to /dev/null: xrecord reports failures. */
  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) argv->pdata,
                                         NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD
                                         | G_SPAWN_STDOUT_TO_DEV_NULL
                                         | G_SPAWN_STDERR_TO_DEV_NULL,
                                         server_child_setup, NULL, -1, -1, -1,
                                         source_fds, target_fds, 1, &server->pid,
                                         NULL, NULL, NULL, &local_error))
    {
      close (fds[0]);
      close (fds[1]);
      g_set_error (error, SERVER_ERROR, SERVER_ERROR_FAILED,
                   "cannot start %s: %s", server->name, local_error->message);
      return NULL;
    }
  close (fds[1]);
  display = read_display (fds[0], &local_error);
  close (fds[0]);
  if (display == NULL)
    {
      g_set_error (error, SERVER_ERROR, SERVER_ERROR_FAILED, "%s %s",
                   server->name, local_error->message);
      return NULL;     /* server_free stops it */
    }
  server->display = display;
  g_debug ("%s (pid %d) on %s", server->name, (int) server->pid, display);
  return g_steal_pointer (&server);
}

const char *
server_get_display (RecordServer *server)
{
  return server->display;
}

GPid
server_get_pid (RecordServer *server)
{
  return server->pid;
}

void
server_stop (RecordServer *server)
{
  gint64 deadline;

  if (server->pid <= 0)
    return;
  kill (-server->pid, SIGTERM);
  deadline = g_get_monotonic_time () + SERVER_STOP_TIMEOUT_MS * 1000;
  for (;;)
    {
      pid_t r = waitpid (server->pid, NULL, WNOHANG);

      if (r == server->pid || (r < 0 && errno != EINTR))
        break;
      if (g_get_monotonic_time () > deadline)
        {
          kill (-server->pid, SIGKILL);
          waitpid (server->pid, NULL, 0);
          break;
        }
      g_usleep (10 * 1000);   /* polling a dying process, not synchronising */
    }
  /* Anything the server left in its group. */
  kill (-server->pid, SIGKILL);
  server->pid = 0;
}

void
server_free (RecordServer *server)
{
  if (server == NULL)
    return;
  server_stop (server);
  g_free (server->display);
  g_free (server->name);
  g_free (server);
}
