/* proctree.h — the CPU a process and its descendants have used, and
 * whether a process is one of them (Linux /proc), X-free.
 *
 * The replayer asks it while the app settles after the last action: an
 * app whose process tree is still busy (a terminal's shell starting up
 * under the load of parallel replays, a browser's content process) has
 * not yet done what the actions asked for, and is given more time
 * before the verdict.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* What @root and every live descendant of it (found by their parent ids
 * in /proc, whatever their process group or session) are doing. */
typedef struct
{
  guint64 ticks;             /* CPU time used so far, user and system, in clock ticks */
  guint n_active;            /* processes running or waiting to run, or in a disk wait:
                              * busy even when they get no CPU */
  guint n_procs;             /* processes in the tree (0: @root is gone) */
  guint64 rss_kb;            /* resident memory, summed (shared pages count in each) */
  guint64 pid_sum;           /* the sum of their pids: with n_procs, changes when one
                              * starts or ends (a retry loop running `sleep`) */
} ProcTreeSample;

void proctree_sample (pid_t root, ProcTreeSample *sample);

/* Is @pid in @root's tree: @root itself, a process of @root's process
 * group (@root leads it), or a descendant by parent ids, whatever its
 * group (the app under gdb, behind a launcher script, in a session of
 * its own)? FALSE once @pid is gone, and for pids <= 0. The recorder and
 * the replayer ask it of the X clients' pids (xapp/). */
gboolean proctree_is_in (pid_t root, pid_t pid);

/* A quick look at @root's tree, cheap enough to take every few
 * milliseconds: the processes are found through each thread's list of
 * children (/proc/PID/task/TID/children), not by reading all of /proc,
 * and every thread of each is looked at (a worker thread at work is the
 * app at work). @also, if > 0, is one more process looked at in the same
 * way, without its children (the X server). FALSE, with @glance zeroed,
 * when the kernel does not list children (CONFIG_PROC_CHILDREN): then
 * proctree_sample() it is. */
#define PROCTREE_GLANCE_MID_MAX 32

typedef struct
{
  guint n_active;            /* threads running, runnable or in a disk wait */
  guint n_procs;             /* processes in the tree (0: @root is gone) */
  guint64 pid_sum;           /* as in ProcTreeSample */
  gboolean handler_asleep;   /* a process of the tree has its main thread
                              * asleep on a timer (nanosleep): an app that
                              * sleeps in an event handler */
  gint64 timer_ms;           /* the soonest timer an event loop of the tree waits on:
                              * the timeout of a main thread asleep in poll, ppoll,
                              * select, pselect or epoll_wait (GLib's, Qt's, Tcl's,
                              * Xt's loops), as it was when the call began (so at
                              * most that long from now); -1: none, or not readable */
  guint n_mid_work;          /* processes of the tree whose main thread, not running, is
                              * in a system call no idle program waits in (a lock, a
                              * write): in the middle of work */
  pid_t mid_work_pid[PROCTREE_GLANCE_MID_MAX]; /* ... the first of them (a caller may
                              * count only some: a browser's renderers idle in a lock) */
  gboolean ran_read;         /* proctree_glance_ran() only: ran_ns was read */
  guint64 ran_ns;            /* ... the CPU time every thread looked at has had so far,
                              * in ns (schedstat): the same at two glances, none of them
                              * ran between the two */
} ProcTreeGlance;

gboolean proctree_glance (pid_t root, pid_t also, ProcTreeGlance *glance);

/* proctree_glance(), and the CPU time the threads have had (ran_ns):
 * quiet at two glances and no thread ran in between is quiet for sure,
 * where two glances of states alone may fall between the moment a thread
 * wakes another and the moment that one runs. Twice the files of a
 * glance. */
gboolean proctree_glance_ran (pid_t root, pid_t also, ProcTreeGlance *glance);

/* Adds to @glance's n_active the threads at work of @pid and of the
 * processes it started (the app's session bus, and the services the bus
 * started for the app: an app waiting for a reply is at work while they
 * are), and to its ran_ns their CPU time if @glance has ran_read. Their
 * timers and processes are not the app's: not counted. */
void proctree_glance_add_helper (pid_t pid, ProcTreeGlance *glance);

/* The timeout in ms of the system call a /proc/PID/syscall line of @pid
 * says (poll, epoll_wait, epoll_pwait: its argument; ppoll, select,
 * pselect6: the struct it points to, read from @pid's memory), or -1:
 * none (forever), another call, running, or not readable. */
gint64 proctree_syscall_timeout (pid_t pid, const char *syscall_line);

/* The soonest armed timerfd of @root's tree (/proc/PID/fdinfo's
 * it_value): ms until it fires, or -1 for none. A few files a descriptor:
 * not for every glance. */
gint64 proctree_timerfd_ms (pid_t root);

/* The time the threads of @root's tree have spent runnable and waiting
 * for a core (schedstat's run delay), summed, in ms: what a loaded
 * machine takes from an app's time; 0 where the kernel does not say. */
guint64 proctree_run_delay_ms (pid_t root);

/* Which of the shared libraries @names (NULL-terminated, at most 32:
 * prefixes of a file name, "libgtk-3.so") a process of @root's tree maps:
 * bit k for @names[k]. What toolkit an app is made with. */
guint proctree_find_libraries (pid_t root, const char *const *names);

/* Clock ticks a second (sysconf (_SC_CLK_TCK)). */
guint proctree_ticks_per_second (void);

G_END_DECLS
