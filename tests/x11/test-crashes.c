/* test-crashes.c — bug reports that hold on apps other than the demo: a
 * Python GTK app and a Tcl/Tk app that crash in C (their report's title
 * names the signal and the C frame with file:line, the Python one shows
 * the Python stack), a multi-threaded app whose worker thread crashes,
 * the same through a launcher script that execs it, xterm killed by the
 * kill its shell runs ("sent by pid N (bash)", and a picture of the
 * command typed); the demo's steps with the user's releases put back; a
 * release xreduce added that aims at a window gone; a session for
 * another app; a report at --limit-time. Each case runs the real xreduce
 * or xreplay, which start their own Xvfbs.
 *
 * Sessions are written here (a click, some typing, the click that
 * crashes): the point is the report, not the recording.
 *
 * Programs and data come from the environment: XREDUCE, XREPLAY, XDEMO,
 * XTHREADS, XFAULT_LIB, XREDUCE_SRCDIR.
 */
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"

typedef struct
{
  char *dir;
  char *session;             /* dir/s.log */
  char *out;                 /* dir/s.log.min */
  char *report;              /* dir/s.log.min.report/report.md */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = test_make_tmp ("test-crashes-XXXXXX");
  f->session = g_build_filename (f->dir, "s.log", NULL);
  f->out = g_build_filename (f->dir, "s.log.min", NULL);
  f->report = g_build_filename (f->dir, "s.log.min.report", "report.md", NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->session);
  g_free (f->out);
  g_free (f->report);
  g_assert_cmpuint (test_orphans_alive (0), ==, 0);
}

/* A session of the app whose main window is @class, "@title", on a
 * 640x480 screen; @actions are its lines. */
static void
write_session (Fixture *f, const char *command, const char *actions)
{
  g_autofree char *text = g_strdup_printf ("xreduce-session 1\nscreen 640x480\ncommand \"%s\"\n"
                                           "keymap \"us\"\n%soutcome crashed SIGSEGV\n",
                                           command, actions);

  g_assert_true (g_file_set_contents (f->session, text, -1, NULL));
}

/* A pointer action at @x,@y of the main window. */
static void
pointer (GString *s, guint64 t, const char *what, guint button, int x, int y,
         const char *class, const char *title)
{
  g_string_append_printf (s, "%" G_GUINT64_FORMAT " %s", t, what);
  if (button > 0)
    g_string_append_printf (s, " button=%u", button);
  g_string_append_printf (s, " state=0x0 root=%d,%d pos=%d,%d window=0 class=\"%s\" "
                          "title=\"%s\"\n", x, y, x, y, class, title);
}

static void
key (GString *s, guint64 t, gboolean press, const char *keysym, guint keycode,
     const char *class, const char *title)
{
  g_string_append_printf (s, "%" G_GUINT64_FORMAT " %s keysym=%s keycode=%u state=0x0 "
                          "window=0 class=\"%s\" title=\"%s\"\n", t,
                          press ? "KeyPress" : "KeyRelease", keysym, keycode, class, title);
}

/* A click in an unimportant place, two keys typed, then the click at
 * @x,@y that crashes the app: the reduction keeps that click. */
static char *
noise_then_click (const char *class, const char *title, int x, int y, int quiet_x, int quiet_y)
{
  GString *s = g_string_new (NULL);

  pointer (s, 100, "MotionNotify", 0, quiet_x, quiet_y, class, title);
  pointer (s, 150, "ButtonPress", 1, quiet_x, quiet_y, class, title);
  pointer (s, 200, "ButtonRelease", 1, quiet_x, quiet_y, class, title);
  key (s, 300, TRUE, "h", 43, class, title);
  key (s, 350, FALSE, "h", 43, class, title);
  key (s, 400, TRUE, "i", 31, class, title);
  key (s, 450, FALSE, "i", 31, class, title);
  pointer (s, 800, "MotionNotify", 0, x, y, class, title);
  pointer (s, 850, "ButtonPress", 1, x, y, class, title);
  pointer (s, 900, "ButtonRelease", 1, x, y, class, title);
  return g_string_free (s, FALSE);
}

/* Runs @argv to its end; returns its exit status (128+N if killed by
 * signal N) and what it said (stdout and stderr: either may be NULL;
 * always captured, as a line of the program's on our stdout would break
 * the TAP stream). */
static int
run (const char *const *argv, char **out, char **err)
{
  return test_run_sync (argv, NULL, G_SPAWN_DEFAULT, out, err);
}

/* xreduce --json SESSION -- @app...: exit 0 and its JSON's root object. */
static JsonObject *
reduce (Fixture *f, const char *const *app, JsonParser *parser)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;

  g_ptr_array_add (argv, (char *) env ("XREDUCE"));
  g_ptr_array_add (argv, (char *) "--json");
  g_ptr_array_add (argv, f->session);
  g_ptr_array_add (argv, (char *) "--");
  for (const char *const *a = app; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (run ((const char *const *) argv->pdata, &out, &err), ==, 0);
  return test_json_object (parser, out);
}

static char *
read_report (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("report.md:\n%s", text);
  return text;
}

/* Its first line, the title, starts "# @start". */
static void
assert_title (const char *report, const char *start)
{
  g_autofree char *title = g_strndup (report, strcspn (report, "\n"));
  g_autofree char *want = g_strconcat ("# ", start, NULL);

  if (!g_str_has_prefix (title, want))
    g_error ("the report's title is \"%s\", not \"%s...\"", title, want);
}

static gboolean
have_program (const char *name)
{
  g_autofree char *path = g_find_program_in_path (name);

  return path != NULL;
}

/* A Python GTK app that crashes in C through ctypes: the title names
 * the C frame with its file and line, the report the Python stack. */
static void
test_python (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *script = test_app_path ("py-fault.py");
  g_autofree char *actions = noise_then_click ("Py-fault.py", "Python fault", 200, 120, 100, 20);
  g_autofree char *report = NULL;
  const char *app[] = { "/usr/bin/python3", script, env ("XFAULT_LIB"), NULL };
  const char *check[] = { "/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')",
                          NULL };
  JsonObject *result, *crash;

  if (run (check, NULL, NULL) != 0)
    {
      g_test_skip ("python3-gi with GTK 3 is not installed");
      return;
    }
  write_session (f, "python3", actions);
  result = reduce (f, app, parser);
  crash = json_object_get_object_member (result, "crash");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (crash, "how"),
                                   "crashed with SIGSEGV in xfault_crash (xfault.c:"));
  g_assert_true (json_object_get_null_member (crash, "sent_by"));
  report = read_report (f->report);
  assert_title (report, "py-fault.py crashed with SIGSEGV in xfault_crash (xfault.c:");
  g_assert_nonnull (strstr (report, "Python stack of the thread that crashed"));
  g_assert_nonnull (strstr (report, "File \"py-fault.py\", line 23, in on_crash"));
  g_assert_nonnull (strstr (report, "#0 xfault_crash at xfault.c:"));
}

/* A Tcl/Tk app whose button loads a library that crashes. */
static void
test_tk (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *script = test_app_path ("tk-fault.tcl");
  g_autofree char *actions = noise_then_click ("Tk-fault.tcl", "Tk fault", 200, 120, 100, 20);
  g_autofree char *report = NULL;
  const char *app[] = { "wish", script, env ("XFAULT_LIB"), NULL };

  if (!have_program ("wish"))
    {
      g_test_skip ("Tk (wish) is not installed");
      return;
    }
  write_session (f, "wish", actions);
  reduce (f, app, parser);
  report = read_report (f->report);
  assert_title (report, "tk-fault.tcl crashed with SIGSEGV in xfault_crash (xfault.c:");
  g_assert_nonnull (strstr (report, "#1 Xfault_Init at xfault.c:"));
}

/* A multi-threaded app whose worker thread crashes: its frame, with file
 * and line, and the thread; directly (@data NULL) or through a launcher
 * script that execs it. */
static void
test_threads (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *actions = noise_then_click ("XThreads", "Threads", 220, 100, 50, 50);
  g_autofree char *wrapper = data != NULL ? test_app_path (data) : NULL;
  g_autofree char *report = NULL;
  g_autofree char *name = data != NULL ? g_strdup (data) : g_strdup ("xthreads");
  g_autofree char *title = g_strdup_printf ("%s crashed with SIGSEGV in worker_crash "
                                            "(xthreads.c:", name);
  const char *direct[] = { env ("XTHREADS"), NULL };
  const char *wrapped[] = { wrapper, env ("XTHREADS"), NULL };

  write_session (f, "xthreads", actions);
  reduce (f, wrapper != NULL ? wrapped : direct, parser);
  report = read_report (f->report);
  assert_title (report, title);
  g_assert_nonnull (strstr (report, "in its thread"));
  g_assert_nonnull (strstr (report, "#0 worker_crash at xthreads.c:"));
  g_assert_nonnull (strstr (report, "#1 worker at xthreads.c:"));
}

/* The keysym and keycode of @c on a US keyboard, and whether it needs
 * Shift (the characters of "kill -SEGV $PPID"). */
static const char *
keysym_of (char c, guint *keycode, gboolean *shift)
{
  static const struct { char c; const char *name; guint code; gboolean shift; } table[] = {
    { ' ', "space", 65, FALSE }, { '-', "minus", 20, FALSE }, { '$', "dollar", 13, TRUE },
  };
  static char letter[2];

  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    if (table[i].c == c)
      {
        *keycode = table[i].code;
        *shift = table[i].shift;
        return table[i].name;
      }
  letter[0] = c;
  *keycode = 24 + (guint) (g_ascii_tolower (c) % 32);
  *shift = g_ascii_isupper (c);
  return letter;
}

/* How many pixels of the pictures @a and @b differ, below their caption
 * bands (@band pixels; the two captions differ). */
static guint
pixels_differing (const char *a, const char *b, int band)
{
  cairo_surface_t *pa = cairo_image_surface_create_from_png (a);
  cairo_surface_t *pb = cairo_image_surface_create_from_png (b);
  int w, h;
  guint n = 0;

  g_assert_cmpint (cairo_surface_status (pa), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_surface_status (pb), ==, CAIRO_STATUS_SUCCESS);
  w = MIN (cairo_image_surface_get_width (pa), cairo_image_surface_get_width (pb));
  h = MIN (cairo_image_surface_get_height (pa), cairo_image_surface_get_height (pb));
  for (int y = band; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint32 *ra = (const guint32 *) (cairo_image_surface_get_data (pa)
                                               + (gsize) y * cairo_image_surface_get_stride (pa));
        const guint32 *rb = (const guint32 *) (cairo_image_surface_get_data (pb)
                                               + (gsize) y * cairo_image_surface_get_stride (pb));
        n += (ra[x] & 0xffffff) != (rb[x] & 0xffffff);
      }
  cairo_surface_destroy (pa);
  cairo_surface_destroy (pb);
  return n;
}

/* xterm killed by `kill -SEGV $PPID` typed into its shell: the report
 * and the JSON say the signal was sent, by whom; the typing step has a
 * picture of the command typed, which its picture before has not. */
static void
test_sent_by (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) actions = g_string_new (NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *dir = g_build_filename (f->dir, "report", NULL);
  g_autofree char *md = g_build_filename (dir, "report.md", NULL);
  g_autofree char *before = g_build_filename (dir, "step-02.png", NULL);
  g_autofree char *typed = g_build_filename (dir, "step-02-typed.png", NULL);
  g_autofree char *report = NULL, *out = NULL;
  const char *text = "kill -SEGV $PPID";
  const char *class = "XTerm", *title = "bash";
  guint64 t = 1000;
  JsonObject *crash, *sender;

  if (!have_program ("xterm") || !have_program ("bash"))
    {
      g_test_skip ("xterm or bash is not installed");
      return;
    }
  pointer (actions, 500, "MotionNotify", 0, 200, 150, class, title);
  pointer (actions, 550, "ButtonPress", 1, 200, 150, class, title);
  pointer (actions, 600, "ButtonRelease", 1, 200, 150, class, title);
  for (const char *c = text; *c != '\0'; c++, t += 120)
    {
      guint code;
      gboolean shift;
      const char *sym = keysym_of (*c, &code, &shift);

      if (shift)
        key (actions, t, TRUE, "Shift_L", 50, class, title);
      key (actions, t + 20, TRUE, sym, code, class, title);
      key (actions, t + 60, FALSE, sym, code, class, title);
      if (shift)
        key (actions, t + 80, FALSE, "Shift_L", 50, class, title);
    }
  key (actions, t + 400, TRUE, "Return", 36, class, title);
  key (actions, t + 450, FALSE, "Return", 36, class, title);
  write_session (f, "xterm", actions->str);
  {
    const char *argv[] = { env ("XREPLAY"), "--report", dir, f->session, "--", "xterm",
                           "-geometry", "80x24+10+10", "-e", "bash", "--norc", "--noprofile",
                           NULL };
    const char *json[] = { env ("XREPLAY"), "--json", "--backtrace", f->session, "--", "xterm",
                           "-geometry", "80x24+10+10", "-e", "bash", "--norc", "--noprofile",
                           NULL };

    g_assert_cmpint (run (argv, NULL, NULL), ==, 1);
    g_assert_cmpint (run (json, &out, NULL), ==, 1);
  }
  report = read_report (md);
  assert_title (report, "xterm ");
  {
    g_autofree char *title = g_strndup (report, strcspn (report, "\n"));

    g_assert_nonnull (strstr (title, " killed by SIGSEGV sent by pid "));
    g_assert_true (g_str_has_suffix (title, " (bash)"));
  }
  g_assert_null (strstr (report, "crashed with SIGSEGV in"));
  crash = json_object_get_object_member (test_json_object (parser, out), "crash");
  sender = json_object_get_object_member (crash, "sent_by");
  g_assert_nonnull (sender);
  g_assert_cmpstr (json_object_get_string_member (sender, "name"), ==, "bash");
  g_assert_cmpint (json_object_get_int_member (sender, "pid"), >, 0);
  /* The command typed is on its picture: some hundreds of pixels of
   * text that the picture before the step has not. */
  g_assert_nonnull (strstr (report, "[the text typed](step-02-typed.png)"));
  g_assert_cmpuint (pixels_differing (before, typed, 30), >, 150);
}

/* The demo's steps read as the user did them: the releases of Alt and p
 * go back in, the click is a click, nothing is held. */
static void
test_demo_steps (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *demo = data_path ("demo.session");
  g_autofree char *text = NULL, *report = NULL;
  const char *app[] = { env ("XDEMO"), NULL };
  JsonObject *result;

  g_assert_true (g_file_get_contents (demo, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (f->session, text, -1, NULL));
  result = reduce (f, app, parser);
  g_assert_cmpint (json_object_get_int_member (result, "releases_put_back"), >=, 2);
  g_assert_cmpint (json_object_get_int_member (result, "releases_added"), ==, 0);
  report = read_report (f->report);
  assert_title (report, "xdemo 1.0 crashed with SIGSEGV in print_document (xdemo.c:");
  g_assert_nonnull (strstr (report, "1. Press Alt+P in \"Editor\"."));
  g_assert_nonnull (strstr (report, "2. Click at "));
  g_assert_nonnull (strstr (report, " in \"Print\"."));
  g_assert_null (strstr (report, "Alt+click"));
  g_assert_null (strstr (report, "Held down"));
  g_assert_nonnull (strstr (report, "The user's releases: "));
}

/* A release xreduce added, aimed at a window that is not there (a
 * dialog its click closed): it goes where the server sends it; the
 * replay is not unresolved. */
static void
test_added_release (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) actions = g_string_new (NULL);
  g_autofree char *out = NULL;
  const char *argv[] = { env ("XREPLAY"), "--settle", "200", f->session, "--", env ("XTHREADS"),
                         NULL };

  pointer (actions, 100, "MotionNotify", 0, 50, 50, "XThreads", "Threads");
  pointer (actions, 150, "ButtonPress", 1, 50, 50, "XThreads", "Threads");
  g_string_append (actions, "200 ButtonRelease button=1 state=0x100 root=60,60 pos=10,10 "
                            "window=1 class=\"XThreads\" title=\"A dialog long gone\" added=1\n");
  write_session (f, "xthreads", actions->str);
  g_assert_cmpint (run (argv, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "passed"));
}

/* The demo's session given another app: said at once, both named, exit
 * 2, the JSON a usage error; nothing written. */
static void
test_wrong_app (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *demo = data_path ("demo.session");
  g_autofree char *text = NULL, *out = NULL, *err = NULL;
  const char *argv[] = { env ("XREDUCE"), "--json", f->session, "--", env ("XTHREADS"), NULL };
  JsonObject *result;

  g_assert_true (g_file_get_contents (demo, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (f->session, text, -1, NULL));
  g_assert_cmpint (run (argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "\"XDemo\""));
  g_assert_nonnull (strstr (err, "\"XThreads\""));
  result = test_json_object (parser, out);
  g_assert_cmpstr (json_object_get_string_member (result, "verdict"), ==, "usage_error");
  g_assert_false (g_file_test (f->out, G_FILE_TEST_EXISTS));
}

/* --limit-time: the best result so far gets its report, marked. The
 * oracle says the full session fails once, then never answers again:
 * at the limit the verification has seen one failure, and the search
 * nothing more. */
static void
test_limit_time_report (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *demo = data_path ("demo.session");
  g_autofree char *script = g_build_filename (f->dir, "oracle.sh", NULL);
  g_autofree char *marker = g_build_filename (f->dir, "failed-once", NULL);
  g_autofree char *oracle = g_strdup_printf ("#!/bin/sh\n"
                                             "grep -q Press \"$1\" || exit 1\n"
                                             "mkdir '%s' 2>/dev/null && exit 0\n"
                                             "exec sleep 300\n", marker);
  g_autofree char *test_cmd = g_strdup_printf ("--test=sh %s", script);
  g_autofree char *text = NULL, *out = NULL, *report = NULL;
  const char *argv[] = { env ("XREDUCE"), "--json", "-j", "1", "--verify-runs", "100",
                         "--limit-time", "5", test_cmd, f->session, "--", env ("XDEMO"), NULL };
  JsonObject *result, *files;

  g_assert_true (g_file_get_contents (demo, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (f->session, text, -1, NULL));
  g_assert_true (g_file_set_contents (script, oracle, -1, NULL));
  g_assert_cmpint (run (argv, &out, NULL), ==, 0);
  result = test_json_object (parser, out);
  files = json_object_get_object_member (result, "files");
  g_assert_cmpstr (json_object_get_string_member (result, "verdict"), ==, "stopped_early");
  g_assert_cmpstr (json_object_get_string_member (files, "minimal_session"), ==, f->out);
  g_assert_nonnull (json_object_get_string_member (files, "report"));
  report = read_report (f->report);
  g_assert_nonnull (strstr (report, "**Stopped early, maybe not minimal:**"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_become_subreaper ();
  g_test_add ("/crashes/python", Fixture, NULL, fixture_setup, test_python, fixture_teardown);
  g_test_add ("/crashes/tk", Fixture, NULL, fixture_setup, test_tk, fixture_teardown);
  g_test_add ("/crashes/threads", Fixture, NULL, fixture_setup, test_threads, fixture_teardown);
  g_test_add ("/crashes/wrapper", Fixture, "wrap-exec.sh", fixture_setup, test_threads,
              fixture_teardown);
  g_test_add ("/crashes/sent-by", Fixture, NULL, fixture_setup, test_sent_by, fixture_teardown);
  g_test_add ("/crashes/demo-steps", Fixture, NULL, fixture_setup, test_demo_steps,
              fixture_teardown);
  g_test_add ("/crashes/added-release", Fixture, NULL, fixture_setup, test_added_release,
              fixture_teardown);
  g_test_add ("/crashes/wrong-app", Fixture, NULL, fixture_setup, test_wrong_app,
              fixture_teardown);
  g_test_add ("/crashes/limit-time-report", Fixture, NULL, fixture_setup, test_limit_time_report,
              fixture_teardown);
  return g_test_run ();
}
