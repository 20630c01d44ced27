/* xtest-xvfb.h — a private Xvfb for one X11 test (tests/lib).
 *
 * test_xvfb_start() runs `Xvfb -displayfd` (proc/xserver.h) in a group of
 * its own and returns once the server has written its display number,
 * i.e. once it accepts clients: no fixed display numbers, no sleeps. The
 * server dies with the test even when an assertion aborts it before its
 * teardown (PR_SET_PDEATHSIG).
 */
#pragma once

#include <glib.h>

#include "xserver.h"

typedef struct
{
  XServer *server;         /* proc/xserver.h: the one way this project starts X servers */
  GPid pid;
  char *display;           /* ":N" */
} TestXvfb;

/* @screen "WxH"; @disable: extensions the server leaves out
 * (NULL-terminated), or NULL. */
void test_xvfb_start_without (TestXvfb *x, const char *screen, const char *const *disable);
void test_xvfb_start (TestXvfb *x, const char *screen);
void test_xvfb_stop (TestXvfb *x);
