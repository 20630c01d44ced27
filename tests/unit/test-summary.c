/* test-summary.c — what xreduce writes about a reduction, without a
 * display: paths as the report sees them. */
#include <string.h>
#include <glib.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "summary.h"
#include "crashgroups.h"
#include "input.h"
#include "search.h"

static void
test_relative_path (void)
{
  static const struct { const char *dir, *path, *want; } cases[] = {
    { "/a/b/out.min.report", "/a/b/out.min", "../out.min" },
    { "/a/b/out.min.report", "/a/c/s.log", "../../c/s.log" },
    { "/x/r", "/y/s", "../../y/s" },
    { "/a/r", "/a/r/session.log", "session.log" },
    { "/a/./b/../r", "/a/s", "../s" },
    { "/a/r", "/a/r", "." },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = summary_relative_path (cases[i].dir, cases[i].path);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
  /* Relative to the current directory, both. */
  {
    g_autofree char *got = summary_relative_path ("out.min.report", "../data/demo.session");
    g_assert_cmpstr (got, ==, "../../data/demo.session");
  }
}

/* xreduce --summarize: three results, two of one crash (same failure,
 * same frames), one of another; one not reduced; hostile text in a frame
 * and a path stays text in the Markdown, one line, no table cell split. */
static const char *const results[] = {
  "{\"verdict\": \"reduced\", \"failure\": \"crashed with SIGSEGV\", \"actions_before\": 91,"
  " \"actions_after\": 3, \"crash\": {\"signal\": \"SIGSEGV\", \"frames\": [\"print_document"
  " (xdemo.c:209)\", \"on_print | `x` <b>\\n# h\"]}, \"files\": {\"session\": \"a.session\","
  " \"minimal_session\": \"a.session.min\"}}",
  "{\"verdict\": \"reduced\", \"failure\": \"crashed with SIGSEGV\", \"actions_before\": 20,"
  " \"actions_after\": 4, \"crash\": {\"signal\": \"SIGSEGV\", \"frames\": [\"print_document"
  " (xdemo.c:209)\", \"on_print | `x` <b>\\n# h\"]}, \"files\": {\"session\": \"b.session\","
  " \"minimal_session\": \"b|[x](http://evil).min\"}}",
  "{\"verdict\": \"reduced\", \"failure\": \"crashed with SIGABRT\", \"actions_before\": 50,"
  " \"actions_after\": 2, \"crash\": {\"signal\": \"SIGABRT\", \"frames\": [\"abort\"]},"
  " \"files\": {\"session\": \"c.session\", \"minimal_session\": \"c.session.min\"}}",
  "{\"verdict\": \"nothing_to_reduce\", \"error\": \"the full session does not fail\","
  " \"exit_status\": 4, \"files\": {\"minimal_session\": null}}",
};

static void
test_crash_groups (void)
{
  g_autoptr (CrashGroups) groups = crash_groups_new ();
  g_autofree char *md = NULL;
  g_autofree char *json = NULL;
  g_auto (GStrv) lines = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("r%zu.json", i);
      g_assert_true (crash_groups_add_json (groups, results[i], strlen (results[i]), name,
                                            &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (crash_groups_get_n_results (groups), ==, 4);
  g_assert_cmpuint (crash_groups_get_n_groups (groups), ==, 2);
  md = crash_groups_to_markdown (groups);
  g_assert_nonnull (strstr (md, "4 results, 2 distinct crashes, 1 not reduced."));
  /* The largest group first, its smallest result named. */
  lines = g_strsplit (md, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "| 1 |"))
      {
        g_assert_nonnull (strstr (lines[i], "| 2 | 3 |"));
        g_assert_nonnull (strstr (lines[i], "a.session.min"));
        /* Every cell's pipe, backquote, angle bracket escaped: 6 cells. */
        g_auto (GStrv) cells = g_strsplit (lines[i], " | ", -1);
        g_assert_cmpuint (g_strv_length (cells), ==, 6);
        g_assert_null (strstr (lines[i], "<b>"));
        g_assert_null (strstr (lines[i], " `x`"));
      }
    else
      /* No line of hostile text starts a heading of its own. */
      g_assert_false (g_str_has_prefix (lines[i], "# h"));
  g_assert_null (strstr (md, "](http://evil)"));
  g_assert_nonnull (strstr (md, "## Not reduced"));
  json = crash_groups_to_json (groups);
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root;
    JsonArray *array;

    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (root, "results"), ==, 4);
    array = json_object_get_array_member (root, "groups");
    g_assert_cmpuint (json_array_get_length (array), ==, 2);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (array, 0),
                                                 "count"), ==, 2);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (array, 1),
                                                    "signal"), ==, "SIGABRT");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root,
                                                                           "not_reduced")),
                      ==, 1);
  }
}

/* A result not reduced is named by its session, as the reduced are (a
 * job array's results are task-N.json: issue #34 found the summary
 * naming them so); without a session, by the result's file. */
static void
test_not_reduced_named (void)
{
  static const char named[] =
    "{\"verdict\": \"nothing_to_reduce\", \"error\": \"the full session does not fail\","
    " \"exit_status\": 4, \"files\": {\"session\": \"crashes/s4.session\","
    " \"minimal_session\": null}}";
  static const char anonymous[] =
    "{\"verdict\": \"usage_error\", \"error\": \"bad option\", \"exit_status\": 2}";
  g_autoptr (CrashGroups) groups = crash_groups_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *md = NULL;

  g_assert_true (crash_groups_add_json (groups, named, strlen (named), "task-4.json", &error));
  g_assert_no_error (error);
  g_assert_true (crash_groups_add_json (groups, anonymous, strlen (anonymous), "task-5.json",
                                        &error));
  g_assert_no_error (error);
  md = crash_groups_to_markdown (groups);
  g_test_message ("%s", md);
  g_assert_nonnull (strstr (md, "\n- crashes/s4.session (task-4.json): nothing_to_reduce"));
  g_assert_nonnull (strstr (md, "\n- task-5.json: usage_error"));
}

/* What is no result is said, not counted. */
static void
test_crash_groups_bad (void)
{
  const char *bad[] = { "", "[1]", "{\"failure\": \"x\"}", "{\"verdict\": 3}", "not json" };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (CrashGroups) groups = crash_groups_new ();
      g_autoptr (GError) error = NULL;

      g_assert_false (crash_groups_add_json (groups, bad[i], strlen (bad[i]), "bad\x1b.json",
                                             &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      /* The name is a stranger's: no raw escape in the message. */
      g_assert_null (strchr (error->message, '\x1b'));
      g_assert_cmpuint (crash_groups_get_n_results (groups), ==, 0);
    }
}

static Session *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  Session *session = session_parse (text, strlen (text), "s.log", &error);

  g_assert_no_error (error);
  return session;
}

/* What goes back in after the search: the user's releases of what the
 * result presses and does not release, not those of what it does not
 * press; a wheel notch's too. */
static void
test_dropped_releases (void)
{
  g_autoptr (Session) session = parse (
    "xreduce-session 1\nscreen 640x480\n"
    "10 KeyPress keysym=Alt_L keycode=64 state=0x0\n"
    "20 KeyPress keysym=p keycode=33 state=0x8\n"
    "30 KeyRelease keysym=p keycode=33 state=0x8\n"
    "40 KeyRelease keysym=Alt_L keycode=64 state=0x8\n"
    "50 KeyPress keysym=a keycode=38 state=0x0\n"
    "60 KeyRelease keysym=a keycode=38 state=0x0\n"
    "70 ButtonPress button=1 state=0x0 root=5,5\n"
    "80 ButtonRelease button=1 state=0x100 root=5,5\n");
  const guint best[] = { 0, 1, 6 };   /* Alt, p, the button's press */
  g_autoptr (GArray) releases = search_dropped_releases (session, best, G_N_ELEMENTS (best));

  g_assert_cmpuint (releases->len, ==, 3);
  g_assert_cmpuint (g_array_index (releases, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (releases, guint, 1), ==, 3);
  g_assert_cmpuint (g_array_index (releases, guint, 2), ==, 7);
}

/* Shift pressed again for each capital, as typed: the search keeps the
 * first press and finds the others the same as holding it. Its release
 * that goes back is the last one, after E; the first would release Shift
 * before E, typed without it (its own Shift press is gone). */
static void
test_dropped_releases_held (void)
{
  g_autoptr (Session) session = parse (
    "xreduce-session 1\nscreen 640x480\n"
    "10 KeyPress keysym=Shift_L keycode=50 state=0x0\n"
    "11 KeyPress keysym=S keycode=39 state=0x1\n"
    "20 KeyRelease keysym=Shift_L keycode=50 state=0x1\n"
    "21 KeyRelease keysym=s keycode=39 state=0x0\n"
    "30 KeyPress keysym=Shift_L keycode=50 state=0x0\n"
    "31 KeyPress keysym=E keycode=26 state=0x1\n"
    "40 KeyRelease keysym=Shift_L keycode=50 state=0x1\n"
    "41 KeyRelease keysym=e keycode=26 state=0x0\n"
    "50 KeyPress keysym=l keycode=46 state=0x0\n"
    "51 KeyRelease keysym=l keycode=46 state=0x0\n"
    "60 KeyPress keysym=l keycode=46 state=0x0\n"
    "61 KeyRelease keysym=l keycode=46 state=0x0\n");
  /* Shift, S, E; both l presses (the second needs the first released). */
  const guint best[] = { 0, 1, 5, 8, 10 };
  g_autoptr (GArray) releases = search_dropped_releases (session, best, G_N_ELEMENTS (best));
  const guint expected[] = { 3, 6, 7, 9, 11 };

  g_assert_cmpuint (releases->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (g_array_index (releases, guint, i), ==, expected[i]);
}

/* A session for another app: its classes and the app's, none in common. */
static void
test_app_classes (void)
{
  g_autoptr (Session) session = parse (
    "xreduce-session 1\nscreen 640x480\n"
    "10 ButtonPress button=1 state=0x0 root=5,5 pos=5,5 window=0 class=\"XDemo\" title=\"Editor\"\n"
    "20 ButtonRelease button=1 state=0x100 root=5,5 pos=5,5 window=0 class=\"XDemo\" title=\"Editor\"\n");
  g_autoptr (Session) firefox = parse (
    "xreduce-session 1\nscreen 640x480\n"
    "10 KeyPress keysym=a keycode=38 state=0x0 window=0 class=\"firefox\" title=\"x\"\n");
  const char *xterm[] = { "XTerm", NULL };
  const char *demo[] = { "xdemo", NULL };
  const char *esr[] = { "firefox-esr", NULL };
  g_autoptr (GError) error = NULL;

  g_assert_false (input_check_app_classes (session, "s.log", xterm, &error));
  g_assert_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "\"XDemo\""));
  g_assert_nonnull (strstr (error->message, "\"XTerm\""));
  g_assert_true (input_check_app_classes (session, "s.log", demo, NULL));
  g_assert_true (input_check_app_classes (firefox, "s.log", esr, NULL));
  g_assert_true (input_check_app_classes (session, "s.log", (const char *[]) { NULL }, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/summary/relative-path", test_relative_path);
  g_test_add_func ("/summary/crash-groups", test_crash_groups);
  g_test_add_func ("/summary/crash-groups-bad", test_crash_groups_bad);
  g_test_add_func ("/summary/dropped-releases", test_dropped_releases);
  g_test_add_func ("/summary/dropped-releases-held", test_dropped_releases_held);
  g_test_add_func ("/summary/app-classes", test_app_classes);
  g_test_add_func ("/summary/not-reduced-named", test_not_reduced_named);
  return g_test_run ();
}
