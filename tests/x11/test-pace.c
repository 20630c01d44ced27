/* test-pace.c — replay at the app's pace (replayer/pace.c), on
 * tests/apps/xpace, whose bugs depend on timing.
 *
 * The sessions are written here at a person's pace (keys 60 ms apart),
 * and the app works 300 ms after a click before it focuses its text
 * field, longer than the recorded gaps:
 *   - late focus: at the app's pace the keys reach the field and "go",
 *     Return crash it, 10 of 10; at the recorded pace they are lost;
 *   - a double click still is one at the app's pace (its gaps keep), though
 *     the app works after each press;
 *   - a long press still is one (its hold keeps), and a key held for its
 *     auto-repeat keeps its repeats' rhythm without a wait for each;
 *   - an app without _NET_WM_PING is paced by its going idle (whether it
 *     works or sleeps in its handler), a run of typed keys waiting once,
 *     and the result says so;
 *   - motion inside one window does not wait for the app, one that enters
 *     another window does: a crash that needs a hover still happens;
 *   - a race only a quick person wins (a second click while the app works)
 *     fails only at the recorded pace: xreduce finds that, says so, and
 *     reduces at the recorded pace.
 * Each replay starts its own Xvfb (xreplay without --display); the test
 * synchronises on xreplay's end and reads its JSON.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = test_make_tmp ("test-pace-XXXXXX");
  g_assert_nonnull (f->dir);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
}

/* One user action on xpace's window at @x,@y (window-relative). */
static void
action (GString *s, guint t, const char *what, int x, int y, guint state)
{
  g_string_append_printf (s, "%u %s state=0x%x root=%d,%d pos=%d,%d window=0 "
                          "class=\"XPace\" title=\"Pace\"\n", t, what, state, x + 100, y + 100,
                          x, y);
}

static char *
write_session (Fixture *f, const char *name, const GString *actions, const char *outcome)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("xreduce-session 1\nscreen 1280x1024\n"
                                           "command \"xpace\"\nkeymap \"us\"\n%soutcome %s\n",
                                           actions->str, outcome);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

/* "go" and Return typed into the field from @t on (60 ms from one key to
 * the next, held 40 ms): the time of the last release. */
static guint
type_go (GString *s, guint t)
{
  const char *keys[] = { "g keycode=42", "o keycode=32", "Return keycode=36" };

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *press = g_strdup_printf ("KeyPress keysym=%s", keys[i]);
      g_autofree char *release = g_strdup_printf ("KeyRelease keysym=%s", keys[i]);

      action (s, t += 60, press, 100, 35, 0);
      action (s, t += 40, release, 100, 35, 0);
    }
  return t;
}

/* A click on the field, "go" and Return, 60 ms apart. */
static char *
late_focus_session (Fixture *f)
{
  g_autoptr (GString) s = g_string_new (NULL);
  guint t = 500;

  action (s, t, "MotionNotify", 100, 35, 0);
  action (s, t += 200, "ButtonPress button=1", 100, 35, 0);
  action (s, t += 60, "ButtonRelease button=1", 100, 35, 0x100);
  t = type_go (s, t);
  return write_session (f, "late-focus.session", s, "crashed SIGSEGV");
}

/* xreplay --json [--pace PACE] SESSION -- xpace --busy 300 [APP_ARG]:
 * the outcome and signal; the whole object in *@json if asked. */
static char *
replay_busy2 (const char *session, const char *pace, const char *busy, const char *app_arg,
              const char *app_arg2, int *signal, JsonParser **json)
{
  const char *argv[] = { env ("XREPLAY"), "--json", "--pace", pace, session, "--",
                         env ("XPACE"), "--busy", busy, app_arg, app_arg2, NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object;

  test_run_sync_status ((const char *const *) argv, NULL, G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("%s", out);
  object = test_json_object (parser, out);
  *signal = (int) json_object_get_int_member_with_default (object, "signal_number", 0);
  if (json_object_get_null_member (object, "signal_number"))
    *signal = 0;
  if (json != NULL)
    *json = g_object_ref (parser);
  return g_strdup (json_object_get_string_member (object, "outcome"));
}

static char *
replay_busy (const char *session, const char *pace, const char *busy, const char *app_arg,
             int *signal, JsonParser **json)
{
  return replay_busy2 (session, pace, busy, app_arg, NULL, signal, json);
}

static char *
replay (const char *session, const char *pace, const char *app_arg, int *signal,
        JsonParser **json)
{
  return replay_busy (session, pace, "300", app_arg, signal, json);
}

static void
test_late_focus (Fixture *f, gconstpointer data)
{
  g_autofree char *session = late_focus_session (f);

  for (int i = 0; i < 10; i++)
    {
      int signal = 0;
      g_autoptr (JsonParser) json = NULL;
      g_autofree char *outcome = replay (session, "app", NULL, &signal, &json);
      JsonObject *object = json_node_get_object (json_parser_get_root (json));

      g_assert_cmpstr (outcome, ==, "crashed");
      g_assert_cmpint (signal, ==, SIGSEGV);
      g_assert_cmpstr (json_object_get_string_member (object, "pace"), ==, "app");
      /* It waited for the app's work after the click. */
      g_assert_cmpint (json_object_get_int_member (object, "app_wait_max_ms"), >=, 250);
    }
  for (int i = 0; i < 3; i++)
    {
      int signal = 0;
      g_autofree char *outcome = replay (session, "recorded", NULL, &signal, NULL);

      /* The keys came before the focus: lost. */
      g_assert_cmpstr (outcome, ==, "passed");
    }
  {
    /* The session says nothing of the app's windows (no CreateNotify,
     * no MapNotify): no action waits for a window to close (a count of
     * none would keep every action waiting its whole recorded gap). */
    const char *argv[] = { env ("XREPLAY"), "-v", session, "--", env ("XPACE"), "--busy", "300",
                           NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status;

    status = test_run_sync_status ((const char *const *) argv, NULL, G_SPAWN_DEFAULT, &out, &err);
    g_test_message ("%s", err);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
    g_assert_null (strstr (err, "its windows are not yet as recorded"));
  }
}

static void
test_double_click (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL;
  guint t = 500;

  action (s, t, "MotionNotify", 300, 35, 0);
  action (s, t += 200, "ButtonPress button=1", 300, 35, 0);
  action (s, t += 70, "ButtonRelease button=1", 300, 35, 0x100);
  action (s, t += 90, "ButtonPress button=1", 300, 35, 0);
  action (s, t += 70, "ButtonRelease button=1", 300, 35, 0x100);
  session = write_session (f, "double.session", s, "crashed SIGABRT");
  for (int i = 0; i < 3; i++)
    {
      int signal = 0;
      g_autofree char *outcome = replay (session, "app", NULL, &signal, NULL);

      g_assert_cmpstr (outcome, ==, "crashed");
      g_assert_cmpint (signal, ==, SIGABRT);
    }
}

static void
test_long_press (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL;
  guint t = 500;

  action (s, t, "MotionNotify", 60, 115, 0);
  action (s, t += 200, "ButtonPress button=1", 60, 115, 0);
  action (s, t += 1000, "ButtonRelease button=1", 60, 115, 0x100);
  session = write_session (f, "hold.session", s, "crashed SIGFPE");
  for (int i = 0; i < 3; i++)
    {
      int signal = 0;
      g_autofree char *outcome = replay (session, "app", NULL, &signal, NULL);

      g_assert_cmpstr (outcome, ==, "crashed");
      g_assert_cmpint (signal, ==, SIGFPE);
    }
}

/* An app without _NET_WM_PING is paced by its going idle: the keys wait
 * for the app's work after the click, whether it works (a busy loop) or
 * waits in its handler (a sleep), 10 of 10 each; the keys typed after
 * it do not wait one by one. At the recorded pace they are lost. */
static void
test_no_ping (Fixture *f, gconstpointer data)
{
  g_autofree char *session = late_focus_session (f);
  const char *works[] = { NULL, "--sleep" };

  for (gsize w = 0; w < G_N_ELEMENTS (works); w++)
    for (int i = 0; i < 10; i++)
      {
        g_autoptr (JsonParser) json = NULL;
        int signal = 0;
        g_autofree char *outcome = replay_busy2 (session, "app", "300", "--no-ping", works[w],
                                                 &signal, &json);
        JsonObject *object = json_node_get_object (json_parser_get_root (json));

        g_assert_cmpstr (outcome, ==, "crashed");
        g_assert_cmpint (signal, ==, SIGSEGV);
        g_assert_cmpstr (json_object_get_string_member (object, "pace"), ==, "app");
        g_assert_nonnull (strstr (json_object_get_string_member (object, "pace_detail"),
                                  "_NET_WM_PING"));
        g_assert_nonnull (strstr (json_object_get_string_member (object, "pace_detail"),
                                  "idle"));
        /* It waited for the app's work after the click... */
        g_assert_cmpint (json_object_get_int_member (object, "app_wait_max_ms"), >=, 250);
        /* ... and not after each of the six key events typed in a run:
         * after the motion, the press, the release and the first key. */
        g_assert_cmpint (json_object_get_int_member (object, "app_waits"), ==, 4);
      }
  for (int i = 0; i < 3; i++)
    {
      int signal = 0;
      g_autofree char *outcome = replay_busy2 (session, "recorded", "300", "--no-ping", NULL,
                                               &signal, NULL);

      /* At the recorded pace the keys are lost, as above. */
      g_assert_cmpstr (outcome, ==, "passed");
    }
}

/* A key held for its auto-repeat (Right, which the app ignores: 20
 * repeats 33 ms apart after 500 ms, as a server repeats) before "go" and
 * Return: the repeats and their release keep their rhythm and do not wait
 * for the app each; every other action waits, as at the app's pace. */
static void
test_held_key (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL;
  guint t = 500, hold_start;

  action (s, t, "MotionNotify", 100, 35, 0);
  action (s, t += 200, "ButtonPress button=1", 100, 35, 0);
  action (s, t += 60, "ButtonRelease button=1", 100, 35, 0x100);
  action (s, t += 400, "KeyPress keysym=Right keycode=114", 100, 35, 0);
  hold_start = t;
  t += 500;
  for (int i = 0; i < 20; i++, t += 33)
    action (s, t, "KeyPress keysym=Right keycode=114", 100, 35, 0);
  action (s, t, "KeyRelease keysym=Right keycode=114", 100, 35, 0);
  t = type_go (s, t);
  session = write_session (f, "held.session", s, "crashed SIGSEGV");
  for (int i = 0; i < 3; i++)
    {
      g_autoptr (JsonParser) json = NULL;
      int signal = 0;
      g_autofree char *outcome = replay (session, "app", NULL, &signal, &json);
      JsonObject *object = json_node_get_object (json_parser_get_root (json));

      g_assert_cmpstr (outcome, ==, "crashed");
      g_assert_cmpint (signal, ==, SIGSEGV);
      /* The motion, the press, the release, Right's first press, then
       * g, o and Return's presses and releases: 10 of 31 actions. */
      g_assert_cmpint (json_object_get_int_member (object, "app_waits"), ==, 10);
      /* The hold lasted as recorded (the gaps are waited, not skipped). */
      g_assert_cmpint (json_object_get_int_member (object, "replay_ms"), >=,
                       (gint64) (t - hold_start) - 300);
    }
}

/* Two clicks on "race" 500 ms apart (no double click) while the app works
 * 800 ms after each, after some typing that does not matter. */
static void
test_race_recorded_only (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL, *out_path = g_build_filename (f->dir, "race.min", NULL);
  g_autofree char *report = NULL, *md = NULL, *out = NULL, *err = NULL;
  const char *argv[] = { env ("XREDUCE"), "--max-gap", "600", "--settle", "300", "-o",
                         out_path, NULL, "--", env ("XPACE"), "--busy", "800", NULL };
  int signal = 0, status = -1;
  guint t = 500;

  action (s, t, "MotionNotify", 60, 115, 0);
  action (s, t += 100, "KeyPress keysym=a keycode=38", 60, 115, 0);
  action (s, t += 60, "KeyRelease keysym=a keycode=38", 60, 115, 0);
  action (s, t += 100, "MotionNotify", 300, 115, 0);
  action (s, t += 200, "ButtonPress button=1", 300, 115, 0);
  action (s, t += 60, "ButtonRelease button=1", 300, 115, 0x100);
  action (s, t += 500, "ButtonPress button=1", 300, 115, 0);
  action (s, t += 60, "ButtonRelease button=1", 300, 115, 0x100);
  session = write_session (f, "race.session", s, "crashed SIGBUS");

  {
    g_autofree char *a = replay_busy (session, "app", "800", NULL, &signal, NULL);
    g_autofree char *r = replay_busy (session, "recorded", "800", NULL, &signal, NULL);

    g_assert_cmpstr (a, ==, "passed");
    g_assert_cmpstr (r, ==, "crashed");
    g_assert_cmpint (signal, ==, SIGBUS);
  }
  argv[7] = session;
  status = test_run_sync_status ((const char *const *) argv, NULL, G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("xreduce said:\n%s%s", out, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (err, "does not fail at the app's pace"));
  g_assert_nonnull (strstr (err, "fails at the recorded pace only"));
  /* The two clicks stay; the key goes (in the minimal session's actions,
   * and in the steps xreduce prints). */
  {
    g_autofree char *words = test_actions_in_words (out_path);

    g_test_message ("minimal session:\n%s", words);
    g_assert_nonnull (strstr (words, "press button 1 at 300,115"));
    g_assert_null (strstr (words, "press a"));
    g_assert_nonnull (strstr (out, "Click at 300,115"));
    g_assert_null (strstr (out, "Type"));
  }
  report = g_strconcat (out_path, ".report/report.md", NULL);
  g_assert_true (g_file_get_contents (report, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, "- Pace: recorded"));
}

/* Motion the app has no work for does not wait for it (issue #24): 20
 * motions across the window, one into "hover", 20 on to "fire", a click
 * there. Each motion inside one window goes on at once; the one that
 * enters "hover" waits until the app has taken it (it works 300 ms, then
 * arms if the pointer is still there), so the click on "fire" crashes
 * it, every time, though the replay waits for the app after a handful of
 * the 43 actions (app_waits in the JSON), not after each. */
static void
test_motion_run (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL;
  guint t = 500;

  for (int i = 0; i < 20; i++)
    action (s, t += 10, "MotionNotify", 30 + 5 * i, 70, 0);
  action (s, t += 10, "MotionNotify", 200, 165, 0);
  for (int i = 0; i < 20; i++)
    action (s, t += 10, "MotionNotify", 262 + 2 * i, 165, 0);
  action (s, t += 100, "ButtonPress button=1", 300, 165, 0);
  action (s, t += 60, "ButtonRelease button=1", 300, 165, 0x100);
  session = write_session (f, "hover.session", s, "crashed SIGILL");

  for (int run = 0; run < 3; run++)
    {
      g_autoptr (JsonParser) json = NULL;
      int signal = 0;
      g_autofree char *outcome = replay (session, "app", NULL, &signal, &json);
      JsonObject *object = json_node_get_object (json_parser_get_root (json));
      gint64 waits = json_object_get_int_member (object, "app_waits");

      g_assert_cmpstr (outcome, ==, "crashed");
      g_assert_cmpint (signal, ==, SIGILL);
      /* It dies on the press: the release is never replayed. */
      g_assert_cmpint (json_object_get_int_member (object, "actions_replayed"), ==, 42);
      /* Before the first action, after entering and leaving "hover", after
       * the last motion, after the press: no more. */
      g_test_message ("waited for the app after %" G_GINT64_FORMAT " of 43 actions", waits);
      g_assert_cmpint (waits, >=, 4);
      g_assert_cmpint (waits, <=, 6);
    }
}

/* An app with a helper process that has no X connection and whose main
 * thread idles in a lock (a browser's renderers: Chromium's message pump
 * waits in a futex), with 2 s between the recorded actions: the helper is
 * not the app in the middle of work, so no action waits out its recorded
 * gap. And a key's release recorded in a window of another title (a page
 * that loaded between press and release) goes to the focus at once: it
 * does not wait for that window. */
static void
test_helper_in_lock (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *session = NULL;
  const char *const argv[] = {
    env ("XREPLAY"), "-v", NULL, "--", "/bin/sh", "-c",
    "/usr/bin/python3 -c 'import threading; l = threading.Lock(); l.acquire(); l.acquire()' & "
    "exec \"$0\" --busy 0", env ("XPACE"), NULL };
  g_autofree char *out = NULL, *err = NULL;
  guint t = 500;
  int status;

  action (s, t, "MotionNotify", 100, 35, 0);
  action (s, t += 2000, "ButtonPress button=1", 100, 35, 0);
  action (s, t += 60, "ButtonRelease button=1", 100, 35, 0x100);
  action (s, t += 2000, "KeyPress keysym=g keycode=42", 100, 35, 0);
  g_string_append_printf (s, "%u KeyRelease keysym=g keycode=42 state=0x0 root=200,135 "
                          "pos=100,35 window=0 class=\"XPace\" title=\"Pace: a new page\"\n",
                          t += 40);
  action (s, t += 2000, "KeyPress keysym=o keycode=32", 100, 35, 0);
  action (s, t += 40, "KeyRelease keysym=o keycode=32", 100, 35, 0);
  action (s, t += 2000, "KeyPress keysym=Return keycode=36", 100, 35, 0);
  session = write_session (f, "helper.session", s, "crashed SIGSEGV");
  ((const char **) argv)[2] = session;
  status = test_run_sync_status (argv, NULL, G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("%s", err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  g_assert_null (strstr (err, "are at work"));
  g_assert_null (strstr (err, "the recorded gap is over"));
  g_assert_null (strstr (err, "action 5 waits for window"));
}

/* A Tk app (wish: Debian's Tcl 8.6 is threaded: its main thread waits on
 * a condition variable that its notifier thread, in select on the X
 * connection, signals) with 2 s between the recorded actions: once it has
 * answered, it is idle, not in the middle of work, so no action waits out
 * its recorded gap (each did before: a Tk reduction cost the user's own
 * time per test). */
static void
test_tk_idle (Fixture *f, gconstpointer data)
{
  g_autofree char *wish = g_find_program_in_path ("wish");
  g_autofree char *script = g_build_filename (f->dir, "idle.tcl", NULL);
  g_autofree char *session = g_build_filename (f->dir, "tk.session", NULL);
  g_autoptr (GString) s = g_string_new ("xreduce-session 1\nscreen 1280x1024\n"
                                        "command \"wish\"\nkeymap \"us\"\n");
  const char *where = "root=150,50 pos=150,50 window=0 class=\"Idle.tcl\" title=\"Idle\"\n";
  const char *argv[] = { env ("XREPLAY"), "-v", session, "--", wish, script, NULL };
  g_autofree char *out = NULL, *err = NULL;
  guint t = 500;
  int status;

  if (wish == NULL)
    {
      g_test_skip ("Tk (wish) is not installed (Debian: tk)");
      return;
    }
  g_assert_true (g_file_set_contents (script,
    "wm title . Idle\nwm geometry . 300x200+0+0\n"
    "button .b -text Nothing -command { set ::n 1 }\n"
    "place .b -x 0 -y 0 -width 300 -height 100\n"
    "bind . <Key-x> { exec kill -SEGV [pid] }\n", -1, NULL));
  for (int i = 0; i < 3; i++)
    {
      g_string_append_printf (s, "%u ButtonPress button=1 state=0x0 %s", t += 2000, where);
      g_string_append_printf (s, "%u ButtonRelease button=1 state=0x100 %s", t += 80, where);
    }
  g_string_append_printf (s, "%u KeyPress keysym=x keycode=53 state=0x0 %s", t += 2000, where);
  g_string_append_printf (s, "%u KeyRelease keysym=x keycode=53 state=0x0 %s", t += 40, where);
  g_string_append (s, "outcome crashed SIGSEGV\n");
  g_assert_true (g_file_set_contents (session, s->str, -1, NULL));
  status = test_run_sync_status (argv, NULL, G_SPAWN_DEFAULT, &out, &err);
  g_test_message ("%s", err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV (8 of 8 actions replayed"));
  g_assert_null (strstr (err, "are at work"));
  g_assert_null (strstr (err, "the recorded gap is over"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
#define ADD(path, fn) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/pace/late-focus", test_late_focus);
  ADD ("/pace/double-click", test_double_click);
  ADD ("/pace/long-press", test_long_press);
  ADD ("/pace/no-ping", test_no_ping);
  ADD ("/pace/held-key", test_held_key);
  ADD ("/pace/race-recorded-only", test_race_recorded_only);
  ADD ("/pace/motion-run", test_motion_run);
  ADD ("/pace/helper-in-lock", test_helper_in_lock);
  ADD ("/pace/tk-idle", test_tk_idle);
  return g_test_run ();
}
