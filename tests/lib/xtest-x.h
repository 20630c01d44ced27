/* xtest-x.h — an X11 test watches and drives the display (tests/lib).
 *
 * The test's own connection sees windows come and go as X events
 * (SubstructureNotify on the root, StructureNotify on a window it
 * watches): test_x_wait_window() and test_x_wait_gone() wait for those
 * events, never for a delay. @said, where a function takes it, is what
 * the program under test (xrecord) said so far, for the failure's
 * message; NULL where there is none.
 *
 * test_xdo() drives the apps with xdotool, as a user would.
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

/* Is @w's WM_NAME @title? */
gboolean test_x_named (Display *dpy, Window w, const char *title);
/* @w if it is named @title, else the window inside it (@depth levels at
 * most) that is: a window manager's frame holds the app's window; or None. */
Window test_x_find_named (Display *dpy, Window w, const char *title, int depth);
/* A mapped child of the root that is, or holds within @depth levels, a
 * window named @title, if there is one now: that window. */
Window test_x_find_mapped (Display *dpy, const char *title, int depth);

/* The next X event, before @deadline (monotonic); the test fails after
 * it, naming @waiting_for, @timeout_ms and @said. */
void test_x_next_event (Display *dpy, XEvent *ev, gint64 deadline, const char *waiting_for,
                        int timeout_ms, const GString *said);
/* Forgets the X events so far: the next wait is for what comes after. */
void test_x_drain (Display *dpy);
/* The window named @title (test_x_find_mapped), mapped already or when
 * it is (a MapNotify on the root, whose SubstructureNotify the test
 * selects), within @timeout_ms. */
Window test_x_wait_window (Display *dpy, const char *title, int depth, int timeout_ms,
                           const GString *said);
/* Until @w (watched: StructureNotify) is unmapped or destroyed, within
 * @timeout_ms; at once if it is not mapped now. */
void test_x_wait_gone (Display *dpy, Window w, const char *title, int timeout_ms,
                       const GString *said);
/* Until @selection has an owner (another than @not), within @timeout_ms;
 * the test fails if it has none by then. An app takes CLIPBOARD or
 * PRIMARY when it has handled the copy that xdotool sent it (xdotool
 * returns before); the owner is server state, asked for with a round trip
 * each look until it is there. */
void test_wait_selection_owner (Display *dpy, const char *selection, Window not, int timeout_ms);

/* xdotool ARGS... (NULL-terminated) in @envp; the test fails if it does. */
void test_xdo (char **envp, const char *first, ...) G_GNUC_NULL_TERMINATED;
/* The pointer to @x,@y in @w, then a click of @button ("1"), or none
 * (@button NULL). */
void test_xdo_click_in (char **envp, Window w, int x, int y, const char *button);

/* The test's own connection to @display, the root's SubstructureNotify
 * selected (top-levels mapped and unmapped: test_x_wait_window), with
 * @on_error as the X error handler (the apps' windows come and go), or
 * Xlib's where NULL. */
Display *test_x_open (const char *display, XErrorHandler on_error);
/* The test's environment for the apps it starts on @display: DISPLAY, and
 * GTK without an accessibility bus (NO_AT_BRIDGE), as xreplay's sandbox
 * runs it. */
char **test_x_app_environ (const char *display);
/* An X error handler for a test whose apps' windows go when they crash:
 * a request about one that is gone (BadWindow) is no failure of the
 * test; any other error is. */
int test_x_error_but_bad_window (Display *dpy, XErrorEvent *ev);
