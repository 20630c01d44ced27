/* child.c — a child of ours, from its descriptors to its reaping (see
 * proc.h): the descriptors it starts with, the fork and exec (in a group
 * of its own, dying with us), its captured output, its exit watched
 * through a pidfd, the bounded waits, its signals.
 *
 * Start reading at proc_child_start(), which proc_spawn() (keeper.c)
 * calls between proc_child_prepare() and proc_child_watch_exit(). The
 * exit is watched with a pidfd rather than g_child_watch_add(): GLib's
 * child watch reaps from its worker thread, and proc_child_kill() has to
 * wait for the child synchronously (bounded) after the main loop has
 * stopped; with a pidfd both the asynchronous watch and the bounded wait
 * are a poll() on the same descriptor, and the one waitpid() is ours.
 * What this file does not know is the keeper: proc_spawn() and
 * proc_child_kill() put a child's group on its list and take it off.
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proc.h"
#include "proc-private.h"
#include "interrupt.h"
#include "signame.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <glib-unix.h>

G_DEFINE_QUARK (xreduce-proc-error-quark, proc_error)

#define PROC_STDERR_KEEP_DEFAULT (64 * 1024)

void
proc_spawn_options_init (ProcSpawnOptions *options)
{
  memset (options, 0, sizeof *options);
  options->stdin_fd = -1;
  options->output_fd = -1;
  options->pass_fd = -1;
  options->pass_fd4 = -1;
}

typedef struct
{
  pid_t parent;
  int death_signal;
  gboolean outlive;
  gboolean our_group;
  gboolean no_core_dump;
  int keeper_fd;             /* the keeper's socket, or -1: the group to put on its list */
} Setup;

/* "+ PID\n" on the keeper's socket, from the child itself: formatted by
 * hand (snprintf is not async-signal-safe). */
static void
child_register (int keeper_fd)
{
  char line[32];
  char digits[16];
  gsize n = 0, len = 0;
  unsigned long pid = (unsigned long) getpid ();

  do
    digits[n++] = (char) ('0' + pid % 10);
  while ((pid /= 10) > 0 && n < sizeof digits);
  line[len++] = '+';
  line[len++] = ' ';
  while (n > 0)
    line[len++] = digits[--n];
  line[len++] = '\n';
  /* One send of a few bytes: never interleaved with another line. */
  send (keeper_fd, line, len, MSG_NOSIGNAL);
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void
child_setup (gpointer user_data)
{
  const Setup *setup = user_data;

  if (!setup->our_group)
    setpgid (0, 0);
  if (setup->no_core_dump)
    {
      struct rlimit none = { 0, 0 };

      setrlimit (RLIMIT_CORE, &none);
    }
  /* The group goes on the keeper's list before the child can start
   * anything: registered by the parent after the spawn returned, a group
   * whose owner was killed in between (a loaded machine may not run the
   * owner again for a long time, while the child runs and forks) was
   * never the keeper's to kill, and its processes lived on. */
  if (setup->keeper_fd >= 0)
    child_register (setup->keeper_fd);
  if (setup->outlive)
    return;
  prctl (PR_SET_PDEATHSIG, setup->death_signal);
  /* The parent may have died before prctl: then nobody would kill us. */
  if (getppid () != setup->parent)
    _exit (127);
}

int
proc_pidfd_open (pid_t pid)
{
#ifdef SYS_pidfd_open
  return (int) syscall (SYS_pidfd_open, pid, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

/* ---- captured output ---- */

static void
capture_append (Capture *cap, const guint8 *data, gsize len)
{
  if (cap->echo)
    {
      /* Best effort; a closed stderr is no reason to stop. */
      if (write (STDERR_FILENO, data, len) < 0)
        {
        }
    }
  g_byte_array_append (cap->buf, data, (guint) len);
  if (cap->keep > 0 && cap->buf->len > 2 * cap->keep)
    g_byte_array_remove_range (cap->buf, 0, cap->buf->len - (guint) cap->keep);
}

/* Reads what is available; FALSE at EOF or on error. */
static gboolean
capture_read (Capture *cap)
{
  guint8 buf[8192];

  while (cap->fd >= 0)
    {
      ssize_t n = read (cap->fd, buf, sizeof buf);

      if (n > 0)
        capture_append (cap, buf, (gsize) n);
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
capture_close (Capture *cap)
{
  if (cap->source != 0)
    g_source_remove (cap->source);
  cap->source = 0;
  if (cap->fd >= 0)
    close (cap->fd);
  cap->fd = -1;
}

static gboolean
on_capture (int fd, GIOCondition condition, gpointer user_data)
{
  Capture *cap = user_data;

  if (capture_read (cap))
    return G_SOURCE_CONTINUE;
  cap->source = 0;           /* returning REMOVE destroys it */
  capture_close (cap);
  return G_SOURCE_REMOVE;
}

static void
capture_start (Capture *cap, int fd, gsize keep, gboolean echo)
{
  cap->fd = fd;
  cap->keep = keep;
  cap->echo = echo;
  if (fd < 0)
    return;
  g_unix_set_fd_nonblocking (fd, TRUE, NULL);
  cap->source = g_unix_fd_add (fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_capture, cap);
}

static const char *
capture_get (const Capture *cap, gsize *len)
{
  gsize skip = cap->keep > 0 && cap->buf->len > cap->keep ? cap->buf->len - cap->keep : 0;

  *len = cap->buf->len - skip;
  return cap->buf->len > 0 ? (const char *) cap->buf->data + skip : "";
}

void
proc_child_drain (ProcChild *child)
{
  if (!capture_read (&child->out))
    capture_close (&child->out);
  if (!capture_read (&child->err))
    capture_close (&child->err);
}

/* ---- the pids of our live children (orphans.c tells its orphans by them) ---- */

G_LOCK_DEFINE_STATIC (ours);
static GHashTable *ours;

static void
ours_set (pid_t pid, gboolean live)
{
  G_LOCK (ours);
  if (ours == NULL)
    ours = g_hash_table_new (NULL, NULL);
  if (live)
    g_hash_table_add (ours, GINT_TO_POINTER (pid));
  else
    g_hash_table_remove (ours, GINT_TO_POINTER (pid));
  G_UNLOCK (ours);
}

gboolean
proc_child_is_ours (pid_t pid)
{
  gboolean found;

  G_LOCK (ours);
  found = ours != NULL && g_hash_table_contains (ours, GINT_TO_POINTER (pid));
  G_UNLOCK (ours);
  return found;
}

/* ---- exit ---- */

static void
note_exit (ProcChild *child, int status)
{
  if (!child->exited)
    ours_set (child->pid, FALSE);
  child->exited = TRUE;
  child->wait_status = status;
  if (child->pidfd_source != 0)
    g_source_remove (child->pidfd_source);
  child->pidfd_source = 0;
  if (child->pidfd >= 0)
    close (child->pidfd);
  child->pidfd = -1;
}

/* Reaps the child if it has exited; TRUE then. */
static gboolean
try_reap (ProcChild *child)
{
  int status = 0;
  pid_t r;

  if (child->exited)
    return TRUE;
  do
    r = waitpid (child->pid, &status, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == 0)
    return FALSE;
  note_exit (child, r == child->pid ? status : 0);
  return TRUE;
}

static gboolean
on_pidfd (int fd, GIOCondition condition, gpointer user_data)
{
  ProcChild *child = user_data;

  child->pidfd_source = 0;   /* returning REMOVE destroys it */
  if (!try_reap (child))
    {
      /* Spurious: watch again. */
      child->pidfd_source = g_unix_fd_add (child->pidfd, G_IO_IN, on_pidfd, child);
      return G_SOURCE_REMOVE;
    }
  proc_child_drain (child);
  if (child->on_exit != NULL)
    child->on_exit (child, child->wait_status, child->user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
child_wait (ProcChild *child, guint timeout_ms, int interrupt_fd)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      struct pollfd p[2] = { { .fd = child->pidfd, .events = POLLIN },
                             { .fd = interrupt_fd, .events = POLLIN } };
      gint64 left;

      if (try_reap (child))
        return TRUE;
      left = (deadline - g_get_monotonic_time ()) / 1000;
      if (left <= 0 || (interrupt_fd >= 0 && proc_interrupt_get_signal () != 0))
        return FALSE;
      if (child->pidfd >= 0)
        poll (p, interrupt_fd >= 0 ? 2 : 1, (int) MIN (left, 1000));
      else if (interrupt_fd >= 0)
        poll (p + 1, 1, (int) MIN (left, 5));
      else
        g_usleep (MIN (left, 5) * 1000);
    }
}

gboolean
proc_child_wait (ProcChild *child, guint timeout_ms)
{
  return child_wait (child, timeout_ms, -1);
}

gboolean
proc_child_wait_interruptible (ProcChild *child, guint timeout_ms)
{
  return child_wait (child, timeout_ms, proc_interrupt_get_fd ());
}

gboolean
proc_check_interrupt (GError **error)
{
  int signum = proc_interrupt_get_signal ();

  if (signum == 0)
    return TRUE;
  g_set_error (error, PROC_ERROR, PROC_ERROR_INTERRUPTED, "interrupted by %s",
               proc_signal_name (signum));
  return FALSE;
}

/* ---- starting ---- */

ProcChild *
proc_child_new (const ProcSpawnOptions *options)
{
  ProcChild *child = g_new0 (ProcChild, 1);

  child->pidfd = -1;
  child->out.fd = child->err.fd = -1;
  child->out.buf = g_byte_array_new ();
  child->err.buf = g_byte_array_new ();
  child->on_exit = options->on_exit;
  child->user_data = options->user_data;
  return child;
}

static int
output_fd (ProcOutput mode, int fd, int ours, int *pipe_read, GError **error)
{
  int fds[2];

  switch (mode)
    {
    case PROC_OUTPUT_INHERIT:
      return dup (ours);
    case PROC_OUTPUT_TO_STDERR:
      return dup (STDERR_FILENO);
    case PROC_OUTPUT_FD:
      return dup (fd);
    case PROC_OUTPUT_CAPTURE:
      if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
        return -2;
      *pipe_read = fds[0];
      return fds[1];
    case PROC_OUTPUT_NULL:
    default:
      return open ("/dev/null", O_WRONLY | O_CLOEXEC);
    }
}

gboolean
proc_child_prepare (const ProcSpawnOptions *options, ProcChildFds *fds, GError **error)
{
  g_autofree char *program = NULL;

  fds->out_read = fds->err_read = -1;
  if (options->argv == NULL || options->argv[0] == NULL || options->argv[0][0] == '\0')
    {
      g_set_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND, "no program to run");
      return FALSE;
    }
  /* Not found is said before any fork: a child whose exec fails has
   * registered its group with the keeper already (child_setup), and its
   * pid, reaped by GLib, could be another group's by the time the keeper
   * acts. */
  program = strchr (options->argv[0], '/') != NULL ? g_strdup (options->argv[0])
            : g_find_program_in_path (options->argv[0]);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND, "%s: no such program",
                   options->argv[0]);
      return FALSE;
    }
  fds->out = output_fd (options->out, options->output_fd, STDOUT_FILENO, &fds->out_read, error);
  if (fds->out == -2)
    return FALSE;
  fds->err = output_fd (options->err, options->output_fd, STDERR_FILENO, &fds->err_read, error);
  if (fds->err == -2)
    {
      close (fds->out);
      if (fds->out_read >= 0)
        close (fds->out_read);
      return FALSE;
    }
  fds->in = options->stdin_inherit ? dup (STDIN_FILENO)
            : options->stdin_fd >= 0 ? dup (options->stdin_fd)
            : open ("/dev/null", O_RDONLY | O_CLOEXEC);
  return TRUE;
}

gboolean
proc_child_start (ProcChild *child, const ProcSpawnOptions *options, const ProcChildFds *fds,
                  int keeper_fd, GError **error)
{
  g_autoptr (GError) local = NULL;
  Setup setup = {
    .parent = getpid (),
    .death_signal = options->death_signal > 0 ? options->death_signal : SIGKILL,
    .outlive = options->outlive,
    .our_group = options->our_group,
    .no_core_dump = options->no_core_dump,
    .keeper_fd = keeper_fd,
  };
  int source_fds[2], target_fds[2];
  guint n_fds = 0;
  GPid pid = 0;
  gboolean ok;

  if (options->pass_fd >= 0)
    {
      source_fds[n_fds] = options->pass_fd;
      target_fds[n_fds++] = 3;
    }
  if (options->pass_fd4 >= 0)
    {
      source_fds[n_fds] = options->pass_fd4;
      target_fds[n_fds++] = 4;
    }
  ok = g_spawn_async_with_pipes_and_fds (NULL, options->argv, options->envp,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH,
                                         child_setup, &setup,
                                         fds->in, fds->out, fds->err,
                                         n_fds > 0 ? source_fds : NULL,
                                         n_fds > 0 ? target_fds : NULL, n_fds,
                                         &pid, NULL, NULL, NULL, &local);
  if (fds->in >= 0)
    close (fds->in);
  if (fds->out >= 0)
    close (fds->out);
  if (fds->err >= 0)
    close (fds->err);
  if (!ok)
    {
      if (fds->out_read >= 0)
        close (fds->out_read);
      if (fds->err_read >= 0)
        close (fds->err_read);
      g_set_error (error, PROC_ERROR,
                   g_error_matches (local, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT)
                     ? PROC_ERROR_NOT_FOUND
                     : local->domain == G_SPAWN_ERROR ? PROC_ERROR_EXEC : PROC_ERROR_FAILED,
                   "%s", local->message);
      return FALSE;
    }
  child->pid = pid;
  ours_set (pid, TRUE);
  child->own_group = !options->our_group;
  /* Also from here: the child may not have run setpgid yet. */
  if (child->own_group)
    setpgid (pid, pid);
  capture_start (&child->out, fds->out_read, 0, FALSE);
  capture_start (&child->err, fds->err_read,
                 options->stderr_keep > 0 ? options->stderr_keep : PROC_STDERR_KEEP_DEFAULT,
                 options->echo_stderr);
  return TRUE;
}

gboolean
proc_child_watch_exit (ProcChild *child, const char *program, GError **error)
{
  child->pidfd = proc_pidfd_open (child->pid);
  if (child->pidfd < 0)
    {
      int saved = errno;

      g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED,
                   "cannot watch %s (pidfd_open needs Linux 5.3): %s",
                   program, g_strerror (saved));
      return FALSE;
    }
  child->pidfd_source = g_unix_fd_add (child->pidfd, G_IO_IN, on_pidfd, child);
  return TRUE;
}

/* ---- accessors ---- */

pid_t
proc_child_get_pid (const ProcChild *child)
{
  return child->pid;
}

gboolean
proc_child_has_exited (const ProcChild *child)
{
  return child->exited;
}

int
proc_child_get_wait_status (const ProcChild *child)
{
  return child->wait_status;
}

const char *
proc_child_get_stdout (const ProcChild *child, gsize *len)
{
  return capture_get (&child->out, len);
}

const char *
proc_child_get_stderr (const ProcChild *child, gsize *len)
{
  return capture_get (&child->err, len);
}

/* ---- stopping ---- */

static void
signal_group (ProcChild *child, int signum)
{
  if (child->own_group)
    kill (-child->pid, signum);
}

void
proc_child_signal (ProcChild *child, int signum)
{
  if (child->pid <= 0 || child->exited)
    return;
  kill (child->pid, signum);   /* in case setpgid lost a race */
  signal_group (child, signum);
}

void
proc_child_stop (ProcChild *child, guint grace_ms)
{
  if (child->pid <= 0)
    return;
  if (!try_reap (child))
    {
      proc_child_signal (child, SIGTERM);
      if (!proc_child_wait (child, grace_ms))
        {
          proc_child_signal (child, SIGKILL);
          /* SIGKILL cannot be ignored; the bound only guards against a
           * process stuck in the kernel. */
          if (!proc_child_wait (child, 5000))
            g_warning ("process %d did not die of SIGKILL", (int) child->pid);
        }
    }
  /* Whatever the child left in its group (helpers, a gdb) goes too. */
  signal_group (child, SIGKILL);
}

void
proc_child_destroy (ProcChild *child)
{
  /* (Not reaped: still ours, never an orphan.) */
  capture_close (&child->out);
  capture_close (&child->err);
  if (child->pidfd_source != 0)
    g_source_remove (child->pidfd_source);
  if (child->pidfd >= 0)
    close (child->pidfd);
  g_byte_array_unref (child->out.buf);
  g_byte_array_unref (child->err.buf);
  g_free (child);
}
