/* xsettings.c — the input timing a desktop gives its apps (see xapp.h):
 * XSETTINGS (the settings daemon's Net/DoubleClickTime and
 * Net/DoubleClickDistance, which GTK reads), the resource database (Xt's
 * multiClickTime) and XKB's key auto-repeat.
 *
 * A desktop's properties are its own, not the app's, but they are read
 * as carefully as a stranger's: every length is checked against the
 * bytes there are. Start reading at xapp_read_input_timing().
 */
#define G_LOG_DOMAIN "xreduce-xapp"

#include "xapp.h"

#include <string.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>

/* XSETTINGS' types. */
enum
{
  XSETTINGS_INT = 0,
  XSETTINGS_STRING = 1,
  XSETTINGS_COLOR = 2,
};

static guint32
read32 (const guint8 *p, gboolean msb)
{
  return msb ? ((guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3])
             : ((guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0]);
}

static guint16
read16 (const guint8 *p, gboolean msb)
{
  return msb ? (guint16) (p[0] << 8 | p[1]) : (guint16) (p[1] << 8 | p[0]);
}

static gsize
pad4 (gsize n)
{
  return (n + 3) & ~(gsize) 3;
}

gboolean
xapp_xsettings_get_int (const guint8 *data, gsize len, const char *name, gint32 *value)
{
  gsize at = 12, name_len = strlen (name);
  gboolean msb;
  guint32 n;

  /* byte order, 3 unused, serial, number of settings */
  if (data == NULL || len < 12 || (data[0] != 0 && data[0] != 1))
    return FALSE;
  msb = data[0] == 1;
  n = read32 (data + 8, msb);
  for (guint32 i = 0; i < n && i < 4096; i++)
    {
      guint8 type;
      gsize this_len;

      /* type, unused, name length, name (padded), last-change serial */
      if (len - at < 4)
        return FALSE;
      type = data[at];
      this_len = read16 (data + at + 2, msb);
      if (len - at - 4 < pad4 (this_len) + 4)
        return FALSE;
      {
        gboolean match = this_len == name_len && memcmp (data + at + 4, name, name_len) == 0;

        at += 4 + pad4 (this_len) + 4;
        switch (type)
          {
          case XSETTINGS_INT:
            if (len - at < 4)
              return FALSE;
            if (match)
              {
                *value = (gint32) read32 (data + at, msb);
                return TRUE;
              }
            at += 4;
            break;
          case XSETTINGS_STRING:
            {
              guint32 string_len;

              if (len - at < 4)
                return FALSE;
              string_len = read32 (data + at, msb);
              if (string_len > len || len - at - 4 < pad4 (string_len))
                return FALSE;
              at += 4 + pad4 (string_len);
            }
            break;
          case XSETTINGS_COLOR:
            if (len - at < 8)
              return FALSE;
            at += 8;
            break;
          default:
            return FALSE;
          }
      }
    }
  return FALSE;
}

gboolean
xapp_resources_get_max (const char *text, const char *suffix, gint *value)
{
  g_auto (GStrv) lines = NULL;
  gboolean found = FALSE;
  gsize suffix_len = strlen (suffix);

  if (text == NULL)
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');
      g_autofree char *name = NULL;
      const char *v;
      char *end = NULL;
      gint64 number;

      if (colon == NULL)
        continue;
      name = g_strstrip (g_strndup (lines[i], (gsize) (colon - lines[i])));
      /* "*multiClickTime", "XTerm*multiClickTime", "xterm.vt100.multiClickTime",
       * and the class's spelling: the last component is what counts. */
      if (strlen (name) < suffix_len
          || g_ascii_strcasecmp (name + strlen (name) - suffix_len, suffix) != 0
          || (strlen (name) > suffix_len && !strchr ("*.", name[strlen (name) - suffix_len - 1])))
        continue;
      v = colon + 1;
      while (*v == ' ' || *v == '\t')
        v++;
      number = g_ascii_strtoll (v, &end, 10);
      if (end == v || number < 0 || number > G_MAXINT)
        continue;
      if (!found || number > *value)
        *value = (gint) number;
      found = TRUE;
    }
  return found;
}

/* The value of a text property of the root, or NULL. */
static char *
root_text (Display *dpy, const char *property)
{
  Atom atom = XInternAtom (dpy, property, True);
  Atom type = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  char *text = NULL;

  if (atom != None
      && XGetWindowProperty (dpy, DefaultRootWindow (dpy), atom, 0, 1 << 16, False, AnyPropertyType,
                             &type, &format, &n, &after, &data) == Success
      && data != NULL && format == 8)
    text = g_strndup ((const char *) data, n);
  if (data != NULL)
    XFree (data);
  return text;
}

/* The XSETTINGS manager's settings (the owner of _XSETTINGS_S<screen>):
 * its _XSETTINGS_SETTINGS bytes, or NULL without a manager. */
static guint8 *
xsettings_bytes (Display *dpy, gsize *len)
{
  g_autofree char *name = g_strdup_printf ("_XSETTINGS_S%d", DefaultScreen (dpy));
  Atom selection = XInternAtom (dpy, name, False);
  Atom settings = XInternAtom (dpy, "_XSETTINGS_SETTINGS", False);
  Window owner = XGetSelectionOwner (dpy, selection);
  Atom type = None;
  int format = 0;
  unsigned long n = 0, after = 0;
  unsigned char *data = NULL;
  guint8 *bytes = NULL;

  if (owner == None)
    return NULL;
  /* (The owner may be gone meanwhile: xconn's handler takes BadWindow.) */
  if (XGetWindowProperty (dpy, owner, settings, 0, 1 << 16, False, settings, &type, &format,
                          &n, &after, &data) == Success
      && data != NULL && format == 8)
    {
      bytes = g_memdup2 (data, n);
      *len = n;
    }
  if (data != NULL)
    XFree (data);
  return bytes;
}

void
xapp_read_input_timing (Display *dpy, XAppInputTiming *timing)
{
  gsize len = 0;
  g_autofree guint8 *settings = xsettings_bytes (dpy, &len);
  g_autofree char *resources = root_text (dpy, "RESOURCE_MANAGER");
  unsigned int delay = 0, interval = 0;
  gint32 value;
  gint xt;

  timing->double_click_ms = timing->double_click_distance = -1;
  timing->xt_multi_click_ms = timing->repeat_delay_ms = timing->repeat_interval_ms = -1;
  if (xapp_xsettings_get_int (settings, len, "Net/DoubleClickTime", &value) && value > 0)
    timing->double_click_ms = value;
  if (xapp_xsettings_get_int (settings, len, "Net/DoubleClickDistance", &value) && value >= 0)
    timing->double_click_distance = value;
  if (xapp_resources_get_max (resources, "multiClickTime", &xt) && xt > 0)
    timing->xt_multi_click_ms = xt;
  if (XkbGetAutoRepeatRate (dpy, XkbUseCoreKbd, &delay, &interval) && delay > 0)
    {
      timing->repeat_delay_ms = (gint) delay;
      timing->repeat_interval_ms = (gint) interval;
    }
}
