/* test-given.c — crashes that need what the app got from outside: a paste
 * from xclip, a paste after Ctrl+C in a second app, a middle click that
 * pastes another app's PRIMARY, a drop from another app's window, a file
 * chosen in GTK's file chooser (under HOME, and by an absolute path
 * outside it, recorded with --with-files), a variable of the recording's
 * environment.
 *
 * Each case starts its own Xvfb, records tests/apps/gtk-given.py on it
 * with `xrecord --display` while xdotool drives it (and the second app,
 * tests/apps/gtk-source.py, which is not recorded), among actions that do
 * not matter. Then the recording must crash the app in 5 of 5 replays
 * with the defaults (run at once), and xreduce must keep exactly the
 * steps that matter, in words.
 *
 * Synchronisation: xrecord says when it records; windows are awaited on
 * the test's own X connection (MapNotify, UnmapNotify, DestroyNotify on
 * the root), selections by their owner, a drag by the XdndPosition lines
 * the recording has written (the source sends a second position only once
 * the app answered the first: its drop is then accepted). No sleeps.
 *
 * Programs come from the environment: XRECORD, XREPLAY, XREDUCE,
 * XREDUCE_SRCDIR. Start reading at test_case().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include "session.h"
#include "xtest-x.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"

/* A bound on each wait for an event, never a pause: as long as xrecord
 * gives an app to map its first window (RECORDER_START_TIMEOUT_MS). A
 * Python app importing Qt or GTK under openbox, beside three such tests
 * and two busy loops on 2 cores, took more than 30 s. */
#define WAIT_MS 60000

typedef struct
{
  TestXvfb xvfb;
  Display *dpy;              /* the test's own connection: the X events */
  char *dir, *home, *log, *min;
  char **envp;               /* DISPLAY, HOME: the fixture's */
  GPid xrecord, source, xclip;
  int xrecord_err;
  GString *err;              /* what xrecord said */
} Fixture;

typedef struct Case Case;
struct Case
{
  const char *name;
  /* Drives the apps while xrecord records gtk-given.py. */
  void (*drive) (Fixture *f, Window given);
  const char *const *record_args; /* xrecord's options beyond the display and log */
  const char *const *record_env;  /* NAME=VALUE for the recorded app */
  const char *source_text;   /* gtk-source.py's text, or NULL: no second app */
  /* The minimal session's steps (session_describe_steps), one of these
   * ('?' stands for any one character: where a drag left the pointer). */
  const char *expected[3];
  const char *app_arg;       /* gtk-given.py's argument, or NULL */
};

static int
on_x_error (Display *dpy, XErrorEvent *ev)
{
  /* The app's windows come and go (it crashes). */
  return 0;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = test_x_open (f->xvfb.display, on_x_error);
  f->dir = test_make_tmp ("test-given-XXXXXX");
  f->home = g_build_filename (f->dir, "home", NULL);
  g_assert_cmpint (g_mkdir (f->home, 0700), ==, 0);
  f->log = g_build_filename (f->dir, "session.log", NULL);
  f->min = g_build_filename (f->dir, "session.min", NULL);
  /* The apps' HOME is the test's; GTK without an accessibility bus, as
   * xreplay's sandbox runs it. */
  f->envp = test_x_app_environ (f->xvfb.display);
  f->envp = g_environ_setenv (f->envp, "HOME", f->home, TRUE);
  /* No session bus here for dconf: GTK's settings in memory. */
  f->envp = g_environ_setenv (f->envp, "GSETTINGS_BACKEND", "memory", TRUE);
  f->envp = g_environ_unsetenv (f->envp, "TZ");
  f->err = g_string_new (NULL);
  f->xrecord_err = -1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_talking (&f->xrecord, &f->xrecord_err);
  test_kill_child (&f->source);
  test_kill_child (&f->xclip);
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->home);
  g_free (f->log);
  g_free (f->min);
  g_strfreev (f->envp);
  g_string_free (f->err, TRUE);
}

/* ---- the X events ---- */

/* The top-level named @title: mapped already, or when it is. It is then
 * watched (StructureNotify: its going, for wait_gone). */
static Window
wait_window (Fixture *f, const char *title)
{
  Window w = test_x_wait_window (f->dpy, title, 0, WAIT_MS, f->err);

  XSelectInput (f->dpy, w, StructureNotifyMask);
  return w;
}

static void
wait_gone (Fixture *f, Window w, const char *title)
{
  test_x_wait_gone (f->dpy, w, title, WAIT_MS, f->err);
}

/* Whether @w is unmapped or destroyed within @ms (FALSE: still up). */
static gboolean
gone_within (Fixture *f, Window w, int ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  XWindowAttributes attrs;

  XSync (f->dpy, False);
  if (!XGetWindowAttributes (f->dpy, w, &attrs) || attrs.map_state != IsViewable)
    return TRUE;
  for (;;)
    {
      XEvent ev;

      while (XPending (f->dpy) == 0)
        {
          struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };
          int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

          if (left <= 0 || poll (&pfd, 1, left) <= 0)
            return FALSE;
        }
      XNextEvent (f->dpy, &ev);
      if ((ev.type == UnmapNotify && ev.xunmap.window == w)
          || (ev.type == DestroyNotify && ev.xdestroywindow.window == w))
        return TRUE;
    }
}

/* Until @selection has an owner (another than @not), within WAIT_MS. */
static void
wait_owner (Fixture *f, const char *selection, Window not)
{
  test_wait_selection_owner (f->dpy, selection, not, WAIT_MS);
}

/* ---- the programs ---- */

/* gtk-source.py TEXT, until its window is there. */
static Window
source_start (Fixture *f, const char *text)
{
  g_autofree char *script = test_app_path ("gtk-source.py");
  const char *argv[] = { "/usr/bin/python3", script, text, NULL };

  f->source = test_spawn_quiet (NULL, (const char *const *) argv, f->envp, 0);
  return wait_window (f, "Source");
}

static void
xrecord_start (Fixture *f, const Case *c)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *script = test_app_path ("gtk-given.py");
  g_auto (GStrv) envp = g_strdupv (f->envp);

  g_ptr_array_add (argv, (char *) env ("XRECORD"));
  g_ptr_array_add (argv, (char *) "--display");
  g_ptr_array_add (argv, f->xvfb.display);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, f->log);
  for (const char *const *a = c->record_args; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, (char *) "/usr/bin/python3");
  g_ptr_array_add (argv, script);
  if (c->app_arg != NULL)
    g_ptr_array_add (argv, (char *) c->app_arg);
  g_ptr_array_add (argv, NULL);
  for (const char *const *e = c->record_env; e != NULL && *e != NULL; e++)
    {
      g_auto (GStrv) pair = g_strsplit (*e, "=", 2);
      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  f->xrecord = test_spawn_talking (f->dir, (const char *const *) argv->pdata, envp,
                                  &f->xrecord_err);
  test_wait_line (f->xrecord_err, f->err, "xrecord: recording ", WAIT_MS);
}

/* ---- what the user does ---- */

/* What does not matter: typing into the entry, a click on Go. */
static void
noise (Fixture *f, Window given)
{
  test_xdo_click_in (f->envp, given, 200, 40, "1");
  test_xdo (f->envp, "type", "--delay", "30", "hello", NULL);
  test_xdo_click_in (f->envp, given, 200, 210, "1");
}

/* xclip owns CLIPBOARD with @text from now on. */
static void
xclip_start (Fixture *f, const char *text)
{
  /* -quiet: in the foreground, where the test can end it. */
  const char *argv[] = { "xclip", "-quiet", "-selection", "clipboard", "-i", NULL };
  g_autoptr (GError) error = NULL;
  int in = -1;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, f->envp,
                                           G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &f->xclip, &in, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (write (in, text, strlen (text)), ==, (gssize) strlen (text));
  close (in);
  wait_owner (f, "CLIPBOARD", None);
}

static void
drive_xclip (Fixture *f, Window given)
{
  noise (f, given);
  xclip_start (f, "xxBOOMxx");
  test_xdo_click_in (f->envp, given, 100, 40, "1");
  test_xdo (f->envp, "key", "ctrl+v", NULL);
}

static void
drive_copy (Fixture *f, Window given)
{
  Window source = source_start (f, "xxBOOMxx");

  noise (f, given);
  /* In the other app: select all, copy. */
  test_xdo_click_in (f->envp, source, 200, 40, "1");
  test_xdo (f->envp, "key", "ctrl+a", NULL);
  test_xdo (f->envp, "key", "ctrl+c", NULL);
  wait_owner (f, "CLIPBOARD", None);
  /* (Selecting made it PRIMARY's owner too: Given's entry never pastes
   * PRIMARY here.) */
  test_xdo_click_in (f->envp, given, 100, 40, "1");
  test_xdo (f->envp, "key", "ctrl+v", NULL);
}

static void
drive_primary (Fixture *f, Window given)
{
  Window source = source_start (f, "xxBOOMxx");

  noise (f, given);
  test_xdo_click_in (f->envp, source, 200, 40, "1");
  test_xdo (f->envp, "key", "ctrl+a", NULL);
  wait_owner (f, "PRIMARY", None);
  test_xdo_click_in (f->envp, given, 100, 40, "2");
}

/* The lines of the recording so far that hold @what. */
static guint
log_count (Fixture *f, const char *what)
{
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (f->log, &text, NULL, NULL))
    return 0;
  for (const char *p = text; (p = strstr (p, what)) != NULL; p++)
    n++;
  return n;
}

/* Until the recording has @n lines that hold @what. */
static void
wait_log (Fixture *f, const char *what, guint n)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;

  while (log_count (f, what) < n)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the recording has no %u lines with %s after %d ms", n, what, WAIT_MS);
      /* The file is the state asked for: xrecord writes each line whole. */
      g_usleep (20000);
    }
}

static void
drive_drop (Fixture *f, Window given)
{
  Window source = source_start (f, "xxBOOMxx");
  g_autofree char *id = g_strdup_printf ("%lu", source);
  Window root = DefaultRootWindow (f->dpy), child;
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  int gx, gy;

  noise (f, given);
  /* Press on "Drag me", leave it far enough for GTK to start a drag. */
  test_xdo (f->envp, "mousemove", "--window", id, "200", "130", "mousedown", "1", NULL);
  test_xdo (f->envp, "mousemove_relative", "--", "-20", "0", NULL);
  test_xdo (f->envp, "mousemove_relative", "--", "-20", "0", NULL);
  wait_owner (f, "XdndSelection", None);
  /* Over the drop area of Given (20,80 360x80), until the app has
   * answered a position (the source sends the next one only then). */
  g_assert_true (XTranslateCoordinates (f->dpy, given, root, 0, 0, &gx, &gy, &child));
  for (int i = 0; log_count (f, "type=XdndPosition") < 2; i++)
    {
      g_autofree char *x = g_strdup_printf ("%d", gx + 200 + i % 5);
      g_autofree char *y = g_strdup_printf ("%d", gy + 120);

      if (g_get_monotonic_time () > deadline)
        g_error ("the drag did not reach Given within %d ms", WAIT_MS);
      test_xdo (f->envp, "mousemove", x, y, NULL);
      g_usleep (20000);
    }
  test_xdo (f->envp, "mouseup", "1", NULL);
}

/* Ctrl+O, the path pasted into the chooser's location (copied from
 * another app: xclip; typed, GTK's completion of each folder name races
 * the typist), Return, Go. */
static void
choose_file (Fixture *f, Window given, const char *path)
{
  Window open;
  guint pasted;

  test_xdo_click_in (f->envp, given, 200, 40, "1");
  test_xdo (f->envp, "type", "--delay", "30", "hi", NULL);
  xclip_start (f, path);
  test_xdo (f->envp, "key", "ctrl+o", NULL);
  open = wait_window (f, "Open");
  test_xdo (f->envp, "key", "ctrl+l", NULL);
  /* The paste is the app's answer from xclip: Return once it has it, as
   * a person presses it once the path is there. */
  pasted = log_count (f, "SelectionNotify");
  test_xdo (f->envp, "key", "ctrl+v", NULL);
  wait_log (f, "SelectionNotify", pasted + 1);
  /* GTK's chooser ignores a Return that comes while it still reads the
   * pasted path's folder, and nothing on X says when it is done: as a
   * person whose Return did nothing, the scripted user presses it again
   * when the dialog is still there after a while. */
  for (guint tries = 1; ; tries++)
    {
      test_xdo (f->envp, "key", "Return", NULL);
      if (tries == 5)
        break;
      if (gone_within (f, open, 1500))
        break;
      g_test_message ("\"Open\" still up 1.5 s after Return %u: Return again", tries);
    }
  wait_gone (f, open, "Open");
  test_xdo_click_in (f->envp, given, 200, 210, "1");
}

/* A file of the user's, a while old (what the app did not write). */
static void
make_file (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  struct timespec old[2] = { { .tv_sec = time (NULL) - 3600 }, { .tv_sec = time (NULL) - 3600 } };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "a line with BOOM in it\n", -1, NULL));
  g_assert_cmpint (utimensat (AT_FDCWD, path, old, 0), ==, 0);
}

static void
drive_file_home (Fixture *f, Window given)
{
  g_autofree char *file = g_build_filename (f->home, "docs", "crash.txt", NULL);

  make_file (file);
  choose_file (f, given, "~/docs/crash.txt");
}

static void
drive_file_outside (Fixture *f, Window given)
{
  g_autofree char *file = g_build_filename (f->dir, "outside", "crash.txt", NULL);

  make_file (file);
  choose_file (f, given, file);
}

static void
drive_env (Fixture *f, Window given)
{
  /* Typing, then Go: it crashes for the variable. */
  test_xdo_click_in (f->envp, given, 200, 40, "1");
  test_xdo (f->envp, "type", "--delay", "30", "hello", NULL);
  test_xdo_click_in (f->envp, given, 200, 210, "1");
}

/* ---- the case ---- */

/* PROGRAM ARGS... -- the app (its argument @app_arg, or none), in the
 * test's folder; its stdout on *@out_fd, its stderr on *@err_fd (or
 * /dev/null when @err_fd is NULL). */
static void
run_app (Fixture *f, const char *program, const char *const *args, const char *app_arg,
         GPid *pid, int *out_fd, int *err_fd, int err_file)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *script = test_app_path ("gtk-given.py");
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, (char *) program);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, (char *) "/usr/bin/python3");
  g_ptr_array_add (argv, script);
  if (app_arg != NULL)
    g_ptr_array_add (argv, (char *) app_arg);
  g_ptr_array_add (argv, NULL);
  /* Not the fixture's display, HOME or variables: the replays' own. */
  if (err_file >= 0)
    {
      int out[2];

      g_assert_true (g_unix_open_pipe (out, FD_CLOEXEC, &error));
      g_assert_true (g_spawn_async_with_fds (f->dir, (char **) argv->pdata, NULL,
                                             G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, pid, -1,
                                             out[1], err_file, &error));
      g_assert_no_error (error);
      close (out[1]);
      *out_fd = out[0];
      return;
    }
  g_assert_true (g_spawn_async_with_pipes (f->dir, (char **) argv->pdata, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD
                                           | (err_fd == NULL ? G_SPAWN_STDERR_TO_DEV_NULL : 0),
                                           NULL, NULL, pid, NULL, out_fd, err_fd, &error));
  g_assert_no_error (error);
}

static void
record (Fixture *f, const Case *c)
{
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;
  SessionOutcome outcome;
  Window given;
  int status;

  g_autofree char *title = c->app_arg != NULL ? g_strdup_printf ("Given (%s)", f->dir)
                                               : g_strdup ("Given");

  xrecord_start (f, c);
  given = wait_window (f, title);
  test_x_drain (f->dpy);
  c->drive (f, given);
  status = test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
  f->xrecord_err = (close (f->xrecord_err), -1);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  session = session_load (f->log, NULL);
  g_assert_nonnull (session);
  outcome = session_get_outcome (session);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (outcome.signal, ==, SIGSEGV);
  words = session_describe_steps (session, SESSION_WORDS_TERMINAL, TRUE);
  g_test_message ("recorded %u actions:\n%s", session_get_n_actions (session), words);
}

static void
test_case (Fixture *f, gconstpointer data)
{
  const Case *c = data;
  g_autoptr (Session) min = NULL;
  g_autofree char *steps = NULL;
  GPid replays[5];
  int outs[5], errs[5];
  guint crashed = 0;
  gboolean expected = FALSE;

  g_autofree char *xclip = g_find_program_in_path ("xclip");

  if (xclip == NULL && c->drive == drive_xclip)
    {
      g_test_skip ("no xclip (Debian: xclip)");
      return;
    }
  record (f, c);

  /* Five replays with the defaults, at once: each crashes. */
  for (int i = 0; i < 5; i++)
    {
      const char *const args[] = { f->log, NULL };
      g_autoptr (GError) error = NULL;
      g_autofree char *path = NULL;

      /* Its stderr to a file of its own, read if it went wrong. */
      errs[i] = g_file_open_tmp ("test-given-XXXXXX", &path, &error);
      g_assert_no_error (error);
      g_unlink (path);
      run_app (f, env ("XREPLAY"), args, c->app_arg, &replays[i], &outs[i], NULL, errs[i]);
    }
  for (int i = 0; i < 5; i++)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      int status = test_wait_said (&replays[i], outs[i], out, 120000);

      close (outs[i]);
      if (WIFEXITED (status) && WEXITSTATUS (status) == 1
          && g_str_has_prefix (out->str, "crashed with SIGSEGV"))
        crashed++;
      else
        {
          /* On stderr: meson shows a failed test's stderr, where a busy
           * CI's cause must be found. */
          g_autofree char *path = g_strdup_printf ("/proc/self/fd/%d", errs[i]);
          g_autofree char *err = NULL;

          g_file_get_contents (path, &err, NULL, NULL);
          g_printerr ("replay %d of 5 said \"%s\" (status 0x%x); on stderr:\n%s\n", i + 1,
                      out->str, status, err != NULL ? err : "");
        }
      close (errs[i]);
    }
  g_test_message ("%s: the recording crashed the app in %u of 5 replays", c->name, crashed);
  g_assert_cmpuint (crashed, ==, 5);

  /* xreduce keeps what matters. */
  {
    const char *const args[] = { "--quiet", "--no-report", "-o", f->min, f->log, NULL };
    g_autoptr (GString) out = g_string_new (NULL);
    GPid pid;
    int fd, status;

    run_app (f, env ("XREDUCE"), args, c->app_arg, &pid, &fd, NULL, -1);
    status = test_wait_said (&pid, fd, out, 600000);
    close (fd);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  }
  min = session_load (f->min, NULL);
  g_assert_nonnull (min);
  steps = session_describe_steps (min, SESSION_WORDS_TERMINAL, FALSE);
  g_test_message ("%s: the minimal session:\n%s", c->name, steps);
  /* Releases xreduce added, or the recording's: either is right. */
  {
    char *added = strstr (steps, "     (and ");
    if (added != NULL)
      *added = '\0';
  }
  for (gsize i = 0; i < G_N_ELEMENTS (c->expected) && c->expected[i] != NULL; i++)
    expected |= g_pattern_match_simple (c->expected[i], steps);
  g_assert_true (expected);
}

/* The title names the folder the app was started in: a replay's app,
 * elsewhere, shows its own at once, and no action waits for the title
 * the recording had (xreplay -v would say "waits for window"). */
static void
test_title (Fixture *f, gconstpointer data)
{
  Case c = *(const Case *) data;
  g_autofree char *one = g_strdup_printf ("  1. Paste \"xxBOOMxx\" (from CLIPBOARD) in \"Given "
                                          "(%s)\"\n", f->dir);
  const char *const args[] = { "-v", f->log, NULL };
  g_autoptr (GString) out = g_string_new (NULL), err = g_string_new (NULL);
  GPid pid;
  int out_fd, err_fd, status;

  c.expected[0] = one;
  test_case (f, &c);
  run_app (f, env ("XREPLAY"), args, c.app_arg, &pid, &out_fd, &err_fd, -1);
  test_read_until (err_fd, err, "\xff", 120000);
  status = test_wait_said (&pid, out_fd, out, 120000);
  close (out_fd);
  close (err_fd);
  g_test_message ("xreplay -v said:\n%s", err->str);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err->str, "-> 0x"));
  /* (Once the app has crashed its window is gone: the action after the
   * crash may wait for it. Never the first, nor a stand-in after a wait.) */
  g_assert_null (strstr (err->str, "action 1 waits for window"));
  g_assert_null (strstr (err->str, "not as recorded"));
}

static const char *const with_files[] = { "--with-files", NULL };
static const char *const troll[] = { "TZ=Antarctica/Troll", NULL };

static const Case cases[] = {
  { "paste-xclip", drive_xclip, NULL, NULL, NULL,
    { "  1. Paste \"xxBOOMxx\" (from CLIPBOARD) in \"Given\"\n" } },
  { "paste-copy", drive_copy, NULL, NULL, "xxBOOMxx",
    { "  1. Paste \"xxBOOMxx\" (from CLIPBOARD) in \"Given\"\n" } },
  { "primary", drive_primary, NULL, NULL, "xxBOOMxx",
    { "  1. Paste \"xxBOOMxx\" (from PRIMARY) with a middle-click at 100,40 in \"Given\"\n" } },
  { "drop", drive_drop, NULL, NULL, "xxBOOMxx",
    { "  1. Drop \"xxBOOMxx\" (UTF8_STRING) at 20?,120 in \"Given\"\n" } },
  /* GTK's file chooser pastes into its location by itself: Ctrl+L may
   * go. */
  { "file-home", drive_file_home, with_files, NULL, NULL,
    { "  1. Press Ctrl+O in \"Given\"\n"
      "  2. Paste \"~/docs/crash.txt\" (from CLIPBOARD) in \"Open\"\n"
      "  3. Press Return in \"Open\"\n  4. Click at 200,210 in \"Given\"\n",
      "  1. Press Ctrl+O in \"Given\"\n  2. Press Ctrl+L in \"Open\"\n"
      "  3. Paste \"~/docs/crash.txt\" (from CLIPBOARD) in \"Open\"\n"
      "  4. Press Return in \"Open\"\n  5. Click at 200,210 in \"Given\"\n" } },
  { "file-outside", drive_file_outside, with_files, NULL, NULL, { NULL } },
  { "title", drive_xclip, NULL, NULL, NULL, { NULL }, "--title-cwd" },
  { "env", drive_env, NULL, troll, NULL,
    { "  1. Click at 200,210 in \"Given\"\n" } },
};

/* file-outside's path is the fixture's: its words are made when it runs. */
static void
test_file_outside (Fixture *f, gconstpointer data)
{
  Case c = *(const Case *) data;
  g_autofree char *file = g_build_filename (f->dir, "outside", "crash.txt", NULL);
  g_autofree char *one = g_strdup_printf ("  1. Press Ctrl+O in \"Given\"\n  2. Paste \"%s\" "
                                          "(from CLIPBOARD) in \"Open\"\n  3. Press Return in "
                                          "\"Open\"\n  4. Click at 200,210 in \"Given\"\n", file);
  g_autofree char *two = g_strdup_printf ("  1. Press Ctrl+O in \"Given\"\n  2. Press Ctrl+L in "
                                          "\"Open\"\n  3. Paste \"%s\" (from CLIPBOARD) in "
                                          "\"Open\"\n  4. Press Return in \"Open\"\n  5. Click at "
                                          "200,210 in \"Given\"\n", file);

  c.expected[0] = one;
  c.expected[1] = two;
  test_case (f, &c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_become_subreaper ();
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/given/%s", cases[i].name);
      g_test_add (path, Fixture, &cases[i], fixture_setup,
                  cases[i].drive == drive_file_outside ? test_file_outside
                  : cases[i].app_arg != NULL ? test_title : test_case,
                  fixture_teardown);
    }
  return g_test_run ();
}
