/* proc.c — what is left of process plumbing once children have their
 * files (see proc.h): another's process watched until it ends, a line a
 * child writes when it is ready, a wait status in words, a command line
 * split, a short job run to its end.
 *
 * A child of ours is child.c's (its descriptors, its exit, waits and
 * signals), put on the keeper's list by keeper.c's proc_spawn(); the
 * temporary folders are tempdir.c's. Start reading at proc_spawn().
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proc.h"
#include "proc-private.h"
#include "interrupt.h"
#include "signame.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

/* ---- another's process ---- */

struct ProcGoneWatch
{
  int pidfd;                 /* owned, or -1 */
  guint fd_source, timer, idle;
  ProcGoneFunc func;
  gpointer user_data;
};

/* The source at @fired (its callback returns G_SOURCE_REMOVE) and the
 * others end, and the watcher hears whether the process is @gone. */
static gboolean
gone_watch_fired (ProcGoneWatch *watch, guint *fired, gboolean gone)
{
  ProcGoneFunc func = watch->func;

  *fired = 0;
  watch->func = NULL;
  if (watch->fd_source != 0)
    g_source_remove (watch->fd_source);
  if (watch->timer != 0)
    g_source_remove (watch->timer);
  watch->fd_source = watch->timer = watch->idle = 0;
  if (func != NULL)
    func (gone, watch->user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
on_gone_fd (int fd, GIOCondition condition, gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  return gone_watch_fired (watch, &watch->fd_source, TRUE);
}

static gboolean
on_gone_timeout (gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  return gone_watch_fired (watch, &watch->timer, FALSE);
}

static gboolean
on_gone_already (gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  return gone_watch_fired (watch, &watch->idle, TRUE);
}

ProcGoneWatch *
proc_watch_gone (pid_t pid, guint timeout_ms, ProcGoneFunc func, gpointer user_data)
{
  ProcGoneWatch *watch = g_new0 (ProcGoneWatch, 1);

  watch->func = func;
  watch->user_data = user_data;
  watch->pidfd = pid > 0 ? proc_pidfd_open (pid) : -1;
  if (watch->pidfd < 0)
    {
      /* ESRCH: gone (reaped) already. Without pidfds (Linux < 5.3),
       * /proc says, now. */
      if (errno == ESRCH || pid <= 0 || proc_is_gone (pid))
        watch->idle = g_idle_add (on_gone_already, watch);
      else
        watch->timer = g_timeout_add (timeout_ms, on_gone_timeout, watch);
      return watch;
    }
  fcntl (watch->pidfd, F_SETFD, FD_CLOEXEC);
  watch->fd_source = g_unix_fd_add (watch->pidfd, G_IO_IN, on_gone_fd, watch);
  watch->timer = g_timeout_add (timeout_ms, on_gone_timeout, watch);
  return watch;
}

void
proc_gone_watch_free (ProcGoneWatch *watch)
{
  if (watch == NULL)
    return;
  if (watch->fd_source != 0)
    g_source_remove (watch->fd_source);
  if (watch->timer != 0)
    g_source_remove (watch->timer);
  if (watch->idle != 0)
    g_source_remove (watch->idle);
  if (watch->pidfd >= 0)
    close (watch->pidfd);
  g_free (watch);
}

gboolean
proc_is_gone (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  const char *paren;

  if (pid <= 0 || !g_file_get_contents (path, &text, NULL, NULL))
    return TRUE;
  /* "PID (comm) S ...": the state after the last ')' (comm may hold one). */
  paren = strrchr (text, ')');
  return paren != NULL && (paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}
/* ---- small helpers ---- */

char *
proc_read_line (int fd, guint timeout_ms, gsize max, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  g_autoptr (GString) line = g_string_new (NULL);

  while (line->len < max)
    {
      struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
                             { .fd = proc_interrupt_get_fd (), .events = POLLIN } };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      char buf[256];
      char *nl;
      ssize_t n;
      int r;

      if (!proc_check_interrupt (error))
        return NULL;
      if (left <= 0)
        {
          g_set_error (error, PROC_ERROR, PROC_ERROR_TIMED_OUT,
                       "no answer within %u ms", timeout_ms);
          return NULL;
        }
      r = poll (p, p[1].fd >= 0 ? 2 : 1, (int) left);
      if (r <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;   /* EINTR, a signal, or the deadline: checked above */
      /* One byte short of the buffer: a line is read up to its newline,
       * never past it (what follows is not ours to take). */
      n = read (fd, buf, MIN (sizeof buf - 1, max - line->len));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED, "it exited before it was ready");
          return NULL;
        }
      buf[n] = '\0';
      nl = memchr (buf, '\n', (size_t) n);
      g_string_append_len (line, buf, nl != NULL ? nl - buf : n);
      if (nl != NULL)
        return g_string_free (g_steal_pointer (&line), FALSE);
    }
  g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED, "it wrote more than %" G_GSIZE_FORMAT
               " bytes without a newline", max);
  return NULL;
}

char *
proc_describe_wait_status (int wait_status)
{
  if (WIFSIGNALED (wait_status))
    {
      const char *name = proc_signal_name (WTERMSIG (wait_status));
      return name != NULL
        ? g_strdup_printf ("was killed by signal %d (%s)", WTERMSIG (wait_status), name)
        : g_strdup_printf ("was killed by signal %d", WTERMSIG (wait_status));
    }
  return g_strdup_printf ("exited with status %d", WEXITSTATUS (wait_status));
}

GStrv
proc_command_parse (const char *command, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *path = NULL;
  int argc = 0;

  if (!g_shell_parse_argv (command, &argc, &argv, &local))
    {
      g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED, "not a command line: %s",
                   local->message);
      return NULL;
    }
  path = g_find_program_in_path (argv[0]);
  if (path == NULL)
    {
      g_autofree char *quoted = g_shell_quote (argv[0]);
      g_set_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND, "%s: no such program in PATH",
                   quoted);
      return NULL;
    }
  return g_steal_pointer (&argv);
}

gboolean
proc_run (const char *const *argv, guint timeout_ms, GError **error)
{
  g_autoptr (ProcChild) child = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *path = NULL;
  g_autofree char *said = NULL;
  g_autofree char *how = NULL;
  ProcSpawnOptions spawn;
  char buf[1024];
  struct stat st;
  ssize_t n = 0;
  int log_fd;

  /* Its stderr goes to an unlinked file, not a pipe: nobody reads a pipe
   * while we wait, and a full one would stall it. */
  log_fd = g_file_open_tmp ("xreduce-run-XXXXXX.log", &path, error);
  if (log_fd < 0)
    return FALSE;
  g_unlink (path);
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.err = PROC_OUTPUT_FD;
  spawn.output_fd = log_fd;
  child = proc_spawn (&spawn, error);
  if (child == NULL)
    {
      close (log_fd);
      return FALSE;
    }
  if (!proc_child_wait (child, timeout_ms))
    {
      close (log_fd);
      g_set_error (error, PROC_ERROR, PROC_ERROR_TIMED_OUT, "%s did not finish within %u s",
                   argv[0], timeout_ms / 1000);
      return FALSE;
    }
  if (WIFEXITED (proc_child_get_wait_status (child))
      && WEXITSTATUS (proc_child_get_wait_status (child)) == 0)
    {
      close (log_fd);
      return TRUE;
    }
  if (fstat (log_fd, &st) == 0)
    n = pread (log_fd, buf, sizeof buf - 1,
               st.st_size > (off_t) sizeof buf - 1 ? st.st_size - (off_t) sizeof buf + 1 : 0);
  close (log_fd);
  said = g_strstrip (g_utf8_make_valid (buf, MAX (n, 0)));
  how = proc_describe_wait_status (proc_child_get_wait_status (child));
  g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED, "%s %s%s%s", argv[0], how,
               *said ? ": " : "", said);
  return FALSE;
}
