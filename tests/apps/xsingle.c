/* xsingle.c — a single-instance app, as most desktop apps are, for the
 * sandbox tests.
 *
 * Like a GApplication it owns a well-known name on the D-Bus session bus
 * (org.xreduce.TestSingle): a second instance that finds the name taken
 * hands over to the first and exits 0. Like a browser it keeps a lock file
 * in its configuration directory ($XDG_CONFIG_HOME/xsingle/lock): an
 * instance that finds one exits 1, and a crash leaves it behind. Replays
 * that share HOME and the session bus therefore get in each other's way;
 * replays in sandboxes of their own do not.
 *
 * One plain Xlib window, "Single", 400x200 at +100+100, with _NET_WM_PID
 * and _NET_WM_PING. It crashes (SIGSEGV) when Return is pressed after x
 * was typed; other keys are typed and forgotten. Without a session bus it
 * exits 2 at once.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gio/gio.h>

static char lock_path[4096];

static int
take_lock (void)
{
  const char *config = g_getenv ("XDG_CONFIG_HOME");
  g_autofree char *dir = config != NULL && *config != '\0'
                           ? g_build_filename (config, "xsingle", NULL)
                           : g_build_filename (g_get_home_dir (), ".config", "xsingle", NULL);
  int fd;

  g_mkdir_with_parents (dir, 0700);
  g_snprintf (lock_path, sizeof lock_path, "%s/lock", dir);
  fd = open (lock_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    {
      fprintf (stderr, "xsingle: %s: %s: another instance has it\n", lock_path,
               strerror (errno));
      return -1;
    }
  close (fd);
  return 0;
}

/* 1: we own the name; 0: another instance does; -1: no bus. */
static int
own_name (void)
{
  g_autoptr (GError) error = NULL;
  GDBusConnection *bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autoptr (GVariant) reply = NULL;
  guint32 result = 0;

  if (bus == NULL)
    {
      fprintf (stderr, "xsingle: no session bus: %s\n", error->message);
      return -1;
    }
  /* DBUS_NAME_FLAG_DO_NOT_QUEUE (4); the connection is kept for life. */
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.xreduce.TestSingle", 4),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, &error);
  if (reply == NULL)
    {
      fprintf (stderr, "xsingle: RequestName: %s\n", error->message);
      return -1;
    }
  g_variant_get (reply, "(u)", &result);
  return result == 1 ? 1 : 0;   /* DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER */
}

static void __attribute__ ((noinline))
crash (void)
{
  raise (SIGSEGV);
}

int
main (int argc, char **argv)
{
  Display *dpy;
  Window win;
  Atom wm_protocols, protocols[2];
  long pid = (long) getpid ();
  gboolean typed_x = FALSE;
  int owner = own_name ();

  if (owner < 0)
    return 2;
  if (owner == 0)
    {
      fprintf (stderr, "xsingle: already running: handing over to it\n");
      return 0;
    }
  if (take_lock () != 0)
    return 1;
  dpy = XOpenDisplay (NULL);
  if (dpy == NULL)
    {
      fprintf (stderr, "xsingle: cannot open the display\n");
      unlink (lock_path);
      return 1;
    }
  win = XCreateSimpleWindow (dpy, DefaultRootWindow (dpy), 100, 100, 400, 200, 0,
                             BlackPixel (dpy, 0), WhitePixel (dpy, 0));
  XStoreName (dpy, win, "Single");
  XSetClassHint (dpy, win, &(XClassHint) { .res_name = "xsingle", .res_class = "XSingle" });
  wm_protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  protocols[0] = XInternAtom (dpy, "WM_DELETE_WINDOW", False);
  protocols[1] = XInternAtom (dpy, "_NET_WM_PING", False);
  XSetWMProtocols (dpy, win, protocols, 2);
  XChangeProperty (dpy, win, XInternAtom (dpy, "_NET_WM_PID", False), XA_CARDINAL, 32,
                   PropModeReplace, (unsigned char *) &pid, 1);
  XSelectInput (dpy, win, KeyPressMask | ExposureMask);
  XMapWindow (dpy, win);
  /* Keys go to the window under the pointer, with no window manager. */
  XSetInputFocus (dpy, PointerRoot, RevertToPointerRoot, CurrentTime);

  for (;;)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
      if (ev.type == KeyPress)
        {
          KeySym sym = XLookupKeysym (&ev.xkey, 0);

          if (sym == XK_Return && typed_x)
            crash ();
          if (sym == XK_x)
            typed_x = TRUE;
        }
      else if (ev.type == ClientMessage && ev.xclient.message_type == wm_protocols
               && (Atom) ev.xclient.data.l[0] == protocols[1])
        {
          ev.xclient.window = DefaultRootWindow (dpy);
          XSendEvent (dpy, DefaultRootWindow (dpy), False,
                      SubstructureNotifyMask | SubstructureRedirectMask, &ev);
          XFlush (dpy);
        }
      else if (ev.type == ClientMessage && ev.xclient.message_type == wm_protocols)
        break;
    }
  unlink (lock_path);
  XCloseDisplay (dpy);
  return 0;
}
