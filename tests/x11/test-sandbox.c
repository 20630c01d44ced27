/* test-sandbox.c — each replay in a sandbox of its own (proc/sandbox.h),
 * on a single-instance app (tests/apps/xsingle: a D-Bus name and a lock
 * file in its configuration directory, left behind by a crash).
 *
 * The test plays the user: a HOME and a session bus of its own (made with
 * the sandbox code itself, standing for the user's desktop session), in
 * which it records xsingle's crash with `xrecord --display` on its own
 * Xvfb, driving the app with XTest (synchronised on MapNotify and on
 * xrecord's and the app's ends). Then:
 *   - xreduce -j 4 and -j 1 keep the same minimal session, and the
 *     verification saw every full replay fail;
 *   - with --share-home the replays get in each other's way (the crash's
 *     lock file makes the next replay fail to start), and without it they
 *     do not: the sandbox is what makes the difference;
 *   - after SIGKILL of xreduce nothing is left running, no sandbox left on
 *     disk.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "sandbox.h"
#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

#define WAIT_MS 20000

typedef struct
{
  TestXvfb xvfb;
  Display *dpy;
  Sandbox *user;             /* the "user's" HOME and session bus */
  char **envp;               /* the user's environment: HOME, bus, DISPLAY */
  char *dir;
  char *session;             /* the recorded crash */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  SandboxOptions options = { 0 };
  g_autoptr (GError) error = NULL;

  test_become_subreaper ();
  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = XOpenDisplay (f->xvfb.display);
  g_assert_nonnull (f->dpy);
  f->user = sandbox_new (&options, &error);
  g_assert_no_error (error);
  f->envp = sandbox_apply (f->user, g_get_environ ());
  f->envp = g_environ_setenv (f->envp, "DISPLAY", f->xvfb.display, TRUE);
  f->dir = test_make_tmp ("test-sandbox-XXXXXX");
  f->session = g_build_filename (f->dir, "single.session", NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  sandbox_free (f->user);
  g_strfreev (f->envp);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->session);
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
}

/* Runs @argv in the user's environment; its exit status, and what it said. */
static int
run (Fixture *f, const char *const *argv, char **out, char **err)
{
  return test_run_sync (argv, (const char *const *) f->envp, G_SPAWN_DEFAULT, out, err);
}

static void
key (Fixture *f, KeySym sym)
{
  KeyCode code = XKeysymToKeycode (f->dpy, sym);

  XTestFakeKeyEvent (f->dpy, code, True, CurrentTime);
  XTestFakeKeyEvent (f->dpy, code, False, CurrentTime);
  XSync (f->dpy, False);
}

/* Waits for the MapNotify of a top-level window (SubstructureNotify on the
 * root was selected before the app started). */
static void
wait_for_map (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;

  for (;;)
    {
      struct pollfd pfd = { ConnectionNumber (f->dpy), POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;

      while (XPending (f->dpy) > 0)
        {
          XEvent ev;

          XNextEvent (f->dpy, &ev);
          if (ev.type == MapNotify && !ev.xmap.override_redirect)
            return;
        }
      if (left <= 0)
        g_error ("xsingle mapped no window within %d ms", WAIT_MS);
      poll (&pfd, 1, (int) left);
    }
}

/* Records xsingle's crash: a, b, x, c typed, then Return. */
static void
record (Fixture *f)
{
  const char *argv[] = { env ("XRECORD"), "--display", f->xvfb.display, "-o", f->session,
                         "--", env ("XSINGLE"), NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = NULL;
  KeySym keys[] = { XK_a, XK_b, XK_x, XK_c, XK_Return };
  GPid pid;
  int status;

  XSelectInput (f->dpy, DefaultRootWindow (f->dpy), SubstructureNotifyMask);
  XSync (f->dpy, False);
  pid = test_spawn_quiet (NULL, (const char *const *) argv, f->envp, 0);
  wait_for_map (f);
  /* The keyboard follows the pointer: into the window. */
  XTestFakeMotionEvent (f->dpy, 0, 300, 200, CurrentTime);
  XSync (f->dpy, False);
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    key (f, keys[i]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  session = session_load (f->session, &error);
  g_assert_no_error (error);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpuint (session_get_n_actions (session), >=, 10);
  /* The crash left the user's lock file behind, as a real one would. */
  {
    g_autofree char *lock = g_build_filename (g_environ_getenv (f->envp, "XDG_CONFIG_HOME"),
                                              "xsingle", "lock", NULL);
    g_assert_true (g_file_test (lock, G_FILE_TEST_EXISTS));
    g_unlink (lock);
  }
}

static char *
reduce (Fixture *f, const char *jobs)
{
  g_autofree char *out_path = g_strdup_printf ("%s/min-%s.session", f->dir, jobs);
  g_autofree char *report = g_strconcat (out_path, ".report/report.md", NULL);
  const char *argv[] = { env ("XREDUCE"), "-j", jobs, "--max-gap", "100", "--settle", "300",
                         "-o", out_path, f->session, "--", env ("XSINGLE"), NULL };
  g_autofree char *out = NULL, *err = NULL, *md = NULL;

  g_assert_cmpint (run (f, argv, &out, &err), ==, 0);
  /* The verification saw every full replay fail. */
  g_assert_true (g_file_get_contents (report, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, "the full session failed in 3 of 3 replays"));
  return test_actions_in_words (out_path);
}

static void
test_parallel_same (Fixture *f, gconstpointer data)
{
  g_autofree char *four = NULL, *one = NULL;

  record (f);
  four = reduce (f, "4");
  one = reduce (f, "1");
  g_test_message ("kept:\n%s", four);
  g_assert_cmpstr (four, ==, one);
  g_assert_nonnull (strstr (four, "press x"));
  g_assert_nonnull (strstr (four, "press Return"));
  g_assert_null (strstr (four, "press a\n"));
}

/* With the user's HOME, a replay's crash leaves the lock that stops the
 * next replay from starting; in sandboxes, each replay crashes. */
static void
test_share_home_interferes (Fixture *f, gconstpointer data)
{
  const char *shared[] = { env ("XREPLAY"), "--share-home", "--max-gap", "100", f->session,
                           "--", env ("XSINGLE"), NULL };
  const char *sandboxed[] = { env ("XREPLAY"), "--max-gap", "100", f->session,
                              "--", env ("XSINGLE"), NULL };
  g_autofree char *out1 = NULL, *out2 = NULL;

  record (f);
  g_assert_cmpint (run (f, sandboxed, NULL, NULL), ==, 1);
  g_assert_cmpint (run (f, sandboxed, NULL, NULL), ==, 1);
  g_assert_cmpint (run (f, shared, &out1, NULL), ==, 1);
  g_assert_cmpint (run (f, shared, &out2, NULL), ==, 4);
  g_assert_nonnull (strstr (out2, "could not start"));
}

/* Bad --home: exit 2 and one line, before any Xvfb. */
static void
test_bad_home (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);
  g_autofree char *file = g_build_filename (f->dir, "a-file", NULL);
  const char *homes[] = { missing, file };

  g_assert_true (g_file_set_contents (f->session, "", -1, NULL));
  g_assert_true (g_file_set_contents (file, "", -1, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (homes); i++)
    {
      const char *replay[] = { env ("XREPLAY"), "--home", homes[i], f->session,
                               "--", env ("XSINGLE"), NULL };
      const char *reduce_argv[] = { env ("XREDUCE"), "--home", homes[i], f->session,
                                    "--", env ("XSINGLE"), NULL };
      g_autofree char *err1 = NULL, *err2 = NULL;

      g_assert_cmpint (run (f, replay, NULL, &err1), ==, 2);
      g_assert_nonnull (strstr (err1, homes[i]));
      g_assert_cmpint (run (f, reduce_argv, NULL, &err2), ==, 2);
      g_assert_nonnull (strstr (err2, homes[i]));
      /* One line. */
      g_assert_null (strchr (g_strstrip (err2), '\n'));
    }
}

/* SIGKILL of xreduce in the middle: nothing of it runs on, and no
 * sandbox is left on disk. */
static void
test_sigkill (Fixture *f, gconstpointer data)
{
  g_autofree char *out_path = g_build_filename (f->dir, "min.session", NULL);
  g_autofree char *tmp = g_build_filename (f->dir, "tmp", NULL);
  const char *argv[] = { env ("XREDUCE"), "--max-gap", "100", "-o", out_path, f->session,
                         "--", env ("XSINGLE"), NULL };
  g_auto (GStrv) envp = NULL;
  g_autoptr (GDir) left = NULL;
  gint64 deadline;
  int err_fd, status;
  guint ours;
  char buf[4096];
  GString *said = g_string_new (NULL);
  GPid pid;

  record (f);
  /* The test's own children: its Xvfb, the user's bus and its cleaner. */
  ours = test_orphans_alive (0);
  /* Its temporary files, sandboxes included, in a folder of the test's. */
  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  envp = g_environ_setenv (g_strdupv (f->envp), "TMPDIR", tmp, TRUE);
  pid = test_spawn_talking (NULL, (const char *const *) argv, envp, &err_fd);
  /* Once replays run: it says how many workers, then learns the wait. */
  while (strstr (said->str, "window is waited") == NULL)
    {
      ssize_t n = read (err_fd, buf, sizeof buf);
      g_assert_cmpint (n, >, 0);
      g_string_append_len (said, buf, n);
    }
  g_test_message ("xreduce said: %s", said->str);
  g_string_free (said, TRUE);
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close (err_fd);
  /* Everything it started dies with it: its children at once, their
   * cleaners once they have removed their sandboxes. */
  deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  while (test_orphans_alive (0) > ours && g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  g_assert_cmpuint (test_orphans_alive (0), ==, ours);
  left = g_dir_open (tmp, 0, NULL);
  g_assert_nonnull (left);
  for (const char *name; (name = g_dir_read_name (left)) != NULL;)
    if (g_str_has_prefix (name, "xreduce-sandbox-"))
      g_error ("a sandbox is left: %s", name);
}

/* xreplay interrupted by @signum while the app runs (on the test's
 * display, where its window is seen mapping): nothing of it runs on, and
 * its sandbox is gone from disk. */
static void
interrupt_xreplay (Fixture *f, int signum)
{
  g_autofree char *tmp = g_build_filename (f->dir, "tmp", NULL);
  const char *argv[] = { env ("XREPLAY"), "--settle", "20000", "--display", f->xvfb.display,
                         f->session, "--", env ("XSINGLE"), NULL };
  g_auto (GStrv) envp = NULL;
  g_autoptr (GDir) left = NULL;
  gint64 deadline;
  guint ours = test_orphans_alive (0);
  int status;
  GPid pid;

  g_assert_cmpint (g_mkdir (tmp, 0700), ==, 0);
  envp = g_environ_setenv (g_strdupv (f->envp), "TMPDIR", tmp, TRUE);
  XSelectInput (f->dpy, DefaultRootWindow (f->dpy), SubstructureNotifyMask);
  XSync (f->dpy, False);
  pid = test_spawn_quiet (NULL, (const char *const *) argv, envp, 0);
  wait_for_map (f);
  kill (pid, signum);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  if (signum == SIGKILL)
    g_assert_true (WIFSIGNALED (status));
  else
    g_assert_cmpint (WEXITSTATUS (status), ==, 128 + signum);
  deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  while (test_orphans_alive (0) > ours && g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  g_assert_cmpuint (test_orphans_alive (0), ==, ours);
  left = g_dir_open (tmp, 0, NULL);
  g_assert_nonnull (left);
  for (const char *name; (name = g_dir_read_name (left)) != NULL;)
    g_error ("%s is left in TMPDIR after signal %d", name, signum);
}

static void
test_interrupt_xreplay (Fixture *f, gconstpointer data)
{
  record (f);
  interrupt_xreplay (f, GPOINTER_TO_INT (data));
}

/* No dbus-daemon on the machine (a PATH without it): a clear message that
 * names --share-home, exit 3, before any Xvfb. */
static void
test_no_dbus (Fixture *f, gconstpointer data)
{
  g_autofree char *bin = g_build_filename (f->dir, "bin", NULL);
  const char *tools[] = { "sh", "rm", "cp" };
  const char *replay[] = { env ("XREPLAY"), f->session, "--", env ("XSINGLE"), NULL };
  const char *reduce_argv[] = { env ("XREDUCE"), f->session, "--", env ("XSINGLE"), NULL };
  const char *const *commands[] = { replay, reduce_argv };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = NULL;

  record (f);
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *real = g_find_program_in_path (tools[i]);
      g_autofree char *link = g_build_filename (bin, tools[i], NULL);
      g_assert_nonnull (real);
      g_assert_cmpint (symlink (real, link), ==, 0);
    }
  envp = g_environ_setenv (g_strdupv (f->envp), "PATH", bin, TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *err = NULL;
      int status = -1;

      g_assert_true (g_spawn_sync (NULL, (char **) commands[i], envp, G_SPAWN_STDOUT_TO_DEV_NULL,
                                   NULL, NULL, NULL, &err, &status, &error));
      g_assert_no_error (error);
      g_test_message ("%s said: %s", commands[i][0], err);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 3);
      g_assert_nonnull (strstr (err, "dbus-daemon is not installed"));
      g_assert_nonnull (strstr (err, "--share-home"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
#define ADD(path, fn) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/sandbox/parallel-same", test_parallel_same);
  ADD ("/sandbox/share-home-interferes", test_share_home_interferes);
  ADD ("/sandbox/bad-home", test_bad_home);
  ADD ("/sandbox/sigkill", test_sigkill);
  ADD ("/sandbox/no-dbus", test_no_dbus);
  if (test_shard_mine ())
    g_test_add ("/sandbox/xreplay-sigint", Fixture, GINT_TO_POINTER (SIGINT), fixture_setup,
                test_interrupt_xreplay, fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/sandbox/xreplay-sigterm", Fixture, GINT_TO_POINTER (SIGTERM), fixture_setup,
                test_interrupt_xreplay, fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/sandbox/xreplay-sighup", Fixture, GINT_TO_POINTER (SIGHUP), fixture_setup,
                test_interrupt_xreplay, fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/sandbox/xreplay-sigkill", Fixture, GINT_TO_POINTER (SIGKILL), fixture_setup,
                test_interrupt_xreplay, fixture_teardown);
  return g_test_run ();
}
