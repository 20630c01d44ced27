/* windows.h — the app's top-level windows on the replay display, and which
 * of them a recorded action was aimed at.
 *
 * The model follows SubstructureNotify on the root window (map, unmap,
 * destroy, configure) and PropertyNotify on the app's windows (WM_NAME and
 * WM_CLASS may change). Whose a window is, and its identity, is xapp/'s
 * rule, the recorder's too: on the private Xvfb every client but ours is
 * the app's; on a display given, the X client that created it is the app
 * or a process in its tree (X-Resource), else its _NET_WM_PID says so;
 * when nobody can tell, a window counts when it was not there before the
 * app started. With a reparenting window manager, the client window inside a
 * frame is found by its WM_CLASS.
 *
 * Indices follow the recorder: the index of a window is its rank among the
 * app's *currently mapped* top-levels in first-map order (override-redirect
 * menus included), so the first window is 0 and a dialog opened, closed
 * and opened again is 1 both times.
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct Windows Windows;

typedef enum
{
  WINDOWS_MATCH_NONE,        /* no such window: use root coordinates */
  WINDOWS_MATCH_TITLE,       /* same class and title */
  WINDOWS_MATCH_ALIAS,       /* an earlier fallback for the same identity */
  WINDOWS_MATCH_INDEX,       /* same class and index */
  WINDOWS_MATCH_MAIN,        /* aimed at index 0: the app's main window */
} WindowsMatchKind;

typedef struct
{
  WindowsMatchKind kind;
  Window window;             /* the app's client window (None for NONE) */
  int x, y;                  /* its visible origin in root coordinates */
  int width, height;         /* ... and its visible size: a client-side decorated
                              * window's invisible margins (extents) taken off */
  int extents[4];            /* those margins: left, right, top, bottom
                              * (_GTK_FRAME_EXTENTS), or zeros */
  Window frame;              /* the root child that holds it (a window manager's
                              * frame, or the window itself) */
  gboolean override_redirect; /* a menu or tooltip: no window manager's */
} WindowsMatch;

/* Selects SubstructureNotify on the root of @dpy (not owned) and takes the
 * windows mapped now as not the app's. @private_server: xreplay started
 * the server for the app, whose every other client is the app's. */
Windows *windows_new (Display *dpy, gboolean private_server);
void windows_free (Windows *windows);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Windows, windows_free)

/* The app's pid (it leads its own process group). */
void windows_set_app (Windows *windows, pid_t pid);
/* Does the server tell the X clients' pids (X-Resource)? */
gboolean windows_server_tells_pids (Windows *windows);

/* Feeds an event; TRUE if the app's windows changed (one was mapped,
 * unmapped, moved, resized or renamed). */
gboolean windows_handle_event (Windows *windows, const XEvent *ev);

/* The number of the app's windows mapped now (not override-redirect:
 * as session_get_windows_open() counts them), and ever (all). */
guint windows_get_n_mapped (Windows *windows);
guint windows_get_n_ever_mapped (Windows *windows);
/* The app's main window: its first mapped top-level still mapped that is
 * not override-redirect (else any), or None. */
Window windows_get_main (Windows *windows);
/* The app's mapped top-level windows (their frames), root coordinates: a
 * GArray of XRectangle. */
GArray *windows_get_mapped_rects (Windows *windows);

/* Finds the window an action aimed at (@index, @wm_class, @wm_name as
 * recorded) matches now, best first: class and title, an alias, class and
 * index, the main window for index 0. Fills @match (its geometry queried
 * from the server). FALSE (and kind NONE) if none matches. */
gboolean windows_match (Windows *windows, int index, const char *wm_class,
                        const char *wm_name, WindowsMatch *match);
/* Remembers that the identity (@wm_class, @wm_name) is @window (after
 * waiting for an exact match in vain): later matches use it at once while
 * @window stays mapped. */
void windows_add_alias (Windows *windows, const char *wm_class, const char *wm_name,
                        Window window);
/* Is @window (a client window windows_match() found) one of the app's
 * top-levels, mapped now, of class @wm_class? */
gboolean windows_still_mapped (Windows *windows, Window window, const char *wm_class);

/* Without a window manager: the keyboard focus back to PointerRoot, as
 * on a fresh server. An app killed with the focus in its window (a
 * dialog's, RevertToNone) leaves it None on a server the reducer's
 * workers reuse, and windows_focus() leaves None to the app. */
void windows_reset_focus (Windows *windows);
/* Does @window list _NET_WM_PING in WM_PROTOCOLS? */
gboolean windows_supports_ping (Windows *windows, Window window);
/* Does a window manager run on the display (a client holds
 * SubstructureRedirect on the root)? */
gboolean windows_wm_running (Windows *windows);
/* Does the root's ATOM[] @property (_NET_SUPPORTED) list @atom? */
gboolean windows_root_lists (Windows *windows, Atom property, Atom atom);
/* Gives @match's window the input focus as a window manager would
 * (ICCCM 4.1.7: XSetInputFocus unless its WM_HINTS refuse input, and
 * WM_TAKE_FOCUS if it asks for it), unless the focus is in it already,
 * or is None (the app dropped it until it is ready). TRUE if the focus
 * was moved. */
gboolean windows_focus (Windows *windows, const WindowsMatch *match);
/* Whether a process of the app (as windows_set_app: the app, its group,
 * its descendants) is a client of the X server, by the X-Resource
 * extension's client pids; TRUE when the server cannot say. */
gboolean windows_app_connected (Windows *windows);
/* The pids of the X server's clients (xapp_client_pids), or NULL. */
GArray *windows_client_pids (Windows *windows);

/* "0x400003 "Editor" (XDemo) at +100+100 640x480", for verbose logs. */
char *windows_describe (Windows *windows, Window window);
/* The WM_CLASS classes of the app's windows, each once, in the order they
 * were first mapped (NULL-terminated; empty if none said one). */
char **windows_get_classes (Windows *windows);

G_END_DECLS
