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

#include <stdio.h>

#include <string.h>
#include <unistd.h>
#include <X11/Xatom.h>
#include <X11/extensions/XRes.h>
#include <X11/Xutil.h>

typedef struct
{
  Window frame;              /* the child of the root */
  Window client;             /* the app's window: frame, or inside it */
  guint64 first_map;         /* order of first map, from 1 */
  gboolean mapped;
  gboolean override;
  char *wm_class;            /* owned, or NULL */
  char *wm_name;             /* owned, or NULL */
} TopWin;

typedef struct
{
  char *wm_class, *wm_name;  /* owned */
  Window window;
} Alias;

struct Windows
{
  Display *dpy;              /* not owned */
  Window root;
  Atom net_wm_pid, net_wm_name, utf8_string, wm_protocols, net_wm_ping;
  pid_t app_pid;
  gboolean have_xres;        /* X-Resource 1.2: client ids with pids */

  GHashTable *foreign;       /* Window (frame) -> TRUE: not the app's */
  GPtrArray *tops;           /* of TopWin*, the app's, in first-map order */
  guint64 n_maps;
  GPtrArray *aliases;        /* of Alias* */
};

static void
topwin_free (TopWin *top)
{
  g_free (top->wm_class);
  g_free (top->wm_name);
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
windows_new (Display *dpy)
{
  Windows *windows = g_new0 (Windows, 1);
  Window root_ret, parent, *children = NULL;
  unsigned int n = 0;

  windows->dpy = dpy;
  windows->root = DefaultRootWindow (dpy);
  windows->net_wm_pid = XInternAtom (dpy, "_NET_WM_PID", False);
  windows->net_wm_name = XInternAtom (dpy, "_NET_WM_NAME", False);
  windows->utf8_string = XInternAtom (dpy, "UTF8_STRING", False);
  windows->wm_protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  windows->net_wm_ping = XInternAtom (dpy, "_NET_WM_PING", False);
  windows->foreign = g_hash_table_new (NULL, NULL);
  windows->tops = g_ptr_array_new_with_free_func ((GDestroyNotify) topwin_free);
  windows->aliases = g_ptr_array_new_with_free_func ((GDestroyNotify) alias_free);
  {
    int event_base, error_base, major = 0, minor = 0;

    windows->have_xres = XResQueryExtension (dpy, &event_base, &error_base)
                         && XResQueryVersion (dpy, &major, &minor)
                         && (major > 1 || (major == 1 && minor >= 2));
  }

  /* Select first, then list: a window created in between is seen as new
   * (and then judged by its _NET_WM_PID), never missed. */
  XSelectInput (dpy, windows->root, SubstructureNotifyMask);
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
  g_free (windows);
}

void
windows_set_app (Windows *windows, pid_t pid)
{
  windows->app_pid = pid;
}

/* A format-8 property as valid UTF-8, or NULL. */
static char *
get_string (Windows *windows, Window w, Atom property, Atom type)
{
  Atom actual = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  char *result = NULL;

  if (XGetWindowProperty (windows->dpy, w, property, 0, 1024, False, type, &actual,
                          &format, &n, &after, &data) == Success
      && data != NULL && format == 8)
    result = g_utf8_make_valid ((const char *) data, (gssize) n);
  if (data != NULL)
    XFree (data);
  return result;
}

/* _NET_WM_PID of @w, or 0. */
static pid_t
get_pid (Windows *windows, Window w)
{
  Atom actual = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  pid_t pid = 0;

  if (XGetWindowProperty (windows->dpy, w, windows->net_wm_pid, 0, 1, False, XA_CARDINAL,
                          &actual, &format, &n, &after, &data) == Success
      && data != NULL && format == 32 && n == 1)
    pid = (pid_t) *(unsigned long *) data;   /* Xlib stores format 32 as long */
  if (data != NULL)
    XFree (data);
  return pid;
}

static gboolean
has_class (Windows *windows, Window w)
{
  XClassHint hint = { NULL, NULL };
  gboolean has;

  has = XGetClassHint (windows->dpy, w, &hint) != 0;
  if (hint.res_name != NULL)
    XFree (hint.res_name);
  if (hint.res_class != NULL)
    XFree (hint.res_class);
  return has;
}

/* The app's window for the root child @frame: @frame itself unless a
 * window manager put the client inside it (found by its WM_CLASS). */
static Window
find_client (Windows *windows, Window frame, int depth)
{
  Window root_ret, parent, *children = NULL, found = None;
  unsigned int n = 0;

  if (has_class (windows, frame))
    return frame;
  if (depth >= 3 || !XQueryTree (windows->dpy, frame, &root_ret, &parent, &children, &n))
    return depth == 0 ? frame : None;
  for (unsigned int i = 0; i < n && found == None; i++)
    found = find_client (windows, children[i], depth + 1);
  if (children != NULL)
    XFree (children);
  return found != None ? found : (depth == 0 ? frame : None);
}

static void
topwin_read_names (Windows *windows, TopWin *top)
{
  XClassHint hint = { NULL, NULL };

  g_clear_pointer (&top->wm_class, g_free);
  g_clear_pointer (&top->wm_name, g_free);
  if (XGetClassHint (windows->dpy, top->client, &hint))
    top->wm_class = hint.res_class != NULL ? g_utf8_make_valid (hint.res_class, -1) : NULL;
  if (hint.res_name != NULL)
    XFree (hint.res_name);
  if (hint.res_class != NULL)
    XFree (hint.res_class);
  /* As the recorder does: WM_NAME, else _NET_WM_NAME. */
  top->wm_name = get_string (windows, top->client, XA_WM_NAME, AnyPropertyType);
  if (top->wm_name == NULL)
    top->wm_name = get_string (windows, top->client, windows->net_wm_name,
                               windows->utf8_string);
}

/* The parent of @pid, from /proc (0 if unknown). */
static pid_t
parent_of (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *p;
  char state;
  int ppid = 0;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return 0;
  /* "pid (comm) state ppid ...": comm may hold spaces and parentheses. */
  p = strrchr (stat, ')');
  if (p == NULL || sscanf (p + 1, " %c %d", &state, &ppid) != 2)
    return 0;
  return (pid_t) ppid;
}

static gboolean
pid_is_app (Windows *windows, pid_t pid)
{
  if (windows->app_pid <= 0)
    return FALSE;
  if (pid == windows->app_pid)
    return TRUE;
  /* A helper process the app started (same process group). */
  if (getpgid (pid) == windows->app_pid)
    return TRUE;
  /* A descendant in a group of its own: the app is a launcher script, or
   * runs under gdb (xreplay --backtrace), which gives it a new group. */
  for (int depth = 0; depth < 32 && pid > 1; depth++)
    {
      pid = parent_of (pid);
      if (pid == windows->app_pid)
        return TRUE;
    }
  return FALSE;
}

gboolean
windows_app_connected (Windows *windows)
{
  XResClientIdSpec spec = { .client = 0, .mask = XRES_CLIENT_ID_PID_MASK };
  XResClientIdValue *ids = NULL;
  long n = 0;
  gboolean found = FALSE;

  if (!windows->have_xres || windows->app_pid <= 0)
    return TRUE;
  /* Client 0 with the pid mask: every client's pid, where the server
   * knows it (local connections). */
  if (XResQueryClientIds (windows->dpy, 1, &spec, &n, &ids) != Success)
    return TRUE;
  for (long i = 0; i < n && !found; i++)
    {
      pid_t pid = XResGetClientPid (&ids[i]);

      found = pid > 0 && pid_is_app (windows, pid);
    }
  XResClientIdsDestroy (n, ids);
  return found;
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
  pid_t pid;

  if (ev->event != windows->root
      || g_hash_table_contains (windows->foreign, GSIZE_TO_POINTER (ev->window)))
    return FALSE;
  top = find_top (windows, ev->window, NULL);
  if (top != NULL)
    {
      top->mapped = TRUE;
      return TRUE;
    }
  client = find_client (windows, ev->window, 0);
  pid = get_pid (windows, client);
  if (pid != 0 && !pid_is_app (windows, pid))
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
  g_ptr_array_add (windows->tops, top);
  return TRUE;
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
      /* Taken into a window manager's frame: the frame is mapped next. */
      if (ev->xreparent.event != windows->root || ev->xreparent.parent == windows->root)
        return FALSE;
      g_hash_table_remove (windows->foreign, GSIZE_TO_POINTER (ev->xreparent.window));
      top = find_top (windows, ev->xreparent.window, &index);
      if (top == NULL || top->frame != ev->xreparent.window)
        return FALSE;
      g_ptr_array_remove_index (windows->tops, index);
      return TRUE;
    case ConfigureNotify:
      return ev->xconfigure.event == windows->root
             && find_top (windows, ev->xconfigure.window, NULL) != NULL;
    case PropertyNotify:
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
    n += ((TopWin *) g_ptr_array_index (windows->tops, i))->mapped ? 1 : 0;
  return n;
}

guint
windows_get_n_ever_mapped (Windows *windows)
{
  return (guint) windows->n_maps;
}

/* The mapped window of rank @index, in first-map order (tops is kept in
 * that order: windows are appended on first map and never reordered). */
static TopWin *
mapped_at (Windows *windows, int index)
{
  int rank = 0;

  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      if (!top->mapped)
        continue;
      if (rank == index)
        return top;
      rank++;
    }
  return NULL;
}

static int
rank_of (Windows *windows, TopWin *which)
{
  int rank = 0;

  for (guint i = 0; i < windows->tops->len; i++)
    {
      TopWin *top = g_ptr_array_index (windows->tops, i);
      if (top == which)
        return top->mapped ? rank : -1;
      rank += top->mapped ? 1 : 0;
    }
  return -1;
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
      if (top->mapped && g_strcmp0 (top->wm_class, wm_class) == 0
          && g_strcmp0 (top->wm_name, wm_name) == 0)
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
            && g_strcmp0 (alias->wm_name, wm_name) == 0)
          {
            found = top;
            kind = WINDOWS_MATCH_ALIAS;
            break;
          }
      }

  if (found == NULL)
    {
      TopWin *top = mapped_at (windows, index);
      if (top != NULL && g_strcmp0 (top->wm_class, wm_class) == 0)
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
windows_supports_ping (Windows *windows, Window window)
{
  Atom *protocols = NULL;
  int n = 0;
  gboolean found = FALSE;

  if (window == None || !XGetWMProtocols (windows->dpy, window, &protocols, &n))
    return FALSE;
  for (int i = 0; i < n; i++)
    found |= protocols[i] == windows->net_wm_ping;
  if (protocols != NULL)
    XFree (protocols);
  return found;
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
                          top->wm_name != NULL ? top->wm_name : "",
                          top->wm_class != NULL ? top->wm_class : "?",
                          geometry.x, geometry.y, geometry.width, geometry.height);
}
