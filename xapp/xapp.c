/* xapp.c — whose a window is, and its identity (see xapp.h).
 *
 * Start reading at xapp_window_owner(). Every request here may race with
 * a client destroying its window or leaving (the app may be crashing right
 * now): a read that fails leaves the answer unknown, and the protocol
 * error goes to the error handler, which must not exit
 * (xconn_errors_install(), installed by the recorder and the replayer).
 */
#define G_LOG_DOMAIN "xreduce-xapp"

#include "xapp.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/record.h>

#include "proctree.h"

struct XApp
{
  Display *dpy;              /* not owned */
  pid_t app_pid;
  gboolean private_server;
  XID base_mask;             /* XID & base_mask: the creating client's base */
  gboolean has_xres;
  GHashTable *own_bases;     /* XID set: the caller's connections */
  Atom net_wm_pid, net_wm_name, utf8_string, compound_text;
};

XApp *
xapp_new (Display *dpy)
{
  XApp *xapp = g_new0 (XApp, 1);
  int event_base, error_base, major = 0, minor = 0;

  xapp->dpy = dpy;
  /* RECORD's name for it, and the same mask for every client: the bits
   * of an XID that say which client created it. */
  xapp->base_mask = XRecordIdBaseMask (dpy);
  xapp->own_bases = g_hash_table_new (NULL, NULL);
  xapp->net_wm_pid = XInternAtom (dpy, "_NET_WM_PID", False);
  xapp->net_wm_name = XInternAtom (dpy, "_NET_WM_NAME", False);
  xapp->utf8_string = XInternAtom (dpy, "UTF8_STRING", False);
  xapp->compound_text = XInternAtom (dpy, "COMPOUND_TEXT", False);
  /* Client ids (and their pids) came with X-Resource 1.2. */
  xapp->has_xres = XResQueryExtension (dpy, &event_base, &error_base)
                   && XResQueryVersion (dpy, &major, &minor)
                   && (major > 1 || (major == 1 && minor >= 2));
  /* An id of our own range, allocated but never created: our base. */
  xapp_add_own_client (xapp, XAllocID (dpy));
  return xapp;
}

void
xapp_free (XApp *xapp)
{
  if (xapp == NULL)
    return;
  g_hash_table_unref (xapp->own_bases);
  g_free (xapp);
}

void
xapp_set_app (XApp *xapp, pid_t pid)
{
  xapp->app_pid = pid;
}

void
xapp_set_private (XApp *xapp, gboolean private_server)
{
  xapp->private_server = private_server;
}

void
xapp_add_own_client (XApp *xapp, XID id)
{
  g_hash_table_add (xapp->own_bases, GSIZE_TO_POINTER (xapp_client_base (xapp, id)));
}

gboolean
xapp_is_own_client (XApp *xapp, XID id)
{
  return g_hash_table_contains (xapp->own_bases,
                                GSIZE_TO_POINTER (xapp_client_base (xapp, id)));
}

gboolean
xapp_has_xres (XApp *xapp)
{
  return xapp->has_xres;
}

XID
xapp_client_base (XApp *xapp, XID id)
{
  return id & xapp->base_mask;
}

gboolean
xapp_same_client (XApp *xapp, XID a, XID b)
{
  return xapp_client_base (xapp, a) == xapp_client_base (xapp, b);
}

/* ---- whose ---- */

pid_t
xapp_client_pid (XApp *xapp, XID id)
{
  XResClientIdSpec spec = { .client = xapp_client_base (xapp, id),
                            .mask = XRES_CLIENT_ID_PID_MASK };
  XResClientIdValue *values = NULL;
  long n = 0;
  pid_t pid = -1;

  /* The server looks the client up by the client bits of the XID: the
   * window itself may be gone, its client must still be connected. */
  if (!xapp->has_xres || spec.client == 0
      || XResQueryClientIds (xapp->dpy, 1, &spec, &n, &values) != Success)
    return -1;
  for (long i = 0; i < n && pid <= 0; i++)
    if (XResGetClientIdType (&values[i]) == XRES_CLIENT_ID_PID)
      pid = XResGetClientPid (&values[i]);
  XResClientIdsDestroy (n, values);
  return pid > 0 ? pid : -1;
}

XAppOwner
xapp_pid_owner (XApp *xapp, pid_t pid)
{
  if (pid <= 0 || xapp->app_pid <= 0)
    return XAPP_UNKNOWN;
  if (proctree_is_in (xapp->app_pid, pid))
    return XAPP_APP;
  /* Gone: it may have been one of the app's (a helper that has exited
   * by the time its window is asked about). */
  if (kill (pid, 0) != 0 && errno == ESRCH)
    return XAPP_UNKNOWN;
  return XAPP_NOT_APP;
}

GArray *
xapp_client_pids (XApp *xapp)
{
  XResClientIdSpec spec = { .client = 0, .mask = XRES_CLIENT_ID_PID_MASK };
  XResClientIdValue *values = NULL;
  long n = 0;
  GArray *pids;

  /* Client 0 with the pid mask: every client's pid, where the server
   * knows it (local connections). */
  if (!xapp->has_xres || XResQueryClientIds (xapp->dpy, 1, &spec, &n, &values) != Success)
    return NULL;
  pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  for (long i = 0; i < n; i++)
    if (XResGetClientIdType (&values[i]) == XRES_CLIENT_ID_PID)
      {
        pid_t pid = XResGetClientPid (&values[i]);
        gboolean seen = FALSE;

        for (guint j = 0; j < pids->len && !seen; j++)
          seen = g_array_index (pids, pid_t, j) == pid;
        if (!seen && pid > 0)
          g_array_append_val (pids, pid);
      }
  XResClientIdsDestroy (n, values);
  return pids;
}

gboolean
xapp_app_connected (XApp *xapp)
{
  g_autoptr (GArray) pids = NULL;
  gboolean found = FALSE;

  if (xapp->app_pid <= 0 || (pids = xapp_client_pids (xapp)) == NULL)
    return TRUE;
  for (guint i = 0; i < pids->len && !found; i++)
    found = xapp_pid_owner (xapp, g_array_index (pids, pid_t, i)) == XAPP_APP;
  return found;
}

XAppOwner
xapp_client_owner (XApp *xapp, XID id)
{
  /* The server's own resources (client 0: the root, Composite's overlay
   * window that a compositing window manager maps) are nobody's app. */
  if (xapp_is_own_client (xapp, id) || xapp_client_base (xapp, id) == 0)
    return XAPP_NOT_APP;
  if (xapp->app_pid <= 0)
    return XAPP_UNKNOWN;
  if (xapp->private_server)
    return XAPP_APP;
  return xapp_pid_owner (xapp, xapp_client_pid (xapp, id));
}

pid_t
xapp_read_net_wm_pid (XApp *xapp, Window window)
{
  Atom actual = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  pid_t pid = 0;

  if (XGetWindowProperty (xapp->dpy, window, xapp->net_wm_pid, 0, 1, False, XA_CARDINAL,
                          &actual, &format, &n, &after, &data) == Success
      && data != NULL && format == 32 && n == 1)
    pid = (pid_t) *(unsigned long *) data;   /* Xlib stores format 32 as long */
  if (data != NULL)
    XFree (data);
  return pid;
}

XAppOwner
xapp_window_owner (XApp *xapp, Window window, pid_t net_wm_pid)
{
  XAppOwner owner = xapp_client_owner (xapp, window);

  if (owner != XAPP_UNKNOWN || xapp->app_pid <= 0)
    return owner;
  /* The server cannot tell: the window's word for it, a hint. */
  if (net_wm_pid <= 0)
    net_wm_pid = xapp_read_net_wm_pid (xapp, window);
  return xapp_pid_owner (xapp, net_wm_pid);
}

/* ---- identity ---- */

/* The bytes of a COMPOUND_TEXT (ISO 2022) as UTF-8: ASCII on the left,
 * ISO 8859-1 on the right (the standard's defaults), a segment between
 * ESC % G and ESC % @ as UTF-8 (what toolkits write for anything else);
 * other charset designations are skipped and their bytes shown as '?'. */
static char *
compound_text_to_utf8 (const guchar *p, gsize len)
{
  GString *out = g_string_new (NULL);
  gboolean utf8 = FALSE, other = FALSE;

  for (gsize i = 0; i < len;)
    {
      if (p[i] == 0x1b)
        {
          gsize j = i + 1;

          while (j < len && p[j] >= 0x20 && p[j] <= 0x2f)
            j++;   /* intermediate bytes */
          if (j < len)
            {
              gboolean percent = j == i + 2 && p[i + 1] == '%';
              if (percent && p[j] == 'G')
                utf8 = TRUE;
              else if (percent && p[j] == '@')
                utf8 = FALSE;
              else
                /* ESC ( B and ESC - A are the defaults; others we do not decode. */
                other = !((j == i + 2 && p[i + 1] == '(' && p[j] == 'B')
                          || (j == i + 2 && p[i + 1] == '-' && p[j] == 'A'));
            }
          i = j + 1;
          continue;
        }
      if (utf8)
        {
          gsize j = i;
          while (j < len && p[j] != 0x1b)
            j++;
          g_string_append_len (out, (const char *) p + i, (gssize) (j - i));
          i = j;
          continue;
        }
      if (p[i] >= 0xa0 && !other)
        g_string_append_unichar (out, p[i]);
      else if (p[i] < 0x80 && (p[i] >= 0x20 || p[i] == '\t' || p[i] == '\n'))
        g_string_append_c (out, (char) p[i]);
      else
        g_string_append_c (out, '?');
      i++;
    }
  {
    char *valid = g_utf8_make_valid (out->str, (gssize) out->len);
    g_string_free (out, TRUE);
    return valid;
  }
}

char *
xapp_text_from_property (XApp *xapp, Atom type, const char *value, gsize len)
{
  /* A title may end in NULs (some toolkits count the terminator). */
  len = strnlen (value, len);
  if (type == XA_STRING)
    {
      /* ICCCM: STRING is ISO 8859-1. */
      g_autofree char *utf8 = g_convert (value, (gssize) len, "UTF-8", "ISO-8859-1", NULL,
                                         NULL, NULL);
      if (utf8 != NULL)
        return g_utf8_make_valid (utf8, -1);
    }
  else if (type == xapp->compound_text)
    {
      /* Xlib knows ISO 2022's charsets (Cyrillic, Greek, CJK...) as far
       * as the locale's converters go; ours (ASCII, Latin-1, UTF-8
       * segments) when it cannot convert all of it. */
      XTextProperty prop = { .value = (unsigned char *) value, .encoding = type, .format = 8,
                             .nitems = len };
      char **list = NULL;
      int count = 0;

      if (Xutf8TextPropertyToTextList (xapp->dpy, &prop, &list, &count) == Success
          && list != NULL && count > 0)
        {
          g_autoptr (GString) joined = g_string_new (NULL);

          for (int i = 0; i < count; i++)
            g_string_append (joined, list[i]);
          XFreeStringList (list);
          return g_utf8_make_valid (joined->str, (gssize) joined->len);
        }
      if (list != NULL)
        XFreeStringList (list);
      return compound_text_to_utf8 ((const guchar *) value, len);
    }
  return g_utf8_make_valid (value, (gssize) len);
}

GBytes *
xapp_property_get (Display *dpy, Window window, Atom property, Atom type, int format,
                   long max_longs, Atom *actual)
{
  Atom actual_type = None;
  int actual_format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  GBytes *bytes = NULL;

  if (XGetWindowProperty (dpy, window, property, 0, max_longs, False, type, &actual_type,
                          &actual_format, &n, &after, &data) == Success
      && data != NULL && actual_format == format)
    bytes = g_bytes_new (data, n * (format == 32 ? sizeof (long) : (gsize) format / 8));
  if (data != NULL)
    XFree (data);
  if (actual != NULL)
    *actual = actual_type;
  return bytes;
}

/* A format-8 property as valid UTF-8 (decoded by its type), or NULL. */
static char *
read_text (XApp *xapp, Window window, Atom property, Atom type)
{
  Atom actual = None;
  g_autoptr (GBytes) value = xapp_property_get (xapp->dpy, window, property, type, 8, 1024,
                                                &actual);
  gsize n;
  const char *data;

  if (value == NULL || actual == None)
    return NULL;
  data = g_bytes_get_data (value, &n);
  return xapp_text_from_property (xapp, actual, data != NULL ? data : "", n);
}

void
xapp_identity_read (XApp *xapp, Window window, XAppIdentity *identity)
{
  XClassHint hint = { NULL, NULL };

  if (identity->wm_class == NULL && XGetClassHint (xapp->dpy, window, &hint)
      && hint.res_class != NULL)
    identity->wm_class = g_utf8_make_valid (hint.res_class, -1);
  if (hint.res_name != NULL)
    XFree (hint.res_name);
  if (hint.res_class != NULL)
    XFree (hint.res_class);
  if (identity->wm_name == NULL)
    identity->wm_name = read_text (xapp, window, XA_WM_NAME, AnyPropertyType);
  if (identity->net_wm_name == NULL)
    identity->net_wm_name = read_text (xapp, window, xapp->net_wm_name, xapp->utf8_string);
}

void
xapp_identity_clear (XAppIdentity *identity)
{
  g_clear_pointer (&identity->wm_class, g_free);
  g_clear_pointer (&identity->wm_name, g_free);
  g_clear_pointer (&identity->net_wm_name, g_free);
}

const char *
xapp_identity_title (const XAppIdentity *identity)
{
  /* _NET_WM_NAME first, as EWMH asks: it is UTF-8 by definition, where
   * WM_NAME may be COMPOUND_TEXT a browser fills with escapes. */
  if (identity->net_wm_name != NULL && identity->net_wm_name[0] != '\0')
    return identity->net_wm_name;
  if (identity->wm_name != NULL && identity->wm_name[0] != '\0')
    return identity->wm_name;
  return NULL;
}

gboolean
xapp_identity_is_set (const XAppIdentity *identity)
{
  return identity->wm_class != NULL || xapp_identity_title (identity) != NULL;
}

gboolean
xapp_title_equal (const char *a, const char *b)
{
  return g_strcmp0 (a != NULL ? a : "", b != NULL ? b : "") == 0;
}

int
xapp_window_index (GPtrArray *windows, XAppFirstMapFunc first_map_of, guint64 first_map)
{
  int index = 0;

  for (guint i = 0; i < windows->len; i++)
    {
      guint64 other = first_map_of (g_ptr_array_index (windows, i));

      if (other != 0 && other < first_map)
        index++;
    }
  return index;
}

gpointer
xapp_window_at_index (GPtrArray *windows, XAppFirstMapFunc first_map_of, int index)
{
  for (guint i = 0; i < windows->len; i++)
    {
      gpointer window = g_ptr_array_index (windows, i);
      guint64 first_map = first_map_of (window);

      if (first_map != 0 && xapp_window_index (windows, first_map_of, first_map) == index)
        return window;
    }
  return NULL;
}

char *
xapp_text_from_value (const char *value, gsize len)
{
  /* A title may end in NULs (some toolkits count the terminator). */
  len = strnlen (value, len);
  return g_utf8_make_valid (value, (gssize) len);
}

char *
xapp_class_from_value (const char *value, gsize len)
{
  gsize first = strnlen (value, len);

  if (first + 1 >= len)
    return NULL;
  return xapp_text_from_value (value + first + 1, len - first - 1);
}

static gboolean
has_class (XApp *xapp, Window window)
{
  XClassHint hint = { NULL, NULL };
  gboolean has = XGetClassHint (xapp->dpy, window, &hint) != 0;

  if (hint.res_name != NULL)
    XFree (hint.res_name);
  if (hint.res_class != NULL)
    XFree (hint.res_class);
  return has;
}

/* The first window at or below @window (@depth levels down already)
 * that has WM_CLASS and was not made by the client that made @not_of
 * (None: any client). */
static Window
find_class_below (XApp *xapp, Window window, int depth, Window not_of)
{
  Window root, parent, *children = NULL, found = None;
  unsigned int n = 0;

  if ((not_of == None || !xapp_same_client (xapp, window, not_of)) && has_class (xapp, window))
    return window;
  if (depth >= 3 || !XQueryTree (xapp->dpy, window, &root, &parent, &children, &n))
    return None;
  for (unsigned int i = 0; i < n && found == None; i++)
    found = find_class_below (xapp, children[i], depth + 1, not_of);
  if (children != NULL)
    XFree (children);
  return found;
}

Window
xapp_identity_window (XApp *xapp, Window top)
{
  Window found = find_class_below (xapp, top, 0, None);
  Window inner;

  /* A window manager's frame with a class of its own (i3's "i3-frame")
   * holds another client's window that has one: that one names it. An
   * app's own wrapper (Tk's) holds windows of the same client. */
  if (found == top && (inner = find_class_below (xapp, top, 0, top)) != None)
    return inner;
  return found != None ? found : top;
}

/* (See xapp.h.) EWMH's _NET_SUPPORTING_WM_CHECK names a window whose
 * _NET_WM_NAME is the window manager's. */
GBytes *
xapp_window_manager_said (Display *dpy, long max)
{
  Atom check = XInternAtom (dpy, "_NET_SUPPORTING_WM_CHECK", False);
  Atom name = XInternAtom (dpy, "_NET_WM_NAME", False);
  Atom utf8 = XInternAtom (dpy, "UTF8_STRING", False);
  g_autoptr (GBytes) checked = xapp_property_get (dpy, DefaultRootWindow (dpy), check,
                                                  XA_WINDOW, 32, 1, NULL);
  GBytes *said;
  Window wm;

  if (checked == NULL || g_bytes_get_size (checked) != sizeof (Window))
    return NULL;
  wm = *(const Window *) g_bytes_get_data (checked, NULL);
  if (wm == None)
    return NULL;
  said = xapp_property_get (dpy, wm, name, utf8, 8, max / 4, NULL);
  if (said != NULL && g_bytes_get_size (said) == 0)
    g_clear_pointer (&said, g_bytes_unref);
  return said;
}

/* (See xapp.h.) One that says nothing still redirects the root's
 * children. */
char *
xapp_window_manager_name (Display *dpy)
{
  g_autoptr (GBytes) said = xapp_window_manager_said (dpy, 1024);
  XWindowAttributes attrs;

  if (said != NULL)
    {
      gsize n;
      const char *data = g_bytes_get_data (said, &n);

      return g_utf8_make_valid (data, (gssize) n);
    }
  if (XGetWindowAttributes (dpy, DefaultRootWindow (dpy), &attrs)
      && (attrs.all_event_masks & SubstructureRedirectMask))
    return g_strdup ("one that does not say its name");
  return NULL;
}
