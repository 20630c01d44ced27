/* toplevels.h — which top-level windows on the display are the app's, where
 * they are, which one has the focus.
 *
 * The model is fed the events delivered to xrecord's own "tracker"
 * connection (SubstructureNotify on the root, FocusChange and PropertyChange
 * on the top-levels) *through the RECORD stream*, so it is always in step
 * with the device events it is asked about: when the app crashes on a
 * click, the click is still aimed at the window it hit, although the window
 * is long gone by the time xrecord reads the click. Window properties
 * (WM_CLASS, WM_NAME, _NET_WM_NAME, _NET_WM_PID) are taken from the
 * recorded ChangeProperty requests and cached; whose a window is and which
 * window names it is xapp/'s rule (xapp.h), shared with the replayer.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>

G_BEGIN_DECLS

typedef struct Toplevels Toplevels;

/* The app's top-level window an action is aimed at. The strings belong to
 * the model and stay valid until the next toplevels_handle_event. */
typedef struct
{
  Window window;           /* the app's (client) window */
  int index;               /* among the app's mapped top-levels, first-map order */
  const char *wm_class;    /* or NULL */
  const char *wm_name;     /* or NULL */
  int origin_x, origin_y;  /* the window's origin in root coordinates */
  int width, height;       /* its size (inside a frame: its own, not the frame's) */
  pid_t app_pid;           /* toplevels_set_all: the app's (its X client's process) */
} ToplevelTarget;

/* Called when one of the app's top-levels is mapped for the first time. */
typedef void (*ToplevelsMapFunc) (Window window, gpointer user_data);

/* @dpy is the tracker connection (not owned). A window is the app's by
 * xapp/'s rule: with @private_server (xrecord started the server) every
 * client but xrecord's own is the app's; on a shared display, when the X
 * client that created it is the app or in its tree (X-Resource), else
 * when its _NET_WM_PID says so; when nobody can tell, it is not. */
Toplevels *toplevels_new (Display *dpy, gboolean private_server);
void toplevels_free (Toplevels *tops);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Toplevels, toplevels_free)

/* xrecord --all: every client's windows are an app's, each app a process
 * (the pid of its X client, from X-Resource, else its windows'
 * _NET_WM_PID; a window whose pid nobody can tell is nobody's). The index
 * of a target counts that app's windows only. A window whose WM_CLASS's
 * class is in @exclude_classes (NULL-terminated, copied) is no target,
 * and its app is excluded (toplevels_is_excluded). Instead of
 * toplevels_set_app. */
void toplevels_set_all (Toplevels *tops, const char *const *exclude_classes);
/* toplevels_set_all: the app (pid) of the client with resource base
 * @id_base, or 0 (one of ours, or nobody can tell). Cached until the
 * client leaves. */
pid_t toplevels_client_pid (Toplevels *tops, XID id_base);
/* toplevels_set_all: the client windows of the app @pid's top-levels that
 * are mapped now (up to @max into @out); how many there are. */
guint toplevels_get_app_mapped (Toplevels *tops, pid_t pid, Window *out, guint max);
/* toplevels_set_all: has a window of the app @pid shown an excluded class? */
gboolean toplevels_is_excluded (Toplevels *tops, pid_t pid);

/* The app's process group (its pid: it leads its own group). */
void toplevels_set_app (Toplevels *tops, pid_t app_pgid);
void toplevels_set_map_func (Toplevels *tops, ToplevelsMapFunc func,
                             gpointer user_data);
/* The resource base of one of xrecord's own connections: never the app. */
void toplevels_add_own_client (Toplevels *tops, XID id_base);
/* Does the server tell the X clients' pids (X-Resource)? Without it, a
 * window is the app's only by its _NET_WM_PID. */
gboolean toplevels_server_tells_pids (Toplevels *tops);
/* The client with resource base @id_base has left: its base may come
 * back as another client's. */
void toplevels_client_gone (Toplevels *tops, XID id_base);

/* Selects the events the model needs and reads the current windows and
 * focus. Call once the RECORD context records the tracker's events. */
void toplevels_start (Toplevels *tops);

/* An event delivered to the tracker connection, from the RECORD stream. */
void toplevels_handle_event (Toplevels *tops, const xEvent *ev);

/* A ChangeProperty request of any recorded client: WM_NAME, WM_CLASS,
 * _NET_WM_NAME and _NET_WM_PID of the top-levels are taken from these. */
void toplevels_handle_request (Toplevels *tops, const guint8 *data, gsize len);

/* Is the X client with resource base @id_base the app (or one of its)? */
gboolean toplevels_is_app_client (Toplevels *tops, XID id_base);
/* Is the client with resource base @id_base one of xrecord's own? */
gboolean toplevels_is_own_client (Toplevels *tops, XID id_base);

/* The app's top-level under the root position; FALSE over another
 * client's window or the bare root. */
gboolean toplevels_at (Toplevels *tops, int root_x, int root_y,
                       ToplevelTarget *target);
/* The app's top-level that receives keys with the pointer at the root
 * position: the focused one, or the one under the pointer when the focus
 * is PointerRoot (or the root). FALSE when another client has the focus,
 * or when the focus is unknown (keys are then never recorded). */
gboolean toplevels_focus (Toplevels *tops, int root_x, int root_y,
                          ToplevelTarget *target);
/* The app's top-level containing @window (a top-level or client window);
 * FALSE if it is none of the app's. */
gboolean toplevels_lookup (Toplevels *tops, Window window, ToplevelTarget *target);

/* The number of app top-levels mapped so far (ever). */
guint toplevels_get_n_app_mapped (Toplevels *tops);

/* The top-level windows mapped while recording, the app's or not, each
 * once in first-map order, with the identity they showed (the strings
 * belong to the model; NULL: none): what to name when none was taken for
 * the app's. */
guint toplevels_get_n_seen (Toplevels *tops);
void toplevels_get_seen (Toplevels *tops, guint i, Window *window,
                         const char **wm_class, const char **title);

G_END_DECLS
