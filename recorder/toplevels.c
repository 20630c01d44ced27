/* toplevels.c — the model of the display's top-level windows (see
 * toplevels.h).
 *
 * Two kinds of records: a Toplevel is a child of the root (geometry,
 * stacking, mapped state: what decides which window is under the
 * pointer), a Client is a window an application created as its top-level
 * (identity: WM_CLASS, WM_NAME, whose it is). Without a window manager
 * they are the same window; with one, the Toplevel is the WM's frame and
 * its Client the window reparented into it. An app that reparents its own
 * window into a wrapper of its own (Tk) is not a window manager: the
 * wrapper stays its own Client, which carries the identity, and the inner
 * window is only remembered (Toplevel.inner). Whose a window is, and which
 * window names it, is xapp/'s rule, shared with the replayer.
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

#include "xapp.h"

typedef enum
{
  DECISION_UNKNOWN,
  DECISION_NO,
  DECISION_YES,
  DECISION_SILENT,         /* of a client base: the server cannot tell its pid */
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
  XAppIdentity identity;   /* owned strings */
  int extents[4];          /* _GTK_FRAME_EXTENTS: left, right, top, bottom (a
                            * client-side decorated window's invisible margins,
                            * its shadows under a compositor), or zeros */
} Client;

typedef struct
{
  Window id;
  Client *client;          /* borrowed from clients; NULL: none found */
  Client *inner;           /* borrowed: a window of the same client reparented
                            * into this one (Tk's), or NULL */
  int x, y, width, height, border;
  int client_dx, client_dy; /* client origin from the frame's origin */
  int client_width, client_height; /* the client's size, when it is not the frame */
  Window client_parent;    /* the client's parent: the frame, or a window in it */
  gboolean mapped;
} Toplevel;

typedef struct
{
  Window id;               /* the window that names it */
  char *wm_class;          /* owned, or NULL */
  char *title;             /* owned, or NULL */
} Seen;

struct Toplevels
{
  Display *dpy;            /* the tracker connection, not owned */
  XApp *xapp;              /* owned: whose a window is */
  Window root;
  pid_t app_pgid;
  gboolean private_server;
  Atom net_wm_pid, net_wm_name, gtk_frame_extents;

  GHashTable *toplevels;   /* Window -> Toplevel* (owned) */
  GPtrArray *stack;        /* Toplevel*, bottom to top (borrowed) */
  GHashTable *clients;     /* Window -> Client* (owned) */
  GHashTable *app_bases;   /* XID id_base -> Decision, of clients; forgotten
                            * when the client leaves (its base is reused) */
  GPtrArray *seen;         /* of Seen* (owned): windows mapped while recording */

  guint64 map_seq;
  FocusMode focus_mode;
  Window focus_top;

  ToplevelsMapFunc map_func;
  gpointer map_data;
};

static void
client_free (Client *client)
{
  xapp_identity_clear (&client->identity);
  g_free (client);
}

static void
seen_free (Seen *seen)
{
  g_free (seen->wm_class);
  g_free (seen->title);
  g_free (seen);
}

Toplevels *
toplevels_new (Display *dpy, gboolean private_server)
{
  Toplevels *tops = g_new0 (Toplevels, 1);

  tops->dpy = dpy;
  tops->xapp = xapp_new (dpy);
  tops->root = DefaultRootWindow (dpy);
  tops->app_pgid = -1;
  tops->private_server = private_server;
  xapp_set_private (tops->xapp, private_server);
  tops->net_wm_pid = XInternAtom (dpy, "_NET_WM_PID", False);
  tops->net_wm_name = XInternAtom (dpy, "_NET_WM_NAME", False);
  tops->gtk_frame_extents = XInternAtom (dpy, "_GTK_FRAME_EXTENTS", False);
  tops->toplevels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  tops->stack = g_ptr_array_new ();
  tops->clients = g_hash_table_new_full (NULL, NULL, NULL,
                                         (GDestroyNotify) client_free);
  tops->app_bases = g_hash_table_new (NULL, NULL);
  tops->seen = g_ptr_array_new_with_free_func ((GDestroyNotify) seen_free);
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
  g_ptr_array_unref (tops->seen);
  xapp_free (tops->xapp);
  g_free (tops);
}

void
toplevels_set_app (Toplevels *tops, pid_t app_pgid)
{
  tops->app_pgid = app_pgid;
  xapp_set_app (tops->xapp, app_pgid);
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
  xapp_add_own_client (tops->xapp, id_base);
}

gboolean
toplevels_server_tells_pids (Toplevels *tops)
{
  return xapp_has_xres (tops->xapp);
}

void
toplevels_client_gone (Toplevels *tops, XID id_base)
{
  g_hash_table_remove (tops->app_bases, GSIZE_TO_POINTER (id_base));
}

static XID
base_of (Toplevels *tops, XID id)
{
  return xapp_client_base (tops->xapp, id);
}

/* ---- what it was mapped as ---- */

/* Remembers (or updates) the identity a window mapped while recording
 * showed; the window may be gone when it is asked for. */
static void
seen_note (Toplevels *tops, Client *client, gboolean add)
{
  Seen *seen = NULL;

  for (guint i = 0; i < tops->seen->len && seen == NULL; i++)
    if (((Seen *) g_ptr_array_index (tops->seen, i))->id == client->id)
      seen = g_ptr_array_index (tops->seen, i);
  if (seen == NULL)
    {
      if (!add)
        return;
      seen = g_new0 (Seen, 1);
      seen->id = client->id;
      g_ptr_array_add (tops->seen, seen);
    }
  g_free (seen->wm_class);
  g_free (seen->title);
  seen->wm_class = g_strdup (client->identity.wm_class);
  seen->title = g_strdup (xapp_identity_title (&client->identity));
}

guint
toplevels_get_n_seen (Toplevels *tops)
{
  return tops->seen->len;
}

void
toplevels_get_seen (Toplevels *tops, guint i, Window *window, const char **wm_class,
                    const char **title)
{
  Seen *seen = g_ptr_array_index (tops->seen, i);

  *window = seen->id;
  *wm_class = seen->wm_class;
  *title = seen->title;
}

/* ---- properties (read on the tracker connection; the window may be gone) ---- */

static void client_pid_changed (Toplevels *tops, Client *client);

/* A client-side decorated window's invisible margins (GTK's
 * _GTK_FRAME_EXTENTS, CARDINAL[4]): set, or deleted (maximized, no
 * compositor). Positions and sizes are the visible window's. */
static void
set_extents (Client *client, const char *value, gsize n_units)
{
  for (guint i = 0; i < 4; i++)
    {
      guint32 v = 0;

      if (value != NULL && i < n_units)
        memcpy (&v, value + 4 * i, sizeof v);
      /* (A margin wider than a screen is no margin.) */
      client->extents[i] = v <= 4096 ? (int) v : 0;
    }
}

void
toplevels_handle_request (Toplevels *tops, const guint8 *data, gsize len)
{
  xChangePropertyReq req;
  Client *client;
  const char *value;
  gsize size;

  if (len >= sz_xDeletePropertyReq && data[0] == X_DeleteProperty)
    {
      xDeletePropertyReq del;

      memcpy (&del, data, sz_xDeletePropertyReq);
      client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER ((Window) del.window));
      if (client != NULL && del.property == tops->gtk_frame_extents)
        set_extents (client, NULL, 0);
      return;
    }
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
      g_free (client->identity.wm_name);
      client->identity.wm_name = xapp_text_from_property (tops->xapp, req.type, value, size);
    }
  else if (req.property == tops->net_wm_name && req.format == 8)
    {
      g_free (client->identity.net_wm_name);
      client->identity.net_wm_name = xapp_text_from_value (value, size);
    }
  else if (req.property == XA_WM_CLASS && req.format == 8)
    {
      g_free (client->identity.wm_class);
      client->identity.wm_class = xapp_class_from_value (value, size);
    }
  else if (req.property == tops->gtk_frame_extents && req.format == 32)
    {
      set_extents (client, value, req.nUnits == 4 ? 4 : 0);
      return;
    }
  else if (req.property == tops->net_wm_pid && req.format == 32 && req.nUnits >= 1)
    {
      guint32 pid;

      memcpy (&pid, value, sizeof pid);
      client->pid = (pid_t) pid;
      client_pid_changed (tops, client);
      return;
    }
  else
    return;
  seen_note (tops, client, FALSE);
}

/* Is @client the app's? xapp's rule (on a private server every client but
 * ours; else its X client's pid, else its _NET_WM_PID); when nobody can
 * tell, not until it says so. */
static Decision
client_decide (Toplevels *tops, Client *client)
{
  XID base = base_of (tops, client->id);

  if (client->app != DECISION_UNKNOWN)
    return client->app;
  if (xapp_is_own_client (tops->xapp, client->id))
    return client->app = DECISION_NO;
  if (GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases,
                                            GSIZE_TO_POINTER (base))) == DECISION_YES)
    return client->app = DECISION_YES;
  /* (Its _NET_WM_PID is read only if the server cannot tell.) */
  switch (xapp_window_owner (tops->xapp, client->id, client->pid))
    {
    case XAPP_APP:
      g_hash_table_insert (tops->app_bases, GSIZE_TO_POINTER (base),
                           GINT_TO_POINTER (DECISION_YES));
      return client->app = DECISION_YES;
    case XAPP_NOT_APP:
      return client->app = DECISION_NO;
    case XAPP_UNKNOWN:
    default:
      /* Nobody can tell (yet): not the app's until it says so. */
      return DECISION_UNKNOWN;
    }
}

gboolean
toplevels_is_app_client (Toplevels *tops, XID id_base)
{
  GHashTableIter iter;
  gpointer value;
  Decision known;

  if (xapp_is_own_client (tops->xapp, id_base))
    return FALSE;
  if (tops->private_server)
    return TRUE;
  known = GPOINTER_TO_INT (g_hash_table_lookup (tops->app_bases, GSIZE_TO_POINTER (id_base)));
  if (known == DECISION_YES || known == DECISION_NO)
    return known == DECISION_YES;
  if (known == DECISION_UNKNOWN && tops->app_pgid > 0)
    {
      /* Asked once per client (until it leaves): its pid, from the server. */
      XAppOwner owner = xapp_client_owner (tops->xapp, id_base);

      known = owner == XAPP_APP ? DECISION_YES
              : owner == XAPP_NOT_APP ? DECISION_NO : DECISION_SILENT;
      g_hash_table_insert (tops->app_bases, GSIZE_TO_POINTER (id_base),
                           GINT_TO_POINTER (known));
      if (known != DECISION_SILENT)
        return known == DECISION_YES;
    }
  /* The server cannot tell: one of its windows may say. */
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
      /* What it had before we saw it; usually the recorded ChangeProperty
       * requests tell (toplevels_handle_request). */
      xapp_identity_read (tops->xapp, id, &client->identity);
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

/* A top-level's place in the first-map order while it is mapped (its
 * client's), for xapp_window_index(). */
static guint64
toplevel_first_map (gconstpointer data)
{
  const Toplevel *top = data;

  return top->mapped && top->client != NULL ? top->client->first_map : 0;
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

/* @window (a top-level, or a window we know) was reparented into @parent:
 * by a window manager, into its frame (another client created @parent),
 * or by the app itself, into a wrapper of its own (Tk: the same client
 * created both), which keeps its own identity. */
static void
handle_reparent (Toplevels *tops, Window window, Window parent, int x, int y)
{
  Toplevel *old = toplevel_find (tops, window);
  Client *client = g_hash_table_lookup (tops->clients, GSIZE_TO_POINTER (window));
  int border = old != NULL ? old->border : 0;
  int old_width = old != NULL ? old->width : 0, old_height = old != NULL ? old->height : 0;
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
      if (tops->focus_mode == FOCUS_WINDOW && tops->focus_top == window)
        tops->focus_mode = FOCUS_NONE;
      g_ptr_array_remove (tops->stack, old);
      g_hash_table_steal (tops->toplevels, GSIZE_TO_POINTER (window));
      g_free (old);
    }
  if (client == NULL)
    return;
  /* The new parent is usually a root child itself (no round trip: the
   * window may be gone by the time the recorded event is read). */
  frame = toplevel_find (tops, parent);
  if (frame == NULL)
    frame = toplevel_find (tops, toplevel_ancestor (tops, parent));
  if (frame == NULL)
    return;
  if (xapp_same_client (tops->xapp, window, parent))
    {
      /* The app's own structure: the wrapper stays its own client, with
       * the identity the app gives it; the inner window is a fallback
       * should the wrapper never be named. */
      if (frame->client != client)
        frame->inner = client;
      return;
    }
  frame->client = client;
  frame->client_parent = parent;
  /* Where the client's inside is in the frame: the event says, when the
   * frame is the parent (the window, or the frame, may be gone by the time
   * the recorded event is read). Then ask the server: a window manager
   * moves the client inside its frame right after the reparent (openbox
   * puts it at 1,20, under the title bar), maybe before the
   * StructureNotify we selected on the client took effect; the round trip
   * makes sure that every move after it is seen (handle_client_configure). */
  frame->client_dx = x + border;
  frame->client_dy = y + border;
  if (old_width > 0)
    {
      frame->client_width = old_width;
      frame->client_height = old_height;
    }
  {
    XWindowAttributes attrs;

    if (XTranslateCoordinates (tops->dpy, window, frame->id, 0, 0, &frame->client_dx,
                               &frame->client_dy, &child)
        && XGetWindowAttributes (tops->dpy, window, &attrs))
      {
        frame->client_width = attrs.width;
        frame->client_height = attrs.height;
      }
  }
  toplevel_note_map (tops, frame);
}

/* The client whose identity names @top (not NULL): its client, unless
 * that says nothing and the window the app reparented into it does. */
static Client *
toplevel_named (const Toplevel *top)
{
  if (top->inner != NULL && !xapp_identity_is_set (&top->client->identity)
      && xapp_identity_is_set (&top->inner->identity))
    return top->inner;
  return top->client;
}

/* Is @w the client in @top, or the window inside its wrapper? */
static gboolean
toplevel_holds (const Toplevel *top, Window w)
{
  return (top->client != NULL && top->client->id == w)
         || (top->inner != NULL && top->inner->id == w);
}

/* A ConfigureNotify of a client inside a frame (we selected its
 * StructureNotify): its place in the frame and its size. A real one is
 * relative to its parent; the synthetic one a window manager sends (ICCCM
 * 4.1.5) gives its place on the root. */
static void
handle_client_configure (Toplevels *tops, const xEvent *ev)
{
  Window w = ev->u.configureNotify.window;
  int x = ev->u.configureNotify.x, y = ev->u.configureNotify.y;
  int border = ev->u.configureNotify.borderWidth;
  gboolean synthetic = (ev->u.u.type & 0x80) != 0;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, tops->toplevels);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Toplevel *top = value;
      Window child;

      if (top->client == NULL || top->client->id != w || top->id == w)
        continue;
      top->client_width = ev->u.configureNotify.width;
      top->client_height = ev->u.configureNotify.height;
      if (synthetic)
        {
          top->client_dx = x + border - (top->x + top->border);
          top->client_dy = y + border - (top->y + top->border);
        }
      else if (top->client_parent == top->id)
        {
          top->client_dx = x + border;
          top->client_dy = y + border;
        }
      else
        XTranslateCoordinates (tops->dpy, w, top->id, 0, 0, &top->client_dx,
                               &top->client_dy, &child);
      return;
    }
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
        /* A client inside a frame, or a window inside its wrapper. */
        GHashTableIter iter;
        gpointer value;

        g_hash_table_iter_init (&iter, tops->toplevels);
        while (g_hash_table_iter_next (&iter, NULL, &value))
          if (toplevel_holds (value, w))
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
          /* A client inside a frame, or a window inside its wrapper
           * (selected StructureNotify on it). */
          Window w = ev->u.destroyNotify.window;
          GHashTableIter iter;
          gpointer value;

          if (toplevel_find (tops, w) != NULL)
            break;
          g_hash_table_iter_init (&iter, tops->toplevels);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            {
              Toplevel *held = value;

              if (held->client != NULL && held->client->id == w)
                held->client = NULL;
              if (held->inner != NULL && held->inner->id == w)
                held->inner = NULL;
            }
          g_hash_table_remove (tops->clients, GSIZE_TO_POINTER (w));
        }
      break;
    case MapNotify:
      if (ev->u.mapNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.mapNotify.window)) != NULL)
        {
          top->mapped = TRUE;
          toplevel_note_map (tops, top);
          if (top->client != NULL)
            seen_note (tops, toplevel_named (top), TRUE);
        }
      break;
    case UnmapNotify:
      if (ev->u.unmapNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.unmapNotify.window)) != NULL)
        top->mapped = FALSE;
      break;
    case ConfigureNotify:
      if (ev->u.configureNotify.event == ev->u.configureNotify.window
          && toplevel_find (tops, ev->u.configureNotify.window) == NULL)
        handle_client_configure (tops, ev);
      else if (ev->u.configureNotify.event == tops->root
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
  target->index = client->first_map != 0
                  ? xapp_window_index (tops->stack, toplevel_first_map, client->first_map)
                  : -1;
  target->wm_class = toplevel_named (top)->identity.wm_class;
  target->wm_name = xapp_identity_title (&toplevel_named (top)->identity);
  /* The visible window: without a client-side decorated window's
   * invisible margins (a compositor's shadows), so that a position means
   * the same widget on a bare server, where they are narrower or none. */
  target->origin_x = top->x + top->border + top->client_dx + client->extents[0];
  target->origin_y = top->y + top->border + top->client_dy + client->extents[2];
  target->width = (client->id == top->id ? top->width : top->client_width)
                  - client->extents[0] - client->extents[1];
  target->height = (client->id == top->id ? top->height : top->client_height)
                   - client->extents[2] - client->extents[3];
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
