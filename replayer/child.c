/* child.c — spawning, watching and killing the app under test.
 *
 * Start reading at child_spawn(). The exit is watched with a pidfd rather
 * than g_child_watch_add(): GLib's child watch reaps from its worker
 * thread, and child_kill() has to wait for the app synchronously (bounded)
 * after the main loop has stopped; with a pidfd both the asynchronous watch
 * and the bounded wait are a poll() on the same descriptor, and the one
 * waitpid() is ours.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <gio/gio.h>
#include <glib-unix.h>

struct Child
{
  pid_t pid;                 /* also the process group id */
  int pidfd;                 /* owned, -1 once closed */
  guint pidfd_source;
  gboolean exited;
  int wait_status;
  ChildExitFunc on_exit;
  gpointer user_data;

  int stderr_fd;             /* owned, -1 at EOF */
  guint stderr_source;
  GByteArray *stderr_buf;    /* at most 2 * CHILD_STDERR_KEEP, trimmed */
  gboolean verbose;
};

void
child_setup_own_group (gpointer user_data)
{
  pid_t parent = (pid_t) GPOINTER_TO_INT (user_data);

  /* Runs in the child between fork and exec: async-signal-safe calls only. */
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  /* The parent may have died before prctl: then nobody would kill us. */
  if (parent != 0 && getppid () != parent)
    _exit (127);
}

int
child_pidfd_open (pid_t pid)
{
#ifdef SYS_pidfd_open
  return (int) syscall (SYS_pidfd_open, pid, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

gboolean
child_reap_within (pid_t pid, int pidfd, guint timeout_ms, int *wait_status)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  int status = 0;

  for (;;)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);
      gint64 left;

      if (r == pid || (r < 0 && errno == ECHILD))
        {
          if (wait_status != NULL)
            *wait_status = r == pid ? status : 0;
          return TRUE;
        }
      if (r < 0 && errno != EINTR)
        return FALSE;
      left = (deadline - g_get_monotonic_time ()) / 1000;
      if (left <= 0)
        return FALSE;
      if (pidfd >= 0)
        {
          struct pollfd p = { .fd = pidfd, .events = POLLIN };
          poll (&p, 1, (int) MIN (left, 1000));
        }
      else
        g_usleep (MIN (left, 5) * 1000);   /* no pidfd (old kernel) */
    }
}

static void
child_stderr_append (Child *child, const guint8 *data, gsize len)
{
  if (child->verbose)
    {
      /* Best effort echo; a closed stderr is no reason to stop. */
      if (write (STDERR_FILENO, data, len) < 0)
        {
        }
    }
  g_byte_array_append (child->stderr_buf, data, (guint) len);
  if (child->stderr_buf->len > 2 * CHILD_STDERR_KEEP)
    g_byte_array_remove_range (child->stderr_buf, 0,
                               child->stderr_buf->len - CHILD_STDERR_KEEP);
}

/* Reads what is available; FALSE at EOF or on error. */
static gboolean
child_read_stderr (Child *child)
{
  guint8 buf[8192];

  while (child->stderr_fd >= 0)
    {
      ssize_t n = read (child->stderr_fd, buf, sizeof buf);

      if (n > 0)
        child_stderr_append (child, buf, (gsize) n);
      else if (n < 0 && errno == EINTR)
        continue;
      else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return TRUE;
      else
        return FALSE;
    }
  return FALSE;
}

static void
child_close_stderr (Child *child)
{
  if (child->stderr_source != 0)
    g_source_remove (child->stderr_source);
  child->stderr_source = 0;
  if (child->stderr_fd >= 0)
    close (child->stderr_fd);
  child->stderr_fd = -1;
}

static gboolean
on_stderr (int fd, GIOCondition condition, gpointer user_data)
{
  Child *child = user_data;

  if (child_read_stderr (child))
    return G_SOURCE_CONTINUE;
  child->stderr_source = 0;
  if (child->stderr_fd >= 0)
    close (child->stderr_fd);
  child->stderr_fd = -1;
  return G_SOURCE_REMOVE;
}

static void
child_note_exit (Child *child, int status)
{
  child->exited = TRUE;
  child->wait_status = status;
  if (child->pidfd_source != 0)
    g_source_remove (child->pidfd_source);
  child->pidfd_source = 0;
  if (child->pidfd >= 0)
    close (child->pidfd);
  child->pidfd = -1;
}

static gboolean
on_pidfd (int fd, GIOCondition condition, gpointer user_data)
{
  Child *child = user_data;
  int status = 0;
  pid_t r;

  do
    r = waitpid (child->pid, &status, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == 0)
    return G_SOURCE_CONTINUE;   /* spurious */
  child->pidfd_source = 0;      /* returning REMOVE destroys it */
  child_note_exit (child, r == child->pid ? status : 0);
  if (child->on_exit != NULL)
    child->on_exit (child, child->wait_status, child->user_data);
  return G_SOURCE_REMOVE;
}

Child *
child_spawn (const char *const *argv, const char *display, gboolean verbose,
             ChildExitFunc on_exit, gpointer user_data, GError **error)
{
  g_autoptr (Child) child = g_new0 (Child, 1);
  g_auto (GStrv) envp = g_get_environ ();
  int stdout_fd, stderr_pipe = -1;
  GPid pid = 0;
  gboolean ok;

  child->pidfd = -1;
  child->stderr_fd = -1;
  child->stderr_buf = g_byte_array_new ();
  child->verbose = verbose;
  child->on_exit = on_exit;
  child->user_data = user_data;

  if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT, "no program to run");
      return NULL;
    }
  if (display != NULL)
    envp = g_environ_setenv (envp, "DISPLAY", display, TRUE);

  stdout_fd = verbose ? dup (STDERR_FILENO) : open ("/dev/null", O_WRONLY | O_CLOEXEC);
  ok = g_spawn_async_with_pipes_and_fds (NULL, argv, (const char *const *) envp,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH,
                                         child_setup_own_group,
                                         GINT_TO_POINTER ((int) getpid ()),
                                         -1, stdout_fd, -1, NULL, NULL, 0,
                                         &pid, NULL, NULL, &stderr_pipe, error);
  if (stdout_fd >= 0)
    close (stdout_fd);
  if (!ok)
    return NULL;
  child->pid = pid;
  /* Also from here: the child may run before setpgid in it. */
  setpgid (pid, pid);

  child->pidfd = child_pidfd_open (pid);
  if (child->pidfd < 0)
    {
      int saved = errno;
      kill (pid, SIGKILL);
      child_reap_within (pid, -1, 2000, NULL);
      child->exited = TRUE;
      close (stderr_pipe);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot watch the app (pidfd_open needs Linux 5.3): %s",
                   g_strerror (saved));
      return NULL;
    }
  child->pidfd_source = g_unix_fd_add (child->pidfd, G_IO_IN, on_pidfd, child);

  child->stderr_fd = stderr_pipe;
  g_unix_set_fd_nonblocking (stderr_pipe, TRUE, NULL);
  child->stderr_source = g_unix_fd_add (stderr_pipe, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                        on_stderr, child);
  return g_steal_pointer (&child);
}

pid_t
child_get_pid (const Child *child)
{
  return child->pid;
}

gboolean
child_has_exited (const Child *child)
{
  return child->exited;
}

int
child_get_wait_status (const Child *child)
{
  return child->wait_status;
}

void
child_drain_stderr (Child *child)
{
  if (!child_read_stderr (child))
    child_close_stderr (child);
}

const char *
child_get_stderr (const Child *child, gsize *len)
{
  gsize skip = child->stderr_buf->len > CHILD_STDERR_KEEP
                 ? child->stderr_buf->len - CHILD_STDERR_KEEP : 0;

  *len = child->stderr_buf->len - skip;
  return (const char *) child->stderr_buf->data + skip;
}

void
child_kill (Child *child, guint grace_ms)
{
  int status = 0;

  if (child->pid <= 0)
    return;
  if (!child->exited)
    {
      kill (-child->pid, SIGTERM);
      kill (child->pid, SIGTERM);   /* in case setpgid lost a race */
      if (!child_reap_within (child->pid, child->pidfd, grace_ms, &status))
        {
          kill (-child->pid, SIGKILL);
          kill (child->pid, SIGKILL);
          /* SIGKILL cannot be ignored; the bound only guards against a
           * process stuck in the kernel. */
          child_reap_within (child->pid, child->pidfd, 5000, &status);
        }
      child_note_exit (child, status);
    }
  /* Whatever the app left in its group (helpers, a gdb) goes too. */
  kill (-child->pid, SIGKILL);
}

void
child_free (Child *child)
{
  if (child == NULL)
    return;
  child_kill (child, 200);
  child_close_stderr (child);
  if (child->pidfd_source != 0)
    g_source_remove (child->pidfd_source);
  if (child->pidfd >= 0)
    close (child->pidfd);
  g_byte_array_unref (child->stderr_buf);
  g_free (child);
}
