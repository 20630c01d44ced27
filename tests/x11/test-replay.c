/* test-replay.c — xreplay end to end on the demo app.
 *
 * Each case runs the real xreplay (which starts its own Xvfb unless given
 * --display, then one of ours from tests/lib/xtest-xvfb.h) on a bundled or a
 * hand-written session and checks its verdict: exit status, outcome line,
 * --json. Synchronisation is on process state and on xreplay's own
 * verbose lines (it says when the app has started and each action as it
 * injects it); never on sleeps.
 *
 * Programs and data come from the environment: XREPLAY, XDEMO,
 * XREDUCE_SRCDIR. Start reading at main().
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include <json-glib/json-glib.h>
#include <X11/Xlib.h>

#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

/* Keep replays of the demo short; the defaults are for real apps. */
#define FAST "--max-gap", "100", "--settle", "300"

typedef struct
{
  char *dir;
} Fixture;

/* xreplay --json's object (freed with the parser). */
static JsonObject *
parse_json (const char *out, JsonParser **parser)
{
  *parser = json_parser_new ();
  return test_json_object (*parser, out);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = test_make_tmp ("test-replay-XXXXXX");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
  /* Whatever a case ran, nothing of it may outlive it. */
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
}

/* Runs xreplay @args; returns its exit status (128+N for a signal) and
 * what it printed. */
static int
run_xreplay_argv (char **out, char **err, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) env ("XREPLAY"));
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  return test_run_sync ((const char *const *) argv->pdata, NULL, G_SPAWN_DEFAULT, out, err);
}

/* The same with the arguments inline, NULL-terminated. */
static int G_GNUC_NULL_TERMINATED
run_xreplay (char **out, char **err, const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return run_xreplay_argv (out, err, (const char *const *) args->pdata);
}

static char *
write_file (Fixture *f, const char *name, const char *text)
{
  return test_write_file (f->dir, name, text);
}

/* ---- verdicts ---- */

/* The bar: the bundled session crashes the app every time. */
static void
test_crash_every_time (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");

  for (int i = 0; i < 20; i++)
    {
      g_autofree char *out = NULL;

      g_autofree char *want = g_strdup_printf ("crashed with SIGSEGV (%u of %u actions",
                                               DEMO_ACTIONS, DEMO_ACTIONS);

      g_assert_cmpint (run_xreplay (&out, NULL, FAST, session, "--", env ("XDEMO"), NULL),
                       ==, 1);
      g_assert_true (g_str_has_prefix (out, want));
    }
}

/* Without its last gesture (the click on Print) the session passes. */
static void
test_without_trigger_passes (Fixture *f, gconstpointer data)
{
  g_autofree char *demo = data_path ("demo.session");
  g_autofree char *path = g_build_filename (f->dir, "no-trigger.session", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (demo, &error);
  g_autoptr (Session) cut = NULL;
  g_autofree char *out = NULL;
  g_autofree guint *keep = NULL;
  g_autofree char *want = g_strdup_printf ("passed (%u of %u actions", DEMO_ACTIONS - 2,
                                           DEMO_ACTIONS - 2);
  guint n;

  g_assert_no_error (error);
  n = session_get_n_actions (session);
  g_assert_cmpuint (n, ==, DEMO_ACTIONS);
  keep = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    keep[i] = i;
  cut = session_subset (session, keep, n - 2);   /* press and release on Print */
  g_assert_true (session_save (cut, path, &error));
  g_assert_no_error (error);

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, path, "--", env ("XDEMO"), NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, want));
}

/* A session whose app did not ask for GLX when recorded (`glx
 * not-asked`) replays on an X server without it, once. xdemo --bug gl
 * asks at Print, and crashes only where GLX is: the replay runs again
 * with GLX, and the verdict is that run's. */
static void
test_glx_not_asked (Fixture *f, gconstpointer data)
{
  g_autofree char *session = test_demo_with_glx (f->dir, SESSION_GLX_NOT_ASKED);
  g_autofree char *out = NULL, *err = NULL, *gl_out = NULL, *gl_err = NULL;
  g_autoptr (JsonParser) parser = NULL, gl_parser = NULL;
  JsonObject *object, *gl_object;
  const char *again = "a client asked for GLX, which the X server did not have (the app did "
                      "not ask for it when recorded): replaying again with GLX";

  g_assert_cmpint (run_xreplay (&out, &err, FAST, "-v", "--json", session, "--", env ("XDEMO"),
                                NULL), ==, 1);
  g_test_message ("xreplay said:\n%s", err);
  object = parse_json (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "crashed");
  g_assert_false (json_object_get_boolean_member (object, "glx_asked"));
  g_assert_nonnull (strstr (err, "without GLX (the app did not ask for it when recorded)"));
  g_assert_null (strstr (err, again));

  g_assert_cmpint (run_xreplay (&gl_out, &gl_err, FAST, "-v", "--json", session, "--",
                                env ("XDEMO"), "--bug", "gl", NULL), ==, 1);
  g_test_message ("xreplay --bug gl said:\n%s", gl_err);
  gl_object = parse_json (gl_out, &gl_parser);
  g_assert_cmpstr (json_object_get_string_member (gl_object, "outcome"), ==, "crashed");
  g_assert_true (json_object_get_boolean_member (gl_object, "glx_asked"));
  g_assert_nonnull (strstr (gl_err, again));
  /* The second server has GLX. */
  g_assert_null (strstr (strstr (gl_err, again), "without GLX"));
}

/* The crash comes from a helper process, 0.8 s of CPU after the last
 * action, while xdemo itself is idle and answers pings (as a terminal
 * whose shell runs the command typed last): the settle time goes on while
 * the app's process tree is busy, and the verdict is the crash, not a
 * pass at --settle. */
static void
test_busy_child (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *object;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--json", session, "--", env ("XDEMO"),
                                "--bug", "child", NULL), ==, 1);
  object = parse_json (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "crashed");
  g_assert_cmpstr (json_object_get_string_member (object, "signal"), ==, "SIGSEGV");
}

/* A process of the app's tree at work all along (a browser's content
 * processes starting, for seconds after its window came) says nothing of
 * the action just made: after two waits that ended at their bound, each
 * next action waits for the tree at most its recorded gap, and the replay
 * goes on to the crash. */
/* `xreplay -v --window-wait @window_wait @session` against xdemo --bug
 * print, started by `sh -c @shell` (busy loops of the app's own beside
 * it), which crashes; its stderr. */
static char *
replay_busy_xdemo (const char *shell, const char *window_wait, const char *session)
{
  g_autofree char *out = NULL;
  char *err = NULL;

  g_assert_cmpint (run_xreplay (&out, &err, FAST, "-v", "--window-wait", window_wait, session,
                                "--", "/bin/sh", "-c", shell, env ("XDEMO"), "--bug", "print",
                                NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  return err;
}

static void
test_busy_sibling (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *err = replay_busy_xdemo ("while :; do :; done & exec \"$0\" \"$@\"", "2000",
                                            session);

  g_assert_nonnull (strstr (err, "the app's processes were at work after 2 actions in a row: "
                                 "work of their own"));
  /* Nothing of it is ever quiet. */
  g_assert_null (strstr (err, "quiet again"));
}

/* Re-anchoring: the main window (and the dialogs with it) elsewhere. */
static void
test_moved_window (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, session, "--", env ("XDEMO"),
                                "--geometry", "+310+260", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
}

/* The demo's crash: Alt+P opens the Print dialog (window 1), a click on
 * its Print button (at 844,249 on the screen) crashes xdemo --bug print.
 * @open: with Alt+P; the click is aimed at window 1 of @class, @title. */
static char *
print_session (Fixture *f, const char *name, gboolean open, const char *class,
               const char *title)
{
  g_autofree char *click = g_strdup_printf (
    "ButtonPress button=1 state=0x0 root=844,249 pos=84,129 window=1 class=\"%s\" "
    "title=\"%s\"\n"
    "1400 ButtonRelease button=1 state=0x100 root=844,249 pos=84,129 window=1 "
    "class=\"%s\" title=\"%s\"\n", class, title, class, title);
  g_autofree char *text = g_strdup_printf (
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"xdemo\"\n"
    "%s"
    "1300 %s",
    open ? "1000 KeyPress keysym=Alt_L keycode=64 state=0x0 root=520,220 pos=420,120 window=0 "
           "class=\"XDemo\" title=\"Editor\"\n"
           "1100 KeyPress keysym=p keycode=33 state=0x8 root=520,220 pos=420,120 window=0 "
           "class=\"XDemo\" title=\"Editor\"\n"
           "1150 KeyRelease keysym=p keycode=33 state=0x8 root=520,220 pos=420,120 window=0 "
           "class=\"XDemo\" title=\"Editor\"\n"
           "1200 KeyRelease keysym=Alt_L keycode=64 state=0x8 root=520,220 pos=420,120 window=0 "
           "class=\"XDemo\" title=\"Editor\"\n"
         : "", click);

  return write_file (f, name, text);
}

/* A session recorded on a screen of two monitors side by side (3840x1080),
 * the app on the right one: the replay's Xvfb has the recorded size (the
 * dialog at x 3160 is on it), within --max-screen. */
static void
test_wide_screen (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL, *session = NULL;
  const char *key = "root=2920,420 pos=420,120 window=0 class=\"XDemo\" title=\"Editor\"";
  const char *click = "root=3244,449 pos=84,129 window=1 class=\"XDemo\" title=\"Print\"";
  g_autofree char *text = g_strdup_printf (
    "xreduce-session 1\nscreen 3840x1080\n"
    "1000 KeyPress keysym=Alt_L keycode=64 state=0x0 %s\n"
    "1100 KeyPress keysym=p keycode=33 state=0x8 %s\n"
    "1150 KeyRelease keysym=p keycode=33 state=0x8 %s\n"
    "1200 KeyRelease keysym=Alt_L keycode=64 state=0x8 %s\n"
    "1300 ButtonPress button=1 state=0x0 %s\n"
    "1400 ButtonRelease button=1 state=0x100 %s\n", key, key, key, key, click, click);

  session = write_file (f, "wide.session", text);
  g_assert_cmpint (run_xreplay (&out, NULL, FAST, session, "--", env ("XDEMO"), "--geometry",
                                "+2500+300", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  g_assert_cmpint (run_xreplay (NULL, &err, "--max-screen", "1920x1080", session, "--",
                                env ("XDEMO"), NULL), ==, 2);
  g_assert_nonnull (strstr (err, "its screen is 3840x1080, larger than the limit 1920x1080"));
}

/* --wm: a window manager on the replay's Xvfb; one that is not there, or
 * that exits before it manages the display, is said before any action. */
static void
test_wm (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *openbox = g_find_program_in_path ("openbox");
  g_autofree char *out = NULL, *err = NULL, *err2 = NULL, *err3 = NULL;

  g_assert_cmpint (run_xreplay (NULL, &err, "--wm", "no-such-wm --flag", session, "--",
                                env ("XDEMO"), NULL), ==, 2);
  g_assert_nonnull (strstr (err, "xreplay: --wm: 'no-such-wm': no such program in PATH"));
  g_assert_cmpint (run_xreplay (NULL, &err2, "--wm", "sh -c 'echo no screen >&2; exit 7'",
                                session, "--", env ("XDEMO"), NULL), ==, 3);
  g_assert_nonnull (strstr (err2, "the window manager 'sh' exited with status 7 before it "
                                  "managed the display; it said: no screen"));
  g_assert_cmpint (run_xreplay (NULL, &err3, "--wm", "openbox", "--display", ":0", session,
                                "--", env ("XDEMO"), NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "--wm and --display exclude each other"));
  if (openbox == NULL)
    {
      g_test_skip ("no openbox in PATH (Debian: openbox)");
      return;
    }
  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--wm", "openbox --sm-disable", session, "--",
                                env ("XDEMO"), NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
}

/* An action whose window never comes is never replayed on another
 * window: the replay stops there, unresolved (exit 5), and says which
 * action and window, in words and in --json. What stands for the same
 * window still takes its place: the same class at the same index. */
static void
test_missing_window (Fixture *f, gconstpointer data)
{
  g_autofree char *unopened = print_session (f, "unopened.session", FALSE, "XDemo", "Print");
  g_autofree char *other = print_session (f, "other.session", TRUE, "Other", "Drucken");
  g_autofree char *renamed = print_session (f, "renamed.session", TRUE, "XDemo", "Drucken");
  g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL, *err4 = NULL;
  const char *busy = "for i in 1 2 3 4; do (while :; do :; done) & done; exec \"$0\" \"$@\"";
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *object, *missing;

  /* Nothing opens the dialog: the click would land on the bare root. */
  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--json", "--window-wait", "500", unopened,
                                "--", env ("XDEMO"), "--bug", "print", NULL), ==, 5);
  object = parse_json (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "unresolved");
  g_assert_cmpint (json_object_get_int_member (object, "actions"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (object, "actions_replayed"), ==, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (object, "detail"),
                            "action 1 (press button 1 at 84,129 in \"Print\"): its window 1 "
                            "(class XDemo) did not appear within 500 ms"));
  missing = json_object_get_object_member (object, "missing_window");
  g_assert_nonnull (missing);
  g_assert_cmpint (json_object_get_int_member (missing, "action"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (missing, "window"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (missing, "class"), ==, "XDemo");
  g_assert_cmpstr (json_object_get_string_member (missing, "title"), ==, "Print");
  g_assert_cmpint (json_object_get_int_member (missing, "waited_ms"), ==, 500);

  /* Window 1 is there, but another app's class, another title: not the
   * window the click was for. Clicked anyway, it would crash the app. */
  g_assert_cmpint (run_xreplay (&out2, NULL, FAST, "--window-wait", "500", other, "--",
                                env ("XDEMO"), "--bug", "print", NULL), ==, 5);
  g_assert_true (g_str_has_prefix (out2, "unresolved: action 5 (press button 1 at 84,129 in "
                                         "\"Drucken\"): its window 1 (class Other) did not "
                                         "appear within 500 ms (4 of 6 actions replayed"));

  /* The same class at the same index, its title changed: the same
   * window, re-anchored. */
  g_assert_cmpint (run_xreplay (&out3, NULL, FAST, "--window-wait", "500", renamed, "--",
                                env ("XDEMO"), "--bug", "print", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out3, "crashed with SIGSEGV"));

  /* So it is with the app's threads waiting for a core all along (four
   * busy loops of its own, as a browser starting on two cores): the wait
   * for the title is --window-wait, not made longer by the starvation,
   * since a window that stands in for it is there. */
  err4 = replay_busy_xdemo (busy, "500", renamed);
  g_assert_nonnull (strstr (err4, "action 5: window 1 not as recorded after 500 ms, using class "
                                  "and index"));
  g_assert_null (strstr (err4, "the window wait is as much longer"));
}

/* A dialog still on its way once the window wait is over: the app's
 * worker thread fills it (xdemo --slow-dialogs: 600 ms of CPU, the app
 * answering its pings meanwhile), longer than the short wait xreduce
 * learns (here 100 ms) and the recorded gaps. The click waits on while
 * the app is at work, and reaches the dialog: the crash, not
 * "unresolved", which made a reduction keep what it did not need. */
static void
test_window_on_its_way (Fixture *f, gconstpointer data)
{
  g_autofree char *session = print_session (f, "open.session", TRUE, "XDemo", "Print");
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_xreplay (&out, &err, FAST, "-v", "--window-wait", "100", session, "--",
                                env ("XDEMO"), "--slow-dialogs", "600", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  g_assert_nonnull (strstr (err, "xdemo: Print on its way"));
  g_assert_nonnull (strstr (err, "action 5: window not there after 100 ms, but the app, the X "
                                 "server or the window manager is at work: waited for while it "
                                 "is"));
}

/* The app ahead of the recording. A window it renames sooner than the
 * recording did (a browser's page that loads faster, a welcome page of a
 * fresh profile) is the same window: the key recorded under its old
 * title goes to it at once, neither waited for nor skipped as if the
 * window had closed (which lost the crash: "passed"). A window it closes
 * sooner (the user's first click did nothing yet, the second closed the
 * dialog) is gone: the second click is skipped, and the replay goes on. */
static void
test_window_sooner (Fixture *f, gconstpointer data)
{
  g_autofree char *wish = g_find_program_in_path ("wish");
  g_autofree char *script = NULL, *renamed = NULL, *closed = NULL;
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  const char *page = "window=0 class=\"Rename.tcl\" title=\"Page\"\n";
  const char *dialog = "root=500,50 pos=100,50 window=1 class=\"Toplevel\" title=\"Dialog\"\n";

  if (wish == NULL)
    {
      g_test_skip ("Tk (wish) is not installed (Debian: tk)");
      return;
    }
  /* Load renames the window when its click ends; Open opens Dialog,
   * whose one button closes it; x crashes the app. */
  script = write_file (f, "rename.tcl",
    "wm title . \"Page\"\n"
    "wm geometry . 300x200+0+0\n"
    "button .load -text Load -command { wm title . \"Loaded - Page\" }\n"
    "place .load -x 0 -y 0 -width 300 -height 100\n"
    "button .open -text Open -command {\n"
    "  toplevel .d\n"
    "  wm title .d Dialog\n"
    "  wm geometry .d 200x100+400+0\n"
    "  button .d.close -text Close -command { destroy .d }\n"
    "  place .d.close -x 0 -y 0 -relwidth 1 -relheight 1\n"
    "}\n"
    "place .open -x 0 -y 100 -width 300 -height 100\n"
    "bind . <Key-x> { exec kill -SEGV [pid] }\n");
  /* The recording's page took its new title only after the x. */
  {
    g_autofree char *text = g_strdup_printf (
      "xreduce-session 1\nscreen 1280x1024\ncommand \"wish\"\n"
      "1000 MotionNotify state=0x0 root=150,50 pos=150,50 %s"
      "1100 ButtonPress button=1 state=0x0 root=150,50 pos=150,50 %s"
      "1200 ButtonRelease button=1 state=0x100 root=150,50 pos=150,50 %s"
      "1300 KeyPress keysym=x keycode=53 state=0x0 %s"
      "1400 KeyRelease keysym=x keycode=53 state=0x0 %s", page, page, page, page, page);
    renamed = write_file (f, "renamed.session", text);
  }
  /* The recording's first click on Close did nothing yet. */
  {
    g_autofree char *text = g_strdup_printf (
      "xreduce-session 1\nscreen 1280x1024\ncommand \"wish\"\n"
      "1000 ButtonPress button=1 state=0x0 root=150,150 pos=150,150 %s"
      "1100 ButtonRelease button=1 state=0x100 root=150,150 pos=150,150 %s"
      "1500 ButtonPress button=1 state=0x0 %s"
      "1600 ButtonRelease button=1 state=0x100 %s"
      "2000 ButtonPress button=1 state=0x0 %s"
      "2100 ButtonRelease button=1 state=0x100 %s"
      "2500 KeyPress keysym=x keycode=53 state=0x0 %s"
      "2600 KeyRelease keysym=x keycode=53 state=0x0 %s",
      page, page, dialog, dialog, dialog, dialog, page, page);
    closed = write_file (f, "closed.session", text);
  }

  g_assert_cmpint (run_xreplay (&out, &err, FAST, "-v", renamed, "--", wish, script, NULL),
                   ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV (5 of 5 actions replayed"));
  g_assert_nonnull (strstr (err, "action 4: window 0 is there under another title, renamed "
                                 "sooner than in the recording"));
  g_assert_null (strstr (err, "waits for window"));
  g_assert_null (strstr (err, "skipped"));

  g_assert_cmpint (run_xreplay (&out2, &err2, FAST, "-v", "--window-wait", "500", closed, "--",
                                wish, script, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out2, "crashed with SIGSEGV (8 of 8 actions replayed"));
  g_assert_nonnull (strstr (err2, "action 5: window 1 was there and the app has closed it, "
                                  "sooner than in the recording: skipped"));
  g_assert_nonnull (strstr (err2, "action 6: window 1 was there and the app has closed it"));
}

/* A keysym with no keycode on the replay server (eacute is on no key of
 * Xvfb's us keymap) is bound to a spare keycode and still arrives; the
 * keymap is put back afterwards. */
static void
test_unmapped_keysym (Fixture *f, gconstpointer data)
{
  g_autofree char *session = write_file (f, "eacute.session",
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"xdemo\"\n"
    "100 MotionNotify state=0x0 root=400,300 pos=300,200 window=0 class=\"XDemo\" title=\"Editor\"\n"
    "200 KeyPress keysym=eacute keycode=201 state=0x0 window=0 class=\"XDemo\" title=\"Editor\"\n"
    "260 KeyRelease keysym=eacute keycode=201 state=0x0 window=0 class=\"XDemo\" title=\"Editor\"\n"
    "300 KeyPress keysym=x keycode=53 state=0x0 window=0 class=\"XDemo\" title=\"Editor\"\n"
    "360 KeyRelease keysym=x keycode=53 state=0x0 window=0 class=\"XDemo\" title=\"Editor\"\n");
  g_autofree char *err = NULL;

  g_assert_cmpint (run_xreplay (NULL, &err, "--verbose", FAST, session, "--", env ("XDEMO"),
                                "--echo-keys", "--bug", "none", NULL), ==, 0);
  /* xdemo's stdout reaches xreplay's stderr with --verbose. */
  g_assert_nonnull (strstr (err, "xdemo: key eacute in Editor"));
  g_assert_nonnull (strstr (err, "xdemo: key x in Editor"));
  g_assert_nonnull (strstr (err, "bound 1 keysyms to spare keycodes"));
}

/* --verbose names each action and the window it went to: a title from the
 * session (whatever a web page chose) reaches the terminal escaped, its
 * escape sequence never raw. */
static void
test_verbose_quoted (Fixture *f, gconstpointer data)
{
  g_autofree char *session = write_file (f, "escape.session",
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"xdemo\"\n"
    "100 MotionNotify state=0x0 root=400,300 pos=300,200 window=0 class=\"XDemo\" "
    "title=\"Editor\\x1b[2J\\x07\"\n"
    "200 KeyPress keysym=x keycode=53 state=0x0 window=0 class=\"XDemo\" "
    "title=\"Editor\\x1b[2J\\x07\"\n"
    "260 KeyRelease keysym=x keycode=53 state=0x0 window=0 class=\"XDemo\" "
    "title=\"Editor\\x1b[2J\\x07\"\n");
  g_autofree char *err = NULL;

  g_assert_cmpint (run_xreplay (NULL, &err, "--verbose", FAST, session, "--", env ("XDEMO"),
                                "--bug", "none", NULL), ==, 0);
  g_assert_nonnull (strstr (err, "[1/3] move to 300,200 in \"Editor\\x1b[2J\\x07\""));
  g_assert_null (strchr (err, '\033'));
  g_assert_null (strchr (err, '\007'));
}

/* A title in another script is printed as it is in a UTF-8 locale (GLib
 * converts what is printed to the locale's character set), and as '?'
 * only where the terminal cannot show it. */
static void
test_list_locale (Fixture *f, gconstpointer data)
{
  g_autofree char *session = write_file (f, "dash.session",
    "xreduce-session 1\nscreen 1280x1024\n"
    "10 KeyPress keysym=a keycode=38 state=0x0 window=0 class=\"X\" "
    "title=\"\xc3\xa9t\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\"\n");
  const struct
  {
    const char *locale;
    const char *want;
  } cases[] = {
    { "C.UTF-8", "  1. Type \"a\" in \"\xc3\xa9t\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\" (action 1)\n" },
    { "C", "  1. Type \"a\" in \"?t? ? ?\" (action 1)\n" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { env ("XREPLAY"), "--list", session, NULL };
      g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", cases[i].locale, TRUE);
      g_autofree char *out = NULL;
      g_autoptr (GError) error = NULL;
      int status = -1;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                   NULL, &out, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 0);
      g_assert_cmpstr (out, ==, cases[i].want);
    }
}

/* A hang is told apart from a pass (xdemo --bug hang loops at Print). */
static void
test_hang (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--timeout", "1000", session, "--",
                                env ("XDEMO"), "--bug", "hang", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "hung"));
}

/* File > Quit, by the menu. */
static const char quit_session[] =
  "xreduce-session 1\n"
  "screen 1280x1024\n"
  "100 MotionNotify state=0x0 root=120,112 pos=20,12 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "300 ButtonPress button=1 state=0x0 root=120,112 pos=20,12 window=0 class=\"XDemo\" "
  "title=\"Editor\"\n"
  "400 ButtonRelease button=1 state=0x100 root=120,112 pos=20,12 window=0 class=\"XDemo\" "
  "title=\"Editor\"\n"
  "700 MotionNotify state=0x0 root=156,198 pos=50,74 window=1 class=\"XDemo\" title=\"File\"\n"
  "900 ButtonPress button=1 state=0x0 root=156,198 pos=50,74 window=1 class=\"XDemo\" "
  "title=\"File\"\n"
  "1000 ButtonRelease button=1 state=0x100 root=156,198 pos=50,74 window=1 class=\"XDemo\" "
  "title=\"File\"\n";

/* A crash on quit: the app closes its display, its windows go, and it
 * crashes a second later in its clean-up, asleep meanwhile (nothing
 * busy). The verdict is its exit, not a pass because no window is left
 * to ping; and an app that quits cleanly exited with status 0. (The same
 * holds, on a loaded machine, for a crash whose windows the server
 * closed a moment before the replay heard of the exit: CI lost a file
 * chooser's crash so.) */
static void
test_crash_on_quit (Fixture *f, gconstpointer data)
{
  g_autofree char *session = write_file (f, "quit.session", quit_session);
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL;

  g_assert_cmpint (run_xreplay (&out, &err, FAST, "-v", session, "--", env ("XDEMO"), "--bug",
                                "quit", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV (6 of 6 actions"));
  g_assert_nonnull (strstr (err, "closed the display"));
  g_assert_cmpint (run_xreplay (&out2, NULL, FAST, session, "--", env ("XDEMO"), "--bug",
                                "none", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out2, "exited with status 0 (6 of 6 actions"));
}

static void
test_json_and_stderr_match (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo-abort.session");
  g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *object;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--json", "--stderr-match", "Assertion .font",
                                session, "--", env ("XDEMO"), "--bug", "abort", NULL), ==, 1);
  object = parse_json (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "crashed");
  g_assert_cmpstr (json_object_get_string_member (object, "signal"), ==, "SIGABRT");
  g_assert_true (json_object_get_boolean_member (object, "stderr_matched"));
  g_assert_cmpint (json_object_get_int_member (object, "time_to_first_window_ms"), >=, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (object, "stderr_tail"),
                            "apply_options: Assertion"));

  /* The same crash, but not the message asked for: not the failure. */
  g_assert_cmpint (run_xreplay (&out2, NULL, FAST, "--stderr-match", "no such message",
                                session, "--", env ("XDEMO"), "--bug", "abort", NULL), ==, 0);
  g_assert_nonnull (strstr (out2, "crashed with SIGABRT, stderr did not match"));

  g_assert_cmpint (run_xreplay (&out3, NULL, FAST, session, "--", env ("XDEMO"), "--bug",
                                "abort", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out3, "crashed with SIGABRT"));
}

static void
test_backtrace (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *object;
  JsonArray *frames;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--json", "--backtrace", session, "--",
                                env ("XDEMO"), NULL), ==, 1);
  object = parse_json (out, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "signal"), ==, "SIGSEGV");
  frames = json_object_get_array_member (object, "backtrace");
  g_assert_cmpuint (json_array_get_length (frames), >=, 2);
  g_assert_cmpstr (json_array_get_string_element (frames, 0), ==, "print_document");
  g_assert_cmpstr (json_array_get_string_element (frames, 1), ==, "do_print");
}

/* The first entry of @dir, or of a folder in it @depth levels down at
 * most, whose name starts with @prefix, or NULL. */
static char *
find_entry_below (const char *dir, const char *prefix, int depth)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  char *found = NULL;

  for (const char *name; found == NULL && d != NULL && (name = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_str_has_prefix (name, prefix))
        found = g_strdup (name);
      else if (depth > 0 && g_file_test (path, G_FILE_TEST_IS_DIR)
               && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        found = find_entry_below (path, prefix, depth - 1);
    }
  return found;
}

static char *
find_entry (const char *dir, const char *prefix)
{
  return find_entry_below (dir, prefix, 0);
}

/* SIGKILL of xreplay --backtrace while its tracer runs the app: its frames file
 * goes with its temporary folder (on main, xreplay-frames-XXXXXX was left
 * in TMPDIR every time), and nothing is left running. (In a sandbox, the
 * frames file is in the sandbox's own TMPDIR, inside TMPDIR.) */
static void
test_backtrace_sigkill (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *tmp = g_build_filename (f->dir, "tmp", NULL);
  g_autofree char *frames = NULL, *left = NULL;
  const char *argv[] = { env ("XREPLAY"), "--backtrace", "--settle", "20000", session, "--",
                         env ("XDEMO"), "--bug", "none", NULL };
  g_auto (GStrv) envp = NULL;
  gint64 deadline;
  int status;
  GPid pid;

  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  envp = g_environ_setenv (g_get_environ (), "TMPDIR", tmp, TRUE);
  pid = test_spawn_quiet (NULL, (const char *const *) argv, envp, 0);
  /* Once the frames file is there (the app starts under its tracer next). */
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while ((frames = find_entry_below (tmp, "xreplay-frames", 3)) == NULL
         && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_nonnull (frames);
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  /* The cleaners remove the folders once their owner is gone. */
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((left = find_entry (tmp, "")) != NULL && g_get_monotonic_time () < deadline)
    {
      g_clear_pointer (&left, g_free);
      g_usleep (20 * 1000);
    }
  g_assert_null (left);
  while (test_orphans_alive (0) > 0 && g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
  g_rmdir (tmp);
}

static void
test_could_not_start (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out1 = NULL, *out2 = NULL, *err1 = NULL;

  g_assert_cmpint (run_xreplay (&out1, &err1, FAST, session, "--", "/nonexistent/app", NULL),
                   ==, 4);
  g_assert_true (g_str_has_prefix (out1, "could not start: "));
  g_assert_nonnull (strstr (out1, "/nonexistent/app"));
  /* --max-screen raises the limit: this one gets as far as its Xvfb. */
  {
    g_autofree char *wide = write_file (f, "wide.session", "xreduce-session 1\nscreen 9000x100\n"
                                        "10 KeyPress keysym=a keycode=38 state=0x0\n");
    g_autofree char *out3 = NULL;

    g_assert_cmpint (run_xreplay (&out3, NULL, "--max-screen", "9000x9000", wide, "--",
                                  "/nonexistent/app", NULL), ==, 4);
  }
  /* Dies before it maps a window. */
  g_assert_cmpint (run_xreplay (&out2, NULL, FAST, session, "--", "false", NULL), ==, 4);
  g_assert_nonnull (strstr (out2, "exited with status 1 before it mapped a window"));
  /* ... saying why on its stderr: its last lines are shown, quoted (an
   * escape sequence of the app's never reaches the terminal). */
  {
    g_autofree char *out4 = NULL, *err4 = NULL;

    g_assert_cmpint (run_xreplay (&out4, &err4, FAST, session, "--", "/bin/sh", "-c",
                                  "echo first >&2; printf 'no module \\033[2J\\n' >&2; exit 1",
                                  NULL), ==, 4);
    g_assert_nonnull (strstr (out4, "exited with status 1 before it mapped a window"));
    g_assert_nonnull (strstr (err4, "xreplay: the app's stderr ends with:\nxreplay:   first\n"
                                    "xreplay:   no module \\x1b[2J\n"));
    g_assert_null (strchr (err4, '\033'));
  }
}

/* An app that never maps a window is told apart from a slow one: idle
 * and never connected to the X server (sleep), it is said at once, not
 * after the start timeout, and --json says never_connected; connected
 * but idle (xprop -spy: an X client with no window) it gets the whole
 * start timeout, as a slow app would. */
static void
test_never_connects (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL, *json = NULL, *spy = NULL, *xprop = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *object;

  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--start-timeout", "600000", session, "--",
                                "sleep", "600", NULL), ==, 4);
  g_assert_nonnull (strstr (out, "could not start: the app did not connect to the X server, "
                                 "and its processes sat idle"));
  g_assert_cmpint (run_xreplay (&json, NULL, "--json", "--start-timeout", "600000", session,
                                "--", "sleep", "600", NULL), ==, 4);
  object = parse_json (json, &parser);
  g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "could-not-start");
  g_assert_true (json_object_get_boolean_member (object, "never_connected"));
  xprop = g_find_program_in_path ("xprop");
  if (xprop == NULL)
    return;
  g_assert_cmpint (run_xreplay (&spy, NULL, FAST, "--start-timeout", "4000", session, "--",
                                "xprop", "-root", "-spy", NULL), ==, 4);
  g_assert_nonnull (strstr (spy, "could not start: the app mapped no window within 4000 ms"));
}

/* --display: on a server the user started (here, ours), left running.
 * Then on the same server as xreduce's workers reuse theirs, once an app
 * killed with the focus in its dialog has left the focus None (GTK's file
 * chooser, RevertToNone; set here by hand): the replay's keys must reach
 * the app all the same (the demo's crash needs Alt+P). */
static void
test_existing_display (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL, *again = NULL;
  TestXvfb x = { 0 };
  Display *dpy;
  Window focus = PointerRoot;
  int revert;

  test_xvfb_start (&x, "1280x1024");
  g_assert_cmpint (run_xreplay (&out, NULL, FAST, "--display", x.display, session, "--",
                                env ("XDEMO"), NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  g_assert_true (test_pid_alive (x.pid));
  g_assert_cmpuint (test_orphans_alive (x.pid), ==, 0);

  dpy = XOpenDisplay (x.display);
  g_assert_nonnull (dpy);
  XSetInputFocus (dpy, None, RevertToNone, CurrentTime);
  XGetInputFocus (dpy, &focus, &revert);
  g_assert_cmpuint (focus, ==, None);
  XCloseDisplay (dpy);
  g_assert_cmpint (run_xreplay (&again, NULL, FAST, "--display", x.display, session, "--",
                                env ("XDEMO"), NULL), ==, 1);
  g_assert_true (g_str_has_prefix (again, "crashed with SIGSEGV"));
  test_xvfb_stop (&x);
}

/* ---- interruption: nothing survives ---- */

/* A pid from xreplay's verbose line "...PREFIX<pid>...". */
static pid_t
pid_after (const char *text, const char *prefix)
{
  const char *p = strstr (text, prefix);

  g_assert_nonnull (p);
  return (pid_t) g_ascii_strtoll (p + strlen (prefix), NULL, 10);
}

static void
test_sigterm_mid_replay (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  const char *argv[] = { env ("XREPLAY"), "--verbose", session, "--", env ("XDEMO"), NULL };
  g_autoptr (GString) err = g_string_new (NULL);
  GPid pid;
  int err_fd, status;
  pid_t app, xvfb;
  FILE *stream;
  char line[1024];
  g_autofree char *fifth = g_strdup_printf ("[5/%u]", DEMO_ACTIONS);

  pid = test_spawn_talking (NULL, (const char *const *) argv, NULL, &err_fd);
  stream = fdopen (err_fd, "r");
  /* Read until the fifth action is injected: the app runs, Xvfb too. */
  while (fgets (line, sizeof line, stream) != NULL)
    {
      g_string_append (err, line);
      if (strstr (line, fifth) != NULL)
        break;
    }
  g_test_message ("xreplay said:\n%s", err->str);
  xvfb = pid_after (err->str, " pid ");
  app = pid_after (err->str, "app pid ");
  g_assert_true (test_pid_alive (xvfb));
  g_assert_true (test_pid_alive (app));

  g_assert_cmpint (kill (pid, SIGTERM), ==, 0);
  while (fgets (line, sizeof line, stream) != NULL)
    g_string_append (err, line);
  fclose (stream);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (err->str, "interrupted by SIGTERM"));
  g_assert_false (test_pid_alive (app));
  g_assert_false (test_pid_alive (xvfb));
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
}

/* ---- reading sessions ---- */

static void
test_list (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *out = NULL, *steps = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) step_lines = NULL;
  guint n;

  /* --list-actions: every action in words, one a line. */
  g_assert_cmpint (run_xreplay (&out, NULL, "--list-actions", session, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, DEMO_ACTIONS + 1);   /* and the empty tail */
  g_assert_cmpstr (lines[0], ==, "move to 628,382 in \"Editor\"");
  g_assert_cmpstr (lines[1], ==, "move to 492,273 in \"Editor\"");
  g_assert_cmpstr (lines[DEMO_ACTIONS - 2], ==, "press button 1 at 84,129 in \"Print\"");
  g_assert_cmpstr (lines[DEMO_ACTIONS - 1], ==, "release button 1 at 84,129 in \"Print\"");

  /* --list: the steps as a person would name them, with their actions,
   * which they cover from the first to the last. */
  g_assert_cmpint (run_xreplay (&steps, NULL, "--list", session, NULL), ==, 0);
  step_lines = g_strsplit (steps, "\n", -1);
  n = g_strv_length (step_lines) - 1;
  g_assert_cmpuint (n, ==, 19);
  g_assert_cmpstr (step_lines[0], ==, "  1. Click at 220,56 in \"Editor\" (actions 1-6)");
  g_assert_cmpstr (step_lines[1], ==, "  2. Type \"Hello world\" in \"Editor\" (actions 7-30)");
  g_assert_cmpstr (step_lines[12], ==, " 13. Press Alt+P in \"Editor\" (actions 66-69)");
  g_assert_cmpstr (step_lines[n - 1], ==, " 19. Click at 84,129 in \"Print\" (actions 85-91)");

  /* The demo session cut in its last line: that line is not read, and
   * xreplay says so. */
  {
    g_autofree char *text = NULL, *cut_out = NULL, *err = NULL, *cut = NULL;
    g_auto (GStrv) cut_lines = NULL;
    gsize len = 0;

    g_assert_true (g_file_get_contents (session, &text, &len, NULL));
    g_assert_cmpint (text[len - 1], ==, '\n');
    /* In the middle of the last action's title ("Print"), without the
     * footer (glx, outcome) after it. */
    g_assert_nonnull (g_strrstr (text, "\nglx "));
    *(g_strrstr (text, "\nglx ") - 3) = '\0';
    cut = write_file (f, "cut.session", text);
    g_assert_cmpint (run_xreplay (&cut_out, &err, "--list-actions", cut, NULL), ==, 0);
    g_assert_nonnull (strstr (err, "xreplay: warning: "));
    g_assert_nonnull (strstr (err, "the last line does not end with a newline (cut short?): "
                                   "ignored"));
    cut_lines = g_strsplit (cut_out, "\n", -1);
    g_assert_cmpuint (g_strv_length (cut_lines), ==, DEMO_ACTIONS);
  }
}

/* A session of 1.5 MiB (mostly a comment's lines) with one key press. */
static char *
large_session (Fixture *f)
{
  GString *text = g_string_new ("xreduce-session 1\nscreen 1280x1024\n");
  g_autofree char *path = NULL;

  while (text->len < 3 * 512 * 1024)
    g_string_append (text, "# a comment line of a long recording, padding.\n");
  g_string_append (text, "10 KeyPress keysym=a keycode=38 state=0x0\n");
  path = write_file (f, "large.session", text->str);
  g_string_free (text, TRUE);
  return g_steal_pointer (&path);
}

/* Every bad input: a clear message and exit status 2, before any X. */
static void
test_bad_input (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *bad = write_file (f, "bad.session",
                                     "xreduce-session 1\nscreen 1280x1024\n"
                                     "100 KeyPres keysym=a keycode=38 state=0x0\n");
  g_autofree char *newer = write_file (f, "newer.session", "xreduce-session 99\nscreen 10x10\n");
  g_autofree char *empty = write_file (f, "empty.session", "");
  g_autofree char *no_command = write_file (f, "nocmd.session",
                                            "xreduce-session 1\nscreen 1280x1024\n");
  g_autofree char *mark = g_build_filename (f->dir, "pwned", NULL);
  g_autofree char *evil_text = g_strdup_printf (
    "xreduce-session 1\nscreen 1280x1024\ncommand \"sh\" \"-c\" \"touch %s\"\n"
    "10 KeyPress keysym=a keycode=38 state=0x0\n", mark);
  g_autofree char *evil = write_file (f, "evil.session", evil_text);
  g_autofree char *fifo = g_build_filename (f->dir, "fifo.session", NULL);
  g_autofree char *big = write_file (f, "big.session", "xreduce-session 1\nscreen 16384x16384\n"
                                     "10 KeyPress keysym=a keycode=38 state=0x0\n");
  g_autofree char *large = large_session (f);
  const struct
  {
    const char *args[6];
    const char *message;
  } cases[] = {
    { { "/nonexistent/session.log", NULL }, "/nonexistent/session.log" },
    { { bad, NULL }, "bad.session:3: unknown event 'KeyPres'" },
    { { newer, NULL }, "newer.session" },
    { { empty, NULL }, "empty.session" },
    { { no_command, NULL }, "records no command: give the app after '--'" },
    /* Never waited for, never read without end. */
    { { fifo, "--", "xdemo", NULL }, "fifo.session: not a regular file" },
    { { "/dev/zero", "--", "xdemo", NULL }, "/dev/zero: not a regular file" },
    /* A recorded command is shown, not run, unless asked for. */
    { { evil, NULL }, "evil.session records the command 'sh' '-c' 'touch " },
    { { evil, NULL }, "(it has arguments): a session may come from anyone, so it is not run "
                      "unasked; give the app after '--', or --run-recorded-command" },
    { { session, NULL }, "records the command 'xdemo' (no such program in PATH)" },
    /* A screen that would take gigabytes of Xvfb, refused before any. */
    { { big, "--", "xdemo", NULL }, "big.session: its screen is 16384x16384, larger than the "
                                    "limit 8192x8192 (each replay's Xvfb would take 1024 MiB "
                                    "for it): --max-screen 16384x16384 replays it" },
    { { "--max-screen", "100", session, NULL }, "--max-screen: '100' is not a size WxH" },
    /* A file over the size limit is refused from its size, before it is
     * read; the message says how to raise the limit. */
    { { "--max-session-size", "1", large, "--", "xdemo", NULL },
      "large.session: 1572932 bytes is too large for a session log (at most 1 MiB): "
      "--max-session-size 2 reads it" },
    { { "--max-session-size", "0", session, NULL },
      "--max-session-size: '0' is not a whole number of MiB (1 to 1024)" },
    { { "--max-session-size", "2048", session, NULL }, "--max-session-size: '2048' is not" },
    { { "--max-session-size", "1M", session, NULL }, "--max-session-size: '1M' is not" },
    { { "--run-recorded-command", session, "--", "xdemo", NULL },
      "--run-recorded-command and '-- APP' exclude each other" },
    { { NULL }, "no session file given" },
    { { session, session, NULL }, "more than one session file given" },
    { { "--speed", "0", session, NULL }, "--speed: '0' is not a factor" },
    { { "--speed", "fast", session, NULL }, "--speed: 'fast' is not a factor" },
    { { "--settle", "-5", session, NULL }, "--settle: '-5' is not a number of milliseconds" },
    { { "--timeout", "1e9", session, NULL }, "--timeout: '1e9' is not a number" },
    { { "--stderr-match", "(", session, NULL }, "--stderr-match:" },
    { { "--display", "", session, NULL }, "--display: empty display name" },
    { { "--export", "yaml", session, NULL }, "--export: unknown format 'yaml'" },
    { { "--no-such-option", session, NULL }, "Unknown option --no-such-option" },
    { { session, "--", NULL }, "nothing after '--'" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_test_message ("case %zu: expecting '%s'", i, cases[i].message);
      g_assert_cmpint (run_xreplay_argv (&out, &err, cases[i].args), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_true (g_str_has_prefix (err, "xreplay: "));
      g_assert_nonnull (strstr (err, cases[i].message));
      /* Said in one line (the usage errors add the usage). */
      if (strstr (err, "Usage:") == NULL && strstr (err, "Try 'xreplay --help'") == NULL)
        g_assert_null (strchr (g_strstrip (err), '\n'));
    }
  g_assert_false (g_file_test (mark, G_FILE_TEST_EXISTS));

  /* The raised limit reads it. */
  {
    g_autofree char *out = NULL;

    g_assert_cmpint (run_xreplay (&out, NULL, "--max-session-size", "2", "--list-actions",
                                  large, NULL), ==, 0);
    g_assert_cmpstr (out, ==, "press a\n");
  }
}

/* The recorded command runs unasked when it is a plain program name
 * found in PATH (here xdemo, with its folder in PATH), and any command
 * with --run-recorded-command: a shell that kills itself, which the
 * replay sees (it can leave no mark in our folders from its sandbox). */
static void
test_recorded_command (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  g_autofree char *apps = g_path_get_dirname (env ("XDEMO"));
  g_autofree char *path = g_strdup_printf ("%s:%s", apps, g_getenv ("PATH"));
  const char *text =
    "xreduce-session 1\nscreen 1280x1024\ncommand \"sh\" \"-c\" \"kill -SEGV $$\"\n"
    "10 KeyPress keysym=a keycode=38 state=0x0\n";
  g_autofree char *asked = write_file (f, "asked.session", text);
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  const char *argv[] = { env ("XREPLAY"), FAST, session, NULL };
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "PATH", path, TRUE);
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("xreplay said: %s%s", out, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "running the recorded command: 'xdemo'"));
  g_assert_nonnull (strstr (out, "crashed with SIGSEGV"));

  /* Asked for: it runs (and dies before any window: exit 4). */
  g_assert_cmpint (run_xreplay (&out2, &err2, FAST, "--run-recorded-command", asked, NULL),
                   ==, 4);
  g_assert_nonnull (strstr (err2, "running the recorded command: 'sh' '-c' 'kill -SEGV $$'"));
  g_assert_nonnull (strstr (out2, "crashed with SIGSEGV before it mapped a window"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
  /* Whatever xreplay leaves running becomes ours, to be seen. */
  test_become_subreaper ();
#define ADD(path, fn) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/replay/bad-input", test_bad_input);
  ADD ("/replay/recorded-command", test_recorded_command);
  ADD ("/replay/list", test_list);
  ADD ("/replay/list-locale", test_list_locale);
  ADD ("/replay/crash-20-of-20", test_crash_every_time);
  ADD ("/replay/without-trigger-passes", test_without_trigger_passes);
  ADD ("/replay/glx-not-asked", test_glx_not_asked);
  ADD ("/replay/busy-child", test_busy_child);
  ADD ("/replay/busy-sibling", test_busy_sibling);
  ADD ("/replay/moved-window", test_moved_window);
  ADD ("/replay/wide-screen", test_wide_screen);
  ADD ("/replay/wm", test_wm);
  ADD ("/replay/missing-window", test_missing_window);
  ADD ("/replay/window-sooner", test_window_sooner);
  ADD ("/replay/window-on-its-way", test_window_on_its_way);
  ADD ("/replay/unmapped-keysym", test_unmapped_keysym);
  ADD ("/replay/verbose-quoted", test_verbose_quoted);
  ADD ("/replay/hang", test_hang);
  ADD ("/replay/crash-on-quit", test_crash_on_quit);
  ADD ("/replay/json-and-stderr-match", test_json_and_stderr_match);
  ADD ("/replay/backtrace", test_backtrace);
  ADD ("/replay/backtrace-sigkill", test_backtrace_sigkill);
  ADD ("/replay/could-not-start", test_could_not_start);
  ADD ("/replay/never-connects", test_never_connects);
  ADD ("/replay/existing-display", test_existing_display);
  ADD ("/replay/sigterm-mid-replay", test_sigterm_mid_replay);
  return g_test_run ();
}
