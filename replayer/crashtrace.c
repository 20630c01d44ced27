/* crashtrace.c — xreduce-crashtrace: run an app, watch its whole process
 * tree, and when a signal kills one of its processes, say which process
 * it was, how the signal came and where it died; then die of the same
 * signal (or exit with the same status) as the app, so that whoever
 * waits for this process sees what the app did.
 *
 *   xreduce-crashtrace --frames-file F [--frames N] -- APP [ARGS...]
 *
 * xreplay --backtrace (and every report's replay) puts it in front of the
 * app's command line, inside the sandbox; the reducer's --same-crash
 * compares the frames. F gets one JSON object (crash.h).
 *
 * The app is not run under a debugger: a script (Python, Tcl, a shell
 * wrapper such as /usr/bin/chromium) is no program gdb can run, and the
 * process that crashes may be a child (a browser's) or a thread. Instead
 * this process is the tracer (ptrace) of the app and of every process and
 * thread it starts (PTRACE_O_TRACEFORK, _VFORK, _CLONE), and sees each
 * signal before it is delivered. A signal that the process neither
 * catches nor ignores, and whose default is to end it, is fatal: then,
 * with the thread held in its stop, its siginfo tells a fault from a
 * signal raised by the process itself (abort) or sent by another one
 * (kill, and by whom: si_pid), and unwind.h reads its stack. The signal is
 * then let through: the process dies of it as it would have, core dump
 * and all. Nothing here depends on where the system sends core dumps
 * (a file, systemd-coredump, apport). A signal a handler catches (Python's
 * faulthandler, a toolkit's crash handler) is let through too; when the
 * handler raises it again, the first one, the fault, is the cause. Python
 * apps get PYTHONFAULTHANDLER=1: their Python stack on stderr.
 */
#define G_LOG_DOMAIN "xreduce-crashtrace"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "crash.h"
#include "session.h"
#include "unwind.h"

/* Frames that are the crash machinery, not the crash. */
static const char *const machinery[] = {
  "raise", "gsignal", "abort", "__GI_raise", "__GI_abort", "__pthread_kill_implementation",
  "__pthread_kill_internal", "pthread_kill", "__GI___pthread_kill", "kill", "__kill",
  "tgkill", "__assert_fail", "__assert_fail_base", "__GI___assert_fail", "__libc_message",
  "__fortify_fail", "__stack_chk_fail", "__chk_fail", "g_assertion_message",
  "g_assertion_message_expr", "g_log", "g_logv", "g_log_structured_standard",
  "g_log_default_handler", "_g_log_abort", "g_log_writer_default",
  "faulthandler_fatal_error", "__restore_rt",
};

static gboolean
is_machinery (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (machinery); i++)
    if (g_str_equal (name, machinery[i]))
      return TRUE;
  return FALSE;
}

typedef struct
{
  pid_t app;                 /* our child */
  guint max_frames;
  GHashTable *names;         /* pid -> its name (comm), of every process seen: a sender
                              * may be gone by the time its signal arrives */
  GHashTable *caught;        /* tgid -> siginfo_t: the last crash signal one of its
                              * handlers took (the cause, if the handler raises it again) */
  GPtrArray *deaths;         /* of CrashInfo: fatal signals, in order */
} Trace;

static void
crash_info_free (CrashInfo *crash)
{
  crash_info_clear (crash);
  g_free (crash);
}

/* What /proc/@tid/status says of a thread's process: its pid, and the
 * signals it ignores and catches (masks, bit N-1 for signal N). */
typedef struct
{
  pid_t tgid;
  guint64 ignored, caught;
} ThreadStatus;

static gboolean
read_status (pid_t tid, ThreadStatus *status)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) tid);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  status->tgid = tid;
  status->ignored = status->caught = 0;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Tgid:"))
      status->tgid = (pid_t) g_ascii_strtoll (lines[i] + 5, NULL, 10);
    else if (g_str_has_prefix (lines[i], "SigIgn:"))
      status->ignored = g_ascii_strtoull (lines[i] + 7, NULL, 16);
    else if (g_str_has_prefix (lines[i], "SigCgt:"))
      status->caught = g_ascii_strtoull (lines[i] + 7, NULL, 16);
  return TRUE;
}

static gboolean
in_mask (guint64 mask, int sig)
{
  return sig >= 1 && sig <= 64 && (mask >> (sig - 1)) & 1;
}

static pid_t
tgid_of (pid_t tid)
{
  ThreadStatus status;

  read_status (tid, &status);
  return status.tgid;
}

static char *
comm_of (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", (int) pid);
  g_autofree char *text = NULL;

  if (pid <= 0 || !g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strchomp (text);
  return g_utf8_make_valid (text, -1);
}

static void
remember_name (Trace *t, pid_t pid, const char *fallback)
{
  char *name = comm_of (pid);

  if (name == NULL && fallback != NULL)
    name = g_strdup (fallback);
  if (name != NULL)
    g_hash_table_replace (t->names, GINT_TO_POINTER (pid), name);
}

static gboolean
ends_by_default (int sig)
{
  switch (sig)
    {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH:
    case SIGSTOP:
    case SIGTSTP:
    case SIGTTIN:
    case SIGTTOU:
      return FALSE;
    default:
      return TRUE;
    }
}

static gboolean
is_fault_signal (int sig)
{
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

static gboolean
is_crash_signal (int sig)
{
  return is_fault_signal (sig) || sig == SIGABRT || sig == SIGSYS;
}

/* The frames of the dying thread, what a reader of a backtrace looks for:
 * a handler that raised the signal again (frames above the signal
 * trampoline) and the machinery of raising (raise, abort) left out. */
static void
take_frames (Trace *t, CrashInfo *crash, gboolean raised_by_itself)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) raw = unwind_thread (crash->pid, crash->tid, 4 * t->max_frames + 16,
                                          &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) ats = g_ptr_array_new ();
  guint start = 0;

  if (raw == NULL)
    {
      crash->no_frames = g_strdup (error->message);
      return;
    }
  if (raised_by_itself)
    for (guint i = 0; i < raw->len; i++)
      if (g_array_index (raw, UnwindFrame, i).signal_frame)
        {
          start = i + 1;
          break;
        }
  for (guint i = start; i < raw->len && names->len < t->max_frames; i++)
    {
      UnwindFrame *f = &g_array_index (raw, UnwindFrame, i);

      if (is_machinery (f->function))
        continue;
      /* A run of frames without a name in one library (stripped, its
       * debugging symbols not installed: Firefox's libxul.so) says one
       * thing: where it was. */
      if (g_str_equal (f->function, "??") && names->len > 0
          && g_str_equal (g_ptr_array_index (names, names->len - 1), "??")
          && g_str_equal (g_ptr_array_index (ats, ats->len - 1), f->at))
        continue;
      /* A frame's text is the app's: no tab or newline of its own. */
      g_strdelimit (f->function, "\t\n", ' ');
      g_ptr_array_add (names, g_steal_pointer (&f->function));
      g_ptr_array_add (ats, g_steal_pointer (&f->at));
    }
  if (names->len == 0)
    {
      crash->no_frames = g_strdup ("the stack held only the crash machinery (raise, abort)");
      return;
    }
  g_ptr_array_add (names, NULL);
  g_ptr_array_add (ats, NULL);
  crash->frames = (char **) g_ptr_array_steal (names, NULL);
  crash->frames_at = (char **) g_ptr_array_steal (ats, NULL);
}

/* Thread @tid is about to get @sig (a signal-delivery-stop): if it ends
 * the process, what is known of it is kept. */
static void
on_signal (Trace *t, pid_t tid, int sig)
{
  siginfo_t si = { 0 };
  siginfo_t *first;
  CrashInfo *crash;
  ThreadStatus status;
  pid_t tgid;
  gboolean raised_by_itself;

  if (!ends_by_default (sig) || ptrace (PTRACE_GETSIGINFO, tid, NULL, &si) != 0)
    return;
  read_status (tid, &status);
  tgid = status.tgid;
  if (in_mask (status.ignored, sig))
    return;
  if (in_mask (status.caught, sig))
    {
      /* A handler takes it (it may raise it again, as Python's
       * faulthandler does): the fault is the cause, if it comes back. */
      if (is_crash_signal (sig))
        g_hash_table_replace (t->caught, GINT_TO_POINTER (tgid), g_memdup2 (&si, sizeof si));
      return;
    }
  first = g_hash_table_lookup (t->caught, GINT_TO_POINTER (tgid));
  raised_by_itself = si.si_code <= 0 && si.si_pid == tgid;
  if (raised_by_itself && first != NULL && first->si_signo == sig)
    si = *first;

  crash = g_new0 (CrashInfo, 1);
  crash->signal = sig;
  crash->code = si.si_code;
  crash->pid = tgid;
  crash->tid = tid;
  crash->child = tgid != t->app;
  crash->process = comm_of (tgid);
  if (crash->process == NULL)
    crash->process = g_strdup (g_hash_table_lookup (t->names, GINT_TO_POINTER (tgid)));
  if (si.si_code > 0 && is_fault_signal (sig))
    {
      crash->has_address = TRUE;
      crash->address = (guint64) (guintptr) si.si_addr;
    }
  if ((si.si_code == SI_USER || si.si_code == SI_QUEUE || si.si_code == SI_TKILL)
      && si.si_pid != tgid)
    {
      crash->sent = TRUE;
      crash->sender_pid = si.si_pid;
      crash->sender = comm_of (si.si_pid);
      if (crash->sender == NULL)
        crash->sender = g_strdup (g_hash_table_lookup (t->names, GINT_TO_POINTER (si.si_pid)));
    }
  /* Where a process was when another one killed it is not where a bug
   * is: the sender is what to look at. */
  if (crash->sent)
    crash->no_frames = g_strdup_printf ("the signal was sent by another process (%s), not "
                                        "a fault of this one: where it was then is no crash "
                                        "site", crash->sender_pid == 0
                                                  ? "from outside the app's sandbox"
                                                  : crash->sender != NULL ? crash->sender
                                                  : "one that is gone");
  else
    take_frames (t, crash, raised_by_itself);
  g_ptr_array_add (t->deaths, crash);
}

static void
die_like (int signum)
{
  struct rlimit none = { 0, 0 };

  /* No core file of ours: the crash was the app's. */
  setrlimit (RLIMIT_CORE, &none);
  signal (signum, SIG_DFL);
  raise (signum);
  _exit (128 + signum);
}

/* Follows the tree until the app itself ends; its wait status. */
static int
trace_app (Trace *t)
{
  for (;;)
    {
      int status = 0, sig, event;
      pid_t pid = waitpid (-1, &status, __WALL);

      if (pid < 0 && errno == EINTR)
        continue;
      if (pid < 0)
        return W_EXITCODE (127, 0);
      if (WIFEXITED (status) || WIFSIGNALED (status))
        {
          if (pid == t->app)
            return status;
          continue;
        }
      if (!WIFSTOPPED (status))
        continue;
      sig = WSTOPSIG (status);
      event = (unsigned int) status >> 16;
      switch (event)
        {
        case PTRACE_EVENT_FORK:
        case PTRACE_EVENT_VFORK:
        case PTRACE_EVENT_CLONE:
          {
            unsigned long child = 0;

            if (ptrace (PTRACE_GETEVENTMSG, pid, NULL, &child) == 0)
              g_hash_table_replace (t->names, GINT_TO_POINTER ((pid_t) child),
                                    g_strdup (g_hash_table_lookup (t->names,
                                                                   GINT_TO_POINTER (tgid_of (pid)))));
            ptrace (PTRACE_CONT, pid, NULL, NULL);
            break;
          }
        case PTRACE_EVENT_EXEC:
          remember_name (t, pid, NULL);
          ptrace (PTRACE_CONT, pid, NULL, NULL);
          break;
        case PTRACE_EVENT_STOP:
          /* A group stop (SIGSTOP, Ctrl-Z in a terminal) stays one; any
           * other (a new process's first stop) goes on. */
          if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
            ptrace (PTRACE_LISTEN, pid, NULL, NULL);
          else
            ptrace (PTRACE_CONT, pid, NULL, NULL);
          break;
        case 0:
          on_signal (t, pid, sig);
          ptrace (PTRACE_CONT, pid, NULL, (void *) (long) sig);
          break;
        default:
          ptrace (PTRACE_CONT, pid, NULL, NULL);
          break;
        }
    }
}

/* The death to tell: the app's own, else the first in its tree (a
 * wrapper that did not exec its program exits with 128+N). */
static CrashInfo *
chosen_death (Trace *t)
{
  for (guint i = 0; i < t->deaths->len; i++)
    if (((CrashInfo *) g_ptr_array_index (t->deaths, i))->pid == t->app)
      return g_ptr_array_index (t->deaths, i);
  return t->deaths->len > 0 ? g_ptr_array_index (t->deaths, 0) : NULL;
}

/* The app's child process: waits for the tracer to hold it, then runs
 * the app; Python apps say their stack when they crash. */
static void G_GNUC_NORETURN
run_app (int ready, char **app)
{
  char byte;

  while (read (ready, &byte, 1) < 0 && errno == EINTR)
    ;
  close (ready);
  setenv ("PYTHONFAULTHANDLER", "1", FALSE);
  execvp (app[0], app);
  fprintf (stderr, "xreduce-crashtrace: cannot run %s: %s\n", app[0], g_strerror (errno));
  _exit (127);
}

int
main (int argc, char **argv)
{
  g_autofree char *frames_file = NULL;
  gint n_frames = 16;
  GOptionEntry entries[] = {
    { "frames-file", 0, 0, G_OPTION_ARG_FILENAME, &frames_file, "Write what is known of the crash here (JSON)", "FILE" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames to write (default 16)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("-- APP [ARGS...]");
  g_autoptr (GError) error = NULL;
  g_autofree char *no_trace = NULL;
  Trace t = { 0 };
  CrashInfo *death;
  int dashdash = -1, status = 0, ready[2];

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        dashdash = i;
        break;
      }
  g_option_context_add_main_entries (context, entries, NULL);
  {
    int opt_argc = dashdash >= 0 ? dashdash : argc;
    if (!g_option_context_parse (context, &opt_argc, &argv, &error)
        || dashdash < 0 || argv[dashdash + 1] == NULL || frames_file == NULL)
      {
        g_printerr ("xreduce-crashtrace: %s\nUsage: xreduce-crashtrace --frames-file F -- APP [ARGS...]\n",
                    error != NULL ? error->message : "missing --frames-file or APP");
        return 2;
      }
  }
  t.max_frames = (guint) CLAMP (n_frames, 1, 64);
  t.names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  t.caught = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  t.deaths = g_ptr_array_new_with_free_func ((GDestroyNotify) crash_info_free);

  if (pipe (ready) != 0)
    {
      g_printerr ("xreduce-crashtrace: %s\n", g_strerror (errno));
      return 127;
    }
  /* The app stays in our process group: a kill of the group (the
   * replayer stopping the app) reaches it. */
  t.app = fork ();
  if (t.app < 0)
    {
      g_printerr ("xreduce-crashtrace: cannot fork: %s\n", g_strerror (errno));
      return 127;
    }
  if (t.app == 0)
    {
      close (ready[1]);
      run_app (ready[0], argv + dashdash + 1);
    }
  close (ready[0]);
  g_hash_table_replace (t.names, GINT_TO_POINTER (t.app), g_path_get_basename (argv[dashdash + 1]));
  /* EXITKILL: if this process goes, its tracees go with it (they could
   * not be let go in a stop of ours). */
  if (ptrace (PTRACE_SEIZE, t.app, NULL,
              (void *) (long) (PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE
                               | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) != 0)
    no_trace = g_strdup_printf ("the app's processes could not be traced (ptrace: %s; a "
                                "container's seccomp profile or kernel.yama.ptrace_scope=3 "
                                "forbids it)", g_strerror (errno));
  close (ready[1]);
  if (no_trace == NULL)
    status = trace_app (&t);
  else
    while (waitpid (t.app, &status, 0) < 0 && errno == EINTR)
      ;

  death = chosen_death (&t);
  if (death == NULL && WIFSIGNALED (status))
    {
      /* Known only by its wait status: SIGKILL is never seen coming. */
      death = g_new0 (CrashInfo, 1);
      death->signal = WTERMSIG (status);
      death->pid = t.app;
      death->process = g_strdup (g_hash_table_lookup (t.names, GINT_TO_POINTER (t.app)));
      death->no_frames = no_trace != NULL ? g_strdup (no_trace)
        : WTERMSIG (status) == SIGKILL
        ? g_strdup ("SIGKILL ends a process without a stop where it could be looked at")
        : g_strdup ("the signal was not seen coming");
      g_ptr_array_add (t.deaths, death);
    }
  if (death != NULL && !crash_info_save (death, frames_file, &error))
    g_printerr ("xreduce-crashtrace: %s\n", error->message);
  g_ptr_array_unref (t.deaths);
  g_hash_table_unref (t.names);
  g_hash_table_unref (t.caught);
  if (WIFSIGNALED (status))
    die_like (WTERMSIG (status));
  return WIFEXITED (status) ? WEXITSTATUS (status) : 127;
}
