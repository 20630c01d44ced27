/* interrupt.h — SIGINT, SIGTERM, SIGHUP and SIGUSR1 in every phase of a
 * program (SIGUSR1: what srun passes on to a job step, for xreduce
 * --launcher's tests).
 *
 * GLib's g_unix_signal_add() hands a signal to the main context, which
 * sees it only when it runs: a program waiting synchronously (for an X
 * server's -displayfd, a bus's address, an app's --version) would not
 * see Ctrl-C until that wait ends, seconds later. proc_interrupt_watch()
 * takes the signals with a handler of its own instead, and hands them on
 * through a thread of its own. The first one is latched in the handler
 * (proc_interrupt_get_signal() says it from then on, in every thread),
 * and makes proc_interrupt_get_fd() readable for good, which the synchronous
 * waits of proc/ (proc_read_line(), proc_child_wait_interruptible()) poll
 * beside what they wait for and give up on (PROC_ERROR_INTERRUPTED, also
 * proc_check_interrupt() in proc.h); and
 * each one calls the program's function in the main context, as
 * g_unix_signal_add() would.
 *
 * Process-wide, as signals are: one watch at a time, from main().
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*ProcInterruptFunc) (int signum, gpointer user_data);

/* Starts taking SIGINT, SIGTERM, SIGHUP and SIGUSR1; @func runs in the
 * default main context for each one. */
void proc_interrupt_watch (ProcInterruptFunc func, gpointer user_data);
/* Stops: the signals' default actions are back, and the signal taken is
 * forgotten. */
void proc_interrupt_unwatch (void);
/* The first signal taken, or 0. */
int proc_interrupt_get_signal (void);
/* Readable once a signal was taken (never read it); -1 without a watch. */
int proc_interrupt_get_fd (void);
/* Cancelled at the first signal (by the watch's thread, while the main
 * context may be busy), or at the deadline proc_interrupt_set_deadline()
 * sets: what long loops of the main thread (parsing a large session)
 * check. NULL without a watch. */
GCancellable *proc_interrupt_get_cancellable (void);
/* The cancellable is also cancelled at @monotonic_us (g_get_monotonic_time):
 * a time limit that holds while the main context is busy. */
void proc_interrupt_set_deadline (gint64 monotonic_us);

/* A thread that runs @loop, its context the thread's default, until
 * g_main_loop_quit(): the signal watch's, and xrecord's guard's. */
GThread *proc_loop_thread_new (const char *name, GMainLoop *loop);

G_END_DECLS
