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
 * This file tracks the Toplevels: the root's children from the events,
 * their stacking, the reparenting into frames, the focus; it answers
 * which top-level an action is aimed at. The Clients (their identity,
 * whose each is, what a target says) are toplevels-clients.c's; the
 * records are in toplevels-private.h.
 *
 * The stacking order is kept the way compositors keep it: a new window
 * goes on top, ConfigureNotify's above-sibling and CirculateNotify restack.
 *
 * Start reading at toplevels_handle_event().
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "toplevels-private.h"

#include <stdio.h>
#include <string.h>
#include <X11/Xutil.h>

#include "xapp.h"

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
                                         (GDestroyNotify) toplevels_client_free);
  tops->app_bases = g_hash_table_new (NULL, NULL);
  tops->seen = g_ptr_array_new_with_free_func ((GDestroyNotify) toplevels_seen_free);
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
  g_strfreev (tops->exclude);
  g_clear_pointer (&tops->base_pids, g_hash_table_unref);
  g_clear_pointer (&tops->excluded, g_hash_table_unref);
  xapp_free (tops->xapp);
  g_free (tops);
}

void
toplevels_set_map_func (Toplevels *tops, ToplevelsMapFunc func,
                        gpointer user_data)
{
  tops->map_func = func;
  tops->map_data = user_data;
}

/* ---- the stack of root children ---- */

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
      top->client = toplevels_client_get (tops, id);
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
  toplevels_note_map (tops, frame);
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

/* A client inside a frame, or a window inside its wrapper, destroyed
 * (we selected StructureNotify on it). */
static void
handle_client_destroy (Toplevels *tops, Window w)
{
  GHashTableIter iter;
  gpointer value;

  if (toplevel_find (tops, w) != NULL)
    return;
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

/* A root child mapped: it goes in the first-map order, and in what was
 * seen during the recording. */
static void
handle_map (Toplevels *tops, Toplevel *top)
{
  Client *named;

  top->mapped = TRUE;
  toplevels_note_map (tops, top);
  if (top->client == NULL)
    return;
  named = toplevels_named (top);
  /* A client connected before the recording began is not recorded (only
   * future clients are): its class and title, set before its map (ICCCM
   * 4.1.2), may have come after we read them at its creation. */
  if (!named->reread && (named->identity.wm_class == NULL
                         || xapp_identity_title (&named->identity) == NULL))
    {
      named->reread = TRUE;
      xapp_identity_read (tops->xapp, named->id, &named->identity);
    }
  toplevels_seen_note (tops, named, TRUE);
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
        handle_client_destroy (tops, ev->u.destroyNotify.window);
      break;
    case MapNotify:
      if (ev->u.mapNotify.event == tops->root
          && (top = toplevel_find (tops, ev->u.mapNotify.window)) != NULL)
        handle_map (tops, top);
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
          toplevels_client_pid_changed (tops, client);
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

gboolean
toplevels_at (Toplevels *tops, int root_x, int root_y, ToplevelTarget *target)
{
  for (guint i = tops->stack->len; i-- > 0;)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->mapped && root_x >= top->x && root_y >= top->y
          && root_x < top->x + top->width + 2 * top->border
          && root_y < top->y + top->height + 2 * top->border)
        return toplevels_target (tops, top, target);
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
      return toplevels_target (tops, top, target);
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
        return toplevels_target (tops, top, target);
    }
  return FALSE;
}

guint
toplevels_get_app_mapped (Toplevels *tops, pid_t pid, Window *out, guint max)
{
  guint n = 0;

  for (guint i = 0; i < tops->stack->len; i++)
    {
      Toplevel *top = g_ptr_array_index (tops->stack, i);

      if (top->mapped && top->client != NULL && toplevels_client_decide (tops, top->client) == DECISION_YES
          && top->client->app_pid == pid)
        {
          if (n < max)
            out[n] = top->client->id;
          n++;
        }
    }
  return n;
}

guint
toplevels_get_n_app_mapped (Toplevels *tops)
{
  return (guint) tops->map_seq;
}
