/* xserver.h — a private X server: Xvfb (replays, headless recordings) or
 * a nested Xephyr window (recordings on the user's desktop).
 *
 * xserver_start() runs the server with `-displayfd 3 -nolisten tcp
 * -noreset` in a process group of its own (proc.h) and returns once the
 * server has written its display number on that pipe, i.e. once it
 * accepts clients: no fixed display numbers, no sleeping. Xvfb's keymap is
 * its built-in default (XKB rules evdev, model pc105, layout us), the same
 * on every Debian-like system. The server gets SIGTERM when its owner dies
 * (even SIGKILLed), so it removes its lock file and socket on the way out.
 * The death signal follows the *thread* that spawned it: call this from a
 * thread that outlives the server (the main thread).
 *
 * With .auth the server admits only clients with its cookie: a fresh
 * MIT-MAGIC-COOKIE-1 per server, handed to it on a descriptor (an
 * unlinked file, `-auth /dev/fd/4`: nothing on disk to leave behind), and
 * to its clients as the bytes of an Xauthority file
 * (xserver_get_xauthority()), whose one entry matches any display.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define XSERVER_ERROR (xserver_error_quark ())
GQuark xserver_error_quark (void);

typedef enum
{
  XSERVER_ERROR_NOT_FOUND,   /* the server program is not installed */
  XSERVER_ERROR_FAILED,      /* it died, or did not become ready in time */
  XSERVER_ERROR_SOCKET_GONE, /* ready, but its socket file was removed: it is stopped
                              * (xserver_start() starts another) */
} XServerError;

typedef enum
{
  XSERVER_XVFB,
  XSERVER_XEPHYR,
} XServerKind;

typedef struct
{
  XServerKind kind;
  int width, height;         /* the screen (Xvfb at depth 24) */
  gboolean no_autorepeat;    /* -r: a key held through a long gap is not typed twice */
  const char *title;         /* Xephyr's window title, or NULL */
  const char *const *disable; /* extensions to leave out (-extension NAME), NULL-terminated,
                              * or NULL: a server without X-Resource, for the tests */
  gboolean auth;             /* only clients with its cookie connect (replays) */
} XServerOptions;

typedef struct XServer XServer;

/* Starts the server and waits up to @timeout_ms until it is ready. */
XServer *xserver_start (const XServerOptions *options, guint timeout_ms, GError **error);
/* The same in two halves, to start several servers at once: spawn each,
 * then wait for each (xserver_free() stops one that is not ready). */
XServer *xserver_spawn (const XServerOptions *options, GError **error);
gboolean xserver_wait_ready (XServer *server, guint timeout_ms, GError **error);

/* ":N", valid until xserver_free(), once ready. */
const char *xserver_get_display (const XServer *server);
pid_t xserver_get_pid (const XServer *server);
/* With .auth: the cookie (16 bytes), and an Xauthority file's bytes
 * that hold it (FamilyWild, any display number). NULL without .auth. */
const guint8 *xserver_get_cookie (const XServer *server, gsize *len);
const guint8 *xserver_get_xauthority (const XServer *server, gsize *len);
/* Writes xserver_get_xauthority() to @path (mode 0600). */
gboolean xserver_write_xauthority (const XServer *server, const char *path, GError **error);

/* FALSE once the server has exited (it is then reaped). */
gboolean xserver_is_alive (XServer *server);
/* TRUE while the server is stopped (SIGSTOP, SIGTSTP, a debugger): it
 * answers no client, and a client waiting for a reply waits forever. */
gboolean xserver_is_stopped (const XServer *server);

/* SIGTERM to the server's process group, SIGKILL if it has not exited
 * after a bounded wait, and reap it. Idempotent. A server still starting
 * (not ready) takes SIGKILL at once: SIGTERM would wait for the end of
 * its start; its lock file and socket are removed as its exit would. */
void xserver_stop (XServer *server);
/* Only the signal xserver_stop() starts with, without waiting: to stop
 * several servers at once, then xserver_stop() or xserver_free() each. */
void xserver_signal_stop (XServer *server);
void xserver_free (XServer *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XServer, xserver_free)

G_END_DECLS
