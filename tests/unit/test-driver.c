/* test-driver.c — the reducer's driver (reduce.c, runner.c, verify.c,
 * journal.c, target.c) without a display: xreduce runs its tests through
 * `--launcher env` against a stand-in xreplay (fake-xreplay.c, XREPLAY)
 * that decides each verdict from the candidate's keys and prints it as
 * xreplay's JSON. So the runner, the verification, the learnt settle and
 * the journal are tested as they run, on exact figures: no Xvfb, no app,
 * no timing of the machine's.
 *
 * The session: "abcdefgh" typed, then Return; by default the app "crashes"
 * when c and f are both pressed (FAKE_FAIL). Every test but the one about
 * speculation runs -j 1, so that the tests run, and their order, are the
 * sequential search's.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "session.h"
#include "xtest-proc.h"

typedef struct
{
  char *dir;                 /* the test's folder */
  char *session;             /* dir/typed.session */
  char *out;                 /* dir/typed.min */
  char *fake_dir;            /* dir/fake: the stand-in's log and counters */
  char **env;                /* the environment xreduce runs in */
} Fixture;

static const char *const typed[] = { "a", "b", "c", "d", "e", "f", "g", "h", "Return" };
static const guint keycodes[] = { 38, 56, 54, 40, 26, 41, 42, 43, 36 };

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) text = g_string_new ("xreduce-session 1\nscreen 640x480\n"
                                           "outcome crashed SIGSEGV\n");
  g_autoptr (GError) error = NULL;
  guint t = 100;

  f->dir = g_dir_make_tmp ("test-driver-XXXXXX", &error);
  g_assert_no_error (error);
  f->session = g_build_filename (f->dir, "typed.session", NULL);
  f->out = g_build_filename (f->dir, "typed.min", NULL);
  f->fake_dir = g_build_filename (f->dir, "fake", NULL);
  g_assert_cmpint (g_mkdir (f->fake_dir, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++, t += 150)
    g_string_append_printf (text, "%u KeyPress keysym=%s keycode=%u state=0x0 window=0 "
                            "class=\"Editor\" title=\"Editor\"\n"
                            "%u KeyRelease keysym=%s keycode=%u state=0x0 window=0 "
                            "class=\"Editor\" title=\"Editor\"\n",
                            t, typed[i], keycodes[i], t + 60, typed[i], keycodes[i]);
  g_assert_true (g_file_set_contents (f->session, text->str, -1, &error));
  g_assert_no_error (error);

  f->env = g_get_environ ();
  f->env = g_environ_setenv (f->env, "XREPLAY", g_getenv ("FAKE_XREPLAY"), TRUE);
  f->env = g_environ_setenv (f->env, "FAKE_DIR", f->fake_dir, TRUE);
  f->env = g_environ_setenv (f->env, "FAKE_FAIL", "c,f", TRUE);
  f->env = g_environ_setenv (f->env, "TMPDIR", f->dir, TRUE);
  for (const char *const *v = (const char *const[]) { "FAKE_EMPTY_FAILS", "FAKE_FLAKY",
                                                       "FAKE_RELEASE_NEEDS", "XREDUCE_GLX_FIRST",
                                                       "FAKE_PACE", "FAKE_SETTLE_MS",
                                                       "FAKE_EARLY", "FAKE_INFRA_AT",
                                                       "FAKE_HANG_AT", "FAKE_NOT_STARTED",
                                                       "FAKE_INTERRUPT_AT", "FAKE_REPORT_FILL",
                                                       "FAKE_FULL_WAITS", "FAKE_FULL_PASSES",
                                                       NULL };
       *v != NULL; v++)
    f->env = g_environ_unsetenv (f->env, *v);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->session);
  g_free (f->out);
  g_free (f->fake_dir);
  g_strfreev (f->env);
}

static void
set (Fixture *f, const char *name, const char *value)
{
  f->env = g_environ_setenv (f->env, name, value, TRUE);
}

/* Runs `xreduce --launcher env -q --no-report -o OUT [extra] SESSION --
 * /bin/true` (without --no-report if @extra says --report); its exit
 * status, stdout and stderr. */
static int
run_xreduce (Fixture *f, const char *const *extra, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  /* Its stdout is always taken: left to this test's, it would break TAP. */
  g_autofree char *own_out = NULL;
  int status = -1;

  if (out == NULL)
    out = &own_out;
  g_ptr_array_add (argv, (char *) g_getenv ("XREDUCE"));
  gboolean report = extra != NULL && g_strv_contains (extra, "--report");

  for (const char *const *a = (const char *const[]) { "--launcher", "env", "-o", f->out, NULL };
       *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  if (!report)
    g_ptr_array_add (argv, "--no-report");
  for (const char *const *a = extra; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, f->session);
  g_ptr_array_add (argv, "--");
  g_ptr_array_add (argv, "/bin/true");
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, f->env, 0, NULL, NULL, out, err,
                               &status, &error));
  g_assert_no_error (error);
  g_test_message ("xreduce said:\n%s%s", out != NULL && *out != NULL ? *out : "",
                  err != NULL && *err != NULL ? *err : "");
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* The stand-in's log, one line a run: "N keys=... settle=... pace=... -> V". */
static char **
fake_log (Fixture *f)
{
  g_autofree char *path = g_build_filename (f->fake_dir, "log", NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_new0 (char *, 1);
  g_strchomp (text);
  return g_strsplit (text, "\n", -1);
}

/* Runs whose line holds @what. */
static guint
count_runs (char **log, const char *what)
{
  guint n = 0;

  for (char **l = log; *l != NULL; l++)
    n += strstr (*l, what) != NULL;
  return n;
}

/* The first run whose line holds @what (its index), or -1. */
static int
first_run (char **log, const char *what)
{
  for (int i = 0; log[i] != NULL; i++)
    if (strstr (log[i], what) != NULL)
      return i;
  return -1;
}

/* Whether every run from @from on holds @what. */
static gboolean
all_from (char **log, int from, const char *what)
{
  for (int i = MAX (from, 0); log[i] != NULL; i++)
    if (strstr (log[i], what) == NULL)
      return FALSE;
  return TRUE;
}

/* The keys of the minimal session's events of @kind, in order: "c,f". */
static char *
keys_of (const char *path, SessionEventKind kind)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) min = session_load (path, &error);
  g_autoptr (GString) keys = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < session_get_n_events (min); i++)
    {
      const SessionEvent *ev = session_get_event (min, i);
      if (ev->kind == kind)
        g_string_append_printf (keys, "%s%s", keys->len > 0 ? "," : "", ev->keysym);
    }
  return g_string_free (g_steal_pointer (&keys), FALSE);
}

/* The keys the minimal session presses, "c,f". */
static char *
pressed_keys (const char *path)
{
  return keys_of (path, SESSION_EVENT_KEY_PRESS);
}

/* The releases in the minimal session, "f,c". */
static char *
released_keys (const char *path)
{
  return keys_of (path, SESSION_EVENT_KEY_RELEASE);
}

static JsonObject *
json_said (JsonParser *parser, const char *out)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

/* The whole driver: the verification's three replays of the full session
 * and one of the empty session, then the search, to the two keys that
 * matter; every replay the stand-in ran is a verification replay or one of
 * the tests xreduce counts. */
static void
test_reduce (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL, *keys = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", "--json", NULL };
  JsonObject *o;

  g_assert_cmpint (run_xreduce (f, args, &out, &err), ==, 0);
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
  o = json_said (parser, out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "reduced");
  g_assert_cmpint (json_object_get_int_member (o, "actions_before"), ==, 18);
  /* The two keys the failure needs, and the user's releases of them put
   * back after the search (the failure holds with them). */
  g_assert_cmpint (json_object_get_int_member (o, "actions_after"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "releases_put_back"), ==, 2);
  g_assert_true (json_object_get_boolean_member (o, "one_minimal"));
  g_assert_cmpint (json_object_get_int_member (o, "workers"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "speculative_tests"), ==, 0);

  log = fake_log (f);
  /* The verification's three and the empty one (the search may ask for
   * the full session again: its one phrase is the last one). */
  g_assert_cmpuint (count_runs (log, "keys=a,b,c,d,e,f,g,h,Return "), >=, 3);
  g_assert_cmpuint (count_runs (log, "keys= "), ==, 1);
  g_assert_cmpuint (g_strv_length (log), ==, 4 + json_object_get_int_member (o, "tests"));
  /* No journal is left once the reduction completes. */
  {
    g_autofree char *journal = g_strconcat (f->out, ".journal", NULL);
    g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
  }
}

/* The typed characters a replay showed needed are not replayed again
 * after a later removal (c's, once d and e have gone): the same result in
 * fewer tests, and --json counts them; --no-inference replays them. */
static void
test_reduce_inferred (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL, *keys = NULL, *out2 = NULL, *keys2 = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) parser2 = json_parser_new ();
  const char *const args[] = { "-j", "1", "--json", NULL };
  const char *const strict[] = { "-j", "1", "--json", "--no-inference", NULL };
  JsonObject *o, *o2;

  g_assert_cmpint (run_xreduce (f, args, &out, &err), ==, 0);
  keys = pressed_keys (f->out);
  o = json_said (parser, out);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_xreduce (f, strict, &out2, &err), ==, 0);
  keys2 = pressed_keys (f->out);
  o2 = json_said (parser2, out2);
  g_assert_cmpstr (keys, ==, "c,f");
  g_assert_cmpstr (keys2, ==, "c,f");
  g_assert_true (json_object_get_boolean_member (o, "one_minimal"));
  g_assert_true (json_object_get_boolean_member (o2, "one_minimal"));
  g_assert_cmpint (json_object_get_int_member (o, "inferred_removals"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o2, "inferred_removals"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "tests"), <,
                   json_object_get_int_member (o2, "tests"));
}

/* Runs xreduce --json at -j 1, then at -j @jobs: both succeed and write
 * the same minimal session, byte for byte (*@min1, -j 1's); their stdout
 * in *@out1 and *@outn. */
static void
run_at_one_and (Fixture *f, const char *jobs, char **out1, char **outn, char **min1)
{
  const char *const one[] = { "-j", "1", "--json", NULL };
  const char *const n[] = { "-j", jobs, "--json", NULL };
  g_autofree char *minn = NULL;
  gsize len1, lenn;

  g_assert_cmpint (run_xreduce (f, one, out1, NULL), ==, 0);
  g_assert_true (g_file_get_contents (f->out, min1, &len1, NULL));
  g_assert_cmpint (run_xreduce (f, n, outn, NULL), ==, 0);
  g_assert_true (g_file_get_contents (f->out, &minn, &lenn, NULL));
  g_assert_cmpmem (*min1, len1, minn, lenn);
}

/* More launcher slots than a round has candidates: the idle ones run what
 * the next rounds would ask. The result is -j 1's, byte for byte. */
static void
test_speculation (Fixture *f, gconstpointer data)
{
  g_autofree char *out1 = NULL, *out6 = NULL, *min1 = NULL;
  g_autoptr (JsonParser) parser1 = json_parser_new ();
  g_autoptr (JsonParser) parser6 = json_parser_new ();
  JsonObject *o1, *o6;

  run_at_one_and (f, "6", &out1, &out6, &min1);
  o1 = json_said (parser1, out1);
  o6 = json_said (parser6, out6);
  g_assert_cmpint (json_object_get_int_member (o6, "workers"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (o6, "speculative_tests"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o6, "batches"), <,
                   json_object_get_int_member (o1, "batches"));
  g_assert_true (json_object_get_boolean_member (o6, "one_minimal"));
}

/* Workers left over beside the verification's replays start the search
 * at once (the full session's first replay holds a short reduction
 * back): the first candidate answers before the full session's replays
 * do (FAKE_FULL_WAITS makes those wait for one), and the result is the
 * same. */
static void
test_search_beside_verification (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *keys = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "6", NULL };
  gint first_full, first_candidate = -1;

  set (f, "FAKE_FULL_WAITS", "9");
  f->env = g_environ_setenv (f->env, "G_MESSAGES_DEBUG", "xreduce-reducer", TRUE);
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "the search starts beside the verification"));
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
  log = fake_log (f);
  first_full = first_run (log, "keys=a,b,c,d,e,f,g,h,Return ");
  for (guint i = 0; log[i] != NULL && first_candidate < 0; i++)
    if (strstr (log[i], "keys= ") == NULL && strstr (log[i], "keys=a,b,c,d,e,f,g,h,Return ") == NULL)
      first_candidate = (gint) i;
  g_assert_cmpint (first_candidate, >=, 0);
  g_assert_cmpint (first_candidate, <, first_full);
}

/* The search started beside the verification, and its candidates fail
 * while the full session does not (FAKE_FULL_PASSES): nothing is written,
 * as when the search waits for the verdict. */
static void
test_search_beside_not_failing (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "6", "--pace", "app", NULL };

  set (f, "FAKE_FULL_WAITS", "9");
  set (f, "FAKE_FULL_PASSES", "9");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 4);
  g_assert_nonnull (strstr (err, "the full session does not fail"));
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "-> crashed"), >, 0);
  g_assert_false (g_file_test (f->out, G_FILE_TEST_EXISTS));
}

/* c's release loses the failure without d, which the search removes: of
 * the user's releases, c's stays out and f's goes back, found by leaving
 * each release out in turn once all of them at once lost the failure: at
 * -j 1, two tests (the first left out is c's). At -j 4, the same minimal
 * session, byte for byte. */
static void
test_put_back_held (Fixture *f, gconstpointer data)
{
  g_autofree char *out1 = NULL, *out4 = NULL, *min1 = NULL;
  g_autofree char *pressed = NULL, *released = NULL;
  g_autoptr (JsonParser) parser1 = json_parser_new ();
  g_autoptr (JsonParser) parser4 = json_parser_new ();
  JsonObject *o1, *o4;

  set (f, "FAKE_RELEASE_NEEDS", "c:d");
  run_at_one_and (f, "4", &out1, &out4, &min1);
  pressed = pressed_keys (f->out);
  released = released_keys (f->out);
  g_assert_cmpstr (pressed, ==, "c,f");
  /* f's as recorded; c's only at the end, where the writer releases what
   * is still held (the recorded one, at 460 ms, came before f). */
  g_assert_cmpstr (released, ==, "f,c");
  g_assert_null (strstr (min1, "\n460 KeyRelease keysym=c "));
  o1 = json_said (parser1, out1);
  g_assert_cmpint (json_object_get_int_member (o1, "releases_put_back"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o1, "put_back_tests"), ==, 2);
  o4 = json_said (parser4, out4);
  g_assert_cmpint (json_object_get_int_member (o4, "releases_put_back"), ==, 1);
}

/* The report of OUT: its report.md says the keys pressed and released
 * of the session replayed for it, which are the minimal session's; no
 * half-written report folder is left beside. */
static void
assert_report_of_result (Fixture *f)
{
  g_autofree char *md_path = g_strconcat (f->out, ".report/report.md", NULL);
  g_autofree char *pressed = pressed_keys (f->out);
  g_autofree char *released = released_keys (f->out);
  g_autofree char *keys = g_strdup_printf ("\npressed=%s released=%s\n", pressed, released);
  g_autofree char *md = NULL;
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_test_message ("report.md:\n%s", md);
  g_assert_nonnull (strstr (md, keys));
  g_assert_nonnull (strstr (md, "\n## Reduction\n"));
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_null (strstr (name, ".partial"));
}

/* The report's replay starts once the search is over, beside the last
 * checks (each step left out once more, the releases put back): at -j 1
 * it runs before the releases' test, and is the report's, as the result
 * is what it guessed (the best set with every release). One report run. */
static void
test_report_early (Fixture *f, gconstpointer data)
{
  const char *const args[] = { "-j", "1", "--report", NULL };
  g_autofree char *released = NULL;
  g_auto (GStrv) log = NULL;
  int report;

  g_assert_cmpint (run_xreduce (f, args, NULL, NULL), ==, 0);
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, " report"), ==, 1);
  report = first_run (log, " report");
  g_assert_cmpint (report, >=, 0);
  /* The releases' test came after it. */
  g_assert_nonnull (log[report + 1]);
  released = released_keys (f->out);
  g_assert_cmpstr (released, ==, "c,f");
  assert_report_of_result (f);
}

/* xreduce -j 1 --report with @var=@value: @reports report replays; the
 * result presses @pressed and releases @released; the report is its. */
typedef struct
{
  const char *var, *value;
  guint reports;
  const char *pressed, *released;
} ReportCase;

/* One step (a key's press; its release put back): no step to leave out
 * once more: the report's replay is the report's. */
static const ReportCase report_one_step = { "FAKE_FAIL", "c", 1, "c", "c" };
/* The guess is wrong when the failure needs a key held (c's release lost
 * it): the early replay's report is dropped, the result's is made. */
static const ReportCase report_wrong = { "FAKE_RELEASE_NEEDS", "c:d", 2, "c,f", "f,c" };

static void
test_report_case (Fixture *f, gconstpointer data)
{
  const ReportCase *c = data;
  const char *const args[] = { "-j", "1", "--report", NULL };
  g_autofree char *pressed = NULL, *released = NULL;
  g_auto (GStrv) log = NULL;

  set (f, c->var, c->value);
  g_assert_cmpint (run_xreduce (f, args, NULL, NULL), ==, 0);
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, " report"), ==, c->reports);
  pressed = pressed_keys (f->out);
  released = released_keys (f->out);
  g_assert_cmpstr (pressed, ==, c->pressed);
  g_assert_cmpstr (released, ==, c->released);
  assert_report_of_result (f);
}

/* Ctrl-C during the last checks, after the report's replay has run beside
 * them (the signal comes with the releases' test, the last run at -j 1):
 * exit 130, the search's result saved, no report, the journal kept; the
 * same command again writes the report. */
static void
test_report_interrupted_checks (Fixture *f, gconstpointer data)
{
  const char *const args[] = { "-j", "1", "--report", NULL };
  g_autofree char *journal = g_strconcat (f->out, ".journal", NULL);
  g_autofree char *report = g_strconcat (f->out, ".report", NULL);
  g_autofree char *last = NULL, *err = NULL, *pressed = NULL;
  g_auto (GStrv) log = NULL;
  guint n;

  g_assert_cmpint (run_xreduce (f, args, NULL, NULL), ==, 0);
  log = fake_log (f);
  n = g_strv_length (log);
  g_assert_cmpuint (n, >, 2);
  /* The report's replay, then the releases' test. */
  g_assert_nonnull (strstr (log[n - 2], " report"));
  g_assert_null (strstr (log[n - 1], " report"));
  test_remove_tree (f->out);
  test_remove_tree (report);
  test_remove_tree (f->fake_dir);
  g_assert_cmpint (g_mkdir (f->fake_dir, 0700), ==, 0);

  last = g_strdup_printf ("%u", n);
  set (f, "FAKE_INTERRUPT_AT", last);
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 130);
  g_assert_nonnull (strstr (err, "before the report was written"));
  pressed = pressed_keys (f->out);
  g_assert_cmpstr (pressed, ==, "c,f");
  g_assert_false (g_file_test (report, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (journal, G_FILE_TEST_EXISTS));
  {
    g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      g_assert_null (strstr (name, ".partial"));
  }

  f->env = g_environ_unsetenv (f->env, "FAKE_INTERRUPT_AT");
  g_assert_cmpint (run_xreduce (f, args, NULL, NULL), ==, 0);
  assert_report_of_result (f);
}

/* Two of three releases lose the failure: no one release left out brings
 * it back, so they go back one by one (b's and c's lose it, f's keeps
 * it): 1 + 3 + 3 tests. */
static void
test_put_back_one_by_one (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *pressed = NULL, *released = NULL, *min = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *const args[] = { "-j", "1", "--json", NULL };
  JsonObject *o;

  set (f, "FAKE_FAIL", "b,c,f");
  set (f, "FAKE_RELEASE_NEEDS", "b:a,c:d");
  g_assert_cmpint (run_xreduce (f, args, &out, NULL), ==, 0);
  pressed = pressed_keys (f->out);
  released = released_keys (f->out);
  g_assert_cmpstr (pressed, ==, "b,c,f");
  /* f's as recorded, b's and c's at the end only (not at 310 and 460 ms,
   * before f). */
  g_assert_cmpstr (released, ==, "f,c,b");
  g_assert_true (g_file_get_contents (f->out, &min, NULL, NULL));
  g_assert_null (strstr (min, "\n310 KeyRelease keysym=b "));
  g_assert_null (strstr (min, "\n460 KeyRelease keysym=c "));
  o = json_said (parser, out);
  g_assert_cmpint (json_object_get_int_member (o, "releases_put_back"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "put_back_tests"), ==, 7);
}

/* XREDUCE_GLX_FIRST is a number of workers: anything else is refused
 * before anything runs (2), and said quoted. */
static void
test_bad_glx_first (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;

  set (f, "XREDUCE_GLX_FIRST", "two\x1b[31m");
  g_assert_cmpint (run_xreduce (f, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "XREDUCE_GLX_FIRST must be a number of workers"));
  g_assert_null (strchr (err, '\x1b'));
  g_clear_pointer (&err, g_free);
  set (f, "XREDUCE_GLX_FIRST", "65");
  g_assert_cmpint (run_xreduce (f, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "XREDUCE_GLX_FIRST must be a number of workers"));
  log = fake_log (f);
  g_assert_cmpuint (g_strv_length (log), ==, 0);
}

/* -v's debug messages go to stderr, as --help says: stdout stays the
 * --json object. */
static void
test_verbose_json (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *const args[] = { "-j", "1", "--json", "-v", NULL };
  JsonObject *o;

  g_assert_cmpint (run_xreduce (f, args, &out, &err), ==, 0);
  o = json_said (parser, out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "reduced");
  g_assert_nonnull (strstr (err, "-DEBUG: "));
  g_assert_null (strstr (out, "-DEBUG: "));
}

/* The full session does not fail: nothing to reduce (4), and it says what
 * the app did in every replay. */
static void
test_verify_not_failing (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_FAIL", "z");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 4);
  g_assert_nonnull (strstr (err, "the full session does not fail: in 9 replays (3 at the "
                                 "app's pace, 3 at the recorded pace, 3 with gaps twice as "
                                 "long) the app passed"));
  g_assert_false (g_file_test (f->out, G_FILE_TEST_EXISTS));
  /* Three at the app's pace (the search, started beside them, may ask
   * for it too), then three at the recorded pace and three with its gaps
   * twice as long (issue #31: longer gaps when the recorded ones do not
   * fail either), and the empty one. */
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "keys=a,b,c,d,e,f,g,h,Return settle=- pace=app "), >=, 3);
  g_assert_cmpuint (count_runs (log, "keys=a,b,c,d,e,f,g,h,Return settle=- pace=recorded "),
                    ==, 6);
  g_assert_cmpuint (count_runs (log, "keys= "), ==, 1);
  g_assert_true (all_from (log, first_run (log, "pace=recorded"), "pace=recorded"));
}

/* The empty session fails too: the failure is not the actions'. */
static void
test_verify_empty_fails (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_EMPTY_FAILS", "1");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 4);
  g_assert_nonnull (strstr (err, "the app fails even with no user action at all (crashed "
                                 "with SIGSEGV)"));
}

/* A race the user won: the session fails only at the recorded pace. The
 * verification finds it, and every test replays at that pace. */
static void
test_verify_recorded_pace (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *keys = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_PACE", "recorded");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "the full session does not fail at the app's pace"));
  g_assert_nonnull (strstr (err, "fails at the recorded pace only"));
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
  /* From the switch on, every run (the search's too) is at the recorded
   * pace. */
  log = fake_log (f);
  g_assert_cmpint (first_run (log, "pace=recorded"), >, 0);
  g_assert_true (all_from (log, first_run (log, "pace=recorded"), "pace=recorded"));
  g_assert_cmpuint (count_runs (log, "pace=recorded"), >, 3);
}

/* The full session fails in 2 of 3 replays: the verification measures
 * the rate with 9 more, and a candidate that passes is replayed until a
 * pass is 95% sure; the result is the same. */
static void
test_verify_flaky (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *keys = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_FLAKY", "3");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "the full session fails in 8 of 12 replays: every candidate "
                                 "that passes is replayed up to "));
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
}

/* The learnt settle: the app crashes 20 ms after its last action, so a
 * candidate that does not fail is given 150 + 4 x 20 ms, not --settle's
 * 500; the replays get it as --settle. */
static void
test_learnt_settle (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_SETTLE_MS", "20");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "the app fails within 20 ms of its last action: a candidate "
                                 "that does not fail is given 230 ms after it"));
  /* Learnt from the first crash on: every run after it gets 230 ms,
   * none before it. */
  log = fake_log (f);
  g_assert_cmpint (first_run (log, "crashed"), >=, 0);
  g_assert_cmpint (first_run (log, "settle=230"), ==, first_run (log, "crashed") + 1);
  g_assert_true (all_from (log, first_run (log, "crashed") + 1, "settle=230 "));
}

/* A crash before the last action says nothing of the time from the action
 * that caused it: nothing is learnt, every replay keeps xreplay's settle. */
static void
test_learnt_settle_early (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_EARLY", "1");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  g_assert_null (strstr (err, "a candidate that does not fail is given"));
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "settle=-"), ==, g_strv_length (log));
}

/* --settle given: nothing is learnt, every replay gets the user's. */
static void
test_settle_given (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", "--settle", "700", NULL };

  set (f, "FAKE_SETTLE_MS", "20");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "settle=700"), ==, g_strv_length (log));
}

/* Ctrl-C at the stand-in's run 9 (the verification's four, then the
 * search's): exit 130, the best session so far kept, the journal beside.
 * The same command again reads the journal and ends as a fresh run ends,
 * with as many fewer tests as the journal answered; the journal goes. */
static void
test_journal_resume (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *resumed = NULL, *fresh = NULL, *text = NULL;
  g_autofree char *journal = g_strconcat (f->out, ".journal", NULL);
  g_autofree char *fresh_out = g_build_filename (f->dir, "fresh.min", NULL);
  g_autoptr (JsonParser) parser_r = json_parser_new ();
  g_autoptr (JsonParser) parser_f = json_parser_new ();
  g_autofree char *out_r = NULL, *out_f = NULL;
  const char *const args[] = { "-j", "1", NULL };
  const char *const json[] = { "-j", "1", "--json", NULL };
  JsonObject *r, *o;
  gsize len_r, len_f;

  set (f, "FAKE_INTERRUPT_AT", "9");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 130);
  g_assert_nonnull (strstr (err, "interrupted"));
  g_assert_true (g_file_test (journal, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (f->out, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "# interrupted, not minimal"));

  f->env = g_environ_unsetenv (f->env, "FAKE_INTERRUPT_AT");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_xreduce (f, json, &out_r, &err), ==, 0);
  g_assert_nonnull (strstr (err, "resuming: "));
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (f->out, &resumed, &len_r, NULL));

  /* A fresh run of the same reduction, elsewhere. */
  {
    char *saved = f->out;
    f->out = fresh_out;
    g_assert_cmpint (run_xreduce (f, json, &out_f, NULL), ==, 0);
    f->out = saved;
  }
  g_assert_true (g_file_get_contents (fresh_out, &fresh, &len_f, NULL));
  g_assert_cmpmem (resumed, len_r, fresh, len_f);
  r = json_said (parser_r, out_r);
  o = json_said (parser_f, out_f);
  g_assert_cmpint (json_object_get_int_member (r, "journal_hits"), >, 0);
  g_assert_cmpint (json_object_get_int_member (r, "tests"), <,
                   json_object_get_int_member (o, "tests"));
  g_assert_cmpint (json_object_get_int_member (r, "tests")
                   + json_object_get_int_member (r, "journal_hits"), ==,
                   json_object_get_int_member (o, "tests"));
}

/* The script of /driver/journal/no-room, in a mount namespace of its own
 * (unshare -rm): on a 64 KiB tmpfs at $1, a run interrupted at the
 * stand-in's run 9 leaves the output and its journal; the journal grows by
 * 8 KiB of outcomes no candidate asks for, a file fills the disk to the
 * last byte, and the same command runs again. It says each run's status
 * and what is left on the disk. Exit 99: no tmpfs here. */
static const char no_room_script[] =
  "d=$1; shift\n"
  "mount -t tmpfs -o size=64k none \"$d\" || exit 99\n"
  "FAKE_INTERRUPT_AT=9 \"$@\" 2>/dev/null; echo \"first=$?\"\n"
  "i=0; while [ $i -lt 512 ]; do echo \"P 100000,$((100000 + i))\"; i=$((i + 1)); done"
  " >> \"$d/typed.min.journal\"\n"
  "cat /dev/zero > \"$d/filler\" 2>/dev/null\n"
  "\"$@\"; echo \"second=$?\"\n"
  "cp \"$d/typed.min\" \"$d/../kept.min\"\n"
  "echo left: $(ls -A \"$d\")\n";

/* A disk with no room left for the result beside an interrupted run's
 * journal: the result comes first. The journal goes, said, and the
 * resumed run ends with the minimal session, as a fresh run does. */
static void
test_journal_no_room (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->dir, "disk", "typed.min", NULL);
  g_autofree char *kept = g_build_filename (f->dir, "kept.min", NULL);
  g_autofree char *said = NULL, *err = NULL, *pressed = NULL;
  int status;
  const char *const args[] = { g_getenv ("XREDUCE"), "--launcher", "env", "-j", "1",
                               "--no-report", "-o", out, f->session, "--", "/bin/true", NULL };

  if (!test_run_on_own_disk (f->dir, no_room_script, args, (const char *const *) f->env,
                             &status, &said, &err))
    return;
  g_assert_nonnull (strstr (said, "first=130\n"));
  g_assert_nonnull (strstr (err, "no room on the disk for both the result and the journal"));
  g_assert_nonnull (strstr (said, "second=0\n"));
  g_assert_nonnull (strstr (said, "left: filler typed.min\n"));
  pressed = pressed_keys (kept);
  g_assert_cmpstr (pressed, ==, "c,f");
}

/* The script of /driver/report/no-room: on a 64 KiB tmpfs at $1, xreduce
 * with its report; it says the status and what is left on the disk, and
 * copies the result out. Exit 99: no tmpfs here. */
static const char report_no_room_script[] =
  "d=$1; shift\n"
  "mount -t tmpfs -o size=64k none \"$d\" || exit 99\n"
  "\"$@\"; echo \"status=$?\"\n"
  "echo left: $(ls -A \"$d\")\n"
  "[ ! -e \"$d/long.min\" ] || cp \"$d/long.min\" \"$d/../kept.min\"\n";

/* The report's replay fills the disk with its pictures
 * (FAKE_REPORT_FILL): the result comes first. On a disk this full the
 * report's replay does not start beside the last checks (it would take
 * the room the last check's result needs, its files held open until it
 * ends), the result is saved whole, and then the report has no room:
 * exit 3, said. Before, it started early, and removing the journal (one
 * page) left no room for a result of several pages: OUT kept an earlier
 * one (/reduce/full-disk under load). Each of 36 keys is needed, with a
 * long title: the result takes several pages. */
static void
test_report_no_room (Fixture *f, gconstpointer data)
{
  static const char keys[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  g_autoptr (GString) text = g_string_new ("xreduce-session 1\nscreen 640x480\n"
                                           "outcome crashed SIGSEGV\n");
  g_autoptr (GString) all = g_string_new (NULL);
  g_autofree char *session = g_build_filename (f->dir, "long.session", NULL);
  g_autofree char *out = g_build_filename (f->dir, "disk", "long.min", NULL);
  g_autofree char *kept = g_build_filename (f->dir, "kept.min", NULL);
  g_autofree char *title = g_strnfill (200, 'T');
  g_autofree char *said = NULL, *err = NULL, *pressed = NULL, *released = NULL;
  g_autoptr (GError) error = NULL;
  int status;
  const char *const args[] = { g_getenv ("XREDUCE"), "--launcher", "env", "-j", "1",
                               "-o", out, session, "--", "/bin/true", NULL };

  for (guint i = 0; keys[i] != '\0'; i++)
    {
      const char name[] = { keys[i], '\0' };

      g_string_append_printf (text, "%u KeyPress keysym=%s keycode=%u state=0x0 window=0 "
                              "class=\"Editor\" title=\"%s\"\n"
                              "%u KeyRelease keysym=%s keycode=%u state=0x0 window=0 "
                              "class=\"Editor\" title=\"%s\"\n", 100 + 150 * i, name,
                              10 + i, title, 160 + 150 * i, name, 10 + i, title);
      g_string_append_printf (all, "%s%c", i > 0 ? "," : "", keys[i]);
    }
  g_assert_true (g_file_set_contents (session, text->str, -1, &error));
  g_assert_no_error (error);
  set (f, "FAKE_FAIL", all->str);
  set (f, "FAKE_REPORT_FILL", "1");
  set (f, "G_MESSAGES_DEBUG", "xreduce-reducer");
  if (!test_run_on_own_disk (f->dir, report_no_room_script, args, (const char *const *) f->env,
                             &status, &said, &err))
    return;
  g_test_message ("it said:\n%s%s", said, err);
  g_assert_nonnull (strstr (said, "status=3\n"));
  g_assert_nonnull (strstr (err, "cannot write the report"));
  g_assert_nonnull (strstr (err, "the report's replay does not start early"));
  g_assert_null (strstr (err, "holds an earlier result"));
  g_assert_nonnull (strstr (said, "left: long.min\n"));
  pressed = pressed_keys (kept);
  released = released_keys (kept);
  g_assert_cmpstr (pressed, ==, all->str);
  g_assert_cmpstr (released, ==, all->str);
}

/* An xreplay that dies for the infrastructure (run 6: its X server) is
 * not an answer: the test runs again, and the reduction ends as it would
 * have, saying so. */
static void
test_runner_infra_retry (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *keys = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_INFRA_AT", "6");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
  g_assert_nonnull (strstr (err, "1 test"));
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "-> infra"), ==, 1);
  /* Run 7 is run 6 again: the same keys, settle and pace. */
  g_assert_cmpuint (g_strv_length (log), >, 6);
  {
    const char *six = strchr (log[5], ' '), *seven = strchr (log[6], ' ');
    g_autofree char *asked6 = g_strndup (six, strstr (six, " -> ") - six);
    g_autofree char *asked7 = g_strndup (seven, strstr (seven, " -> ") - seven);
    g_assert_cmpstr (asked6, ==, asked7);
  }
}

/* An xreplay that always dies: after RUNNER_INFRA_ATTEMPTS (3) tries of
 * one test, xreduce stops with exit 3 and says why. */
static void
test_runner_infra_gives_up (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_INFRA_AT", "all");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 3);
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "-> infra"), ==, g_strv_length (log));
  g_assert_cmpuint (g_strv_length (log), >=, 3);
  g_assert_false (g_file_test (f->out, G_FILE_TEST_EXISTS));
}

/* A test that hangs past --test-timeout is killed and runs again. */
static void
test_runner_timeout (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL, *keys = NULL;
  g_auto (GStrv) log = NULL;
  const char *const args[] = { "-j", "1", "--test-timeout", "1000", NULL };

  set (f, "FAKE_HANG_AT", "6");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 0);
  keys = pressed_keys (f->out);
  g_assert_cmpstr (keys, ==, "c,f");
  log = fake_log (f);
  g_assert_cmpuint (count_runs (log, "-> hang"), ==, 1);
}

/* An app that never starts: never a pass; after RUNNER_START_ATTEMPTS
 * tries, with fewer replays beside it each time, exit 4. */
static void
test_runner_not_started (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  const char *const args[] = { "-j", "1", NULL };

  set (f, "FAKE_NOT_STARTED", "1");
  g_assert_cmpint (run_xreduce (f, args, NULL, &err), ==, 4);
  g_assert_nonnull (strstr (err, "the app could not start in 3 tries"));
  g_assert_false (g_file_test (f->out, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("XREDUCE") == NULL || g_getenv ("FAKE_XREPLAY") == NULL)
    g_error ("XREDUCE and FAKE_XREPLAY are not set: run this test with meson test");
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/driver/reduce", test_reduce);
  ADD ("/driver/reduce/inferred", test_reduce_inferred);
  ADD ("/driver/speculation", test_speculation);
  ADD ("/driver/search-beside-verification", test_search_beside_verification);
  ADD ("/driver/search-beside-not-failing", test_search_beside_not_failing);
  ADD ("/driver/verbose-json", test_verbose_json);
  ADD ("/driver/bad-glx-first", test_bad_glx_first);
  ADD ("/driver/put-back/held", test_put_back_held);
  ADD ("/driver/put-back/one-by-one", test_put_back_one_by_one);
  ADD ("/driver/report/early", test_report_early);
  g_test_add ("/driver/report/early-wrong", Fixture, &report_wrong, fixture_setup,
              test_report_case, fixture_teardown);
  g_test_add ("/driver/report/early-one-step", Fixture, &report_one_step, fixture_setup,
              test_report_case, fixture_teardown);
  ADD ("/driver/report/interrupted-checks", test_report_interrupted_checks);
  ADD ("/driver/verify/not-failing", test_verify_not_failing);
  ADD ("/driver/verify/empty-fails", test_verify_empty_fails);
  ADD ("/driver/verify/recorded-pace", test_verify_recorded_pace);
  ADD ("/driver/verify/flaky", test_verify_flaky);
  ADD ("/driver/settle/learnt", test_learnt_settle);
  ADD ("/driver/settle/early-crash", test_learnt_settle_early);
  ADD ("/driver/settle/given", test_settle_given);
  ADD ("/driver/journal/resume", test_journal_resume);
  ADD ("/driver/journal/no-room", test_journal_no_room);
  ADD ("/driver/report/no-room", test_report_no_room);
  ADD ("/driver/runner/infra-retry", test_runner_infra_retry);
  ADD ("/driver/runner/infra-gives-up", test_runner_infra_gives_up);
  ADD ("/driver/runner/timeout", test_runner_timeout);
  ADD ("/driver/runner/not-started", test_runner_not_started);
  return g_test_run ();
}
