/* xtest-xvfb.c — a private Xvfb for one X11 test: start and stop
 * (xtest-xvfb.h). */
#include <stdio.h>
#include <glib.h>

#include "xtest-xvfb.h"

void
test_xvfb_start_without (TestXvfb *x, const char *screen, const char *const *disable)
{
  XServerOptions options = { .kind = XSERVER_XVFB, .disable = disable };
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (sscanf (screen, "%dx%d", &options.width, &options.height), ==, 2);
  x->server = xserver_start (&options, 20000, &error);
  g_assert_no_error (error);
  x->pid = xserver_get_pid (x->server);
  x->display = g_strdup (xserver_get_display (x->server));
}

void
test_xvfb_start (TestXvfb *x, const char *screen)
{
  test_xvfb_start_without (x, screen, NULL);
}

void
test_xvfb_stop (TestXvfb *x)
{
  g_clear_pointer (&x->server, xserver_free);
  x->pid = 0;
  g_clear_pointer (&x->display, g_free);
}
