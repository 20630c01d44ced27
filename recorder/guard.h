/* guard.h — signals and deadlines that hold while the main thread is stuck.
 *
 * xrecord's main thread makes round trips to the X server (the window
 * model asks for a window's tree, its client's pid). A window manager
 * that grabs the server (twm while the user places a new window, any WM
 * while it draws an outline) stalls every round trip of every other
 * client until it lets go, which may be never: the main loop, and with it
 * SIGINT's handler and every timeout, would wait with it.
 *
 * A Guard is a thread of its own with its own GMainContext. SIGINT,
 * SIGTERM and SIGHUP are taken by proc_interrupt_watch() (interrupt.h),
 * which also ends xrecord's synchronous waits and hands them to the
 * GuardSignalFunc in the main context. The main context beats every
 * GUARD_BEAT_MS. When a signal came, or the deadline set with
 * guard_set_deadline() has passed, and the main thread has not beaten
 * for GUARD_STUCK_MS, the guard cuts the X connections given with
 * guard_add_fd() (shutdown(2)): the stuck round trip fails at once, as if
 * the server had gone, and the main thread goes on to stop cleanly. After
 * a signal, a main thread still stuck GUARD_LAST_RESORT_MS later (in
 * XOpenDisplay, before there is a connection to cut) gets the signal's
 * default action: the process ends by it.
 *
 * Start reading at guard_new().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The main context beats this often... */
#define GUARD_BEAT_MS 50
/* ... and is stuck when it has not for this long. */
#define GUARD_STUCK_MS 300

typedef struct Guard Guard;

/* Called in the main context with the signal's number. */
typedef void (*GuardSignalFunc) (int signum, gpointer user_data);

/* Starts the thread; SIGINT, SIGTERM and SIGHUP go to @on_signal in the
 * default main context from now on. */
Guard *guard_new (GuardSignalFunc on_signal, gpointer user_data);
/* Stops the thread and the beat. */
void guard_free (Guard *guard);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Guard, guard_free)

/* An X connection's descriptor, cut when the main thread is stuck. */
void guard_add_fd (Guard *guard, int fd);
/* A moment (g_get_monotonic_time) after which a stuck main thread is cut
 * loose; 0: none. */
void guard_set_deadline (Guard *guard, gint64 deadline);
/* Did the guard cut the connections? */
gboolean guard_has_cut (Guard *guard);

G_END_DECLS
