/* outside.c — the selections' owner and the drags' source (see
 * outside.h).
 *
 * Start reading at outside_before_action(): take() owns a selection with
 * a paste's conversions; on_event() answers what the app asks of it
 * (answer(), and incr_next() for large data, ICCCM's INCR) and notes what
 * it loses. outside_drop() is the drag source's side of XDND.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "outside.h"

#include <poll.h>
#include <string.h>
#include <X11/Xatom.h>

#include "xconn.h"

/* Data larger than this goes in pieces of it (INCR): well within any
 * server's request size. */
#define INCR_CHUNK (64 * 1024)
#define XDND_VERSION 5

/* A transfer in pieces to a requestor. */
typedef struct
{
  Window requestor;
  Atom property, type;
  int format;
  GBytes *data;              /* owned */
  gsize offset;
  gboolean done;             /* the empty piece that ends it is written */
} Incr;

struct Outside
{
  XConn *conn;               /* owned */
  Display *dpy;
  Window window;             /* ours: owner, drag source */
  GPtrArray *pastes;         /* of SessionPaste (session-world.h), owned */
  GHashTable *owned;         /* selection atom -> SessionPaste (borrowed): what we answer with */
  GHashTable *asked;         /* SessionPaste -> the requests answered from it (since taken) */
  GHashTable *atoms;         /* name -> Atom, interned once */
  GList *incrs;              /* of Incr (owned) */
  Time time;                 /* when we took ownership last */
  const Session *session;    /* borrowed: the pastes' recorded times */
  const SessionPaste *last;  /* the paste the app got data from last, or NULL */
  gint64 last_ms;            /* then (g_get_monotonic_time, ms) */
  guint n_answered, n_refused;

  /* The drop going on: its target's answer. */
  Window drop_target;
  gboolean got_status, accepted;
};

static Atom
atom (Outside *o, const char *name)
{
  gpointer found = g_hash_table_lookup (o->atoms, name);

  if (found == NULL)
    {
      found = GSIZE_TO_POINTER (XInternAtom (o->dpy, name, False));
      g_hash_table_insert (o->atoms, g_strdup (name), found);
    }
  return (Atom) GPOINTER_TO_SIZE (found);
}

static char *
atom_name (Outside *o, Atom a)
{
  char *x_name, *name;

  if (a == None)
    return g_strdup ("None");
  xconn_trap (o->conn);
  x_name = XGetAtomName (o->dpy, a);
  xconn_untrap (o->conn);
  name = g_strdup (x_name != NULL ? x_name : "");
  if (x_name != NULL)
    XFree (x_name);
  return name;
}

static void
incr_free (Incr *incr)
{
  g_bytes_unref (incr->data);
  g_free (incr);
}

/* ---- answering ---- */

/* @data's items of @format (little-endian 16 and 32, as the session
 * holds them) as Xlib wants them: short and long. */
static gpointer
items_for_xlib (const guint8 *data, gsize len, int format, int *n_items)
{
  if (format == 32)
    {
      long *items = g_new (long, len / 4 + 1);

      for (gsize i = 0; i < len / 4; i++)
        items[i] = (long) GUINT32_FROM_LE (*(const guint32 *) (data + 4 * i));
      *n_items = (int) (len / 4);
      return items;
    }
  if (format == 16)
    {
      short *items = g_new (short, len / 2 + 1);

      for (gsize i = 0; i < len / 2; i++)
        items[i] = (short) GUINT16_FROM_LE (*(const guint16 *) (data + 2 * i));
      *n_items = (int) (len / 2);
      return items;
    }
  *n_items = (int) len;
  return g_memdup2 (data, len + 1);
}

static void
put (Outside *o, Window requestor, Atom property, Atom type, int format, const guint8 *data,
     gsize len)
{
  int n = 0;
  g_autofree gpointer items = items_for_xlib (data, len, format, &n);

  XChangeProperty (o->dpy, requestor, property, type, format, PropModeReplace,
                   (const unsigned char *) items, n);
}

/* The TARGETS we answer: the recorded list, or the targets we hold. */
static void
answer_targets (Outside *o, const SessionPaste *paste, Window requestor, Atom property)
{
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (long));
  long a;

  for (guint i = 0; i < paste->conversions->len; i++)
    {
      const SessionConversion *c = g_ptr_array_index (paste->conversions, i);

      if (g_str_equal (c->target, "TARGETS") && c->data != NULL && g_str_equal (c->type, "ATOM"))
        {
          g_autofree char *names = g_strndup (g_bytes_get_data (c->data, NULL),
                                              g_bytes_get_size (c->data));
          g_auto (GStrv) each = g_strsplit (names, " ", -1);

          for (char **n = each; *n != NULL; n++)
            if (**n != '\0')
              {
                a = (long) atom (o, *n);
                g_array_append_val (list, a);
              }
          break;
        }
    }
  if (list->len == 0)
    {
      a = (long) atom (o, "TARGETS");
      g_array_append_val (list, a);
      a = (long) atom (o, "TIMESTAMP");
      g_array_append_val (list, a);
      for (guint i = 0; i < paste->conversions->len; i++)
        {
          const SessionConversion *c = g_ptr_array_index (paste->conversions, i);
          if (c->data != NULL)
            {
              a = (long) atom (o, c->target);
              g_array_append_val (list, a);
            }
        }
    }
  XChangeProperty (o->dpy, requestor, property, XA_ATOM, 32, PropModeReplace,
                   (const unsigned char *) list->data, (int) list->len);
}

/* Sends @conversion to @requestor: at once, or in pieces (INCR). */
static void
answer_data (Outside *o, const SessionConversion *c, Window requestor, Atom property)
{
  gsize len = g_bytes_get_size (c->data);
  Atom type = atom (o, c->type);

  if (len <= INCR_CHUNK)
    {
      put (o, requestor, property, type, c->format, g_bytes_get_data (c->data, NULL), len);
      return;
    }
  {
    Incr *incr = g_new0 (Incr, 1);
    long size = (long) len;
    XWindowAttributes attrs;

    incr->requestor = requestor;
    incr->property = property;
    incr->type = type;
    incr->format = c->format;
    incr->data = g_bytes_ref (c->data);
    o->incrs = g_list_append (o->incrs, incr);
    /* Our own mask on the requestor's window (the replay's other
     * connection selects its own). */
    if (XGetWindowAttributes (o->dpy, requestor, &attrs))
      XSelectInput (o->dpy, requestor, attrs.your_event_mask | PropertyChangeMask);
    XChangeProperty (o->dpy, requestor, property, atom (o, "INCR"), 32, PropModeReplace,
                     (const unsigned char *) &size, 1);
  }
}

/* The requestor deleted the last piece: the next one (empty at the end). */
static void
incr_next (Outside *o, const XPropertyEvent *ev)
{
  for (GList *l = o->incrs; l != NULL; l = l->next)
    {
      Incr *incr = l->data;
      gsize len, n;
      const guint8 *data;

      if (incr->requestor != ev->window || incr->property != ev->atom)
        continue;
      if (incr->done)
        {
          o->incrs = g_list_delete_link (o->incrs, l);
          incr_free (incr);
          return;
        }
      data = g_bytes_get_data (incr->data, &len);
      n = MIN (len - incr->offset, (gsize) INCR_CHUNK);
      put (o, incr->requestor, incr->property, incr->type, incr->format, data + incr->offset, n);
      incr->offset += n;
      incr->done = n == 0;
      return;
    }
}

/* Answers a SelectionRequest from what the selection's paste holds. */
static void
answer (Outside *o, const XSelectionRequestEvent *req)
{
  const SessionPaste *paste = g_hash_table_lookup (o->owned, GSIZE_TO_POINTER (req->selection));
  g_autofree char *target = atom_name (o, req->target);
  Atom property = req->property != None ? req->property : req->target;
  XEvent notify = { 0 };
  gboolean ok = FALSE;

  xconn_trap (o->conn);
  if (paste != NULL && g_str_equal (target, "TARGETS"))
    {
      answer_targets (o, paste, req->requestor, property);
      ok = TRUE;
    }
  else if (paste != NULL && g_str_equal (target, "TIMESTAMP"))
    {
      long when = (long) o->time;
      XChangeProperty (o->dpy, req->requestor, property, XA_INTEGER, 32, PropModeReplace,
                       (const unsigned char *) &when, 1);
      ok = TRUE;
    }
  else if (paste != NULL)
    for (guint i = 0; i < paste->conversions->len && !ok; i++)
      {
        const SessionConversion *c = g_ptr_array_index (paste->conversions, i);

        if (!g_str_equal (c->target, target))
          continue;
        /* What the owner refused, or what was not recorded: refused. */
        if (c->data == NULL || c->type == NULL || g_str_equal (c->type, "None"))
          break;
        answer_data (o, c, req->requestor, property);
        ok = TRUE;
      }
  if (paste != NULL)
    g_hash_table_insert (o->asked, (gpointer) paste,
                         GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (o->asked, paste))
                                           + 1));
  notify.xselection.type = SelectionNotify;
  notify.xselection.requestor = req->requestor;
  notify.xselection.selection = req->selection;
  notify.xselection.target = req->target;
  notify.xselection.property = ok ? property : None;
  notify.xselection.time = req->time;
  XSendEvent (o->dpy, req->requestor, False, NoEventMask, &notify);
  xconn_untrap (o->conn);
  if (ok)
    {
      o->n_answered++;
      if (paste != NULL)
        {
          o->last = paste;
          o->last_ms = g_get_monotonic_time () / 1000;
        }
    }
  else
    o->n_refused++;
  g_debug ("%s for %s: %s", paste != NULL ? paste->selection : "?", target,
           ok ? "answered" : "refused");
}

static void
on_event (XEvent *ev, gpointer user_data)
{
  Outside *o = user_data;

  switch (ev->type)
    {
    case SelectionRequest:
      answer (o, &ev->xselectionrequest);
      break;
    case SelectionClear:
      /* The app (or another) owns it now. */
      g_hash_table_remove (o->owned, GSIZE_TO_POINTER (ev->xselectionclear.selection));
      break;
    case PropertyNotify:
      if (ev->xproperty.state == PropertyDelete)
        incr_next (o, &ev->xproperty);
      break;
    case ClientMessage:
      if (ev->xclient.message_type == atom (o, "XdndStatus")
          && (Window) ev->xclient.data.l[0] == o->drop_target)
        {
          o->got_status = TRUE;
          o->accepted = (ev->xclient.data.l[1] & 1) != 0;
        }
      break;
    default:
      break;
    }
}

static void
on_dead (gpointer user_data)
{
  /* The server is gone: the replay's own connection says so too. */
}

/* ---- owning ---- */

static Bool
is_our_property (Display *dpy, XEvent *ev, XPointer user_data)
{
  Outside *o = (Outside *) user_data;

  return ev->type == PropertyNotify && ev->xproperty.window == o->window
         && ev->xproperty.atom == atom (o, "XREDUCE_TIME");
}

/* A timestamp of the server's: ICCCM asks owners not to own at
 * CurrentTime. */
static Time
server_time (Outside *o)
{
  XEvent ev;
  gint64 deadline = g_get_monotonic_time () + (gint64) OUTSIDE_WAIT_MS * 1000;

  XChangeProperty (o->dpy, o->window, atom (o, "XREDUCE_TIME"), XA_STRING, 8, PropModeAppend,
                   (const unsigned char *) "", 0);
  XFlush (o->dpy);
  while (g_get_monotonic_time () < deadline && !xconn_is_dead (o->conn))
    {
      struct pollfd pfd = { .fd = ConnectionNumber (o->dpy), .events = POLLIN };

      if (XCheckIfEvent (o->dpy, &ev, is_our_property, (XPointer) o))
        return ev.xproperty.time;
      if (XPending (o->dpy) == 0)
        poll (&pfd, 1, 50);
    }
  return CurrentTime;
}

static void
take (Outside *o, SessionPaste *paste)
{
  Atom selection = atom (o, paste->selection);

  o->time = server_time (o);
  xconn_trap (o->conn);
  XSetSelectionOwner (o->dpy, selection, o->window, o->time);
  xconn_untrap (o->conn);
  if (XGetSelectionOwner (o->dpy, selection) != o->window)
    {
      g_debug ("could not own %s", paste->selection);
      return;
    }
  g_hash_table_insert (o->owned, GSIZE_TO_POINTER (selection), paste);
  g_hash_table_insert (o->asked, paste, GUINT_TO_POINTER (0));
  g_debug ("owns %s (pasted after action %u)", paste->selection, paste->after_action + 1);
}

Outside *
outside_new (const char *display, const Session *session, GError **error)
{
  g_autoptr (GPtrArray) pastes = session_get_pastes (session);
  gboolean drops = FALSE;
  XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };
  Outside *o;

  for (guint i = 0; i < session_get_n_events (session) && !drops; i++)
    drops = session_get_event (session, i)->kind == SESSION_EVENT_DROP;
  if (pastes->len == 0 && !drops)
    return NULL;
  o = g_new0 (Outside, 1);
  o->conn = xconn_open (display, error);
  if (o->conn == NULL)
    {
      g_free (o);
      return NULL;
    }
  o->dpy = xconn_get_display (o->conn);
  o->pastes = g_steal_pointer (&pastes);
  o->session = session;
  o->owned = g_hash_table_new (NULL, NULL);
  o->asked = g_hash_table_new (NULL, NULL);
  o->atoms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  o->window = XCreateWindow (o->dpy, DefaultRootWindow (o->dpy), -10, -10, 1, 1, 0, 0,
                             InputOnly, CopyFromParent, CWEventMask, &attrs);
  xconn_watch (o->conn, on_event, on_dead, o);
  xconn_sync (o->conn);
  return o;
}

void
outside_free (Outside *o)
{
  if (o == NULL)
    return;
  g_list_free_full (o->incrs, (GDestroyNotify) incr_free);
  g_hash_table_unref (o->owned);
  g_hash_table_unref (o->asked);
  g_hash_table_unref (o->atoms);
  g_ptr_array_unref (o->pastes);
  xconn_free (o->conn);
  g_free (o);
}

gboolean
outside_paste_pending (Outside *o, guint number)
{
  if (o == NULL || number == 0 || xconn_is_dead (o->conn))
    return FALSE;
  for (guint i = 0; i < o->pastes->len; i++)
    {
      SessionPaste *paste = g_ptr_array_index (o->pastes, i);
      gpointer asked;

      /* (Only a paste we own: taken, and not lost to the app.) */
      if (paste->after_action == number - 1
          && g_hash_table_lookup_extended (o->asked, paste, NULL, &asked)
          && g_hash_table_lookup (o->owned, GSIZE_TO_POINTER (atom (o, paste->selection))) == paste
          && GPOINTER_TO_UINT (asked) < paste->conversions->len)
        return TRUE;
    }
  return FALSE;
}

gboolean
outside_last_paste (Outside *o, guint *after_action, guint64 *recorded_ms, gint64 *answered_ms)
{
  if (o == NULL || o->last == NULL)
    return FALSE;
  *after_action = o->last->after_action;
  *recorded_ms = session_get_event (o->session, o->last->first_event)->time_ms;
  *answered_ms = o->last_ms;
  return TRUE;
}

void
outside_get_counts (Outside *o, guint *n_answered, guint *n_refused)
{
  *n_answered = o != NULL ? o->n_answered : 0;
  *n_refused = o != NULL ? o->n_refused : 0;
}

void
outside_start (Outside *o)
{
  for (guint i = 0; o != NULL && i < o->pastes->len; i++)
    {
      SessionPaste *paste = g_ptr_array_index (o->pastes, i);

      if (paste->after_action == G_MAXUINT)
        take (o, paste);
    }
  if (o != NULL)
    xconn_sync (o->conn);
}

void
outside_before_action (Outside *o, guint number)
{
  g_autoptr (GHashTable) taken = NULL;

  if (o == NULL || xconn_is_dead (o->conn))
    return;
  taken = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < o->pastes->len; i++)
    {
      SessionPaste *paste = g_ptr_array_index (o->pastes, i);

      /* The first of a selection's pastes for this gesture: its data is
       * what the app asks first. */
      if (paste->after_action != G_MAXUINT && paste->own_before == number
          && g_hash_table_add (taken, paste->selection))
        take (o, paste);
    }
  xconn_sync (o->conn);
}

/* ---- drops ---- */

static void
send_xdnd (Outside *o, Window to, Window target, const char *type, long l1, long l2, long l3,
           long l4)
{
  XEvent ev = { 0 };

  ev.xclient.type = ClientMessage;
  ev.xclient.window = target;
  ev.xclient.message_type = atom (o, type);
  ev.xclient.format = 32;
  ev.xclient.data.l[0] = (long) o->window;
  ev.xclient.data.l[1] = l1;
  ev.xclient.data.l[2] = l2;
  ev.xclient.data.l[3] = l3;
  ev.xclient.data.l[4] = l4;
  xconn_trap (o->conn);
  XSendEvent (o->dpy, to, False, NoEventMask, &ev);
  xconn_untrap (o->conn);
}

/* A window's XdndAware version (0: none) and proxy (None: none). */
static long
xdnd_aware (Outside *o, Window w, Window *proxy)
{
  Atom type;
  int format;
  unsigned long n, after;
  unsigned char *data = NULL;
  long version = 0;

  *proxy = None;
  xconn_trap (o->conn);
  if (XGetWindowProperty (o->dpy, w, atom (o, "XdndAware"), 0, 1, False, XA_ATOM, &type, &format,
                          &n, &after, &data) == Success && data != NULL && n == 1 && format == 32)
    version = *(long *) data;
  g_clear_pointer (&data, XFree);
  if (version > 0
      && XGetWindowProperty (o->dpy, w, atom (o, "XdndProxy"), 0, 1, False, XA_WINDOW, &type,
                             &format, &n, &after, &data) == Success && data != NULL && n == 1
      && format == 32)
    *proxy = (Window) *(long *) data;
  g_clear_pointer (&data, XFree);
  xconn_untrap (o->conn);
  return version;
}

/* The window at @x,@y that takes drops: from the top-level under the
 * point down, the first with XdndAware, as drag sources look. */
static Window
drop_window (Outside *o, int x, int y, long *version, Window *proxy)
{
  Window root = DefaultRootWindow (o->dpy), w = root, child = None;
  int wx, wy;

  for (int depth = 0; depth < 16; depth++)
    {
      if (!XTranslateCoordinates (o->dpy, root, w, x, y, &wx, &wy, &child) || child == None)
        return None;
      w = child;
      if ((*version = xdnd_aware (o, w, proxy)) > 0)
        return w;
    }
  return None;
}

/* Reads our events until @done says so, or OUTSIDE_WAIT_MS. */
static gboolean
wait_for (Outside *o, gboolean *done)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) OUTSIDE_WAIT_MS * 1000;

  XFlush (o->dpy);
  while (!*done && g_get_monotonic_time () < deadline && !xconn_is_dead (o->conn))
    {
      struct pollfd pfd = { .fd = ConnectionNumber (o->dpy), .events = POLLIN };

      while (!*done && XPending (o->dpy) > 0)
        {
          XEvent ev;

          XNextEvent (o->dpy, &ev);
          on_event (&ev, o);
        }
      if (!*done)
        poll (&pfd, 1, 20);
    }
  return *done;
}

gboolean
outside_drop (Outside *o, guint number, const SessionEvent *ev, int root_x, int root_y,
              char **what)
{
  g_auto (GStrv) types = g_strsplit (ev->types != NULL ? ev->types : "", " ", -1);
  guint n_types = g_strv_length (types);
  long version = 0;
  Window proxy = None, target, to;
  Atom action = atom (o, ev->action != NULL ? ev->action : "XdndActionCopy");

  if (o == NULL)
    {
      *what = g_strdup ("nothing can drop here");
      return FALSE;
    }
  target = drop_window (o, root_x, root_y, &version, &proxy);
  if (target == None)
    {
      *what = g_strdup_printf ("no window at %d,%d takes drops (XdndAware)", root_x, root_y);
      return FALSE;
    }
  to = proxy != None ? proxy : target;
  version = MIN (version, XDND_VERSION);
  if (n_types > 3)
    {
      g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (long));

      for (guint i = 0; i < n_types; i++)
        {
          long a = (long) atom (o, types[i]);
          g_array_append_val (list, a);
        }
      XChangeProperty (o->dpy, o->window, atom (o, "XdndTypeList"), XA_ATOM, 32,
                       PropModeReplace, (const unsigned char *) list->data, (int) list->len);
    }
  /* (XdndSelection holds the drop's data: outside_before_action.) */
  o->time = server_time (o);
  o->drop_target = target;
  o->got_status = o->accepted = FALSE;
  send_xdnd (o, to, target, "XdndEnter", (version << 24) | (n_types > 3 ? 1 : 0),
             n_types > 0 ? (long) atom (o, types[0]) : None,
             n_types > 1 ? (long) atom (o, types[1]) : None,
             n_types > 2 ? (long) atom (o, types[2]) : None);
  send_xdnd (o, to, target, "XdndPosition", 0, ((long) root_x << 16) | (root_y & 0xffff),
             (long) o->time, (long) action);
  if (!wait_for (o, &o->got_status) || !o->accepted)
    {
      send_xdnd (o, to, target, "XdndLeave", 0, 0, 0, 0);
      xconn_sync (o->conn);
      *what = g_strdup_printf ("the app %s the drop at %d,%d",
                               o->got_status ? "refused" : "did not answer", root_x, root_y);
      o->drop_target = None;
      return FALSE;
    }
  send_xdnd (o, to, target, "XdndDrop", 0, (long) o->time, 0, 0);
  xconn_sync (o->conn);
  o->drop_target = None;
  g_debug ("action %u: dropped on 0x%lx at %d,%d", number + 1, target, root_x, root_y);
  return TRUE;
}
