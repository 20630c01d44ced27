/* proc.h — the one place that starts, watches and stops child processes.
 *
 * Every program of xreduce starts its children here: the app under test,
 * X servers, dbus-daemon, xreplay under xreduce, a --test oracle, gdb.
 * Each child
 *   - runs in a process group of its own (setpgid in the child and in the
 *     parent), so that killing the group takes whatever it started along;
 *   - dies with the thread that spawned it (PR_SET_PDEATHSIG), and exits at
 *     once if that parent was already gone before prctl took effect;
 *   - and its group (what it started: an oracle script's own children)
 *     dies with its owner too: the keeper, a small process that outlives
 *     the owner, kills the groups the owner had not stopped. So a
 *     SIGKILLed xreduce or xreplay leaves nothing running;
 *   - is watched through a pidfd in the main loop (the exit callback runs
 *     the moment it dies), and can be waited for synchronously, bounded;
 *   - may have its stdout and stderr captured (stderr: the last N bytes).
 *
 * X-free, on the ground floor beside sessions/. Start reading at
 * proc_spawn() in keeper.c (the keeper and the spawn that puts a group on
 * its list), then child.c (a child's descriptors, exit, waits, signals);
 * tempdir.c has the temporary folders, proc.c the small helpers.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define PROC_ERROR (proc_error_quark ())
GQuark proc_error_quark (void);

typedef enum
{
  PROC_ERROR_NOT_FOUND,      /* no such program */
  PROC_ERROR_EXEC,           /* the program could not be run (not executable, ...) */
  PROC_ERROR_FAILED,         /* fork/exec/pidfd failed, or a child did not say what it should */
  PROC_ERROR_TIMED_OUT,      /* a child did not answer in time */
  PROC_ERROR_INTERRUPTED,    /* a signal came while waiting (interrupt.h) */
} ProcError;

typedef enum
{
  PROC_OUTPUT_NULL,          /* /dev/null (the default) */
  PROC_OUTPUT_INHERIT,       /* our own stdout/stderr */
  PROC_OUTPUT_CAPTURE,       /* read into a buffer */
  PROC_OUTPUT_TO_STDERR,     /* stdout only: to our stderr (verbose modes) */
  PROC_OUTPUT_FD,            /* to ProcSpawnOptions.output_fd */
} ProcOutput;

typedef struct ProcChild ProcChild;

/* Called once, from the main loop, when the child has exited and been
 * reaped (and what was left in its pipes read); @wait_status is
 * waitpid()'s. */
typedef void (*ProcExitFunc) (ProcChild *child, int wait_status, gpointer user_data);

typedef struct
{
  const char *const *argv;   /* argv[0] is looked up in PATH */
  const char *const *envp;   /* NULL: ours */
  int stdin_fd;              /* -1: /dev/null; else dup'ed as the child's stdin */
  gboolean stdin_inherit;    /* our stdin instead (xrecord's app) */
  ProcOutput out, err;       /* stdout, stderr */
  int output_fd;             /* for PROC_OUTPUT_FD */
  gboolean echo_stderr;      /* with err == CAPTURE: also copied to our stderr */
  gsize stderr_keep;         /* with err == CAPTURE: bytes kept, the last ones (0: 64 KiB) */
  int pass_fd;               /* -1, or a descriptor the child gets as fd 3 (-displayfd 3) */
  int pass_fd4;              /* -1, or one it gets as fd 4 (Xvfb's -auth /dev/fd/4) */
  int death_signal;          /* sent when we die; 0: SIGKILL. X servers want SIGTERM
                              * (they remove their lock file) */
  gboolean outlive;          /* no death signal: it outlives us (only the sandbox's
                              * cleaner, which exists to run after our death) */
  gboolean our_group;        /* stay in our process group, so that a kill of our group
                              * reaches it (a wrapper's child: gdb under crashtrace) */
  gboolean no_keeper;        /* not on the keeper's list: a launcher (srun, ssh) whose
                              * command elsewhere ends when its stdin closes or on the
                              * death_signal it passes on (SIGUSR1), and which the
                              * keeper's SIGTERM or SIGKILL would cut off from it */
  gboolean no_core_dump;     /* RLIMIT_CORE 0 for it and what it starts: xreduce's
                              * replays, whose hundreds of crashes are not worth a
                              * core file or a systemd-coredump run each */
  ProcExitFunc on_exit;      /* or NULL */
  gpointer user_data;
} ProcSpawnOptions;

void proc_spawn_options_init (ProcSpawnOptions *options);

/* Starts a child; a missing program is PROC_ERROR_NOT_FOUND. */
ProcChild *proc_spawn (const ProcSpawnOptions *options, GError **error);

pid_t proc_child_get_pid (const ProcChild *child);
gboolean proc_child_has_exited (const ProcChild *child);
/* waitpid() status; only meaningful once proc_child_has_exited(). */
int proc_child_get_wait_status (const ProcChild *child);
/* Reads what is left in the captured pipes without blocking. */
void proc_child_drain (ProcChild *child);
/* The captured output (not NUL-terminated), owned by @child. */
const char *proc_child_get_stdout (const ProcChild *child, gsize *len);
const char *proc_child_get_stderr (const ProcChild *child, gsize *len);

/* Sends @signum to the child and its group (not once it has been reaped:
 * its pid may be someone else's by then). Asynchronous. */
void proc_child_signal (ProcChild *child, int signum);
/* Waits up to @timeout_ms for the child to exit and reaps it (without
 * running the exit callback). TRUE once it has exited. */
gboolean proc_child_wait (ProcChild *child, guint timeout_ms);
/* The same, but a signal taken by proc_interrupt_watch() ends the wait
 * too (the child is left running: the caller stops it). */
gboolean proc_child_wait_interruptible (ProcChild *child, guint timeout_ms);
/* FALSE with PROC_ERROR_INTERRUPTED ("interrupted by SIGINT") once
 * proc_interrupt_watch() (interrupt.h) has taken a signal. */
gboolean proc_check_interrupt (GError **error);
/* SIGTERM to the group, SIGKILL if the child has not exited within
 * @grace_ms, reap; then SIGKILL to the group whatever is left in it.
 * Synchronous and bounded. Does not run the exit callback. */
void proc_child_kill (ProcChild *child, guint grace_ms);
/* Kills (as proc_child_kill with a short grace) if needed, then frees. */
void proc_child_free (ProcChild *child);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcChild, proc_child_free)

/* The keeper's pid (0 before the first child): a process of ours that
 * outlives us by a moment, for tests that count what is left. */
pid_t proc_keeper_get_pid (void);

/* Orphans (orphans.c). What the app started outside its process group (a
 * terminal's shell, in a session of its own; a daemon) outlives a kill of
 * the group, and is left running when its parent ends. After
 * proc_adopt_orphans() such a process comes to us instead of init
 * (PR_SET_CHILD_SUBREAPER), and when we exit, however main() returns,
 * whatever of them still runs is ended: SIGHUP and SIGTERM (a shell
 * ignores SIGTERM), SIGKILL half a second later, reaped, and
 * "@program: ended N processes ..." said on stderr. For the programs
 * that run the app (xrecord, xreplay); FALSE if the kernel refused.
 * @program: a static string. */
gboolean proc_adopt_orphans (const char *program);
/* Ends the orphans still running now, as at exit; how many there were
 * (not counting one that was in its exit already).
 * Synchronous and bounded (@grace_ms, then at most 2 s for SIGKILL). */
guint proc_end_orphans (guint grace_ms);

/* Reads one line ("...\n", without it) that a child writes on @fd within
 * @timeout_ms: how X servers (-displayfd) and dbus-daemon
 * (--print-address) say they are ready. EOF before a newline (the child
 * died) is PROC_ERROR_FAILED, the deadline PROC_ERROR_TIMED_OUT, a signal
 * taken by proc_interrupt_watch() PROC_ERROR_INTERRUPTED. */
char *proc_read_line (int fd, guint timeout_ms, gsize max, GError **error);

/* Waits, in the main loop, for a process that is not ours (no wait
 * status: another client of the display) to end: @func is called once,
 * with TRUE when it has ended (or was gone already), FALSE when it still
 * runs after @timeout_ms. Through a pidfd, which is readable once the
 * process has exited, zombie or reaped. The returned watch is freed with
 * proc_gone_watch_free (which cancels it) after or instead of the call. */
typedef struct ProcGoneWatch ProcGoneWatch;
typedef void (*ProcGoneFunc) (gboolean gone, gpointer user_data);
ProcGoneWatch *proc_watch_gone (pid_t pid, guint timeout_ms, ProcGoneFunc func,
                                gpointer user_data);
void proc_gone_watch_free (ProcGoneWatch *watch);
/* Has @pid exited (or never existed)? A zombie has exited. */
gboolean proc_is_gone (pid_t pid);

/* "exited with status 3", "was killed by signal 11 (SIGSEGV)". */
char *proc_describe_wait_status (int wait_status);

/* Runs @argv to its end (at most @timeout_ms, then it is killed), its
 * stdout to /dev/null: TRUE if it exited with status 0, else
 * PROC_ERROR_FAILED (or _NOT_FOUND, _TIMED_OUT) whose message ends with
 * the last lines of its stderr. For short jobs (copying a directory). */
gboolean proc_run (const char *const *argv, guint timeout_ms, GError **error);

/* A command line the user gave as one string (xreplay --wm "i3 -c FILE"),
 * split as the shell would (quotes, no expansion): its words, or NULL
 * (PROC_ERROR_FAILED: empty, bad quoting; PROC_ERROR_NOT_FOUND: its
 * program is not in PATH). */
GStrv proc_command_parse (const char *command, GError **error);

/* A temporary directory (0700, from a g_dir_make_tmp() template) that is
 * removed with all in it when freed, and also when its owner dies however
 * it dies: a small cleaner process, started before anything is put in it,
 * waits for EOF on a pipe whose only write end is the owner's, then
 * removes the directory. */
typedef struct ProcTempDir ProcTempDir;

ProcTempDir *proc_tempdir_new (const char *tmpl, GError **error);
/* The same for a folder processes work in (an app's sandbox): those whose
 * environment holds @name=PATH@suffix (PATH the folder's) are killed and
 * gone before it is removed, and a file one of them wrote meanwhile goes
 * too, however the owner ended. */
ProcTempDir *proc_tempdir_new_for_processes (const char *tmpl, const char *name,
                                             const char *suffix, GError **error);
/* The same at @path_tmpl, a full path ending in XXXXXX: a folder written
 * beside its final place and renamed there when complete (the rename
 * leaves the cleaner nothing to remove). */
ProcTempDir *proc_tempdir_new_at (const char *path_tmpl, GError **error);
const char *proc_tempdir_get_path (const ProcTempDir *dir);
void proc_tempdir_free (ProcTempDir *dir);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcTempDir, proc_tempdir_free)
G_END_DECLS
