/* pastes.c — the selections the app pasted from, and drops (see pastes.h).
 *
 * Start reading at rec_pastes_request(): the app's ConvertSelection,
 * whose owner is asked again by fetch(), on our own connection and
 * window, synchronously (wait_event()). rec_pastes_client_message()
 * follows an XDND exchange to its drop.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "pastes.h"

#include <poll.h>
#include <gio/gio.h>
#include <string.h>
#include <X11/Xatom.h>
#include <X11/extensions/record.h>

#include "xconn.h"

struct RecPastes
{
  Display *dpy;              /* owned: ours, for the owners' answers */
  Window window;             /* ours: the requestor */
  Atom property;             /* where the answers come */
  Atom incr, targets, atom_pair;
  Atom xdnd_enter, xdnd_position, xdnd_drop, xdnd_leave, xdnd_type_list;
  XID mask;                  /* the resource-id mask: a window's client is id & ~mask */
  Toplevels *tops;           /* not owned */
  pid_t app_pid;             /* xrecord --all: the app whose requests come now (0: one app) */
  gboolean with_data;
  RecPastesFunc func;
  gpointer user_data;
  GHashTable *asked;         /* "selection target" asked since the last action */
  guint n_fetched, n_omitted, n_drops;
  gboolean broken;           /* the connection is gone (the guard cut it) */

  /* The XDND exchange going on (source None: none). */
  Window source, target;
  int root_x, root_y;
  gboolean have_position;
  char *types;               /* owned: the names, space-separated */
  Atom action;
};

/* Instead of Xlib's exit(): the guard cuts this connection with the
 * others when the main thread is stuck (a window manager holds the
 * server); the recording ends by the tracker's handler, this one only
 * stops asking. */
static void
on_io_error_exit (Display *dpy, void *user_data)
{
  RecPastes *pastes = user_data;

  pastes->broken = TRUE;
}

RecPastes *
rec_pastes_new (const char *display, Toplevels *tops, gboolean with_data, RecPastesFunc func,
                gpointer user_data, GError **error)
{
  g_autoptr (RecPastes) pastes = g_new0 (RecPastes, 1);
  XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };

  pastes->dpy = XOpenDisplay (display);
  if (pastes->dpy == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot open display %s", display);
      return NULL;
    }
  XSetIOErrorExitHandler (pastes->dpy, on_io_error_exit, pastes);
  pastes->window = XCreateWindow (pastes->dpy, DefaultRootWindow (pastes->dpy), -1, -1, 1, 1,
                                  0, 0, InputOnly, CopyFromParent, CWEventMask, &attrs);
  pastes->property = XInternAtom (pastes->dpy, "XREDUCE_SELECTION", False);
  pastes->incr = XInternAtom (pastes->dpy, "INCR", False);
  pastes->targets = XInternAtom (pastes->dpy, "TARGETS", False);
  pastes->atom_pair = XInternAtom (pastes->dpy, "ATOM_PAIR", False);
  pastes->xdnd_enter = XInternAtom (pastes->dpy, "XdndEnter", False);
  pastes->xdnd_position = XInternAtom (pastes->dpy, "XdndPosition", False);
  pastes->xdnd_drop = XInternAtom (pastes->dpy, "XdndDrop", False);
  pastes->xdnd_leave = XInternAtom (pastes->dpy, "XdndLeave", False);
  pastes->xdnd_type_list = XInternAtom (pastes->dpy, "XdndTypeList", False);
  pastes->mask = XRecordIdBaseMask (pastes->dpy);
  XSync (pastes->dpy, False);
  pastes->tops = tops;
  pastes->with_data = with_data;
  pastes->func = func;
  pastes->user_data = user_data;
  pastes->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return g_steal_pointer (&pastes);
}

void
rec_pastes_free (RecPastes *pastes)
{
  if (pastes == NULL)
    return;
  if (pastes->dpy != NULL)
    XCloseDisplay (pastes->dpy);
  if (pastes->asked != NULL)
    g_hash_table_unref (pastes->asked);
  g_free (pastes->types);
  g_free (pastes);
}

XID
rec_pastes_get_base (RecPastes *pastes)
{
  return pastes->window & pastes->mask;
}

int
rec_pastes_get_fd (RecPastes *pastes)
{
  return ConnectionNumber (pastes->dpy);
}

void
rec_pastes_get_counts (RecPastes *pastes, guint *n_fetched, guint *n_omitted, guint *n_drops)
{
  *n_fetched = pastes->n_fetched;
  *n_omitted = pastes->n_omitted;
  *n_drops = pastes->n_drops;
}

void
rec_pastes_action (RecPastes *pastes)
{
  g_hash_table_remove_all (pastes->asked);
}

void
rec_pastes_set_app (RecPastes *pastes, pid_t app_pid)
{
  pastes->app_pid = app_pid;
}

/* Whether the client of resource base @base is the app's own: one app's
 * (toplevels.h), or under xrecord --all the one whose request or message
 * this is (every client there is some app's). */
static gboolean
is_apps_own (RecPastes *pastes, XID base)
{
  if (pastes->app_pid > 0)
    return toplevels_client_pid (pastes->tops, base) == pastes->app_pid;
  return toplevels_is_app_client (pastes->tops, base);
}

/* An atom's name as a session holds it, or NULL. */
static char *
atom_name (RecPastes *pastes, Atom atom)
{
  char *x_name;
  char *name = NULL;

  if (atom == None)
    return NULL;
  xconn_trap_push (pastes->dpy);
  x_name = XGetAtomName (pastes->dpy, atom);
  xconn_trap_pop (pastes->dpy);
  if (x_name != NULL && session_atom_name_check (x_name))
    name = g_strdup (x_name);
  if (x_name != NULL)
    XFree (x_name);
  return name;
}

/* The next event of ours for which @match says TRUE, within
 * REC_PASTES_WAIT_MS; FALSE if none came. */
static gboolean
wait_event (RecPastes *pastes, gboolean (*match) (RecPastes *, const XEvent *), XEvent *out)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) REC_PASTES_WAIT_MS * 1000;

  for (;;)
    {
      struct pollfd pfd = { .fd = ConnectionNumber (pastes->dpy), .events = POLLIN };
      int left;

      while (XPending (pastes->dpy) > 0)
        {
          XNextEvent (pastes->dpy, out);
          if (match (pastes, out))
            return TRUE;
        }
      left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
      if (pastes->broken || left <= 0 || poll (&pfd, 1, left) <= 0)
        return FALSE;
    }
}

static gboolean
is_notify (RecPastes *pastes, const XEvent *ev)
{
  return ev->type == SelectionNotify && ev->xselection.requestor == pastes->window;
}

static gboolean
is_new_value (RecPastes *pastes, const XEvent *ev)
{
  return ev->type == PropertyNotify && ev->xproperty.window == pastes->window
         && ev->xproperty.atom == pastes->property && ev->xproperty.state == PropertyNewValue;
}

/* The property's value as the format's items in bytes (format 16 and 32
 * little-endian, whatever Xlib's short and long), appended to @out;
 * FALSE if it could not be read. */
static gboolean
take_property (RecPastes *pastes, Atom *type, int *format, GByteArray *out, gsize max,
               gboolean *too_large)
{
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;

  if (XGetWindowProperty (pastes->dpy, pastes->window, pastes->property, 0,
                          (long) (max / 4 + 1), True, AnyPropertyType, type, format, &n, &after,
                          &data) != Success)
    return FALSE;
  if (after > 0 || out->len > max)
    *too_large = TRUE;
  for (unsigned long i = 0; data != NULL && i < n && out->len <= max; i++)
    {
      if (*format == 32)
        {
          guint32 item = GUINT32_TO_LE ((guint32) ((unsigned long *) data)[i]);
          g_byte_array_append (out, (const guint8 *) &item, 4);
        }
      else if (*format == 16)
        {
          guint16 item = GUINT16_TO_LE ((guint16) ((unsigned short *) data)[i]);
          g_byte_array_append (out, (const guint8 *) &item, 2);
        }
      else
        g_byte_array_append (out, data + i, 1);
    }
  if (data != NULL)
    XFree (data);
  if (out->len > max)
    *too_large = TRUE;
  return TRUE;
}

/* Asks the owner of @selection for @target as the app did (at @when);
 * *@type is None when it refused, *@omitted when the answer was not
 * read (too large, too slow). The bytes in @out. */
static void
fetch (RecPastes *pastes, Atom selection, Atom target, Time when, Atom *type, int *format,
       GByteArray *out, gboolean *omitted)
{
  XEvent ev;
  gboolean too_large = FALSE;

  *type = None;
  *format = 8;
  *omitted = FALSE;
  XDeleteProperty (pastes->dpy, pastes->window, pastes->property);
  XConvertSelection (pastes->dpy, selection, target, pastes->property, pastes->window, when);
  XFlush (pastes->dpy);
  if (!wait_event (pastes, is_notify, &ev))
    {
      *omitted = TRUE;
      return;
    }
  if (ev.xselection.property == None)
    return;
  if (!take_property (pastes, type, format, out, SESSION_MAX_SELECTION_BYTES, &too_large))
    {
      *omitted = TRUE;
      return;
    }
  if (*type == pastes->incr)
    {
      /* ICCCM's INCR: the owner sends the data in pieces, each once we
       * deleted the one before (take_property did), until an empty one. */
      g_byte_array_set_size (out, 0);
      for (;;)
        {
          guint before = out->len;

          if (!wait_event (pastes, is_new_value, &ev)
              || !take_property (pastes, type, format, out, SESSION_MAX_SELECTION_BYTES,
                                 &too_large))
            {
              *omitted = TRUE;
              return;
            }
          if (out->len == before || too_large)
            break;
        }
    }
  if (too_large)
    *omitted = TRUE;
}

/* What the app asks is worth asking again: not the targets that act on
 * the owner (ICCCM's side effects), nor MULTIPLE's list of them. */
static gboolean
target_is_plain (const char *target)
{
  static const char *const acting[] = { "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
                                        "MULTIPLE", "SAVE_TARGETS", "_KDE_CLIPBOARD_SAVE" };

  for (gsize i = 0; i < G_N_ELEMENTS (acting); i++)
    if (strcmp (target, acting[i]) == 0)
      return FALSE;
  return TRUE;
}

/* Writes the lines of one conversion. */
static void
emit_conversion (RecPastes *pastes, guint64 time_ms, const char *selection, const char *target,
                 const char *type, int format, const guint8 *data, gsize len)
{
  g_autoptr (GArray) lines = g_array_new (FALSE, TRUE, sizeof (SessionEvent));

  g_array_set_clear_func (lines, (GDestroyNotify) session_event_clear);
  session_selection_to_events (lines, time_ms, selection, target, type, format, data, len);
  for (guint i = 0; i < lines->len; i++)
    pastes->func (&g_array_index (lines, SessionEvent, i), pastes->user_data);
}

/* An ATOM answer (TARGETS) as the names, space-separated. */
static GByteArray *
atom_names (RecPastes *pastes, GByteArray *items)
{
  GByteArray *names = g_byte_array_new ();

  for (guint i = 0; i + 4 <= items->len; i += 4)
    {
      guint32 atom = GUINT32_FROM_LE (*(guint32 *) (items->data + i));
      g_autofree char *name = atom_name (pastes, atom);

      if (name == NULL)
        continue;
      if (names->len > 0)
        g_byte_array_append (names, (const guint8 *) " ", 1);
      g_byte_array_append (names, (const guint8 *) name, (guint) strlen (name));
    }
  return names;
}

void
rec_pastes_request (RecPastes *pastes, const guint8 *data, gsize len, guint64 time_ms)
{
  const xConvertSelectionReq *req = (const xConvertSelectionReq *) data;
  g_autofree char *selection = NULL, *target = NULL, *type_name = NULL, *key = NULL;
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  Window owner;
  Atom type;
  int format;
  gboolean omitted;

  if (pastes->broken || len < sizeof *req || data[0] != X_ConvertSelection)
    return;
  selection = atom_name (pastes, req->selection);
  target = atom_name (pastes, req->target);
  if (!session_selection_name_check (selection) || target == NULL || !target_is_plain (target))
    return;
  /* Once a paste: the app asks TARGETS again and again. */
  key = g_strdup_printf ("%d %s %s", (int) pastes->app_pid, selection, target);
  if (!g_hash_table_add (pastes->asked, g_steal_pointer (&key)))
    return;
  owner = XGetSelectionOwner (pastes->dpy, req->selection);
  /* Nobody's (the app gets nothing, and so will a replay), or the app's
   * own (a replay's app owns it as well). */
  if (owner == None || is_apps_own (pastes, owner & pastes->mask))
    return;
  if (!pastes->with_data)
    {
      pastes->n_omitted++;
      emit_conversion (pastes, time_ms, selection, target, NULL, 8, NULL, 0);
      return;
    }
  fetch (pastes, req->selection, req->target, req->time, &type, &format, bytes, &omitted);
  g_debug ("the app asked %s for %s: %s%s", selection, target, omitted ? "omitted, " : "",
           type == None ? "refused" : "answered");
  if (omitted)
    {
      pastes->n_omitted++;
      emit_conversion (pastes, time_ms, selection, target, NULL, 8, NULL,
                       bytes->len > SESSION_MAX_SELECTION_BYTES ? bytes->len : 0);
      return;
    }
  pastes->n_fetched++;
  if (type == None)
    {
      emit_conversion (pastes, time_ms, selection, target, "None", 8, NULL, 0);
      return;
    }
  type_name = atom_name (pastes, type);
  if (type_name == NULL)
    return;
  if (type == XA_ATOM && format == 32)
    {
      g_autoptr (GByteArray) names = atom_names (pastes, bytes);
      emit_conversion (pastes, time_ms, selection, target, "ATOM", 32, names->data, names->len);
    }
  else
    emit_conversion (pastes, time_ms, selection, target, type_name, format, bytes->data,
                     bytes->len);
}

/* ---- drops ---- */

static void
xdnd_clear (RecPastes *pastes)
{
  pastes->source = pastes->target = None;
  pastes->have_position = FALSE;
  g_clear_pointer (&pastes->types, g_free);
  pastes->action = None;
}

/* The types the source offers: three in the message, or its
 * XdndTypeList. */
static void
xdnd_types (RecPastes *pastes, const xEvent *ev)
{
  g_autoptr (GString) names = g_string_new (NULL);
  Atom in_message[3] = { (Atom) (guint32) ev->u.clientMessage.u.l.longs2,
                         (Atom) (guint32) ev->u.clientMessage.u.l.longs3,
                         (Atom) (guint32) ev->u.clientMessage.u.l.longs4 };
  Atom *list = in_message;
  unsigned long n = 3;
  unsigned char *data = NULL;

  if (ev->u.clientMessage.u.l.longs1 & 1)
    {
      Atom type;
      int format;
      unsigned long after;

      xconn_trap_push (pastes->dpy);
      if (XGetWindowProperty (pastes->dpy, pastes->source, pastes->xdnd_type_list, 0, 64, False,
                              XA_ATOM, &type, &format, &n, &after, &data) == Success
          && data != NULL && format == 32)
        list = (Atom *) data;
      else
        n = 3;
      xconn_trap_pop (pastes->dpy);
    }
  for (unsigned long i = 0; i < n && i < 64; i++)
    {
      g_autofree char *name = atom_name (pastes, list[i]);

      if (name != NULL)
        g_string_append_printf (names, "%s%s", names->len > 0 ? " " : "", name);
    }
  if (data != NULL)
    XFree (data);
  g_free (pastes->types);
  pastes->types = names->len > 0 ? g_strdup (names->str) : NULL;
}

static void
xdnd_drop (RecPastes *pastes, guint64 time_ms)
{
  ToplevelTarget target;
  SessionEvent drop = { .kind = SESSION_EVENT_DROP, .time_ms = time_ms, .window = -1 };
  g_autofree char *action = atom_name (pastes, pastes->action);
  int width = DisplayWidth (pastes->dpy, DefaultScreen (pastes->dpy));
  int height = DisplayHeight (pastes->dpy, DefaultScreen (pastes->dpy));

  if (pastes->types == NULL || !pastes->have_position
      || !toplevels_lookup (pastes->tops, pastes->target, &target))
    return;
  drop.has_pos = TRUE;
  drop.root_x = CLAMP (pastes->root_x, 0, width - 1);
  drop.root_y = CLAMP (pastes->root_y, 0, height - 1);
  drop.window = target.index;
  drop.x = CLAMP (drop.root_x - target.origin_x, -SESSION_MAX_COORD, SESSION_MAX_COORD);
  drop.y = CLAMP (drop.root_y - target.origin_y, -SESSION_MAX_COORD, SESSION_MAX_COORD);
  if (target.index >= 0 && target.width > 0 && target.height > 0)
    {
      drop.width = MIN (target.width, SESSION_MAX_COORD);
      drop.height = MIN (target.height, SESSION_MAX_COORD);
    }
  drop.wm_class = (char *) target.wm_class;
  drop.wm_name = (char *) target.wm_name;
  drop.types = pastes->types;
  drop.action = action;
  pastes->n_drops++;
  pastes->func (&drop, pastes->user_data);
}

void
rec_pastes_client_message (RecPastes *pastes, const xEvent *ev, guint64 time_ms)
{
  Atom type = (Atom) ev->u.clientMessage.u.l.type;
  Window source = (Window) (guint32) ev->u.clientMessage.u.l.longs0;

  if (pastes->broken || (ev->u.u.detail) != 32)
    return;
  if (type == pastes->xdnd_enter)
    {
      xdnd_clear (pastes);
      /* A drag of the app's own is replayed by its pointer actions. */
      if (is_apps_own (pastes, source & pastes->mask))
        return;
      pastes->source = source;
      pastes->target = ev->u.clientMessage.window;
      xdnd_types (pastes, ev);
    }
  else if (type == pastes->xdnd_position && source == pastes->source && source != None)
    {
      guint32 where = (guint32) ev->u.clientMessage.u.l.longs2;

      pastes->target = ev->u.clientMessage.window;
      pastes->root_x = (int) (where >> 16);
      pastes->root_y = (int) (where & 0xffff);
      pastes->action = (Atom) (guint32) ev->u.clientMessage.u.l.longs4;
      pastes->have_position = TRUE;
    }
  else if (type == pastes->xdnd_drop && source == pastes->source && source != None)
    {
      xdnd_drop (pastes, time_ms);
      xdnd_clear (pastes);
    }
  else if (type == pastes->xdnd_leave && source == pastes->source)
    xdnd_clear (pastes);
}
