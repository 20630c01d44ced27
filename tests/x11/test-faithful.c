/* test-faithful.c — never a crash the user did not have (issue #31):
 * real recordings, made with `xrecord --display` on the test's own Xvfb
 * while xdotool acts as a person would, replayed and reduced.
 *
 *   /faithful/double-click   three slow clicks on an app that crashes on
 *                            a double click pass 10 of 10 replays; a real
 *                            double click crashes it 10 of 10;
 *   /faithful/starved-double-click
 *                            the double click's replay stopped (SIGSTOP)
 *                            for 600 ms as the X server makes its first
 *                            press, as a loaded machine may starve it:
 *                            still a double click, 3 of 3;
 *   /faithful/timer          a dialog that arms its OK two seconds after it
 *                            opened, clicked after three: 5 of 5 with the
 *                            defaults, and xreduce's result replays with the
 *                            command it prints;
 *   /faithful/chooser        a GTK file chooser: "cra", Return, Return once
 *                            the folder shows, the file present: 5 of 5;
 *   /faithful/fallback       a failure only with gaps longer than recorded:
 *                            xreduce falls back to the recorded gaps, then
 *                            twice as long, and the result says so;
 *   /faithful/headerbar/WM   a GtkHeaderBar app recorded under a compositing
 *                            window manager (xfwm4, metacity) replays 5 of 5
 *                            on the bare Xvfb and 5 of 5 under --wm (the
 *                            compositor's overlay is not the app's window),
 *                            and reduces right;
 *   /faithful/headerbar/bare recorded on the bare Xvfb, it replays 5 of 5
 *                            under --wm metacity and --wm xfwm4 with its
 *                            compositor;
 *   /faithful/keymap         the keymap line says the layout the keys have,
 *                            whatever the server's names say;
 *   /faithful/slow-crash     an app whose crash comes 1 to 5 units of CPU
 *                            (200 ms each) after its click, reduced at -j 6
 *                            on a loaded core, finds a minimal session: a
 *                            settle of three times the slowest crash finds
 *                            it still fails and that nothing more can go.
 *
 * Synchronisation: xrecord says when it records; every window is awaited
 * on the test's own X events (MapNotify on the root); a replay is stopped
 * at the press RECORD says the server made, and is known stopped by its
 * process state (waitpid WUNTRACED). A person's pauses (reading a
 * dialog, the list of a folder showing) and a replay's starvation are the
 * subject, not waits for the program. Replays of one case run at once, a
 * few at a time. Programs come from the environment (XRECORD, XREPLAY,
 * XREDUCE, XSLOW, XREDUCE_SRCDIR). Start reading at record_start().
 */
#define _GNU_SOURCE   /* sched_getaffinity() */
#include <errno.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/record.h>

#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-x.h"
#include "xtest-xvfb.h"

#define WAIT_MS 60000
/* Replays of one case at once. */
#define AT_ONCE 5

typedef struct
{
  TestXvfb xvfb;
  Display *dpy;              /* the test's own connection: the X events */
  char *dir, *log;
  char **envp;               /* DISPLAY: the fixture's */
  GPid wm;                   /* a window manager, or 0 */
  GPid xrecord;
  int xrecord_err;
  GString *err;              /* what xrecord said */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = test_x_open (f->xvfb.display, test_x_error_but_bad_window);
  f->dir = test_make_tmp ("test-faithful-XXXXXX");
  f->log = g_build_filename (f->dir, "session.log", NULL);
  f->envp = test_x_app_environ (f->xvfb.display);
  f->err = g_string_new (NULL);
  f->xrecord_err = -1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_talking (&f->xrecord, &f->xrecord_err);
  if (f->wm > 0)
    {
      kill (-f->wm, SIGKILL);
      waitpid (f->wm, NULL, 0);
    }
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->log);
  g_strfreev (f->envp);
  g_string_free (f->err, TRUE);
}

/* Does `/usr/bin/python3 -c CODE` succeed? */
static gboolean
have_gtk (Fixture *f)
{
  const char *const argv[] = { "/usr/bin/python3", "-c",
                               "import gi; gi.require_version('Gtk', '3.0'); "
                               "from gi.repository import Gtk", NULL };
  int status = -1;

  return g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE)
         && g_spawn_sync (NULL, (char **) argv, f->envp,
                          G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                          NULL, NULL, &status, NULL)
         && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* ---- the X events ---- */

/* The window named @title: mapped already, or the next one mapped. */
static Window
wait_window (Fixture *f, const char *title)
{
  return test_x_wait_window (f->dpy, title, 3, WAIT_MS, f->err);
}

/* ---- xrecord ---- */

/* xrecord --display (the fixture's) -o LOG -- @app..., until it records
 * and the app has a window. @envp: the app's environment, or NULL. */
static void G_GNUC_NULL_TERMINATED
record_start (Fixture *f, char **envp, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (argv, (char *) env ("XRECORD"));
  g_ptr_array_add (argv, (char *) "--display");
  g_ptr_array_add (argv, f->xvfb.display);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, f->log);
  g_ptr_array_add (argv, (char *) "--");
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  f->xrecord = test_spawn_talking (NULL, (const char *const *) argv->pdata,
                                  envp != NULL ? envp : f->envp, &f->xrecord_err);
  test_wait_line (f->xrecord_err, f->err, "xrecord: recording ", WAIT_MS);
}

/* Waits for xrecord's end (the app crashed, or SIGINT after the actions
 * were done: every event the server had is written); the outcome. */
static SessionOutcome
record_end (Fixture *f, gboolean interrupt)
{
  g_autoptr (Session) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *words = NULL;
  int status;

  if (interrupt)
    {
      XSync (f->dpy, False);
      kill (f->xrecord, SIGINT);
    }
  status = test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
  close (f->xrecord_err);
  f->xrecord_err = -1;
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, interrupt ? 130 : 0);
  session = session_load (f->log, &error);
  g_assert_no_error (error);
  words = test_actions_in_words (f->log);
  g_test_message ("recorded %u actions:\n%s", session_get_n_actions (session), words);
  return session_get_outcome (session);
}

/* ---- replays ---- */

/* Runs @argv (NULL-terminated) @n times, AT_ONCE at a time; counts the
 * runs that exited @want_status with stdout starting @want_said. What a
 * run that did not said on stderr is logged (with -v in @argv, why). */
static guint
run_many (const char *const *argv, guint n, int want_status, const char *want_said)
{
  guint good = 0;

  for (guint done = 0; done < n;)
    {
      GPid pids[AT_ONCE];
      int outs[AT_ONCE], errs[AT_ONCE];
      guint batch = MIN (AT_ONCE, n - done);

      for (guint i = 0; i < batch; i++)
        {
          g_autoptr (GError) error = NULL;
          g_autofree char *path = NULL;
          int out[2];

          /* stderr to a file of its own: read once the run is over. */
          errs[i] = g_file_open_tmp ("run-many-XXXXXX", &path, &error);
          g_assert_no_error (error);
          g_unlink (path);
          g_assert_true (g_unix_open_pipe (out, FD_CLOEXEC, &error));
          g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                                                 G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                                 &pids[i], -1, out[1], errs[i], &error));
          g_assert_no_error (error);
          close (out[1]);
          outs[i] = out[0];
        }
      for (guint i = 0; i < batch; i++)
        {
          g_autoptr (GString) said = g_string_new (NULL);
          int status = test_wait_said (&pids[i], outs[i], said, 10 * WAIT_MS);

          close (outs[i]);
          if (WIFEXITED (status) && WEXITSTATUS (status) == want_status
              && g_str_has_prefix (said->str, want_said))
            good++;
          else
            {
              g_autofree char *path = g_strdup_printf ("/proc/self/fd/%d", errs[i]);
              g_autofree char *err = NULL;

              /* On stderr: meson prints a failed test's stderr, not its
               * TAP comments, and a run that went wrong on a busy CI must
               * say why there. */
              g_file_get_contents (path, &err, NULL, NULL);
              g_printerr ("run %u of %u said \"%s\" (status 0x%x); on stderr:\n%s\n",
                          done + i + 1, n, said->str, status, err != NULL ? err : "");
            }
          close (errs[i]);
        }
      done += batch;
    }
  return good;
}

/* Runs PROGRAM ARGS... and returns its exit status; stdout in *@out,
 * stderr in *@err (both logged). */
static int
run (char **out, char **err, const char *const *argv)
{
  return test_run_sync (argv, NULL, G_SPAWN_DEFAULT, out, err);
}

/* ---- double click ---- */

/* Records a click, then a double click, into f->log (the app crashes). */
static void
record_double_click (Fixture *f, const char *app)
{
  Window main;

  record_start (f, NULL, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK double test");
  test_xdo_click_in (f->envp, main, 200, 150, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  g_usleep (1200 * 1000);   /* the person's pause: no double click with the first */
  test_xdo (f->envp, "click", "--repeat", "2", "--delay", "100", "1", NULL);
  g_assert_cmpint (record_end (f, FALSE).kind, ==, SESSION_OUTCOME_CRASHED);
}

static void
test_double_click (Fixture *f, gconstpointer data)
{
  g_autofree char *app = test_app_path ("gtk-double.py");
  g_autofree char *slow = g_build_filename (f->dir, "slow.log", NULL);
  const char *const slow_argv[] = { env ("XREPLAY"), slow, "--", "/usr/bin/python3", app, NULL };
  const char *const real_argv[] = { env ("XREPLAY"), f->log, "--", "/usr/bin/python3", app, NULL };
  SessionOutcome outcome;
  Window main;
  guint passed, crashed;

  if (!have_gtk (f))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  /* Three clicks 1.1 s apart: no double click, for the person or GTK. */
  record_start (f, NULL, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK double test");
  test_xdo_click_in (f->envp, main, 200, 150, NULL);
  test_xdo (f->envp, "click", "--repeat", "3", "--delay", "1100", "1", NULL);
  outcome = record_end (f, TRUE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_NONE);
  g_assert_cmpint (g_rename (f->log, slow), ==, 0);
  record_double_click (f, app);

  passed = run_many (slow_argv, 10, 0, "passed");
  g_test_message ("three slow clicks: passed %u of 10", passed);
  g_assert_cmpuint (passed, ==, 10);
  crashed = run_many (real_argv, 10, 1, "crashed with SIGSEGV");
  g_test_message ("a double click: crashed %u of 10", crashed);
  g_assert_cmpuint (crashed, ==, 10);
}

/* ---- a replay starved between the clicks ---- */

typedef struct
{
  GPid pid;                  /* the replay */
  guint presses;             /* button presses the X server made */
  guint stop_at;             /* ... at which the replay is stopped */
} Starve;

/* RECORD: a device event the X server made; at the press, SIGSTOP to the
 * replay at once (its next request would be due within the double
 * click's 100 ms). */
static void
on_device_event (XPointer closure, XRecordInterceptData *datum)
{
  Starve *starve = (Starve *) closure;

  if (datum->category == XRecordFromServer && datum->data_len > 0
      && (datum->data[0] & 0x7f) == ButtonPress && ++starve->presses == starve->stop_at)
    kill (starve->pid, SIGSTOP);
  XRecordFreeData (datum);
}

/* Replays f->log on the fixture's display; stopped at its @stop_at-th
 * press, as the server makes it, for 600 ms. What it said, into @said. */
static int
replay_starved (Fixture *f, const char *app, guint stop_at, GString *said)
{
  const char *const argv[] = { env ("XREPLAY"), "--display", f->xvfb.display, f->log, "--",
                               "/usr/bin/python3", app, NULL };
  /* RECORD's two connections, which select no events. */
  Display *ctrl = XOpenDisplay (f->xvfb.display);
  Display *data = XOpenDisplay (f->xvfb.display);
  XRecordClientSpec all = XRecordAllClients;
  XRecordRange *range = XRecordAllocRange ();
  Starve starve = { 0, 0, stop_at };
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * G_TIME_SPAN_MILLISECOND;
  g_autoptr (GError) error = NULL;
  XRecordContext context;
  int out, status;

  g_assert_nonnull (ctrl);
  g_assert_nonnull (data);
  range->device_events.first = range->device_events.last = ButtonPress;
  context = XRecordCreateContext (ctrl, 0, &all, 1, &range, 1);
  XFree (range);
  XSync (ctrl, False);
  g_assert_true (XRecordEnableContextAsync (data, context, on_device_event, (XPointer) &starve));
  XFlush (data);
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &starve.pid, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  while (starve.presses < stop_at)
    {
      struct pollfd pfd = { ConnectionNumber (data), POLLIN, 0 };

      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      poll (&pfd, 1, 100);
      XRecordProcessReplies (data);
    }
  /* Stopped (its process state), then starved: 600 ms without a core,
   * longer than GTK's double-click time. */
  g_assert_cmpint (waitpid (starve.pid, &status, WUNTRACED), ==, starve.pid);
  g_assert_true (WIFSTOPPED (status));
  g_usleep (600 * 1000);
  kill (starve.pid, SIGCONT);
  status = test_wait_said (&starve.pid, out, said, WAIT_MS);
  close (out);
  /* The control connection first: the data connection's round trip at
   * its close comes after the recording's end. */
  XRecordDisableContext (ctrl, context);
  XRecordFreeContext (ctrl, context);
  XCloseDisplay (ctrl);
  XCloseDisplay (data);
  return status;
}

/* A replay that waits for a core between the two clicks of a double
 * click (SIGSTOP as the server makes the first press) still makes a
 * double click of them: the server spaces them, not the replay's timers.
 * A replay that sent the second press at a timer of its own, about 100 ms
 * after the first, sends it 600 ms late and passes (two clicks): the
 * stop, at RECORD's word of the first press, comes well within those
 * 100 ms. A test slowed past them would stop the replay too late and
 * miss that bug, never fail a right replay: when the stop comes does not
 * matter to one. */
static void
test_starved_double_click (Fixture *f, gconstpointer data)
{
  g_autofree char *app = test_app_path ("gtk-double.py");

  if (!have_gtk (f))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  record_double_click (f, app);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GString) said = g_string_new (NULL);
      /* The lone click's press, then the double click's first. */
      int status = replay_starved (f, app, 2, said);

      g_test_message ("starved replay %u: %s", i + 1, said->str);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 1);
      g_assert_true (g_str_has_prefix (said->str, "crashed with SIGSEGV"));
    }
}

/* ---- a timer ---- */

static void
test_timer (Fixture *f, gconstpointer data)
{
  g_autofree char *app = test_app_path ("gtk-timer.py");
  g_autofree char *min = g_build_filename (f->dir, "timer.min", NULL);
  const char *const replay_argv[] = { env ("XREPLAY"), f->log, "--", "/usr/bin/python3", app,
                                      NULL };
  const char *const reduce_argv[] = { env ("XREDUCE"), "--no-report", "-o", min, f->log, "--",
                                      "/usr/bin/python3", app, NULL };
  g_autofree char *out = NULL, *err = NULL, *printed = NULL, *replayed = NULL;
  g_autofree char *replay_err = NULL;
  SessionOutcome outcome;
  Window main, dialog;
  const char *line;
  guint crashed;

  if (!have_gtk (f))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  record_start (f, NULL, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK timer test");
  test_x_drain (f->dpy);
  test_xdo_click_in (f->envp, main, 200, 150, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  dialog = wait_window (f, "Confirm");
  /* The person reads the dialog: three seconds. */
  g_usleep (3000 * 1000);
  test_xdo_click_in (f->envp, dialog, 150, 60, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  outcome = record_end (f, FALSE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);

  crashed = run_many (replay_argv, 5, 1, "crashed with SIGSEGV");
  g_test_message ("the timer dialog: crashed %u of 5", crashed);
  g_assert_cmpuint (crashed, ==, 5);

  /* Reduced, and replayed with the command xreduce prints, as it is. */
  g_assert_cmpint (run (&out, &err, reduce_argv), ==, 0);
  line = strstr (out, "replay it: ");
  g_assert_nonnull (line);
  printed = g_strndup (line + strlen ("replay it: "), strcspn (line + strlen ("replay it: "), "\n"));
  {
    /* xreplay as installed: in PATH. */
    g_autofree char *bin = g_path_get_dirname (env ("XREPLAY"));
    g_autofree char *path = g_strconcat (bin, ":", g_getenv ("PATH"), NULL);
    g_autofree char *quoted = g_shell_quote (path);
    g_autofree char *command = g_strdup_printf ("PATH=%s; %s", quoted, printed);
    const char *const sh[] = { "/bin/sh", "-c", command, NULL };

    g_assert_cmpint (run (&replayed, &replay_err, sh), ==, 1);
    g_assert_true (g_str_has_prefix (replayed, "crashed with SIGSEGV"));
  }
}

/* The recorded pace's fallback: a dialog armed 4 s after it opened,
 * clicked 2.5 s after (so the recording did not crash: the failure is
 * asked for). At the app's pace the click goes before the timer (due
 * after the recorded gap), at the recorded pace 2.5 s after: no crash
 * either way; with the gaps twice as long, 5 s after: a crash. xreduce
 * finds that, and the minimal session carries it: xreplay replays it with
 * nothing added. The margins: the dialog of a replay may open up to 1 s
 * later than the recording's before the doubled gap misses the timer,
 * and the recorded pace's click comes 1.5 s before it. (Every replay at
 * the slower paces waits these gaps: the longer they are, the longer the
 * suite.) */
static void
test_fallback (Fixture *f, gconstpointer data)
{
  g_autofree char *app = test_app_path ("gtk-timer.py");
  g_autofree char *min = g_build_filename (f->dir, "fallback.min", NULL);
  const char *const reduce_argv[] = { env ("XREDUCE"), "--no-report", "--signal", "SIGSEGV",
                                      "-o", min, f->log, "--", "/usr/bin/python3", app, "4000",
                                      NULL };
  const char *const replay_argv[] = { env ("XREPLAY"), min, "--", "/usr/bin/python3", app,
                                      "4000", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *text = NULL;
  SessionOutcome outcome;
  Window main, dialog;

  if (!have_gtk (f))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  record_start (f, NULL, "/usr/bin/python3", app, "4000", NULL);
  main = wait_window (f, "GTK timer test");
  test_x_drain (f->dpy);
  test_xdo_click_in (f->envp, main, 200, 150, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  dialog = wait_window (f, "Confirm");
  g_usleep (2500 * 1000);
  test_xdo_click_in (f->envp, dialog, 150, 60, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  /* The dialog closes; the recording ends. */
  outcome = record_end (f, TRUE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_NONE);

  g_assert_cmpint (run (&out, &err, reduce_argv), ==, 0);
  g_assert_nonnull (strstr (err, "trying the recorded pace"));
  g_assert_nonnull (strstr (err, "trying gaps twice as long"));
  g_assert_true (g_file_get_contents (min, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\nreplay pace=recorded speed=0.5 max-gap="));
  g_assert_cmpint (run (&out2, &err2, replay_argv), ==, 1);
  g_assert_true (g_str_has_prefix (out2, "crashed with SIGSEGV"));
}

/* ---- a file chooser ---- */

static void
test_chooser (Fixture *f, gconstpointer data)
{
  g_autofree char *app = test_app_path ("gtk-chooser.py");
  g_autofree char *home = g_build_filename (f->dir, "home", NULL);
  g_auto (GStrv) envp = g_environ_setenv (g_strdupv (f->envp), "HOME", home, TRUE);
  const char *const replay_argv[] = { env ("XREPLAY"), "-v", "--home", home, f->log, "--",
                                      "/usr/bin/python3", app, NULL };
  SessionOutcome outcome;
  Window main;
  guint crashed;

  if (!have_gtk (f))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  /* A folder of many files, crash.txt among them: the chooser's HOME. */
  g_assert_cmpint (g_mkdir (home, 0700), ==, 0);
  for (int i = 0; i < 400; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/file%03d.dat", home, i);
      g_assert_true (g_file_set_contents (name, "x\n", -1, NULL));
    }
  {
    g_autofree char *crash = g_build_filename (home, "crash.txt", NULL);
    g_autofree char *cream = g_build_filename (home, "cream.txt", NULL);

    g_assert_true (g_file_set_contents (crash, "crash\n", -1, NULL));
    g_assert_true (g_file_set_contents (cream, "cream\n", -1, NULL));
  }
  record_start (f, envp, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK chooser test");
  test_x_drain (f->dpy);
  test_xdo_click_in (f->envp, main, 200, 150, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  wait_window (f, "Open File");
  /* The person waits for the list, types "cra" (the list selects
   * crash.txt), Return (the search closes), Return (it opens). */
  g_usleep (1500 * 1000);
  test_xdo (f->envp, "type", "--delay", "150", "cra", NULL);
  g_usleep (700 * 1000);
  test_xdo (f->envp, "key", "Return", NULL);
  g_usleep (700 * 1000);
  test_xdo (f->envp, "key", "Return", NULL);
  outcome = record_end (f, FALSE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);

  crashed = run_many (replay_argv, 5, 1, "crashed with SIGSEGV");
  g_test_message ("the file chooser: crashed %u of 5", crashed);
  g_assert_cmpuint (crashed, ==, 5);
}

/* ---- client-side decorations ---- */

/* In a process group of its own: the window manager and its bus go
 * together (fixture_teardown). */
static void
own_group (gpointer data)
{
  setpgid (0, 0);
}

/* Starts @wm (a compositing one) on the fixture's display, with a D-Bus
 * session of its own (xfwm4 reads its settings on it), and waits until
 * it manages the display and its compositor runs. */
/* Does the root's _NET_SUPPORTED list @name? */
static gboolean
wm_supports (Fixture *f, const char *name)
{
  Atom want = XInternAtom (f->dpy, name, False), type = None, *atoms = NULL;
  int format = 0;
  unsigned long n = 0, after;
  gboolean found = FALSE;

  if (XGetWindowProperty (f->dpy, DefaultRootWindow (f->dpy),
                          XInternAtom (f->dpy, "_NET_SUPPORTED", False), 0, 4096, False, XA_ATOM,
                          &type, &format, &n, &after, (unsigned char **) &atoms) != Success)
    return FALSE;
  for (unsigned long i = 0; atoms != NULL && i < n; i++)
    found |= atoms[i] == want;
  if (atoms != NULL)
    XFree (atoms);
  return found;
}

static void
start_wm (Fixture *f, const char *const *wm)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  Atom cm = XInternAtom (f->dpy, "_NET_WM_CM_S0", False);
  gint64 deadline = g_get_monotonic_time () + (gint64) WAIT_MS * 1000;

  g_autofree char *bus_conf = g_build_filename (f->dir, "session-bus.conf", NULL);
  g_autofree char *bus_dir = g_build_filename (f->dir, "bus", NULL);
  g_autofree char *conf_arg = g_strconcat ("--config-file=", bus_conf, NULL);
  /* The window manager's session bus listens in the test's folder:
   * dbus-run-session's default (unix:tmpdir=/tmp) left a socket in /tmp
   * for every run. */
  g_autofree char *conf = g_markup_printf_escaped (
    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
    " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
    "<busconfig><type>session</type><listen>unix:dir=%s</listen><auth>EXTERNAL</auth>"
    "<standard_session_servicedirs/><policy context=\"default\"><allow send_destination=\"*\""
    " eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n",
    bus_dir);

  g_assert_cmpint (g_mkdir (bus_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (bus_conf, conf, -1, NULL));
  g_ptr_array_add (argv, (char *) "dbus-run-session");
  g_ptr_array_add (argv, conf_arg);
  g_ptr_array_add (argv, (char *) "--");
  for (const char *const *a = wm; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_async (f->dir, (char **) argv->pdata, f->envp,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                      | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                      own_group, NULL, &f->wm, &error))
    g_error ("cannot start %s: %s", wm[0], error->message);
  /* The compositor's selection: owned once it runs (after the window
   * manager's start: the property change of its owner window); and the
   * window manager says it takes GTK's frame extents (GTK draws its
   * shadows, and sets _GTK_FRAME_EXTENTS, only then: an app started
   * before, on a loaded machine, had none). Both are the server's state,
   * looked at again after each event or 50 ms. */
  while (XGetSelectionOwner (f->dpy, cm) == None || !wm_supports (f, "_GTK_FRAME_EXTENTS"))
    {
      struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };

      if (g_get_monotonic_time () > deadline)
        g_error ("%s started no compositor within %d ms", wm[0], WAIT_MS);
      test_x_drain (f->dpy);
      poll (&pfd, 1, 50);
    }
}

static void
test_headerbar (Fixture *f, gconstpointer data)
{
  const char *const *wm = data;
  g_autofree char *app = test_app_path ("gtk-headerbar.py");
  g_autofree char *wm_command = g_strjoinv (" ", (char **) wm);
  g_autofree char *min = g_build_filename (f->dir, "headerbar.min", NULL);
  const char *const bare_argv[] = { env ("XREPLAY"), f->log, "--", "/usr/bin/python3", app, NULL };
  const char *const wm_argv[] = { env ("XREPLAY"), "--wm", wm_command, f->log, "--",
                                  "/usr/bin/python3", app, NULL };
  const char *const verbose_argv[] = { env ("XREPLAY"), "-v", "--wm", wm_command, f->log, "--",
                                       "/usr/bin/python3", app, NULL };
  const char *const reduce_argv[] = { env ("XREDUCE"), "--no-report", "-o", min, f->log, "--",
                                      "/usr/bin/python3", app, NULL };
  g_autofree char *wm_path = g_find_program_in_path (wm[0]);
  g_autofree char *dbus_path = g_find_program_in_path ("dbus-run-session");
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *words = NULL;
  g_autofree char *expected = NULL;
  XWindowAttributes attrs;
  SessionOutcome outcome;
  Window main;
  long *extents = NULL;
  Atom type;
  int format, header, x, y;
  unsigned long n = 0, after;
  guint crashed;

  if (!have_gtk (f) || wm_path == NULL || dbus_path == NULL)
    {
      g_test_skip ("GTK 3 for /usr/bin/python3, dbus-run-session or the window manager is missing");
      return;
    }
  start_wm (f, wm);
  record_start (f, NULL, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK headerbar test");
  /* The visible window: the X window without the shadows' margins. */
  g_assert_true (XGetWindowProperty (f->dpy, main, XInternAtom (f->dpy, "_GTK_FRAME_EXTENTS", False),
                                     0, 4, False, XA_CARDINAL, &type, &format, &n, &after,
                                     (unsigned char **) &extents) == Success);
  g_assert_cmpuint (n, ==, 4);
  g_test_message ("_GTK_FRAME_EXTENTS %ld %ld %ld %ld", extents[0], extents[1], extents[2],
                  extents[3]);
  g_assert_cmpint (extents[0], >, 10);
  g_assert_true (XGetWindowAttributes (f->dpy, main, &attrs));
  /* Under the header bar, the content (400x300): Crash at 100,100. */
  header = attrs.height - (int) (extents[2] + extents[3]) - 300;
  x = (int) extents[0] + 100 + 20;
  y = (int) extents[2] + header + 100 + 15;
  XFree (extents);
  test_xdo_click_in (f->envp, main, x, y, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  outcome = record_end (f, FALSE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);

  crashed = run_many (bare_argv, 5, 1, "crashed with SIGSEGV");
  g_test_message ("recorded under %s, on the bare Xvfb: crashed %u of 5", wm[0], crashed);
  g_assert_cmpuint (crashed, ==, 5);
  crashed = run_many (wm_argv, 5, 1, "crashed with SIGSEGV");
  g_test_message ("... and under --wm %s: crashed %u of 5", wm[0], crashed);
  g_assert_cmpuint (crashed, ==, 5);
  /* The compositor's overlay window is no window of the app's. */
  g_assert_cmpint (run (&out, &err, verbose_argv), ==, 1);
  g_assert_nonnull (strstr (err, "first window 0x"));
  g_assert_nonnull (strstr (err, "\"GTK headerbar test\" (Gtk-headerbar.py) at"));
  g_assert_null (strstr (err, "first window 0x3f "));
  g_assert_nonnull (strstr (err, "a compositor runs"));

  /* xreduce keeps the click on Crash, at its place in the visible window. */
  g_assert_cmpint (run (&out2, &err2, reduce_argv), ==, 0);
  words = test_actions_in_words (min);
  expected = g_strdup_printf ("press button 1 at %d,%d in \"GTK headerbar test\"\n"
                              "release button 1 at %d,%d in \"GTK headerbar test\"\n",
                              100 + 20, header + 100 + 15, 100 + 20, header + 100 + 15);
  g_assert_cmpstr (words, ==, expected);
}

/* The reverse: recorded on the bare Xvfb (no shadows, no margins or
 * small ones), replayed under a compositing window manager (shadows in
 * margins of 20 px and more): 5 of 5 under each. */
static void
test_headerbar_bare (Fixture *f, gconstpointer data)
{
  static const char *const wms[] = { "metacity", "xfwm4 --compositor=on" };
  g_autofree char *app = test_app_path ("gtk-headerbar.py");
  g_autofree char *dbus_path = g_find_program_in_path ("dbus-run-session");
  XWindowAttributes attrs;
  SessionOutcome outcome;
  Window main;
  long *extents = NULL;
  long left = 0, top = 0, bottom = 0;
  Atom type = None;
  int format = 0, header;
  unsigned long n = 0, after = 0;

  if (!have_gtk (f) || dbus_path == NULL)
    {
      g_test_skip ("GTK 3 for /usr/bin/python3 or dbus-run-session is missing");
      return;
    }
  record_start (f, NULL, "/usr/bin/python3", app, NULL);
  main = wait_window (f, "GTK headerbar test");
  if (XGetWindowProperty (f->dpy, main, XInternAtom (f->dpy, "_GTK_FRAME_EXTENTS", False), 0, 4,
                          False, XA_CARDINAL, &type, &format, &n, &after,
                          (unsigned char **) &extents) == Success
      && n == 4)
    {
      left = extents[0];
      top = extents[2];
      bottom = extents[3];
    }
  if (extents != NULL)
    XFree (extents);
  g_test_message ("bare: _GTK_FRAME_EXTENTS left %ld top %ld bottom %ld", left, top, bottom);
  g_assert_true (XGetWindowAttributes (f->dpy, main, &attrs));
  header = attrs.height - (int) (top + bottom) - 300;
  test_xdo_click_in (f->envp, main, (int) left + 100 + 20, (int) top + header + 100 + 15, NULL);
  test_xdo (f->envp, "click", "1", NULL);
  outcome = record_end (f, FALSE);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);

  for (gsize i = 0; i < G_N_ELEMENTS (wms); i++)
    {
      g_autofree char *wm_path = g_strndup (wms[i], strcspn (wms[i], " "));
      g_autofree char *found = g_find_program_in_path (wm_path);
      const char *const argv[] = { env ("XREPLAY"), "--wm", wms[i], f->log, "--",
                                   "/usr/bin/python3", app, NULL };
      guint crashed;

      if (found == NULL)
        {
          g_test_message ("%s is not installed: not replayed under it", wm_path);
          continue;
        }
      crashed = run_many (argv, 5, 1, "crashed with SIGSEGV");
      g_test_message ("recorded bare, under --wm %s: crashed %u of 5", wms[i], crashed);
      g_assert_cmpuint (crashed, ==, 5);
    }
}

/* ---- the keymap ---- */

/* A server with German keys whose names say "us" (a nested server's
 * host's keys under its own names): the keymap line says "de". */
static void
test_keymap (Fixture *f, gconstpointer data)
{
  const char *const setxkbmap[] = { "setxkbmap", "-display", f->xvfb.display, "de", NULL };
  char names[] = "evdev\0pc105\0us\0\0";
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = NULL;
  int status = -1;

  if (!g_find_program_in_path ("setxkbmap"))
    {
      g_test_skip ("no setxkbmap (Debian: x11-xkb-utils)");
      return;
    }
  status = test_run_sync_status ((const char *const *) setxkbmap, (const char *const *) f->envp,
                                 G_SPAWN_SEARCH_PATH, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  XChangeProperty (f->dpy, DefaultRootWindow (f->dpy),
                   XInternAtom (f->dpy, "_XKB_RULES_NAMES", False), XA_STRING, 8,
                   PropModeReplace, (unsigned char *) names, sizeof names - 1);
  XSync (f->dpy, False);
  record_start (f, NULL, env ("XDEMO"), NULL);
  record_end (f, TRUE);
  session = session_load (f->log, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (session_get_keymap (session), ==, "de");
  /* And the repeat delay of the server, as every session records it. */
  g_assert_cmpuint (session_get_desktop (session)->repeat_delay_ms, >, 0);
}

/* ---- a slow crash ---- */

/* xslow: a, x, b, y, c, d typed, a click: the crash comes 5 units of CPU
 * after the click; without a, b, c, d sooner (1 unit and one more each).
 * A unit is 200 ms: what the test is about is the crash's delay beside
 * the learnt settle, several times longer under load than on a quiet
 * core, and that is the same at any unit; a second made the test hold
 * one core for three minutes. */
#define SLOW_UNIT_MS "200"
#define SLOW_SETTLE_MS "3000"    /* three times the slowest crash's CPU */
static char *
slow_session (Fixture *f)
{
  static const char *const keys[][2] = { { "a", "38" }, { "x", "53" }, { "b", "56" },
                                         { "y", "29" }, { "c", "54" }, { "d", "40" } };
  g_autofree char *path = g_build_filename (f->dir, "slow.session", NULL);
  const char *where = "root=150,150 pos=50,50 window=0 class=\"XSlow\" title=\"Slow\"";
  GString *s = g_string_new ("xreduce-session 1\nscreen 1280x1024\ncommand \"xslow\"\n");
  guint t = 1000;

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_string_append_printf (s, "%u KeyPress keysym=%s keycode=%s state=0x0 %s\n", t += 150,
                              keys[i][0], keys[i][1], where);
      g_string_append_printf (s, "%u KeyRelease keysym=%s keycode=%s state=0x0 %s\n", t += 100,
                              keys[i][0], keys[i][1], where);
    }
  g_string_append_printf (s, "%u MotionNotify state=0x0 %s\n", t += 200, where);
  g_string_append_printf (s, "%u ButtonPress button=1 state=0x0 %s\n", t += 200, where);
  g_string_append_printf (s, "%u ButtonRelease button=1 state=0x100 %s\n", t += 100, where);
  g_string_append (s, "outcome crashed SIGSEGV\n");
  g_assert_true (g_file_set_contents (path, s->str, -1, NULL));
  g_string_free (s, TRUE);
  return g_steal_pointer (&path);
}

/* The first CPU this process may run on, as taskset(1) writes it. */
static char *
first_cpu (void)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  g_assert_cmpint (sched_getaffinity (0, sizeof set, &set), ==, 0);
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &set))
      return g_strdup_printf ("%d", cpu);
  g_assert_not_reached ();
}

static void
test_slow_crash (Fixture *f, gconstpointer data)
{
  g_autofree char *session = slow_session (f);
  g_autofree char *loaded = g_build_filename (f->dir, "loaded.min", NULL);
  g_autofree char *truth = g_build_filename (f->dir, "truth.min", NULL);
  g_autofree char *cpu = first_cpu ();
  /* A loaded machine, whatever its size: the reduction and everything
   * it starts (taskset's mask is inherited) on one core, with a busy
   * loop on that core beside them. Six replays and the loop share it:
   * each crash comes several times later than its CPU time, as on a
   * machine whose every core is busy, and the rest of the machine (the
   * other tests of the suite) is not loaded by this one. */
  const char *const loaded_argv[] = { "taskset", "-c", cpu, env ("XREDUCE"), "-j", "6",
                                      "--no-report", "-o", loaded, session, "--", env ("XSLOW"),
                                      SLOW_UNIT_MS, NULL };
  const char *const hog_argv[] = { "taskset", "-c", cpu, "/bin/sh", "-c", "while :; do :; done",
                                   NULL };
  /* The reference reduces the loaded result, not the whole session: it
   * verifies that it fails and tries every removal, with a settle twice
   * the slowest crash and no load; what it keeps is what -j 1 keeps of
   * the whole session (the app crashes when x, y and a click are in:
   * whatever else the loaded result had, the reference drops, and a
   * result without one of them does not fail). Each candidate that passes
   * waits the whole settle; two at once (a reduction's result is the same
   * at any parallelism, test-reduce's /reduce/speculation): a crash
   * takes at most 5 units of CPU, and two replays share the cores. */
  const char *const truth_argv[] = { env ("XREDUCE"), "-j", "2", "--settle", SLOW_SETTLE_MS,
                                     "--no-report", "-o", truth, loaded, "--", env ("XSLOW"),
                                     SLOW_UNIT_MS, NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *loaded_words = NULL, *truth_words = NULL;
  GPid hog = 0;

  if (!g_find_program_in_path ("taskset"))
    {
      g_test_skip ("no taskset (Debian: util-linux)");
      return;
    }
  g_assert_true (g_spawn_async (NULL, (char **) hog_argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH, NULL, NULL,
                                &hog, NULL));
  {
    int status = test_run_sync (loaded_argv, NULL, G_SPAWN_SEARCH_PATH, &out, &err);

    kill (hog, SIGKILL);
    waitpid (hog, NULL, 0);
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_cmpint (run (&out2, &err2, truth_argv), ==, 0);
  loaded_words = test_actions_in_words (loaded);
  truth_words = test_actions_in_words (truth);
  g_assert_cmpstr (loaded_words, ==, truth_words);
  /* x, y and the click: nothing else. */
  g_assert_nonnull (strstr (truth_words, "press x"));
  g_assert_nonnull (strstr (truth_words, "press y"));
  g_assert_null (strstr (truth_words, "press a"));
  g_assert_null (strstr (truth_words, "press d"));
}

static const char *const xfwm4[] = { "xfwm4", "--compositor=on", NULL };
static const char *const metacity[] = { "metacity", NULL };

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, data, fn) g_test_add (path, Fixture, data, fixture_setup, fn, fixture_teardown)
  ADD ("/faithful/double-click", NULL, test_double_click);
  ADD ("/faithful/starved-double-click", NULL, test_starved_double_click);
  ADD ("/faithful/timer", NULL, test_timer);
  ADD ("/faithful/chooser", NULL, test_chooser);
  ADD ("/faithful/fallback", NULL, test_fallback);
  ADD ("/faithful/headerbar/xfwm4", xfwm4, test_headerbar);
  ADD ("/faithful/headerbar/metacity", metacity, test_headerbar);
  ADD ("/faithful/headerbar/bare", NULL, test_headerbar_bare);
  ADD ("/faithful/keymap", NULL, test_keymap);
  ADD ("/faithful/slow-crash", NULL, test_slow_crash);
  return g_test_run ();
}
