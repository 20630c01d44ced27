/* test-record-all.c — xrecord --all: always recording, saved at a crash.
 *
 * /record-all/crash: on its own Xvfb, `xrecord --all` (its default save
 * folder, under the test's XDG_STATE_HOME) records four apps used in
 * turn with xdotool: two GTK apps (tests/apps/gtk-notes.py, "Notes" and
 * "Scratch"), the demo (xdemo --bug print) and xterm running bash (class
 * XTerm, title "bash": commands typed into it). SIGUSR1 saves all four,
 * each with its own actions only; xterm's session lists its commands
 * (`xreplay --list`) and replays to a pass. Scratch is closed normally
 * (Ctrl+Q: its window goes first): nothing is saved. The demo crashes:
 * exactly one session is saved, for the demo, with its actions only, its
 * command and folder, `outcome unknown`; xterm, still running, saves
 * nothing. xreduce (no --signal) reduces it to the same steps as a
 * recording of the same use made with `xrecord -- xdemo`.
 *
 * /record-all/exclude-keep: --exclude-class XDemo records nothing of the
 * demo (SIGUSR1 saves the GTK app only; its crash saves nothing), and
 * --keep-actions 4 keeps the GTK app's last 4 actions.
 *
 * /record-all/running: the demo, started before xrecord, crashes: saved
 * (`outcome unknown` where there is no coredumpctl).
 *
 * /record-all/coredump: where systemd-coredump has an entry for the
 * crashed pid (a stand-in coredumpctl that has one from its third query
 * on), the session says `crashed SIGSEGV`. Every other case has a
 * stand-in that never has one: the outcome stays unknown.
 *
 * /record-all/save-key: --save-key ctrl+alt+Pause, pressed with xdotool,
 * saves both apps' buffers, each with its own actions and none of the
 * chord's keys (its modifiers' releases neither, in the next save); a
 * Control that is no chord's is recorded.
 *
 * /record-all/openbox: the same under a window manager (frames, focus on
 * click): a GTK app closed normally saves nothing, the demo's crash its
 * actions only.
 *
 * /record-all/usage: bad options are refused before anything starts.
 *
 * Synchronisation: xrecord's lines (it says when it records, and every
 * session it saves), windows awaited on the test's own X connection
 * (MapNotify, UnmapNotify, DestroyNotify), the apps' exits (waitpid). The
 * RECORD stream is in server order: by the time xrecord says the demo's
 * session is saved, every action before the crash is in it. xterm has no
 * _NET_WM_PING: its window's MapNotify is the wait; with no window
 * manager the focus follows the pointer, which xdotool moves into the
 * window (a click) before it types. No sleeps.
 *
 * Programs come from the environment: XRECORD, XREDUCE, XDEMO,
 * XREDUCE_SRCDIR. Start reading at test_crash().
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>

#include "xtest-x.h"
#include "session.h"
#include "shard.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"

#define WAIT_MS 60000

typedef struct
{
  TestXvfb xvfb;
  Display *dpy;              /* the test's own connection: the X events */
  char *dir, *save_dir;
  char **envp;               /* DISPLAY, HOME, XDG_STATE_HOME: the fixture's */
  GPid xrecord, apps[4];
  int xrecord_err;
  GString *err;              /* what xrecord said */
} Fixture;

static int
on_x_error (Display *dpy, XErrorEvent *ev)
{
  /* The apps' windows come and go (one crashes). */
  return 0;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *home = NULL, *state = NULL;

  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = test_x_open (f->xvfb.display, on_x_error);
  f->dir = test_make_tmp ("test-record-all-XXXXXX");
  home = g_build_filename (f->dir, "home", NULL);
  state = g_build_filename (f->dir, "state", NULL);
  g_assert_cmpint (g_mkdir (home, 0700), ==, 0);
  /* xrecord's default folder: $XDG_STATE_HOME/xreduce/sessions. */
  f->save_dir = g_build_filename (state, "xreduce", "sessions", NULL);
  f->envp = test_x_app_environ (f->xvfb.display);
  f->envp = g_environ_setenv (f->envp, "HOME", home, TRUE);
  f->envp = g_environ_setenv (f->envp, "XDG_STATE_HOME", state, TRUE);
  f->envp = g_environ_setenv (f->envp, "GSETTINGS_BACKEND", "memory", TRUE);
  {
    /* coredumpctl, a stand-in: `--json=short list COREDUMP_PID=N` finds
     * an entry for N, killed by signal $FAKE_COREDUMP_SIG, from its third
     * call on (systemd-coredump writes it once the core is stored); without
     * FAKE_COREDUMP_SIG, never. Its calls are counted in bin/calls. */
    static const char script[] =
      "#!/bin/sh\n"
      "dir=$(dirname \"$0\")\n"
      "echo \"$*\" >>\"$dir/calls\"\n"
      "pid=\n"
      "for a; do case $a in COREDUMP_PID=*) pid=${a#COREDUMP_PID=} ;; esac; done\n"
      "if [ -z \"${FAKE_COREDUMP_SIG:-}\" ] || [ -z \"$pid\" ] || [ \"$(wc -l <\"$dir/calls\")\" -lt 3 ]; then\n"
      "  echo 'No coredumps found.' >&2; exit 1\n"
      "fi\n"
      "echo \"[{\\\"time\\\":$(date +%s%6N),\\\"pid\\\":$pid,\\\"uid\\\":0,\\\"gid\\\":0,"
      "\\\"sig\\\":$FAKE_COREDUMP_SIG,\\\"corefile\\\":\\\"present\\\",\\\"exe\\\":\\\"/x\\\",\\\"size\\\":1}]\"\n";
    g_autofree char *bin = g_build_filename (f->dir, "bin", NULL);
    g_autofree char *fake = g_build_filename (bin, "coredumpctl", NULL);
    g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));

    g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
    g_assert_true (g_file_set_contents (fake, script, -1, NULL));
    g_assert_cmpint (g_chmod (fake, 0700), ==, 0);
    f->envp = g_environ_setenv (f->envp, "PATH", path, TRUE);
  }
  f->err = g_string_new (NULL);
  f->xrecord_err = -1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_talking (&f->xrecord, &f->xrecord_err);
  for (gsize i = 0; i < G_N_ELEMENTS (f->apps); i++)
    test_kill_child (&f->apps[i]);
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->save_dir);
  g_strfreev (f->envp);
  g_string_free (f->err, TRUE);
}

/* ---- the X events ---- */

static void
next_event (Fixture *f, XEvent *ev, gint64 deadline, const char *waiting_for)
{
  test_x_next_event (f->dpy, ev, deadline, waiting_for, WAIT_MS, f->err);
}

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

/* ---- the programs ---- */

/* A click into @w's text field, then @text typed. */
static void
type_in (Fixture *f, Window w, int x, int y, const char *text)
{
  test_xdo_click_in (f->envp, w, x, y, "1");
  test_xdo (f->envp, "type", "--delay", "30", text, NULL);
}

/* @argv started in @cwd (NULL: the test's), its output dropped. */
static GPid
spawn (Fixture *f, const char *cwd, const char *const *argv)
{
  return test_spawn_quiet (cwd, argv, f->envp, 0);
}

/* gtk-notes.py TITLE X Y, until its window is there. */
static Window
notes_start (Fixture *f, GPid *pid, const char *title, int x, int y)
{
  g_autofree char *script = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps",
                                              "gtk-notes.py", NULL);
  g_autofree char *xs = g_strdup_printf ("%d", x), *ys = g_strdup_printf ("%d", y);
  const char *argv[] = { "/usr/bin/python3", script, title, xs, ys, NULL };

  *pid = spawn (f, NULL, argv);
  return wait_window (f, title);
}

/* xterm running bash (no rc files) at +840+320, 60x12 (beside the
 * others: the demo's windows end at x 740 and 1080, the Notes ones start
 * at y 620), until its window (title "bash") is mapped. Its argv in
 * *@argv (free it). */
static Window
xterm_start (Fixture *f, GPid *pid, char ***argv)
{
  g_autofree char *xterm = g_find_program_in_path ("xterm");

  if (xterm == NULL)
    g_error ("xterm is not installed (scripts/bootstrap.sh installs it)");
  *argv = g_strsplit ("XTERM -geometry 60x12+840+320 -e bash --norc --noprofile", " ", -1);
  g_free ((*argv)[0]);
  (*argv)[0] = g_steal_pointer (&xterm);
  *pid = spawn (f, f->dir, (const char *const *) *argv);
  return wait_window (f, "bash");
}

/* @command typed into xterm's bash (a click into its window first: the
 * pointer in it, the focus follows), then Return. */
static void
xterm_type (Fixture *f, Window w, const char *command)
{
  type_in (f, w, 60, 40, command);
  test_xdo (f->envp, "key", "Return", NULL);
}

/* Waits for the app's end; its wait status. */
static int
wait_exit (GPid *pid)
{
  int status = -1;

  g_assert_cmpint (waitpid (*pid, &status, 0), ==, *pid);
  *pid = 0;
  return status;
}

/* xrecord --all saves into @dir: args[1] (after "--save-dir") says so,
 * and the fixture looks there. */
static void
save_into (Fixture *f, const char **args, const char *dir)
{
  args[1] = dir;
  g_free (f->save_dir);
  f->save_dir = g_strdup (dir);
}

/* xrecord --all with @args, until it records. */
static void
xrecord_all_start (Fixture *f, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) env ("XRECORD"));
  g_ptr_array_add (argv, (char *) "--all");
  g_ptr_array_add (argv, (char *) "-d");
  g_ptr_array_add (argv, f->xvfb.display);
  for (const char *const *a = args; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  f->xrecord = test_spawn_talking (f->dir, (const char *const *) argv->pdata, f->envp,
                                  &f->xrecord_err);
  test_wait_line (f->xrecord_err, f->err, "xrecord: recording every app", WAIT_MS);
}

static guint
count_in (const char *text, const char *what)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, what)) != NULL; p += strlen (what))
    n++;
  return n;
}

/* Reads what xrecord says until @what was said @n times. */
static void
wait_said (Fixture *f, const char *what, guint n)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) WAIT_MS * 1000;

  while (count_in (f->err->str, what) < n)
    {
      struct pollfd pfd = { .fd = f->xrecord_err, .events = POLLIN };
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
      char buf[512];
      ssize_t got;

      if (left <= 0 || poll (&pfd, 1, left) <= 0
          || ((got = read (f->xrecord_err, buf, sizeof buf)) <= 0 && errno != EINTR))
        g_error ("xrecord did not say \"%s\" %u times; it said: %s", what, n, f->err->str);
      if (got > 0)
        g_string_append_len (f->err, buf, got);
    }
}

/* SIGTERM, then what xrecord says to its end: its exit status (-1 if it
 * did not exit). */
static int
xrecord_stop (Fixture *f)
{
  int status;

  kill (f->xrecord, SIGTERM);
  status = test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The path named after "saved to " on the line that holds @who. */
static char *
saved_path (Fixture *f, const char *who)
{
  g_auto (GStrv) lines = g_strsplit (f->err->str, "\n", -1);

  for (char **l = lines; *l != NULL; l++)
    if (strstr (*l, who) != NULL && strstr (*l, "saved to ") != NULL)
      return g_strdup (strstr (*l, "saved to ") + strlen ("saved to "));
  g_error ("no line of xrecord's names %s: %s", who, f->err->str);
}

static guint
n_saved_files (Fixture *f)
{
  g_autoptr (GDir) dir = g_dir_open (f->save_dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* The session at @path: a 0600 file that loads. */
static Session *
load_saved (const char *path)
{
  g_autoptr (GError) error = NULL;
  GStatBuf st;
  Session *session;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  session = session_load (path, &error);
  g_assert_no_error (error);
  return session;
}

/* Every action of @session is aimed at a window of class @wm_class and
 * titled @title (each if not NULL), and the keys pressed in it spell, as
 * letters, @letters (modifiers and other keys aside). */
static void
assert_actions (const Session *session, const char *wm_class, const char *title,
                const char *letters)
{
  g_autoptr (GString) typed = g_string_new (NULL);
  g_autoptr (GArray) actions = session_get_actions (session);

  g_assert_cmpuint (actions->len, >, 0);
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));

      if (title != NULL)
        g_assert_cmpstr (ev->wm_name, ==, title);
      if (wm_class != NULL)
        g_assert_cmpstr (ev->wm_class, ==, wm_class);
      if (ev->kind == SESSION_EVENT_KEY_PRESS && strlen (ev->keysym) == 1
          && g_ascii_islower (ev->keysym[0]))
        g_string_append (typed, ev->keysym);
    }
  g_assert_cmpstr (typed->str, ==, letters);
}

/* xreduce @log (no --signal) -o @min -- @app: the minimal session's
 * steps; what xreduce said in *@said. */
static char *
reduce_app (Fixture *f, const char *log, const char *min, const char *const *app, char **said)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) reduced = NULL;
  int status = -1;

  for (const char *const *a = (const char *const[]) { env ("XREDUCE"), log, "-o", min, "-j",
                                                      "2", "--", NULL };
       *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  for (const char *const *a = app; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (f->dir, (char **) argv->pdata, f->envp,
                               G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, said, &status,
                               &error));
  g_assert_no_error (error);
  g_test_message ("xreduce %s said: %s", log, *said);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  reduced = session_load (min, &error);
  g_assert_no_error (error);
  g_assert_cmpint (session_get_outcome (reduced).kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (session_get_outcome (reduced).signal, ==, SIGSEGV);
  return session_describe_steps (reduced, SESSION_WORDS_TERMINAL, FALSE);
}

/* xreduce @log (no --signal) -o @min -- xdemo --bug print. */
static char *
reduce (Fixture *f, const char *log, const char *min, char **said)
{
  const char *demo[] = { env ("XDEMO"), "--bug", "print", NULL };

  return reduce_app (f, log, min, demo, said);
}

/* The demo, used: a click into its text field, "hi", Alt+P, and Print in
 * the Print dialog (its crash). @editor: its main window. */
static void
demo_use (Fixture *f, Window editor)
{
  type_in (f, editor, 300, 58, "hi");
}

static void
demo_crash (Fixture *f, Window editor, GPid *pid)
{
  Window print;
  int status;

  test_xdo_click_in (f->envp, editor, 300, 200, "1");
  test_xdo (f->envp, "key", "alt+p", NULL);
  print = wait_window (f, "Print");
  test_xdo_click_in (f->envp, print, 90, 128, "1");
  status = wait_exit (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGSEGV);
}

/* ---- the cases ---- */

static void
test_crash (Fixture *f, gconstpointer data)
{
  g_autofree char *demo_dir = g_build_filename (f->dir, "demo-cwd", NULL);
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "print", NULL };
  g_autofree char *crash_path = NULL, *min = NULL, *normal = NULL, *normal_min = NULL;
  g_autofree char *steps = NULL, *normal_steps = NULL, *said = NULL, *normal_said = NULL;
  g_autoptr (Session) crash = NULL;
  g_auto (GStrv) xterm_argv = NULL;
  Window notes, scratch, editor, term;
  GStatBuf st;
  int status;

  g_assert_cmpint (g_mkdir (demo_dir, 0700), ==, 0);
  xrecord_all_start (f, NULL);
  g_assert_cmpint (g_stat (f->save_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  notes = notes_start (f, &f->apps[0], "Notes", 0, 620);
  scratch = notes_start (f, &f->apps[1], "Scratch", 450, 620);
  f->apps[2] = spawn (f, demo_dir, demo_argv);
  editor = wait_window (f, "Editor");
  term = xterm_start (f, &f->apps[3], &xterm_argv);

  /* The four in turn. */
  type_in (f, notes, 200, 40, "abc");
  xterm_type (f, term, "echo uvw");
  demo_use (f, editor);
  type_in (f, scratch, 200, 40, "xyz");
  xterm_type (f, term, "true");
  type_in (f, notes, 200, 40, "de");

  /* SIGUSR1: every app's buffer, each with its own actions. */
  kill (f->xrecord, SIGUSR1);
  wait_said (f, "(SIGUSR1): its last", 4);
  {
    g_autofree char *p_demo = saved_path (f, "xdemo (pid");
    g_autoptr (Session) s_demo = load_saved (p_demo);

    g_assert_cmpuint (n_saved_files (f), ==, 4);
    assert_actions (s_demo, "XDemo", "Editor", "hi");
  }
  {
    /* xterm's: the keys typed into its shell, its command and folder; it
     * lists as the commands typed and replays to a pass (xterm does not
     * crash). */
    g_autofree char *p_term = saved_path (f, "xterm (pid");
    g_autoptr (Session) s_term = load_saved (p_term);
    g_autofree char *list = NULL, *replayed = NULL;
    g_autoptr (GPtrArray) replay = g_ptr_array_new ();
    const char *list_argv[] = { env ("XREPLAY"), "--list", p_term, NULL };
    int list_status = -1, replay_status = -1;

    g_assert_cmpuint (count_in (f->err->str, "xterm (pid"), ==, 1);
    assert_actions (s_term, "XTerm", "bash", "echouvwtrue");
    g_assert_cmpstrv (session_get_command (s_term), xterm_argv);
    g_assert_cmpstr (session_get_cwd (s_term), ==, f->dir);
    g_assert_true (g_spawn_sync (f->dir, (char **) list_argv, f->envp,
                                 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &list, NULL,
                                 &list_status, NULL));
    g_test_message ("xreplay --list %s:\n%s", p_term, list);
    g_assert_true (WIFEXITED (list_status) && WEXITSTATUS (list_status) == 0);
    g_assert_nonnull (strstr (list, "Type \"echo uvw\" and press Return in \"bash\""));
    g_assert_nonnull (strstr (list, "Type \"true\" and press Return in \"bash\""));
    g_ptr_array_add (replay, (char *) env ("XREPLAY"));
    g_ptr_array_add (replay, p_term);
    g_ptr_array_add (replay, (char *) "--");
    for (char **a = xterm_argv; *a != NULL; a++)
      g_ptr_array_add (replay, *a);
    g_ptr_array_add (replay, NULL);
    g_assert_true (g_spawn_sync (f->dir, (char **) replay->pdata, f->envp,
                                 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &replayed, NULL,
                                 &replay_status, NULL));
    g_test_message ("xreplay %s -- xterm ...: %s", p_term, replayed);
    g_assert_true (WIFEXITED (replay_status) && WEXITSTATUS (replay_status) == 0);
    g_assert_nonnull (strstr (replayed, "passed ("));
  }
  {
    /* Both GTK apps are gtk-notes.py: told apart by their windows. */
    g_auto (GStrv) lines = g_strsplit (f->err->str, "\n", -1);
    guint n_notes = 0, n_scratch = 0;

    for (char **l = lines; *l != NULL; l++)
      if (strstr (*l, "gtk-notes.py (pid") != NULL && strstr (*l, "(SIGUSR1)") != NULL)
        {
          g_autoptr (Session) s = load_saved (strstr (*l, "saved to ") + strlen ("saved to "));
          g_autoptr (GArray) actions = session_get_actions (s);
          const SessionEvent *first = session_get_event (s, g_array_index (actions, guint, 0));

          if (g_strcmp0 (first->wm_name, "Notes") == 0)
            {
              assert_actions (s, NULL, "Notes", "abcde");
              n_notes++;
            }
          else
            {
              assert_actions (s, NULL, "Scratch", "xyz");
              n_scratch++;
            }
        }
    g_assert_cmpuint (n_notes, ==, 1);
    g_assert_cmpuint (n_scratch, ==, 1);
  }

  /* Scratch closed normally: its window goes, then it exits 0. */
  test_xdo_click_in (f->envp, scratch, 200, 40, "1");
  test_xdo (f->envp, "key", "ctrl+q", NULL);
  wait_gone (f, scratch, "Scratch");
  status = wait_exit (&f->apps[1]);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  /* The demo crashes: its session, and only its (xterm, still running,
   * saves nothing). */
  demo_crash (f, editor, &f->apps[2]);
  wait_said (f, "was gone with its windows open", 1);
  type_in (f, notes, 200, 40, "f");
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  g_assert_cmpuint (count_in (f->err->str, "was gone with its windows open"), ==, 1);
  g_assert_cmpuint (n_saved_files (f), ==, 5);
  g_assert_cmpuint (count_in (f->err->str, "xterm (pid"), ==, 1);
  crash_path = saved_path (f, "was gone with its windows open");
  g_assert_nonnull (strstr (crash_path, "/xdemo-"));
  crash = load_saved (crash_path);
  g_assert_cmpint (session_get_outcome (crash).kind, ==, SESSION_OUTCOME_LOST);
  g_assert_cmpstrv (session_get_command (crash), demo_argv);
  g_assert_cmpstr (session_get_cwd (crash), ==, demo_dir);
  assert_actions (crash, "XDemo", NULL, "hip");

  /* xreduce takes the crash its replays show, and reduces as it reduces
   * a recording of the demo alone, made of the same use. */
  min = g_build_filename (f->dir, "crash.min", NULL);
  steps = reduce (f, crash_path, min, &said);
  g_assert_nonnull (strstr (said, "the session's outcome is unknown; its replay crashed with "
                                  "SIGSEGV"));
  {
    const char *argv[] = { env ("XRECORD"), "-d", f->xvfb.display, "-o", NULL, "--",
                           env ("XDEMO"), "--bug", "print", NULL };

    normal = g_build_filename (f->dir, "normal.log", NULL);
    argv[4] = normal;
    g_string_truncate (f->err, 0);
    close (f->xrecord_err);
    f->xrecord = test_spawn_talking (demo_dir, (const char *const *) argv, f->envp,
                                     &f->xrecord_err);
    test_wait_line (f->xrecord_err, f->err, "xrecord: recording ", WAIT_MS);
    editor = wait_window (f, "Editor");
    demo_use (f, editor);
    {
      Window print;

      test_xdo_click_in (f->envp, editor, 300, 200, "1");
      test_xdo (f->envp, "key", "alt+p", NULL);
      print = wait_window (f, "Print");
      test_xdo_click_in (f->envp, print, 90, 128, "1");
    }
    status = test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  }
  normal_min = g_build_filename (f->dir, "normal.min", NULL);
  normal_steps = reduce (f, normal, normal_min, &normal_said);
  g_assert_cmpstr (steps, ==, normal_steps);
}

static void
test_exclude_keep (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--save-dir", NULL, "--keep-actions", "4", "--exclude-class", "XDemo",
                         NULL };
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "print", NULL };
  g_autofree char *dir = g_build_filename (f->dir, "saved", NULL);
  g_autofree char *path = NULL;
  g_autoptr (Session) notes_session = NULL;
  Window notes, editor;

  save_into (f, args, dir);
  xrecord_all_start (f, args);
  notes = notes_start (f, &f->apps[0], "Notes", 0, 620);
  f->apps[2] = spawn (f, NULL, demo_argv);
  editor = wait_window (f, "Editor");
  demo_use (f, editor);
  type_in (f, notes, 200, 40, "abcdef");
  demo_use (f, editor);

  kill (f->xrecord, SIGUSR1);
  wait_said (f, "(SIGUSR1): its last", 1);
  g_assert_cmpuint (n_saved_files (f), ==, 1);
  path = saved_path (f, "(SIGUSR1)");
  notes_session = load_saved (path);
  /* The last 4 actions: e and f pressed and released. */
  g_assert_cmpuint (session_get_n_actions (notes_session), ==, 4);
  assert_actions (notes_session, NULL, "Notes", "ef");

  /* The demo's crash saves nothing: it was never recorded. */
  demo_crash (f, editor, &f->apps[2]);
  type_in (f, notes, 200, 40, "g");
  kill (f->xrecord, SIGUSR1);
  wait_said (f, "(SIGUSR1): its last", 2);
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  g_assert_null (strstr (f->err->str, "xdemo"));
  g_assert_cmpuint (n_saved_files (f), ==, 2);
}

/* The selection lines of @session: whether one is CLIPBOARD's with data
 * that holds @text (@text NULL: one with its data left out). */
static gboolean
has_clipboard (const Session *session, const char *text)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind != SESSION_EVENT_SELECTION || g_strcmp0 (ev->selection, "CLIPBOARD") != 0)
        continue;
      if (text == NULL ? ev->type == NULL && ev->data == NULL
                       : ev->data != NULL && g_strstr_len (ev->data, ev->data_len, text) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* A paste from another app, both recorded: Source (gtk-source.py)
 * copies its text with Ctrl+A, Ctrl+C; Given (gtk-given.py) pastes it
 * with Ctrl+V and crashes (test-given's paste-copy, under --all). Given's
 * session holds what it pasted, none of Source's actions, and reduces to
 * the paste, which replays with a CLIPBOARD of the replay's own. With
 * --no-selections: that it pasted, not what. */
static void
test_paste (Fixture *f, gconstpointer data)
{
  g_autofree char *given_py = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps",
                                                "gtk-given.py", NULL);
  g_autofree char *source_py = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps",
                                                 "gtk-source.py", NULL);
  const char *given_argv[] = { "/usr/bin/python3", given_py, NULL };
  const char *source_argv[] = { "/usr/bin/python3", source_py, "xxBOOMxx", NULL };

  for (guint round = 0; round < 2; round++)
    {
      const char *args[] = { "--save-dir", NULL, round == 1 ? "--no-selections" : NULL, NULL };
      g_autofree char *dir = g_strdup_printf ("%s/saved-%u", f->dir, round);
      g_autofree char *path = NULL;
      g_autoptr (Session) session = NULL;
      Window source, given;
      int status;

      save_into (f, args, dir);
      g_string_truncate (f->err, 0);
      xrecord_all_start (f, args);
      f->apps[0] = spawn (f, NULL, source_argv);
      source = wait_window (f, "Source");
      f->apps[1] = spawn (f, NULL, given_argv);
      given = wait_window (f, "Given");
      test_xdo_click_in (f->envp, source, 200, 40, "1");
      test_xdo (f->envp, "key", "ctrl+a", NULL);
      test_xdo (f->envp, "key", "ctrl+c", NULL);
      test_wait_selection_owner (f->dpy, "CLIPBOARD", None, WAIT_MS);
      test_xdo_click_in (f->envp, given, 100, 40, "1");
      test_xdo (f->envp, "key", "ctrl+v", NULL);
      status = wait_exit (&f->apps[1]);
      g_assert_true (WIFSIGNALED (status));
      g_assert_cmpint (WTERMSIG (status), ==, SIGSEGV);
      wait_said (f, "was gone with its windows open", 1);

      path = saved_path (f, "was gone with its windows open");
      g_assert_nonnull (strstr (path, "/gtk-given.py-"));
      session = load_saved (path);
      assert_actions (session, NULL, "Given", "v");
      g_assert_true (has_clipboard (session, round == 0 ? "xxBOOMxx" : NULL));
      g_assert_false (has_clipboard (session, round == 0 ? NULL : "xxBOOMxx"));
      if (round == 0)
        {
          g_autofree char *min = g_build_filename (f->dir, "paste.min", NULL);
          g_autofree char *said = NULL;
          g_autofree char *steps = reduce_app (f, path, min, given_argv, &said);

          /* (Where the crash came before the user released V, the
           * release is xreduce's: a line says so after the step.) */
          g_assert_true (g_str_has_prefix (steps, "  1. Paste \"xxBOOMxx\" (from CLIPBOARD) in "
                                                  "\"Given\"\n"));
          g_assert_null (strstr (steps, "  2. "));
        }
      g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
      g_assert_cmpuint (n_saved_files (f), ==, 1);
      kill (f->apps[0], SIGTERM);
      wait_exit (&f->apps[0]);
      close (f->xrecord_err);
      f->xrecord_err = -1;
    }
}

/* An app that was running before xrecord: its windows were up before
 * xrecord saw them mapped; its crash is saved all the same. */
static void
test_running (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--save-dir", NULL, NULL };
  /* F5 with Wrap checked: a crash with only the main window up, which
   * was mapped before xrecord started. */
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "order", NULL };
  g_autofree char *dir = g_build_filename (f->dir, "saved", NULL);
  g_autofree char *path = NULL;
  g_autoptr (Session) crash = NULL;
  Window editor;
  int status;

  save_into (f, args, dir);
  /* (The machine's coredumpctl, if any: not the stand-in.) */
  f->envp = g_environ_setenv (f->envp, "PATH", g_getenv ("PATH"), TRUE);
  f->apps[2] = spawn (f, NULL, demo_argv);
  editor = wait_window (f, "Editor");
  xrecord_all_start (f, args);
  demo_use (f, editor);
  test_xdo_click_in (f->envp, editor, 60, 99, "1");
  test_xdo (f->envp, "key", "F5", NULL);
  status = wait_exit (&f->apps[2]);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGSEGV);
  wait_said (f, "was gone with its windows open", 1);
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  g_assert_cmpuint (n_saved_files (f), ==, 1);
  path = saved_path (f, "was gone with its windows open");
  crash = load_saved (path);
  assert_actions (crash, "XDemo", "Editor", "hi");
  {
    g_autofree char *coredumpctl = g_find_program_in_path ("coredumpctl");

    if (coredumpctl == NULL)
      g_assert_cmpint (session_get_outcome (crash).kind, ==, SESSION_OUTCOME_LOST);
  }
}

/* systemd-coredump's entry for the crashed pid, which comes a moment
 * after the app has gone: the session says how it crashed. */
static void
test_coredump (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--save-dir", NULL, NULL };
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "order", NULL };
  g_autofree char *dir = g_build_filename (f->dir, "saved", NULL);
  g_autofree char *calls_path = g_build_filename (f->dir, "bin", "calls", NULL);
  g_autofree char *calls = NULL, *path = NULL, *expected = NULL;
  g_autoptr (Session) crash = NULL;
  Window editor;
  int status;

  save_into (f, args, dir);
  f->envp = g_environ_setenv (f->envp, "FAKE_COREDUMP_SIG", "11", TRUE);
  xrecord_all_start (f, args);
  f->apps[2] = spawn (f, NULL, demo_argv);
  editor = wait_window (f, "Editor");
  demo_use (f, editor);
  test_xdo_click_in (f->envp, editor, 60, 99, "1");
  test_xdo (f->envp, "key", "F5", NULL);
  status = wait_exit (&f->apps[2]);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGSEGV);
  wait_said (f, "was gone with its windows open (SIGSEGV, says systemd-coredump)", 1);
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  path = saved_path (f, "was gone with its windows open");
  crash = load_saved (path);
  g_assert_cmpint (session_get_outcome (crash).kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (session_get_outcome (crash).signal, ==, SIGSEGV);
  assert_actions (crash, "XDemo", "Editor", "hi");
  /* Asked again until the entry came, about this pid only. */
  g_assert_true (g_file_get_contents (calls_path, &calls, NULL, NULL));
  g_assert_nonnull (strstr (f->err->str, "xdemo (pid "));
  expected = g_strdup_printf ("--no-pager --quiet --json=short list COREDUMP_PID=%d\n",
                              atoi (strstr (f->err->str, "xdemo (pid ") + strlen ("xdemo (pid ")));
  g_assert_cmpuint (count_in (calls, expected), ==, 3);
}

/* No key of @session's is one of @keysyms. */
static void
assert_no_keys (const Session *session, const char *const *keysyms)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
        g_assert_false (g_strv_contains (keysyms, ev->keysym));
    }
}

/* Whether @session holds a press and a release of @keysym. */
static gboolean
has_key (const Session *session, const char *keysym)
{
  gboolean pressed = FALSE, released = FALSE;

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_KEY_PRESS && g_strcmp0 (ev->keysym, keysym) == 0)
        pressed = TRUE;
      if (ev->kind == SESSION_EVENT_KEY_RELEASE && g_strcmp0 (ev->keysym, keysym) == 0)
        released = pressed;
    }
  return pressed && released;
}

/* The session saved on the @nth line (from 1) that holds @who. */
static Session *
load_nth_saved (Fixture *f, const char *who, guint nth)
{
  g_auto (GStrv) lines = g_strsplit (f->err->str, "\n", -1);

  for (char **l = lines; *l != NULL; l++)
    if (strstr (*l, who) != NULL && strstr (*l, "saved to ") != NULL && --nth == 0)
      return load_saved (strstr (*l, "saved to ") + strlen ("saved to "));
  g_error ("no such line of xrecord's names %s: %s", who, f->err->str);
}

/* --save-key: the chord pressed (xdotool presses Control, Alt, Pause and
 * releases them) saves every app's buffer, without the chord's keys. */
static void
test_save_key (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--save-dir", NULL, "--save-key", "ctrl+alt+Pause", NULL };
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "print", NULL };
  const char *chord_keys[] = { "Control_L", "Control_R", "Alt_L", "Alt_R", "Meta_L", "Pause",
                               "Break", NULL };
  g_autofree char *dir = g_build_filename (f->dir, "saved", NULL);
  Window notes, editor;

  save_into (f, args, dir);
  xrecord_all_start (f, args);
  notes = notes_start (f, &f->apps[0], "Notes", 0, 620);
  f->apps[2] = spawn (f, NULL, demo_argv);
  editor = wait_window (f, "Editor");
  type_in (f, notes, 200, 40, "abc");
  demo_use (f, editor);

  test_xdo (f->envp, "key", "ctrl+alt+Pause", NULL);
  wait_said (f, "(--save-key): its last", 2);
  g_assert_cmpuint (n_saved_files (f), ==, 2);
  {
    g_autoptr (Session) s_demo = load_nth_saved (f, "xdemo (pid", 1);
    g_autoptr (Session) s_notes = load_nth_saved (f, "gtk-notes.py (pid", 1);

    assert_actions (s_demo, "XDemo", "Editor", "hi");
    assert_no_keys (s_demo, chord_keys);
    assert_actions (s_notes, NULL, "Notes", "abc");
    assert_no_keys (s_notes, chord_keys);
  }

  /* Control with another key is no chord: recorded. The chord again:
   * its modifiers' releases (after the first save) are in no session. */
  test_xdo_click_in (f->envp, notes, 200, 40, "1");
  test_xdo (f->envp, "key", "ctrl+a", NULL);
  test_xdo (f->envp, "type", "--delay", "30", "de", NULL);
  test_xdo (f->envp, "key", "ctrl+alt+Pause", NULL);
  wait_said (f, "(--save-key): its last", 4);
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  g_assert_cmpuint (n_saved_files (f), ==, 4);
  {
    g_autoptr (Session) s_notes = load_nth_saved (f, "gtk-notes.py (pid", 2);
    g_autoptr (Session) s_demo = load_nth_saved (f, "xdemo (pid", 2);
    const char *no_alt_pause[] = { "Alt_L", "Alt_R", "Meta_L", "Pause", "Break", NULL };

    assert_actions (s_notes, NULL, "Notes", "abcade");
    assert_no_keys (s_notes, no_alt_pause);
    g_assert_true (has_key (s_notes, "Control_L"));
    assert_actions (s_demo, "XDemo", "Editor", "hi");
    assert_no_keys (s_demo, chord_keys);
  }
}

/* Under a window manager the root's children are its frames: the app's
 * window named @title, once it is viewable (xdotool search --sync waits
 * for that state). */
static Window
wait_client (Fixture *f, const char *title)
{
  g_autofree char *pattern = g_strdup_printf ("^%s$", title);
  const char *argv[] = { "xdotool", "search", "--sync", "--onlyvisible", "--name", pattern,
                         NULL };
  g_autofree char *out = NULL;
  int status = -1;

  status = test_run_sync_status ((const char *const *) argv, (const char *const *) f->envp,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, &out, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  return (Window) g_ascii_strtoull (out, NULL, 10);
}

/* openbox on the display, until it manages it (_NET_SUPPORTING_WM_CHECK
 * on the root) and its loop has come to rest. */
static void
openbox_start (Fixture *f, GPid *pid)
{
  const char *argv[] = { "openbox", "--sm-disable", NULL };
  Window root = DefaultRootWindow (f->dpy);
  Atom check = XInternAtom (f->dpy, "_NET_SUPPORTING_WM_CHECK", False);
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;

  XSelectInput (f->dpy, root, SubstructureNotifyMask | PropertyChangeMask);
  XSync (f->dpy, False);
  *pid = test_spawn_quiet (f->dir, (const char *const *) argv, f->envp, G_SPAWN_SEARCH_PATH);
  for (;;)
    {
      XEvent ev;

      next_event (f, &ev, deadline, "openbox to manage the display");
      if (ev.type == PropertyNotify && ev.xproperty.window == root
          && ev.xproperty.atom == check)
        break;
    }
  test_wait_idle (*pid, WAIT_MS);
}

/* On a desktop with a window manager (openbox: frames, focus on click):
 * the GTK app closed normally saves nothing, the demo's crash saves its
 * actions only. */
static void
test_openbox (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--save-dir", NULL, NULL };
  const char *demo_argv[] = { env ("XDEMO"), "--bug", "print", NULL };
  g_autofree char *dir = g_build_filename (f->dir, "saved", NULL);
  g_autofree char *script = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps",
                                              "gtk-notes.py", NULL);
  const char *notes_argv[] = { "/usr/bin/python3", script, "Notes", "0", "620", NULL };
  g_autofree char *path = NULL;
  g_autoptr (Session) crash = NULL;
  Window notes, editor, print;
  int status;

  save_into (f, args, dir);
  openbox_start (f, &f->apps[3]);
  xrecord_all_start (f, args);
  f->apps[0] = spawn (f, NULL, notes_argv);
  notes = wait_client (f, "Notes");
  f->apps[2] = spawn (f, NULL, demo_argv);
  editor = wait_client (f, "Editor");
  type_in (f, notes, 200, 40, "abc");
  demo_use (f, editor);
  type_in (f, notes, 200, 40, "de");

  /* Notes closes normally, then the demo crashes. */
  test_xdo (f->envp, "key", "ctrl+q", NULL);
  status = wait_exit (&f->apps[0]);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  test_xdo_click_in (f->envp, editor, 300, 200, "1");
  test_xdo (f->envp, "key", "alt+p", NULL);
  print = wait_client (f, "Print");
  test_xdo_click_in (f->envp, print, 90, 128, "1");
  status = wait_exit (&f->apps[2]);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGSEGV);
  wait_said (f, "was gone with its windows open", 1);
  g_assert_cmpint (xrecord_stop (f), ==, 128 + SIGTERM);
  g_assert_cmpuint (count_in (f->err->str, "was gone with its windows open"), ==, 1);
  g_assert_cmpuint (n_saved_files (f), ==, 1);
  path = saved_path (f, "xdemo (pid");
  crash = load_saved (path);
  assert_actions (crash, "XDemo", NULL, "hip");
  g_assert_cmpstr (session_get_wm (crash), ==, "Openbox");
}

/* Each bad command line: its status and message, and nothing started. */
static void
test_usage (void)
{
  g_autofree char *dir = test_make_tmp ("test-record-all-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "file", NULL);
  g_auto (GStrv) envp = NULL;
  const struct
  {
    const char *args[8];
    const char *message;
  } cases[] = {
    { { "--all", NULL }, "--all needs the display to record (-d DPY, e.g. -d :0; DISPLAY is not set)" },
    { { "--all", "-d", ":99", "--", "xterm", NULL }, "no APP" },
    { { "--all", "-d", ":99", "-o", "x.log", NULL }, "--all takes none of -o" },
    { { "--all", "-d", ":99", "--keep", "0", NULL }, "--keep: '0' is not a number of minutes" },
    { { "--all", "-d", ":99", "--keep-actions", "many", NULL },
      "--keep-actions: 'many' is not a number of actions" },
    { { "--all", "-d", ":99", "--exclude-class", "", NULL }, "an empty class" },
    { { "--all", "-d", ":99", "--save-dir", file, NULL }, "cannot save sessions there" },
    { { "--keep", "5", "-o", "x.log", "--", "xterm", NULL }, "go with --all" },
    { { "--all", "-d", ":99", "--record-env", "AWS_SECRET_ACCESS_KEY", NULL },
      "--record-env: AWS_SECRET_ACCESS_KEY looks like a secret" },
    { { "--all", "-d", ":99", "--save-key", "ctrl+alt+F99", NULL },
      "--save-key: 'F99' is not a key name" },
    { { "--all", "-d", ":99", "--save-key", "hyper+s", NULL },
      "--save-key: 'hyper' is not a modifier" },
    { { "--save-key", "ctrl+alt+Pause", "-o", "x.log", "--", "xterm", NULL }, "go with --all" },
    { { "--all", "-d", ":99", "--save-key", "ctrl+alt+F12", NULL },
      "--save-key: the X server takes 'ctrl+alt+F12' for itself" },
  };

  /* (No DISPLAY for --all to fall back on.) */
  envp = g_environ_unsetenv (g_get_environ (), "DISPLAY");
  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *err = NULL;
      int status = -1;

      g_ptr_array_add (argv, (char *) env ("XRECORD"));
      for (const char *const *a = cases[i].args; *a != NULL; a++)
        g_ptr_array_add (argv, (char *) *a);
      g_ptr_array_add (argv, NULL);
      g_assert_true (g_spawn_sync (dir, (char **) argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL,
                                   NULL, NULL, NULL, &err, &status, NULL));
      g_test_message ("case %zu said: %s", i, err);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_nonnull (strstr (err, cases[i].message));
    }
  {
    /* No server there: an infrastructure error, 3. */
    g_autofree char *save = g_build_filename (dir, "saved", NULL);
    const char *argv[] = { env ("XRECORD"), "--all", "-d", ":4242", "--save-dir", save, NULL };
    g_autofree char *err = NULL;
    int status = -1;

    g_assert_true (g_spawn_sync (dir, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                                 NULL, NULL, &err, &status, NULL));
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 3);
    g_assert_nonnull (strstr (err, "cannot open display :4242"));
  }
  {
    /* Without -d, --all records $DISPLAY (as the autostart entry starts
     * it): here one with no server, 3. */
    g_autofree char *save = g_build_filename (dir, "saved", NULL);
    const char *argv[] = { env ("XRECORD"), "--all", "--save-dir", save, NULL };
    g_auto (GStrv) with_display = g_environ_setenv (g_strdupv (envp), "DISPLAY", ":4243", TRUE);
    g_autofree char *err = NULL;
    int status = -1;

    g_assert_true (g_spawn_sync (dir, (char **) argv, with_display, G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, NULL, &err, &status, NULL));
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 3);
    g_assert_nonnull (strstr (err, "cannot open display :4243"));
  }
  test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
  /* (The crash first: it is two reductions long.) */
  if (test_shard_mine ())
    g_test_add ("/record-all/crash", Fixture, NULL, fixture_setup, test_crash,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/paste", Fixture, NULL, fixture_setup, test_paste,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/exclude-keep", Fixture, NULL, fixture_setup, test_exclude_keep,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/running", Fixture, NULL, fixture_setup, test_running,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/coredump", Fixture, NULL, fixture_setup, test_coredump,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/save-key", Fixture, NULL, fixture_setup, test_save_key,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record-all/openbox", Fixture, NULL, fixture_setup, test_openbox,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add_func ("/record-all/usage", test_usage);
  return g_test_run ();
}
