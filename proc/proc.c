/* proc.c — spawning, watching and stopping children (see proc.h).
 *
 * Start reading at proc_spawn(). The exit is watched with a pidfd rather
 * than g_child_watch_add(): GLib's child watch reaps from its worker
 * thread, and proc_child_kill() has to wait for the child synchronously
 * (bounded) after the main loop has stopped; with a pidfd both the
 * asynchronous watch and the bounded wait are a poll() on the same
 * descriptor, and the one waitpid() is ours.
 */
#define G_LOG_DOMAIN "xreduce-proc"
#define _GNU_SOURCE 1   /* sigabbrev_np */

#include "proc.h"
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xreduce-proc-error-quark, proc_error)

#define PROC_STDERR_KEEP_DEFAULT (64 * 1024)

typedef struct
{
  int fd;                    /* owned, -1 at EOF */
  guint source;
  GByteArray *buf;
  gsize keep;                /* 0: everything */
  gboolean echo;
} Capture;

struct ProcChild
{
  pid_t pid;                 /* also the process group id, unless our_group */
  gboolean own_group;
  int pidfd;                 /* owned, -1 once closed */
  guint pidfd_source;
  gboolean exited;
  gboolean kept;             /* its group is on the keeper's list */
  int wait_status;
  ProcExitFunc on_exit;
  gpointer user_data;
  Capture out, err;
};

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

static int
pidfd_open (pid_t pid)
{
#ifdef SYS_pidfd_open
  return (int) syscall (SYS_pidfd_open, pid, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

/* ---- another's process ---- */

struct ProcGoneWatch
{
  int pidfd;                 /* owned, or -1 */
  guint fd_source, timer, idle;
  ProcGoneFunc func;
  gpointer user_data;
};

static void
gone_watch_call (ProcGoneWatch *watch, gboolean gone)
{
  ProcGoneFunc func = watch->func;

  watch->func = NULL;
  if (watch->fd_source != 0)
    g_source_remove (watch->fd_source);
  if (watch->timer != 0)
    g_source_remove (watch->timer);
  watch->fd_source = watch->timer = watch->idle = 0;
  if (func != NULL)
    func (gone, watch->user_data);
}

static gboolean
on_gone_fd (int fd, GIOCondition condition, gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  watch->fd_source = 0;
  gone_watch_call (watch, TRUE);
  return G_SOURCE_REMOVE;
}

static gboolean
on_gone_timeout (gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  watch->timer = 0;
  gone_watch_call (watch, FALSE);
  return G_SOURCE_REMOVE;
}

static gboolean
on_gone_already (gpointer user_data)
{
  ProcGoneWatch *watch = user_data;

  watch->idle = 0;
  gone_watch_call (watch, TRUE);
  return G_SOURCE_REMOVE;
}

ProcGoneWatch *
proc_watch_gone (pid_t pid, guint timeout_ms, ProcGoneFunc func, gpointer user_data)
{
  ProcGoneWatch *watch = g_new0 (ProcGoneWatch, 1);

  watch->func = func;
  watch->user_data = user_data;
  watch->pidfd = pid > 0 ? pidfd_open (pid) : -1;
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

/* ---- exit ---- */

static void
note_exit (ProcChild *child, int status)
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
  g_set_error (error, PROC_ERROR, PROC_ERROR_INTERRUPTED, "interrupted by SIG%s",
               sigabbrev_np (signum));
  return FALSE;
}

/* ---- the keeper ---- */

/* PR_SET_PDEATHSIG reaches a child, not what the child started: a --test
 * oracle's script and its own children, a launcher's app, would outlive a
 * SIGKILLed owner. The keeper is a small process, started with the first
 * child, that outlives us in a group of its own and reads on a socket
 * whose only other end is ours: "+PGID" when a child's group starts,
 * "-PGID" once we have killed it. At EOF (we are gone, however we went)
 * it sends SIGTERM, then SIGKILL, to every group still on its list. The
 * groups are digits we wrote, never part of the script. */
static const char keeper_script[] =
  "trap '' HUP INT TERM QUIT PIPE\n"
  "g=' '\n"
  "while read -r op n; do\n"
  "  case $op in\n"
  "    +) g=\"$g$n \" ;;\n"
  "    -) case $g in *\" $n \"*) g=\"${g%% $n *} ${g#* $n }\" ;; esac ;;\n"
  "  esac\n"
  "done\n"
  "[ \"$g\" = ' ' ] && exit 0\n"
  "for n in $g; do kill -s TERM -- \"-$n\" 2>/dev/null; done\n"
  "sleep 0.3\n"
  "for n in $g; do kill -s KILL -- \"-$n\" 2>/dev/null; done\n"
  "exit 0\n";

G_LOCK_DEFINE_STATIC (keeper);
static ProcChild *keeper;    /* the keeper process, or NULL */
static int keeper_fd = -1;   /* our end of its socket */
static gboolean keeper_failed;

/* At our normal end: the keeper's list is empty (every child was
 * stopped), it sees EOF and exits; wait for it, so that nothing of ours
 * is left running when we return. */
static void
keeper_at_exit (void)
{
  G_LOCK (keeper);
  if (keeper_fd >= 0)
    close (keeper_fd);
  keeper_fd = -1;
  if (keeper != NULL)
    proc_child_wait (keeper, 2000);
  G_UNLOCK (keeper);
}

/* Called with the lock held. */
static gboolean
keeper_start (void)
{
  const char *argv[] = { "sh", "-c", keeper_script, "xreduce-keeper", NULL };
  g_autoptr (GError) error = NULL;
  ProcSpawnOptions spawn;
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      g_warning ("cannot start the keeper of child groups: %s", g_strerror (errno));
      return FALSE;
    }
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.stdin_fd = fds[0];
  spawn.err = PROC_OUTPUT_INHERIT;
  spawn.outlive = TRUE;
  keeper = proc_spawn (&spawn, &error);
  close (fds[0]);
  if (keeper == NULL)
    {
      close (fds[1]);
      g_warning ("cannot start the keeper of child groups: %s", error->message);
      return FALSE;
    }
  keeper_fd = fds[1];
  atexit (keeper_at_exit);
  return TRUE;
}

/* '-' @pgid: off the keeper's list (a child registers itself, '+', in
 * child_setup). */
static void
keeper_forget (pid_t pgid)
{
  char line[32];
  int len = g_snprintf (line, sizeof line, "- %d\n", (int) pgid);

  G_LOCK (keeper);
  /* Never SIGPIPE: a keeper that died only loses us its service. */
  if (keeper_fd >= 0 && send (keeper_fd, line, (size_t) len, MSG_NOSIGNAL) != len)
    {
      close (keeper_fd);
      keeper_fd = -1;
    }
  G_UNLOCK (keeper);
}

pid_t
proc_keeper_get_pid (void)
{
  pid_t pid;

  G_LOCK (keeper);
  pid = keeper != NULL ? proc_child_get_pid (keeper) : 0;
  G_UNLOCK (keeper);
  return pid;
}

/* ---- spawning ---- */

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

ProcChild *
proc_spawn (const ProcSpawnOptions *options, GError **error)
{
  g_autoptr (ProcChild) child = g_new0 (ProcChild, 1);
  g_autoptr (GError) local = NULL;
  Setup setup = {
    .parent = getpid (),
    .death_signal = options->death_signal > 0 ? options->death_signal : SIGKILL,
    .outlive = options->outlive,
    .our_group = options->our_group,
    .keeper_fd = -1,
  };
  g_autofree char *program = NULL;
  gboolean kept;
  int out_fd, err_fd, in_fd, out_read = -1, err_read = -1;
  int source_fds[2], target_fds[2];
  guint n_fds = 0;
  GPid pid = 0;
  gboolean ok;

  child->pidfd = -1;
  child->out.fd = child->err.fd = -1;
  child->out.buf = g_byte_array_new ();
  child->err.buf = g_byte_array_new ();
  child->on_exit = options->on_exit;
  child->user_data = options->user_data;

  if (options->argv == NULL || options->argv[0] == NULL || options->argv[0][0] == '\0')
    {
      g_set_error (error, PROC_ERROR, PROC_ERROR_NOT_FOUND, "no program to run");
      return NULL;
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
      return NULL;
    }
  out_fd = output_fd (options->out, options->output_fd, STDOUT_FILENO, &out_read, error);
  if (out_fd == -2)
    return NULL;
  err_fd = output_fd (options->err, options->output_fd, STDERR_FILENO, &err_read, error);
  if (err_fd == -2)
    {
      close (out_fd);
      if (out_read >= 0)
        close (out_read);
      return NULL;
    }
  in_fd = options->stdin_inherit ? dup (STDIN_FILENO)
          : options->stdin_fd >= 0 ? dup (options->stdin_fd)
          : open ("/dev/null", O_RDONLY | O_CLOEXEC);

  /* A group of our children goes on the keeper's list from the child
   * (child_setup), with the lock held until the spawn returns: no
   * keeper_forget() of a pid that is not yet on it. */
  kept = !options->our_group && !options->outlive && !options->no_keeper;
  if (kept)
    {
      G_LOCK (keeper);
      if (keeper == NULL && !keeper_failed)
        keeper_failed = !keeper_start ();
      setup.keeper_fd = keeper_fd;
    }
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
                                         in_fd, out_fd, err_fd,
                                         n_fds > 0 ? source_fds : NULL,
                                         n_fds > 0 ? target_fds : NULL, n_fds,
                                         &pid, NULL, NULL, NULL, &local);
  if (kept)
    G_UNLOCK (keeper);
  if (in_fd >= 0)
    close (in_fd);
  if (out_fd >= 0)
    close (out_fd);
  if (err_fd >= 0)
    close (err_fd);
  if (!ok)
    {
      if (out_read >= 0)
        close (out_read);
      if (err_read >= 0)
        close (err_read);
      g_set_error (error, PROC_ERROR,
                   g_error_matches (local, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT)
                     ? PROC_ERROR_NOT_FOUND
                     : local->domain == G_SPAWN_ERROR ? PROC_ERROR_EXEC : PROC_ERROR_FAILED,
                   "%s", local->message);
      return NULL;
    }
  child->pid = pid;
  child->own_group = !options->our_group;
  child->kept = kept && setup.keeper_fd >= 0;
  /* Also from here: the child may not have run setpgid yet. */
  if (child->own_group)
    setpgid (pid, pid);
  capture_start (&child->out, out_read, 0, FALSE);
  capture_start (&child->err, err_read,
                 options->stderr_keep > 0 ? options->stderr_keep : PROC_STDERR_KEEP_DEFAULT,
                 options->echo_stderr);

  child->pidfd = pidfd_open (pid);
  if (child->pidfd < 0)
    {
      int saved = errno;

      proc_child_kill (child, 0);
      g_set_error (error, PROC_ERROR, PROC_ERROR_FAILED,
                   "cannot watch %s (pidfd_open needs Linux 5.3): %s",
                   options->argv[0], g_strerror (saved));
      return NULL;
    }
  child->pidfd_source = g_unix_fd_add (child->pidfd, G_IO_IN, on_pidfd, child);
  return g_steal_pointer (&child);
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
proc_child_kill (ProcChild *child, guint grace_ms)
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
  if (child->kept)
    {
      keeper_forget (child->pid);
      child->kept = FALSE;
    }
}

void
proc_child_free (ProcChild *child)
{
  if (child == NULL)
    return;
  proc_child_kill (child, 200);
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
      const char *name = sigabbrev_np (WTERMSIG (wait_status));
      return name != NULL
        ? g_strdup_printf ("was killed by signal %d (SIG%s)", WTERMSIG (wait_status), name)
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

/* ---- temporary directories ---- */

/* How long removing a directory may take (a browser profile). */
#define PROC_CLEAN_TIMEOUT_MS 30000

struct ProcTempDir
{
  char *path;
  ProcChild *cleaner;        /* sh: waits for EOF on its stdin, then rm -rf path */
  int pipe;                  /* the write end; closing it (or dying) starts the cleaning */
};

/* The cleaner's script: $1 the folder, $2 an environment entry
 * (NAME=VALUE, or empty) that marks the processes working in it. Once
 * its owner is done (its stdin ends), those processes are killed and
 * waited for, then the folder goes; a file one of them was still writing
 * (bash's history as its terminal closes) makes rm fail on the folder
 * it lands in: the whole is done again, a few seconds at most. */
static const char cleaner_script[] =
  "read -r _; n=0\n"
  "while [ $n -lt 100 ]; do\n"
  "  n=$((n + 1))\n"
  "  if [ -n \"$2\" ]; then\n"
  "    left=$(grep -lzxF -- \"$2\" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||')\n"
  "    if [ -n \"$left\" ]; then kill -9 $left 2>/dev/null; sleep 0.05; continue; fi\n"
  "  fi\n"
  "  rm -rf -- \"$1\" 2>/dev/null\n"
  "  [ -e \"$1\" ] || exit 0\n"
  "  sleep 0.05\n"
  "done\n"
  "exec rm -rf -- \"$1\"\n";

/* The cleaner for @path, a folder just made; @marker: see cleaner_script. */
static ProcTempDir *
tempdir_guard (char *path, const char *marker, GError **error)
{
  g_autoptr (ProcTempDir) dir = g_new0 (ProcTempDir, 1);
  ProcSpawnOptions spawn;
  int fds[2];

  dir->pipe = -1;
  dir->path = path;
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    {
      g_rmdir (dir->path);
      return NULL;
    }
  /* The cleaner outlives us on purpose, in a process group of its own
   * (a Ctrl-C to ours does not stop it first). The path is an argument,
   * never part of the script. */
  {
    const char *argv[] = { "sh", "-c", cleaner_script, "xreduce-cleaner", dir->path,
                           marker != NULL ? marker : "", NULL };

    proc_spawn_options_init (&spawn);
    spawn.argv = argv;
    spawn.stdin_fd = fds[0];
    spawn.err = PROC_OUTPUT_INHERIT;
    spawn.outlive = TRUE;
    dir->cleaner = proc_spawn (&spawn, error);
  }
  close (fds[0]);
  if (dir->cleaner == NULL)
    {
      close (fds[1]);
      g_rmdir (dir->path);
      return NULL;
    }
  dir->pipe = fds[1];
  return g_steal_pointer (&dir);
}

ProcTempDir *
proc_tempdir_new (const char *tmpl, GError **error)
{
  char *path = g_dir_make_tmp (tmpl, error);

  return path != NULL ? tempdir_guard (path, NULL, error) : NULL;
}

ProcTempDir *
proc_tempdir_new_for_processes (const char *tmpl, const char *name, const char *suffix,
                                GError **error)
{
  char *path = g_dir_make_tmp (tmpl, error);
  g_autofree char *marker = NULL;

  if (path == NULL)
    return NULL;
  marker = g_strconcat (name, "=", path, suffix, NULL);
  return tempdir_guard (path, marker, error);
}

ProcTempDir *
proc_tempdir_new_at (const char *path_tmpl, GError **error)
{
  g_autofree char *path = g_strdup (path_tmpl);

  if (g_mkdtemp_full (path, 0700) == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create the folder %s: %s", path_tmpl, g_strerror (saved));
      return NULL;
    }
  return tempdir_guard (g_steal_pointer (&path), NULL, error);
}

const char *
proc_tempdir_get_path (const ProcTempDir *dir)
{
  return dir->path;
}

void
proc_tempdir_free (ProcTempDir *dir)
{
  if (dir == NULL)
    return;
  if (dir->pipe >= 0)
    close (dir->pipe);
  if (dir->cleaner != NULL && !proc_child_wait (dir->cleaner, PROC_CLEAN_TIMEOUT_MS))
    g_warning ("%s is still being removed", dir->path);
  g_clear_pointer (&dir->cleaner, proc_child_free);
  g_free (dir->path);
  g_free (dir);
}
