/* xapp.h — the app's windows on an X server: whose a window is, and its
 * identity. One rule for the recorder (recorder/toplevels.c) and the
 * replayer (replayer/windows.c), so that a window one of them takes for
 * the app's, under a name, is the other's too. sessions/ and reducer/
 * never include it (they are X-free).
 *
 * Whose. On a server of the app's alone (a private Xvfb or Xephyr the
 * caller started for it), every client but the caller's own is the app's:
 * whatever connects to it, the app started. On a shared display, a window
 * is the app's when the X client that created it is the app's: its process
 * is the app, or in the app's tree (proc/proctree.h: its process group, or
 * below it by parents: the app under gdb for --backtrace, behind a
 * launcher script). The client of a resource is in
 * its XID (the bits of the client's resource base); the server tells the
 * pid of every local client through the X-Resource extension
 * (XResQueryClientIds with XRES_CLIENT_ID_PID_MASK, version 1.2). Only
 * when it cannot tell (no X-Resource, a remote client, a client that is
 * gone) is a window's _NET_WM_PID asked, as a hint: Tk, Xaw, Motif and
 * many older programs set none.
 *
 * Identity. WM_CLASS's class, and the title: _NET_WM_NAME (UTF-8), or
 * WM_NAME, decoded by its type, when that is empty or missing (Tk, Xaw,
 * Motif set no _NET_WM_NAME). The window that carries them
 * is the one with WM_CLASS. A window manager's frame, created by another
 * client, holds the app's window inside it; an app that creates its window
 * at the root and reparents it into a wrapper of its own (Tk's toplevels
 * and menus) keeps its identity on the wrapper: the same client owns both,
 * so that is the app's structure, not a window manager's frame.
 *
 * Start reading at xapp_window_owner().
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <X11/Xlib.h>

G_BEGIN_DECLS

typedef enum
{
  XAPP_UNKNOWN,              /* nobody can tell (yet): the caller decides */
  XAPP_NOT_APP,
  XAPP_APP,
} XAppOwner;

typedef struct XApp XApp;

/* On @dpy (not owned), whose own client is never the app. Asks the server
 * once whether it has X-Resource 1.2. */
XApp *xapp_new (Display *dpy);
void xapp_free (XApp *xapp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XApp, xapp_free)

/* The app's pid (it leads its own process group); until it is set,
 * nothing is the app's. */
void xapp_set_app (XApp *xapp, pid_t pid);
/* The server is the app's alone (the caller started it for the app):
 * every client but the caller's is the app's. */
void xapp_set_private (XApp *xapp, gboolean private_server);
/* Another connection of the caller's (any resource of it): never the app. */
void xapp_add_own_client (XApp *xapp, XID id);
/* Was @id created by one of the caller's connections? No round trip. */
gboolean xapp_is_own_client (XApp *xapp, XID id);
/* Does the server tell clients' pids (X-Resource 1.2)? Without it,
 * _NET_WM_PID is all there is. */
gboolean xapp_has_xres (XApp *xapp);

/* The resource base of the client that created @id. */
XID xapp_client_base (XApp *xapp, XID id);
/* Were @a and @b created by the same client? An app reparenting its
 * window into a window of its own (TRUE), or a window manager framing it
 * (FALSE). */
gboolean xapp_same_client (XApp *xapp, XID a, XID b);
/* The pid of the client that created @id, from X-Resource (a round trip),
 * or -1: no X-Resource, a remote client, a client gone. */
pid_t xapp_client_pid (XApp *xapp, XID id);

/* Is the process @pid the app's? UNKNOWN for pid <= 0, before
 * xapp_set_app, and for a process that is gone (it may have been). */
XAppOwner xapp_pid_owner (XApp *xapp, pid_t pid);
/* Is a process of the app (the app or a descendant) a client of the
 * server now, by X-Resource's client pids? TRUE when the server cannot
 * say (no X-Resource 1.2) and before xapp_set_app. */
gboolean xapp_app_connected (XApp *xapp);
/* The pids of the server's clients (local connections), each once, as a
 * GArray of pid_t (one round trip); NULL when the server cannot say. */
GArray *xapp_client_pids (XApp *xapp);
/* Is the client that created @id the app's: on a private server, unless
 * it is the caller's; else by its pid (X-Resource, one round trip)?
 * NOT_APP for the caller's own clients and the server's own resources
 * (client 0: Composite's overlay window); UNKNOWN before xapp_set_app
 * and when the server cannot tell. */
XAppOwner xapp_client_owner (XApp *xapp, XID id);
/* The rule: is @window the app's? Its client's (xapp_client_owner), else
 * its _NET_WM_PID (@net_wm_pid if the caller knows it, > 0; else read from
 * the server). UNKNOWN: the caller decides (the recorder: not until it
 * says; the replayer: a window that was not there before the app). */
XAppOwner xapp_window_owner (XApp *xapp, Window window, pid_t net_wm_pid);
/* _NET_WM_PID of @window, or 0. */
pid_t xapp_read_net_wm_pid (XApp *xapp, Window window);

/* A window's identity, as read from its properties. */
typedef struct
{
  char *wm_class;            /* WM_CLASS's class (its second string), or NULL */
  char *wm_name;             /* WM_NAME, or NULL */
  char *net_wm_name;         /* _NET_WM_NAME, or NULL */
} XAppIdentity;

/* Reads what @window has of the three (valid UTF-8); what it lacks, or
 * cannot be read (the window is gone), is left as it was. */
void xapp_identity_read (XApp *xapp, Window window, XAppIdentity *identity);
void xapp_identity_clear (XAppIdentity *identity);
/* The title: _NET_WM_NAME unless empty, else WM_NAME unless empty, else
 * NULL. Borrowed from @identity. */
const char *xapp_identity_title (const XAppIdentity *identity);
/* Does it name a window: a class or a title? */
gboolean xapp_identity_is_set (const XAppIdentity *identity);
/* Titles compare equal when both say nothing (NULL or ""). */
gboolean xapp_title_equal (const char *a, const char *b);

/* A window's index, the rule both sides rank by: the number of the app's
 * windows that are mapped now and were first mapped before it. Each
 * caller numbers the app's windows in the order of their first map (from
 * 1) and says, for an element of its own list, that number while it is
 * mapped, or 0 (unmapped, or never mapped as the app's). */
typedef guint64 (*XAppFirstMapFunc) (gconstpointer window);
/* The index of the window first mapped as @first_map (> 0) among
 * @windows. */
int xapp_window_index (GPtrArray *windows, XAppFirstMapFunc first_map_of,
                       guint64 first_map);
/* The element of @windows, mapped now, whose index is @index, or NULL. */
gpointer xapp_window_at_index (GPtrArray *windows, XAppFirstMapFunc first_map_of,
                               int index);

/* @window's @property, in @format (8, 16 or 32), its first @max_longs
 * 32-bit units at most: the items as Xlib gives them (a format-32 item is
 * a long), or NULL: none in that format, or none of @type (the type asked
 * for; AnyPropertyType: any). *@actual (@actual may be NULL): the type it
 * has. A client's window may go meanwhile: between xconn_trap_push() and
 * _pop(). */
GBytes *xapp_property_get (Display *dpy, Window window, Atom property, Atom type, int format,
                           long max_longs, Atom *actual);

/* Property values as a ChangeProperty request carries them (the recorder
 * reads them from the request stream: a window's properties cannot be
 * read once the app has crashed). Each returns a new valid UTF-8 string,
 * or NULL. WM_CLASS is "instance\0Class\0": the class. */
char *xapp_class_from_value (const char *value, gsize len);
char *xapp_text_from_value (const char *value, gsize len);
/* A text property of type @type (STRING: ISO 8859-1; COMPOUND_TEXT: its
 * ASCII, Latin-1 and UTF-8 segments; anything else taken as UTF-8) as a
 * new valid UTF-8 string. */
char *xapp_text_from_property (XApp *xapp, Atom type, const char *value, gsize len);

/* The window that carries the identity of the root child @top: @top if it
 * has WM_CLASS, else the first window below it (3 levels at most) that
 * has, else @top; but a window below @top that another client made and
 * that has WM_CLASS before @top's own (a window manager's frame that has
 * a class, as i3's). */
Window xapp_identity_window (XApp *xapp, Window top);

/* ---- input timing (xsettings.c) ----
 *
 * What the desktop tells its apps a double click and a held key are: the
 * recorder writes it in the session (its `desktop` line), the replayer
 * reads it on its own display for the app it replays. */
typedef struct
{
  gint double_click_ms;      /* XSETTINGS Net/DoubleClickTime, or -1 */
  gint double_click_distance; /* XSETTINGS Net/DoubleClickDistance, or -1 */
  gint xt_multi_click_ms;    /* the largest multiClickTime of RESOURCE_MANAGER, or -1 */
  gint repeat_delay_ms;      /* XKB's auto-repeat delay and interval, or -1 */
  gint repeat_interval_ms;
} XAppInputTiming;

void xapp_read_input_timing (Display *dpy, XAppInputTiming *timing);
/* X-free, for the tests: the integer setting @name of an
 * _XSETTINGS_SETTINGS value (@len bytes, checked); FALSE if it has none. */
gboolean xapp_xsettings_get_int (const guint8 *data, gsize len, const char *name,
                                 gint32 *value);
/* X-free: the largest value of the resources named "...*@suffix" or
 * "...@suffix" in RESOURCE_MANAGER's @text ("*multiClickTime: 300"). */
gboolean xapp_resources_get_max (const char *text, const char *suffix, gint *value);
/* What the window manager of @dpy says its name is (EWMH), its first
 * @max bytes as they are (not checked: a client's text), or NULL: it says
 * none. (Between xconn_trap_push() and _pop(): its window may go
 * meanwhile.) */
GBytes *xapp_window_manager_said (Display *dpy, long max);
/* The window manager of @dpy: the name it says, "one that does not say
 * its name", or NULL: none runs. A client's text: quoted where it goes.
 * (Between xconn_trap_push() and _pop(): its window may go meanwhile.) */
char *xapp_window_manager_name (Display *dpy);

G_END_DECLS
