/* windows.c — tracking the app's top-level windows and matching recorded
 * window identities to them.
 *
 * Start reading at windows_handle_event(), then windows_match(). Every
 * property read may race with the app destroying the window (it may be
 * crashing right now): reads that fail just leave the field empty, and the
 * protocol errors go to xconn.c's handler, which ignores them.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "windows.h"

#include <string.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>

#include "xapp.h"

typedef struct
{
  Window frame;              /* the child of the root */
  Window client;             /* the app's window: frame, or inside it */
  guint64 first_map;         /* order of first map, from 1 */
  gboolean mapped;
  gboolean override;
  XAppIdentity identity;     /* owned strings: its class and title (xapp.h) */
  int extents[4];            /* the client's _GTK_FRAME_EXTENTS (left, right, top,
                              * bottom), or zeros */
} TopWin;

typedef struct
{
  char *wm_class, *wm_name;  /* owned */
  Window window;
} Alias;

struct Windows
{
  Display *dpy;              /* not owned */
  XApp *xapp;                /* owned: whose a window is, its identity */
  Window root;
  Atom net_wm_name, wm_protocols, net_wm_ping, wm_take_focus, gtk_frame_extents;

  GHashTable *foreign;       /* Window (frame) -> TRUE: not the app's */
  GPtrArray *tops;           /* of TopWin*, the app's, in first-map order */
  guint64 n_maps;
  GPtrArray *aliases;        /* of Alias* */
  GPtrArray *classes;        /* of char*: every class the app's windows said, once */
};

static void
topwin_free (TopWin *top)
{
  xapp_identity_clear (&top->identity);
  g_free (top);
}

static void
alias_free (Alias *alias)
{
  g_free (alias->wm_class);
  g_free (alias->wm_name);
  g_free (alias);
}

Windows *
windows_new (Display *dpy, gboolean private_server)
{
  Windows *windows = g_new0 (Windows, 1);
  Window root_ret, parent, *children = NULL;
  unsigned int n = 0;

  windows->dpy = dpy;
  windows->xapp = xapp_new (dpy);
  xapp_set_private (windows->xapp, private_server);
  windows->root = DefaultRootWindow (dpy);
  windows->net_wm_name = XInternAtom (dpy, "_NET_WM_NAME", False);
  windows->wm_protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  windows->net_wm_ping = XInternAtom (dpy, "_NET_WM_PING", False);
  windows->wm_take_focus = XInternAtom (dpy, "WM_TAKE_FOCUS", False);
  windows->gtk_frame_extents = XInternAtom (dpy, "_GTK_FRAME_EXTENTS", False);
  windows->foreign = g_hash_table_new (NULL, NULL);
  windows->tops = g_ptr_array_new_with_free_func ((GDestroyNotify) topwin_free);
  windows->aliases = g_ptr_array_new_with_free_func ((GDestroyNotify) alias_free);
  windows->classes = g_ptr_array_new_with_free_func (g_free);

  /* Select first, then list: a window created in between is seen as new
   * (and then judged by whose it is), never missed. StructureNotify too:
   * the answers to _NET_WM_PING come as a ClientMessage sent to the root,
   * GTK's with SubstructureNotify's mask, Qt 5's with StructureNotify's
   * (and SubstructureRedirect's, which only a window manager may select). */
  XSelectInput (dpy, windows->root, SubstructureNotifyMask | StructureNotifyMask);
  if (XQueryTree (dpy, windows->root, &root_ret, &parent, &children, &n))
    {
      for (unsigned int i = 0; i < n; i++)
        g_hash_table_add (windows->foreign, GSIZE_TO_POINTER (children[i]));
      if (children != NULL)
        XFree (children);
    }
  return windows;
}

void
windows_free (Windows *windows)
{
  if (windows == NULL)
    return;
  g_hash_table_unref (windows->foreign);
  g_ptr_array_unref (windows->tops);
  g_ptr_array_unref (windows->aliases);
  g_ptr_array_unref (windows->classes);
  xapp_free (windows->xapp);
  g_free (windows);
}

void
windows_set_app (Windows *windows, pid_t pid)
{
  xapp_set_app (windows->xapp, pid);
}

gboolean
windows_server_tells_pids (Windows *windows)
{
  return xapp_has_xres (windows->xapp);
}

static const char *
topwin_title (const TopWin *top)
{
  return xapp_identity_title (&top->identity);
}

static void
topwin_read_names (Windows *windows, TopWin *top)
{
  xapp_identity_clear (&top->identity);
  xapp_identity_read (windows->xapp, top->client, &top->identity);
  /* Kept when the window goes (the app's end destroys them all). */
  if (top->identity.wm_class != NULL && *top->identity.wm_class != '\0'
      && !g_ptr_array_find_with_equal_func (windows->classes, top->identity.wm_class,
                                            g_str_equal, NULL))
    g_ptr_array_add (windows->classes, g_strdup (top->identity.wm_class));
}

/* A client-side decorated window's invisible margins, which the recorder
 * took off its positions and sizes: GTK's _GTK_FRAME_EXTENTS (wide shadows
 * under a compositor, none on a bare server). */
static void
topwin_read_extents (Windows *windows, TopWin *top)
{
  Atom type = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;

  memset (top->extents, 0, sizeof top->extents);
  if (XGetWindowProperty (windows->dpy, top->client, windows->gtk_frame_extents, 0, 4, False,
                          XA_CARDINAL, &type, &format, &n, &after, &data) == Success
      && data != NULL && format == 32 && n == 4)
    for (guint i = 0; i < 4; i++)
      {
        unsigned long v = ((unsigned long *) data)[i];   /* Xlib's format 32 is long */

        top->extents[i] = v <= 4096 ? (int) v : 0;
      }
  if (data != NULL)
    XFree (data);
}

gboolean
windows_app_connected (Windows *windows)
{
  return xapp_app_connected (windows->xapp);
}

GArray *
windows_client_pids (Windows *windows)
{
  return xapp_client_pids (windows->xapp);
}

static TopWin *
find_top (Windows *windows, Window w, guint *index)
{
  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      if (top->frame == w || top->client == w)
        {
          if (index != NULL)
            *index = i;
          return top;
        }
    }
  return NULL;
}

static gboolean
on_map (Windows *windows, const XMapEvent *ev)
{
  TopWin *top;
  Window client;

  if (ev->event != windows->root
      || g_hash_table_contains (windows->foreign, GSIZE_TO_POINTER (ev->window)))
    return FALSE;
  top = find_top (windows, ev->window, NULL);
  if (top != NULL)
    {
      top->mapped = TRUE;
      return TRUE;
    }
  /* The window that names it: itself, or the app's window inside a
   * window manager's frame. Whose it is: xapp's rule; when nobody can
   * tell, it is new since the app started, so the app's. */
  client = xapp_identity_window (windows->xapp, ev->window);
  if (xapp_window_owner (windows->xapp, client, 0) == XAPP_NOT_APP)
    {
      g_hash_table_add (windows->foreign, GSIZE_TO_POINTER (ev->window));
      return FALSE;
    }
  top = g_new0 (TopWin, 1);
  top->frame = ev->window;
  top->client = client;
  top->first_map = ++windows->n_maps;
  top->mapped = TRUE;
  top->override = ev->override_redirect;
  /* Titles may change; WM_CLASS rarely does, but costs nothing to watch. */
  XSelectInput (windows->dpy, client, PropertyChangeMask);
  topwin_read_names (windows, top);
  topwin_read_extents (windows, top);
  g_ptr_array_add (windows->tops, top);
  return TRUE;
}

/* A window of the root was reparented into @parent: if the frame that
 * holds it now (the root's child above @parent) was mapped before it
 * held the app's window, and so taken for nobody's, it is looked at
 * again. */
static gboolean
on_reparented (Windows *windows, Window parent)
{
  Window frame = parent, root, up, *children = NULL;
  unsigned int n;
  XWindowAttributes attrs;
  XMapEvent map = { .type = MapNotify, .event = windows->root };

  for (int depth = 0; depth < 32; depth++)
    {
      if (!XQueryTree (windows->dpy, frame, &root, &up, &children, &n))
        return FALSE;
      if (children != NULL)
        XFree (children);
      if (up == windows->root)
        break;
      frame = up;
    }
  if (find_top (windows, frame, NULL) != NULL
      || !XGetWindowAttributes (windows->dpy, frame, &attrs) || attrs.map_state == IsUnmapped)
    return FALSE;
  g_hash_table_remove (windows->foreign, GSIZE_TO_POINTER (frame));
  map.window = frame;
  map.override_redirect = attrs.override_redirect;
  return on_map (windows, &map);
}

gboolean
windows_handle_event (Windows *windows, const XEvent *ev)
{
  TopWin *top;
  guint index;

  switch (ev->type)
    {
    case MapNotify:
      return on_map (windows, &ev->xmap);
    case UnmapNotify:
      if (ev->xunmap.event != windows->root)
        return FALSE;
      top = find_top (windows, ev->xunmap.window, NULL);
      if (top == NULL)
        return FALSE;
      top->mapped = FALSE;
      return TRUE;
    case DestroyNotify:
      if (ev->xdestroywindow.event != windows->root)
        return FALSE;
      g_hash_table_remove (windows->foreign, GSIZE_TO_POINTER (ev->xdestroywindow.window));
      top = find_top (windows, ev->xdestroywindow.window, &index);
      if (top == NULL || top->frame != ev->xdestroywindow.window)
        return FALSE;
      g_ptr_array_remove_index (windows->tops, index);
      return TRUE;
    case ReparentNotify:
      /* Taken into a window manager's frame: the frame is mapped next,
       * or was mapped before (i3 maps its frame first). */
      if (ev->xreparent.event != windows->root || ev->xreparent.parent == windows->root)
        return FALSE;
      g_hash_table_remove (windows->foreign, GSIZE_TO_POINTER (ev->xreparent.window));
      top = find_top (windows, ev->xreparent.window, &index);
      if (top != NULL && top->frame == ev->xreparent.window)
        g_ptr_array_remove_index (windows->tops, index);
      return on_reparented (windows, ev->xreparent.parent) || top != NULL;
    case ConfigureNotify:
      return ev->xconfigure.event == windows->root
             && find_top (windows, ev->xconfigure.window, NULL) != NULL;
    case PropertyNotify:
      if (ev->xproperty.atom == windows->gtk_frame_extents
          && (top = find_top (windows, ev->xproperty.window, NULL)) != NULL)
        {
          topwin_read_extents (windows, top);
          return TRUE;
        }
      if (ev->xproperty.atom != XA_WM_NAME && ev->xproperty.atom != XA_WM_CLASS
          && ev->xproperty.atom != windows->net_wm_name)
        return FALSE;
      top = find_top (windows, ev->xproperty.window, NULL);
      if (top == NULL)
        return FALSE;
      topwin_read_names (windows, top);
      return TRUE;
    default:
      return FALSE;
    }
}

guint
windows_get_n_mapped (Windows *windows)
{
  guint n = 0;

  for (guint i = 0; i < windows->tops->len; i++)
    {
      const TopWin *top = g_ptr_array_index (windows->tops, i);

      n += top->mapped && !top->override ? 1 : 0;
    }
  return n;
}

guint
windows_get_n_ever_mapped (Windows *windows)
{
  return (guint) windows->n_maps;
}

/* A window's place in the first-map order while it is mapped, for
 * xapp's rule of indexes (the recorder's). */
static guint64
topwin_first_map (gconstpointer data)
{
  const TopWin *top = data;

  return top->mapped ? top->first_map : 0;
}

/* The mapped window of index @index. */
static TopWin *
mapped_at (Windows *windows, int index)
{
  return xapp_window_at_index (windows->tops, topwin_first_map, index);
}

static int
rank_of (Windows *windows, TopWin *which)
{
  if (!which->mapped)
    return -1;
  return xapp_window_index (windows->tops, topwin_first_map, which->first_map);
}

Window
windows_get_main (Windows *windows)
{
  TopWin *any = NULL;

  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      if (!top->mapped)
        continue;
      if (!top->override)
        return top->client;
      if (any == NULL)
        any = top;
    }
  return any != NULL ? any->client : None;
}

static gboolean
query_geometry (Windows *windows, Window w, WindowsMatch *match)
{
  Window root_ret, child;
  int x, y;
  unsigned int width, height, border, depth;

  if (!XGetGeometry (windows->dpy, w, &root_ret, &x, &y, &width, &height, &border, &depth))
    return FALSE;
  if (!XTranslateCoordinates (windows->dpy, w, windows->root, 0, 0, &x, &y, &child))
    return FALSE;
  match->window = w;
  match->x = x;
  match->y = y;
  match->width = (int) width;
  match->height = (int) height;
  return TRUE;
}

gboolean
windows_match (Windows *windows, int index, const char *wm_class, const char *wm_name,
               WindowsMatch *match)
{
  TopWin *found = NULL;
  WindowsMatchKind kind = WINDOWS_MATCH_NONE;

  memset (match, 0, sizeof *match);
  if (index < 0)
    return FALSE;

  /* Class and title; of several, the one at the recorded index, else the
   * newest (a dialog opened again is the new one). */
  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      if (top->mapped && g_strcmp0 (top->identity.wm_class, wm_class) == 0
          && xapp_title_equal (topwin_title (top), wm_name))
        {
          if (found == NULL || rank_of (windows, found) != index)
            found = top;
        }
    }
  if (found != NULL)
    kind = WINDOWS_MATCH_TITLE;

  if (found == NULL)
    for (guint i = 0; i < windows->aliases->len; i++)
      {
        Alias *alias = g_ptr_array_index (windows->aliases, i);
        TopWin *top = find_top (windows, alias->window, NULL);
        if (top != NULL && top->mapped && g_strcmp0 (alias->wm_class, wm_class) == 0
            && xapp_title_equal (alias->wm_name, wm_name))
          {
            found = top;
            kind = WINDOWS_MATCH_ALIAS;
            break;
          }
      }

  if (found == NULL)
    {
      TopWin *top = mapped_at (windows, index);
      if (top != NULL && g_strcmp0 (top->identity.wm_class, wm_class) == 0)
        {
          found = top;
          kind = WINDOWS_MATCH_INDEX;
        }
    }

  if (found == NULL && index == 0)
    {
      Window main_window = windows_get_main (windows);
      found = main_window != None ? find_top (windows, main_window, NULL) : NULL;
      kind = WINDOWS_MATCH_MAIN;
    }

  if (found == NULL || !query_geometry (windows, found->client, match))
    {
      memset (match, 0, sizeof *match);
      return FALSE;
    }
  match->kind = kind;
  match->frame = found->frame;
  match->override_redirect = found->override;
  /* The visible window, as recorded (the recorder takes the invisible
   * margins off too). */
  memcpy (match->extents, found->extents, sizeof match->extents);
  match->x += found->extents[0];
  match->y += found->extents[2];
  match->width = MAX (match->width - found->extents[0] - found->extents[1], 1);
  match->height = MAX (match->height - found->extents[2] - found->extents[3], 1);
  return TRUE;
}

void
windows_add_alias (Windows *windows, const char *wm_class, const char *wm_name,
                   Window window)
{
  Alias *alias = g_new0 (Alias, 1);

  alias->wm_class = g_strdup (wm_class);
  alias->wm_name = g_strdup (wm_name);
  alias->window = window;
  g_ptr_array_insert (windows->aliases, 0, alias);   /* newest first */
}

gboolean
windows_still_mapped (Windows *windows, Window window, const char *wm_class)
{
  TopWin *top = window != None ? find_top (windows, window, NULL) : NULL;

  return top != NULL && top->mapped && g_strcmp0 (top->identity.wm_class, wm_class) == 0;
}

gboolean
windows_wm_running (Windows *windows)
{
  XWindowAttributes attrs;

  return XGetWindowAttributes (windows->dpy, windows->root, &attrs)
         && (attrs.all_event_masks & SubstructureRedirectMask) != 0;
}

void
windows_reset_focus (Windows *windows)
{
  if (!windows_wm_running (windows))
    XSetInputFocus (windows->dpy, PointerRoot, RevertToPointerRoot, CurrentTime);
}

gboolean
windows_root_lists (Windows *windows, Atom property, Atom atom)
{
  Atom type = None;
  int format = 0;
  unsigned long n = 0, after;
  unsigned char *data = NULL;
  gboolean found = FALSE;

  if (XGetWindowProperty (windows->dpy, windows->root, property, 0, 4096, False, XA_ATOM,
                          &type, &format, &n, &after, &data) == Success
      && data != NULL && type == XA_ATOM && format == 32)
    for (unsigned long i = 0; i < n && !found; i++)
      found = ((Atom *) data)[i] == atom;
  if (data != NULL)
    XFree (data);
  return found;
}

/* Is @w @ancestor or inside it? */
static gboolean
window_within (Windows *windows, Window w, Window ancestor)
{
  for (int depth = 0; depth < 32 && w != None && w != windows->root; depth++)
    {
      Window root, parent, *children = NULL;
      unsigned int n;

      if (w == ancestor)
        return TRUE;
      if (!XQueryTree (windows->dpy, w, &root, &parent, &children, &n))
        return FALSE;
      if (children != NULL)
        XFree (children);
      w = parent;
    }
  return FALSE;
}

static gboolean
has_protocol (Windows *windows, Window window, Atom protocol)
{
  Atom *protocols = NULL;
  int n = 0;
  gboolean found = FALSE;

  if (window == None || !XGetWMProtocols (windows->dpy, window, &protocols, &n))
    return FALSE;
  for (int i = 0; i < n; i++)
    found |= protocols[i] == protocol;
  if (protocols != NULL)
    XFree (protocols);
  return found;
}

gboolean
windows_focus (Windows *windows, const WindowsMatch *match)
{
  Window focus = None;
  int revert;
  XWMHints *hints;
  gboolean input = TRUE;

  if (match->window == None || match->override_redirect)
    return FALSE;
  XGetInputFocus (windows->dpy, &focus, &revert);
  /* None: the app dropped the focus itself until it is ready (it takes
   * it back with XSetInputFocus, as toolkits do); not taken from it. */
  if (focus == None
      || (focus != PointerRoot && window_within (windows, focus, match->window)))
    return FALSE;
  hints = XGetWMHints (windows->dpy, match->window);
  if (hints != NULL)
    {
      if (hints->flags & InputHint)
        input = hints->input;
      XFree (hints);
    }
  /* Back to PointerRoot when it goes, as on a server without one. */
  if (input)
    XSetInputFocus (windows->dpy, match->window, RevertToPointerRoot, CurrentTime);
  if (has_protocol (windows, match->window, windows->wm_take_focus))
    {
      XEvent ev = { 0 };

      ev.xclient.type = ClientMessage;
      ev.xclient.window = match->window;
      ev.xclient.message_type = windows->wm_protocols;
      ev.xclient.format = 32;
      ev.xclient.data.l[0] = (long) windows->wm_take_focus;
      ev.xclient.data.l[1] = CurrentTime;
      XSendEvent (windows->dpy, match->window, False, NoEventMask, &ev);
    }
  return TRUE;
}

gboolean
windows_supports_ping (Windows *windows, Window window)
{
  return has_protocol (windows, window, windows->net_wm_ping);
}

char *
windows_describe (Windows *windows, Window window)
{
  TopWin *top = find_top (windows, window, NULL);
  WindowsMatch geometry = { 0 };

  if (top == NULL)
    return g_strdup_printf ("0x%lx", window);
  query_geometry (windows, top->client, &geometry);
  return g_strdup_printf ("0x%lx \"%s\" (%s) at %+d%+d %dx%d", top->client,
                          topwin_title (top) != NULL ? topwin_title (top) : "",
                          top->identity.wm_class != NULL ? top->identity.wm_class : "?",
                          geometry.x, geometry.y, geometry.width, geometry.height);
}

GArray *
windows_get_mapped_rects (Windows *windows)
{
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (XRectangle));

  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      WindowsMatch geometry = { 0 };

      if (top->mapped && query_geometry (windows, top->frame, &geometry))
        {
          XRectangle rect = { (short) geometry.x, (short) geometry.y,
                              (unsigned short) geometry.width, (unsigned short) geometry.height };
          g_array_append_val (rects, rect);
        }
    }
  return rects;
}

char **
windows_get_classes (Windows *windows)
{
  char **classes = g_new0 (char *, windows->classes->len + 1);

  for (guint i = 0; i < windows->classes->len; i++)
    classes[i] = g_strdup (g_ptr_array_index (windows->classes, i));
  return classes;
}
