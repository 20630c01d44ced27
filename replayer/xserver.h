/* xserver.h — a private X server (Xvfb) to replay on.
 *
 * xserver_start() runs `Xvfb -displayfd FD -screen 0 WxHx24 -nolisten tcp
 * -noreset -r` in its own process group and returns once the server has
 * written its display number on the pipe, i.e. once it accepts clients: no
 * fixed display numbers, no sleeping. The server's keymap is Xvfb's
 * built-in default (XKB rules evdev, model pc105, layout us), the same on
 * every Debian-like system; -r turns auto-repeat off so that a key held
 * through a long gap is not typed twice. The reducer starts one per worker
 * and reuses it across replays; xreplay starts one per replay when it is
 * given no --display.
 *
 * The server dies with the process that started it (PR_SET_PDEATHSIG), so
 * even a SIGKILLed owner leaves no Xvfb behind. The death signal follows
 * the *thread* that spawned it: call xserver_start() from a thread that
 * outlives the server (the main thread).
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define XSERVER_ERROR (xserver_error_quark ())
GQuark xserver_error_quark (void);

typedef enum
{
  XSERVER_ERROR_NOT_FOUND,   /* no Xvfb program */
  XSERVER_ERROR_FAILED,      /* it died, or did not become ready in time */
} XServerError;

/* How long xserver_start() waits for the display number. */
#define XSERVER_START_TIMEOUT_MS 10000

typedef struct XServer XServer;

/* Starts Xvfb with one screen of @width x @height at depth 24. Blocks until
 * the server is ready (at most XSERVER_START_TIMEOUT_MS). */
XServer *xserver_start (int width, int height, GError **error);
/* xserver_start() in two halves, to start several servers at once: spawn
 * each, then wait for each to be ready (xserver_free() stops one that is
 * not). */
XServer *xserver_spawn (int width, int height, GError **error);
gboolean xserver_wait_ready (XServer *server, GError **error);

/* ":N", valid until xserver_free(). */
const char *xserver_get_display (const XServer *server);
pid_t xserver_get_pid (const XServer *server);
/* FALSE once the server has exited (it is then reaped). */
gboolean xserver_is_alive (XServer *server);

/* SIGTERM to the server's process group, SIGKILL if it has not exited
 * after a bounded wait, and reap it. Idempotent. */
void xserver_stop (XServer *server);
/* Stops the server if it runs, then frees. */
void xserver_free (XServer *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XServer, xserver_free)

G_END_DECLS
