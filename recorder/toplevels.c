/* toplevels.c — the model of the display's top-level windows (see
 * toplevels.h).
 *
 * Two kinds of records: a Toplevel is a child of the root (geometry,
 * stacking, mapped state: what decides which window is under the
 * pointer), a Client is a window an application created as its top-level
 * (identity: WM_CLASS, WM_NAME, whose it is). Without a window manager
 * they are the same window; with one, the Toplevel is the WM's frame and
 * its Client the window reparented into it.
 *
 * The stacking order is kept the way compositors keep it: a new window
 * goes on top, ConfigureNotify's above-sibling and CirculateNotify restack.
 *
 * Start reading at toplevels_handle_event().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "toplevels.h"

#include <stdio.h>
#include <string.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/record.h>

typedef enum
{
  DECISION_UNKNOWN,
  DECISION_NO,
  DECISION_YES,
} Decision;

typedef enum
{
  FOCUS_NONE,              /* nobody, or not known: keys are not recorded */
  FOCUS_POINTER,           /* PointerRoot or the root: under the pointer */
  FOCUS_WINDOW,            /* focus_top's subtree */
} FocusMode;

typedef struct
{
  Window id;
  Decision app;            /* cached; reset when _NET_WM_PID changes */
  guint64 first_map;       /* 0: never mapped as the app's */
  pid_t pid;               /* _NET_WM_PID, 0: not known */
  char *wm_class;          /* owned */
  char *wm_name;           /* owned */
  char *net_wm_name;       /* owned */
} Client;

typedef struct
{
  Window id;
  Client *client;          /* borrowed from clients; NULL: none found */
  int x, y, width, height, border;
  int client_dx, client_dy; /* client origin from the frame's origin */
  gboolean mapped;
} Toplevel;

struct Toplevels
{
  Display *dpy;            /* the tracker connection, not owned */
  Window root;
  pid_t app_pgid;
  gboolean private_server;
  XID base_mask;            /* XID & base_mask: the creating client's base */
  Atom net_wm_pid, wm_state, wm_name, net_wm_name, utf8_string;

  GHashTable *toplevels;   /* Window -> Toplevel* (owned) */
  GPtrArray *stack;        /* Toplevel*, bottom to top (borrowed) */
  GHashTable *clients;     /* Window -> Client* (owned) */
  GHashTable *app_bases;   /* XID id_base -> Decision, of clients */
  GHashTable *own_bases;   /* XID id_base set: xrecord's connections */

  guint64 map_seq;
  FocusMode focus_mode;
  Window focus_top;

  ToplevelsMapFunc map_func;
  gpointer map_data;
};

static void
client_free (Client *client)
{
  g_free (client->wm_class);
  g_free (client->wm_name);
  g_free (client->net_wm_name);
  g_free (client);
}

Toplevels *
toplevels_new (Display *dpy, gboolean private_server)
{
  Toplevels *tops = g_new0 (Toplevels, 1);

  tops->dpy = dpy;
  tops->root = DefaultRootWindow (dpy);
  tops->app_pgid = -1;
  tops->private_server = private_server;
  tops->base_mask = XRecordIdBaseMask (dpy);
  tops->net_wm_pid = XInternAtom (dpy, "_NET_WM_PID", False);
  tops->wm_state = XInternAtom (dpy, "WM_STATE", False);
  tops->wm_name = XA_WM_NAME;
  tops->net_wm_name = XInternAtom (dpy, "_NET_WM_NAME", False);
  tops->utf8_string = XInternAtom (dpy, "UTF8_STRING", False);
  tops->toplevels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  tops->stack = g_ptr_array_new ();
  tops->clients = g_hash_table_new_full (NULL, NULL, NULL,
                                         (GDestroyNotify) client_free);
  tops->app_bases = g_hash_table_new (NULL, NULL);
  tops->own_bases = g_hash_table_new (NULL, NULL);
  tops->focus_mode = FOCUS_NONE;
  return tops;
}

void
toplevels_free (Toplevels *tops)
{
  if (tops == NULL)
    return;
  g_ptr_array_unref (tops->stack);
  g_hash_table_unref (tops->toplevels);
  g_hash_table_unref (tops->clients);
  g_hash_table_unref (tops->app_bases);
  g_hash_table_unref (tops->own_bases);
  g_free (tops);
}

void
toplevels_set_app (Toplevels *tops, pid_t app_pgid)
{
  tops->app_pgid = app_pgid;
}

void
toplevels_set_map_func (Toplevels *tops, ToplevelsMapFunc func,
                        gpointer user_data)
{
  tops->map_func = func;
  tops->map_data = user_data;
}

void
toplevels_add_own_client (Toplevels *tops, XID id_base)
{
  g_hash_table_add (tops->own_bases, GSIZE_TO_POINTER (id_base));
}

static XID
base_of (Toplevels *tops, XID id)
{
  return id & tops->base_mask;
}

/* ---- properties (read on the tracker connection; the window may be gone) ---- */

static gboolean
get_property (Toplevels *tops, Window w, Atom prop, Atom type, int format,
              guchar **data, gulong *n_items)
{
  Atom actual_type;
  int actual_format;
  gulong after;

  *data = NULL;
  if (XGetWindowProperty (tops->dpy, w, prop, 0, 1024, False, type,
                          &actual_type, &actual_format, n_items, &after,
                          data) != Success)
    return FALSE;
  if (*data == NULL || actual_format != format || *n_items == 0)
    {
      if (*data != NULL)
        XFree (*data);
      *data = NULL;
      return FALSE;
    }
  return TRUE;
}

/* Reads the identity of a window first seen now. Usually the recorded
 * ChangeProperty requests tell it (toplevels_handle_request); this is
 * for windows that existed before, and never erases what is known: the
 * window may be gone already. */
static void
client_read_identity (Toplevels *tops, Client *client)
{
  XClassHint hint = { NULL, NULL };
  guchar *data = NULL;
  gulong n = 0;

  if (client->wm_class == NULL && XGetClassHint (tops->dpy, client->id, &hint))
    client->wm_class = g_strdup (hint.res_class);
  if (hint.res_name != NULL)
    XFree (hint.res_name);
  if (hint.res_class != NULL)
    XFree (hint.res_class);
  if (client->wm_name == NULL
      && get_property (tops, client->id, tops->wm_name, AnyPropertyType, 8, &data, &n))
    {
      client->wm_name = g_utf8_make_valid ((const char *) data, (gssize) n);
      XFree (data);
    }
  if (client->net_wm_name == NULL
      && get_property (tops, client->id, tops->net_wm_name, tops->utf8_string, 8,
                       &data, &n))
    {
      client->net_wm_name = g_utf8_make_valid ((const char *) data, (gssize) n);
      XFree (data);
    }
}

/* The process group of @pid, from /proc; -1 if it is gone. */
static pid_t
pgid_of (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  const char *paren;
  int pgid = -1;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;
  /* "pid (comm) state ppid pgrp": comm may hold spaces and parentheses. */
  paren = strrchr (text, ')');
  if (paren == NULL || sscanf (paren + 1, " %*c %*d %d", &pgid) != 1)
    return -1;
  return pgid;
}

static void client_pid_changed (Toplevels *tops, Client *client);

void
toplevels_handle_request (Toplevels *tops, const guint8 *data, gsize len)
{
  xChangePropertyReq req;
  Client *client;
  const char *value;
  gsize size;

  if (len < sz_xChangePropertyReq)
    return;
  memcpy (&req, data, sz_xChangePropertyReq);
  if (req.reqType != X_ChangeProperty || req.mode != PropModeReplace
      || (req.format != 8 && req.format != 32))
    return;
  client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER ((Window) req.window));
  if (client == NULL)
    return;   /* not a top-level */
  size = (gsize) req.nUnits * (req.format / 8);
  if (size > len - sz_xChangePropertyReq)
    return;
  value = (const char *) data + sz_xChangePropertyReq;
  if (req.property == XA_WM_NAME && req.format == 8)
    {
      g_free (client->wm_name);
      client->wm_name = g_utf8_make_valid (value, (gssize) size);
    }
  else if (req.property == tops->net_wm_name && req.format == 8)
    {
      g_free (client->net_wm_name);
      client->net_wm_name = g_utf8_make_valid (value, (gssize) size);
    }
  else if (req.property == XA_WM_CLASS && req.format == 8)
    {
      /* "instance\0Class\0" */
      gsize first = strnlen (value, size);

      g_free (client->wm_class);
      client->wm_class = first + 1 < size
                         ? g_utf8_make_valid (value + first + 1,
                                              (gssize) strnlen (value + first + 1,
                                                                size - first - 1))
                         : NULL;
    }
  else if (req.property == tops->net_wm_pid && req.format == 32 && req.nUnits >= 1)
    {
      guint32 pid;

      memcpy (&pid, value, sizeof pid);
      client->pid = (pid_t) pid;
      client_pid_changed (tops, client);
    }
}

static Decision
client_decide (Toplevels *tops, Client *client)
{
  XID base = base_of (tops, client->id);
  guchar *data = NULL;
  gulong n = 0;

  if (client->app != DECISION_UNKNOWN)
    return client->app;
  if (g_hash_table_contains (tops->own_bases, GSIZE_TO_POINTER (base)))
    return client->app = DECISION_NO;
  if (GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases,
                                            GSIZE_TO_POINTER (base))) == DECISION_YES)
    return client->app = DECISION_YES;
  if (client->pid == 0
      && get_property (tops, client->id, tops->net_wm_pid, XA_CARDINAL, 32, &data, &n))
    {
      client->pid = (pid_t) ((unsigned long *) data)[0];
      XFree (data);
    }
  if (client->pid > 0)
    {
      pid_t pid = client->pid;

      if (tops->app_pgid > 0
          && (pid == tops->app_pgid || pgid_of (pid) == tops->app_pgid))
        {
          g_hash_table_insert (tops->app_bases, GSIZE_TO_POINTER (base),
                               GINT_TO_POINTER (DECISION_YES));
          return client->app = DECISION_YES;
        }
      return client->app = DECISION_NO;
    }
  if (tops->private_server)
    return client->app = DECISION_YES;
  /* No _NET_WM_PID (yet): not the app's until it says so. */
  return DECISION_UNKNOWN;
}

gboolean
toplevels_is_app_client (Toplevels *tops, XID id_base)
{
  GHashTableIter iter;
  gpointer value;

  if (g_hash_table_contains (tops->own_bases, GSIZE_TO_POINTER (id_base)))
    return FALSE;
  if (tops->private_server
      || GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases,
                                               GSIZE_TO_POINTER (id_base))) == DECISION_YES)
    return TRUE;
  /* Not known yet: one of its windows may say. */
  g_hash_table_iter_init (&iter, tops->clients);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Client *client = value;

      if (base_of (tops, client->id) == id_base
          && client_decide (tops, client) == DECISION_YES)
        return TRUE;
    }
  return FALSE;
}

/* ---- the stack of root children ---- */

static Client *
client_get (Toplevels *tops, Window id)
{
  Client *client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER (id));

  if (client == NULL)
    {
      client = g_new0 (Client, 1);
      client->id = id;
      g_hash_table_insert (tops->clients, GSIZE_TO_POINTER (id), client);
      /* Its title and pid may change, and it tells us so. */
      XSelectInput (tops->dpy, id, PropertyChangeMask | FocusChangeMask
                                   | StructureNotifyMask);
      client_read_identity (tops, client);
    }
  return client;
}

static Toplevel *
toplevel_find (Toplevels *tops, Window id)
{
  return g_hash_table_lookup (tops->toplevels, GSIZE_TO_POINTER (id));
}

static int
stack_index (Toplevels *tops, Toplevel *top)
{
  for (guint i = 0; i < tops->stack->len; i++)
    if (g_ptr_array_index (tops->stack, i) == top)
      return (int) i;
  return -1;
}

/* Restacks @top directly above @sibling (None: at the bottom). */
static void
stack_place_above (Toplevels *tops, Toplevel *top, Window sibling)
{
  Toplevel *below = sibling != None ? toplevel_find (tops, sibling) : NULL;
  int at;

  g_ptr_array_remove (tops->stack, top);
  at = below != NULL ? stack_index (tops, below) + 1 : 0;
  if (sibling != None && below == NULL)
    at = (int) tops->stack->len;   /* unknown sibling: assume the top */
  g_ptr_array_insert (tops->stack, at, top);
}

static Toplevel *
toplevel_add (Toplevels *tops, Window id, int x, int y, int width, int height,
              int border, gboolean mapped)
{
  Toplevel *top = toplevel_find (tops, id);

  if (top == NULL)
    {
      top = g_new0 (Toplevel, 1);
      top->id = id;
      g_hash_table_insert (tops->toplevels, GSIZE_TO_POINTER (id), top);
      g_ptr_array_add (tops->stack, top);
      /* Until a window manager reparents something into it, a root child
       * is its own client. */
      top->client = client_get (tops, id);
    }
  top->x = x;
  top->y = y;
  top->width = width;
  top->height = height;
  top->border = border;
  top->mapped = mapped;
  return top;
}

static void
toplevel_remove (Toplevels *tops, Window id, gboolean destroyed)
{
  Toplevel *top = toplevel_find (tops, id);

  if (top == NULL)
    return;
  if (tops->focus_mode == FOCUS_WINDOW && tops->focus_top == id)
    tops->focus_mode = FOCUS_NONE;
  g_ptr_array_remove (tops->stack, top);
  g_hash_table_remove (tops->toplevels, GSIZE_TO_POINTER (id));
  if (destroyed)
    g_hash_table_remove (tops->clients, GSIZE_TO_POINTER (id));
}

/* The index among the app's mapped top-levels, in first-map order. */
static int
client_index (Toplevels *tops, Client *client)
{
  int index = 0;

  for (guint i = 0; i < tops->stack->len; i++)
    {
      Toplevel *other = g_ptr_array_index (tops->stack, i);

      if (other->mapped && other->client != NULL && other->client != client
          && other->client->first_map != 0
          && other->client->first_map < client->first_map)
        index++;
    }
  return index;
}

/* A mapped top-level whose client is the app's gets its place in the
 * first-map order. */
static void
toplevel_note_map (Toplevels *tops, Toplevel *top)
{
  Client *client = top->client;

  if (!top->mapped || client == NULL || client->first_map != 0
      || client_decide (tops, client) != DECISION_YES)
    return;
  client->first_map = ++tops->map_seq;
  if (tops->map_func != NULL)
    tops->map_func (client->id, tops->map_data);
}

static void
client_pid_changed (Toplevels *tops, Client *client)
{
  if (client->app == DECISION_YES)
    return;
  client->app = DECISION_UNKNOWN;
  /* It may have been mapped before it said whose it is. */
  for (guint i = 0; i < tops->stack->len; i++)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->client == client)
        toplevel_note_map (tops, top);
    }
}

static Window
toplevel_ancestor (Toplevels *tops, Window w)
{
  for (int depth = 0; depth < 32 && w != None; depth++)
    {
      Window root, parent, *children = NULL;
      unsigned int n;

      if (!XQueryTree (tops->dpy, w, &root, &parent, &children, &n))
        return None;
      if (children != NULL)
        XFree (children);
      if (parent == tops->root)
        return w;
      w = parent;
    }
  return None;
}

/* A window manager reparented @window (a top-level) into @parent. */
static void
handle_reparent (Toplevels *tops, Window window, Window parent, int x, int y)
{
  Toplevel *old = toplevel_find (tops, window);
  Client *client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER (window));
  Toplevel *frame;
  Window child;

  if (parent == tops->root)
    {
      /* Back to the root (the WM let go of it): a top-level again. */
      XWindowAttributes attrs;

      if (XGetWindowAttributes (tops->dpy, window, &attrs))
        toplevel_add (tops, window, x, y, attrs.width, attrs.height,
                      attrs.border_width, attrs.map_state != IsUnmapped);
      return;
    }
  if (old != NULL)
    {
      g_ptr_array_remove (tops->stack, old);
      g_hash_table_steal (tops->toplevels, GSIZE_TO_POINTER (window));
      g_free (old);
    }
  if (client == NULL)
    return;
  frame = toplevel_find (tops, toplevel_ancestor (tops, parent));
  if (frame == NULL)
    return;
  frame->client = client;
  XTranslateCoordinates (tops->dpy, window, frame->id, 0, 0,
                         &frame->client_dx, &frame->client_dy, &child);
  toplevel_note_map (tops, frame);
}

static void
handle_focus (Toplevels *tops, const xEvent *ev)
{
  int type = ev->u.u.type & 0x7f;
  int detail = ev->u.u.detail;
  Window w = ev->u.focus.window;

  if (w == tops->root)
    {
      if (type == FocusIn)
        {
          if (detail == NotifyPointerRoot || detail == NotifyInferior)
            tops->focus_mode = FOCUS_POINTER;
          else if (detail == NotifyDetailNone)
            tops->focus_mode = FOCUS_NONE;
        }
      else if (detail == NotifyPointerRoot || detail == NotifyDetailNone
               || detail == NotifyNonlinearVirtual || detail == NotifyVirtual)
        {
          /* Leaves PointerRoot/None, or the root itself: the FocusIn on
           * the new focus window follows. */
          tops->focus_mode = FOCUS_NONE;
        }
      return;
    }
  {
    Toplevel *top = toplevel_find (tops, w);
    Window top_id = top != NULL ? top->id : None;

    if (top == NULL)
      {
        /* A client inside a frame. */
        GHashTableIter iter;
        gpointer value;

        g_hash_table_iter_init (&iter, tops->toplevels);
        while (g_hash_table_iter_next (&iter, NULL, &value))
          if (((Toplevel *) value)->client != NULL
              && ((Toplevel *) value)->client->id == w)
            top_id = ((Toplevel *) value)->id;
        if (top_id == None)
          return;
      }
    /* NotifyPointer: PointerRoot focus passing through; NotifyInferior:
     * the focus moves within the window. */
    if (detail == NotifyPointer || detail == NotifyInferior)
      return;
    if (type == FocusIn)
      {
        tops->focus_mode = FOCUS_WINDOW;
        tops->focus_top = top_id;
      }
    else if (tops->focus_mode == FOCUS_WINDOW && tops->focus_top == top_id)
      tops->focus_mode = FOCUS_NONE;
  }
}

void
toplevels_handle_event (Toplevels *tops, const xEvent *ev)
{
  Toplevel *top;

  switch (ev->u.u.type & 0x7f)
    {
    case CreateNotify:
      if (ev->u.createNotify.parent == tops->root)
        {
          top = toplevel_add (tops, ev->u.createNotify.window,
                              ev->u.createNotify.x, ev->u.createNotify.y,
                              ev->u.createNotify.width, ev->u.createNotify.height,
                              ev->u.createNotify.borderWidth, FALSE);
          /* A new window is on top of its siblings (it may be in the
           * snapshot already, anywhere). */
          g_ptr_array_remove (tops->stack, top);
          g_ptr_array_add (tops->stack, top);
        }
      break;
    case DestroyNotify:
      if (ev->u.destroyNotify.event == tops->root)
        toplevel_remove (tops, ev->u.destroyNotify.window, TRUE);
      else if (ev->u.destroyNotify.event == ev->u.destroyNotify.window)
        {
          /* A client inside a frame (selected StructureNotify on it). */
          Window w = ev->u.destroyNotify.window;
          GHashTableIter iter;
          gpointer value;

          if (toplevel_find (tops, w) != NULL)
            break;
          g_hash_table_iter_init (&iter, tops->toplevels);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            if (((Toplevel *) value)->client != NULL
                && ((Toplevel *) value)->client->id == w)
              ((Toplevel *) value)->client = NULL;
          g_hash_table_remove (tops->clients, GSIZE_TO_POINTER (w));
        }
      break;
    case MapNotify:
      if (ev->u.mapNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.mapNotify.window)) != NULL)
        {
          top->mapped = TRUE;
          toplevel_note_map (tops, top);
        }
      break;
    case UnmapNotify:
      if (ev->u.unmapNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.unmapNotify.window)) != NULL)
        top->mapped = FALSE;
      break;
    case ConfigureNotify:
      if (ev->u.configureNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.configureNotify.window)) != NULL)
        {
          top->x = ev->u.configureNotify.x;
          top->y = ev->u.configureNotify.y;
          top->width = ev->u.configureNotify.width;
          top->height = ev->u.configureNotify.height;
          top->border = ev->u.configureNotify.borderWidth;
          stack_place_above (tops, top, ev->u.configureNotify.aboveSibling);
        }
      break;
    case CirculateNotify:
      if (ev->u.circulate.event == tops->root
          && (top = toplevel_find (tops, ev->u.circulate.window)) != NULL)
        {
          g_ptr_array_remove (tops->stack, top);
          if (ev->u.circulate.place == PlaceOnTop)
            g_ptr_array_add (tops->stack, top);
          else
            g_ptr_array_insert (tops->stack, 0, top);
        }
      break;
    case ReparentNotify:
      if (ev->u.reparent.event == tops->root
          || ev->u.reparent.event == ev->u.reparent.window)
        handle_reparent (tops, ev->u.reparent.window, ev->u.reparent.parent,
                         ev->u.reparent.x, ev->u.reparent.y);
      break;
    case PropertyNotify:
      {
        Client *client = g_hash_table_lookup (tops->clients,
                                              GSIZE_TO_POINTER (ev->u.property.window));
        Atom atom = ev->u.property.atom;

        if (client == NULL)
          break;
        if (atom == tops->net_wm_pid)
          client_pid_changed (tops, client);
      }
      break;
    case FocusIn:
    case FocusOut:
      handle_focus (tops, ev);
      break;
    default:
      break;
    }
}

void
toplevels_start (Toplevels *tops)
{
  Window root, parent, *children = NULL, focus;
  unsigned int n = 0;
  int revert;

  XSelectInput (tops->dpy, tops->root, SubstructureNotifyMask | FocusChangeMask);
  if (XQueryTree (tops->dpy, tops->root, &root, &parent, &children, &n))
    {
      for (unsigned int i = 0; i < n; i++)
        {
          XWindowAttributes attrs;

          if (!XGetWindowAttributes (tops->dpy, children[i], &attrs))
            continue;
          toplevel_add (tops, children[i], attrs.x, attrs.y, attrs.width,
                        attrs.height, attrs.border_width,
                        attrs.map_state != IsUnmapped);
        }
      if (children != NULL)
        XFree (children);
    }
  XGetInputFocus (tops->dpy, &focus, &revert);
  if (focus == PointerRoot || focus == tops->root)
    tops->focus_mode = FOCUS_POINTER;
  else if (focus != None)
    {
      Toplevel *top = toplevel_find (tops, toplevel_ancestor (tops, focus));

      if (top != NULL)
        {
          tops->focus_mode = FOCUS_WINDOW;
          tops->focus_top = top->id;
        }
    }
}

static gboolean
toplevel_target (Toplevels *tops, Toplevel *top, ToplevelTarget *target)
{
  Client *client = top->client;

  if (client == NULL || client_decide (tops, client) != DECISION_YES)
    return FALSE;
  if (client->first_map == 0)
    toplevel_note_map (tops, top);
  target->window = client->id;
  target->index = client->first_map != 0 ? client_index (tops, client) : -1;
  target->wm_class = client->wm_class;
  target->wm_name = client->wm_name != NULL ? client->wm_name : client->net_wm_name;
  target->origin_x = top->x + top->border + top->client_dx;
  target->origin_y = top->y + top->border + top->client_dy;
  return TRUE;
}

gboolean
toplevels_at (Toplevels *tops, int root_x, int root_y, ToplevelTarget *target)
{
  for (guint i = tops->stack->len; i-- > 0;)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->mapped && root_x >= top->x && root_y >= top->y
          && root_x < top->x + top->width + 2 * top->border
          && root_y < top->y + top->height + 2 * top->border)
        return toplevel_target (tops, top, target);
    }
  return FALSE;
}

gboolean
toplevels_focus (Toplevels *tops, int root_x, int root_y, ToplevelTarget *target)
{
  Toplevel *top;

  switch (tops->focus_mode)
    {
    case FOCUS_POINTER:
      return toplevels_at (tops, root_x, root_y, target);
    case FOCUS_WINDOW:
      top = toplevel_find (tops, tops->focus_top);
      if (top == NULL)
        return FALSE;
      /* Keys go to the window under the pointer when it is inside the
       * focus window; at top-level granularity that is the same window. */
      return toplevel_target (tops, top, target);
    case FOCUS_NONE:
    default:
      return FALSE;
    }
}

gboolean
toplevels_lookup (Toplevels *tops, Window window, ToplevelTarget *target)
{
  for (guint i = 0; i < tops->stack->len; i++)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->id == window || (top->client != NULL && top->client->id == window))
        return toplevel_target (tops, top, target);
    }
  return FALSE;
}

guint
toplevels_get_n_app_mapped (Toplevels *tops)
{
  return (guint) tops->map_seq;
}
