/* test-verdict.c — the replay's interface, written once
 * (replay-interface/): a ReplayResult survives the trip through JSON
 * whole; what is not such a JSON object is refused; the replay options
 * parse, check and pass on as both programs use them. No display.
 */
#include <signal.h>
#include <string.h>
#include <glib.h>

#include "replay-args.h"
#include "replay-result.h"
#include "verdict.h"

/* Every member set to something other than its zero, written and read
 * back: the same values. */
static void
test_result_round_trip (void)
{
  g_auto (ReplayResult) in = { 0 };
  g_auto (ReplayResult) out = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  const char *frames[] = { "crash_here", "caller", NULL };
  const char *where[] = { "app.c:88", "libc.so.6", NULL };

  verdict_init (&in.verdict, VERDICT_CRASHED);
  in.verdict.signal = 11;
  in.stderr_matched = TRUE;
  in.n_actions = 91;
  in.n_replayed = 40;
  in.server_ms = 120;
  in.first_window_ms = 300;
  in.replay_ms = 1500;
  in.settle_ms = 510;
  in.total_ms = 2600;
  in.app_cpu_ms = 77;
  in.app_peak_rss_kb = 20480;
  in.window_latency_ms = 42;
  in.stderr_text = g_strdup ("Segmentation fault\n\"quoted\" \xc3\xa9");
  in.stderr_len = strlen (in.stderr_text);
  in.crash.signal = 11;
  in.crash.code = 1;
  in.crash.has_address = TRUE;
  in.crash.address = 0x10;
  in.crash.pid = 3;
  in.crash.tid = 5;
  in.crash.process = g_strdup ("app");
  in.crash.child = TRUE;
  in.crash.sent = TRUE;
  in.crash.sender_pid = 4;
  in.crash.sender = g_strdup ("ba\"sh");
  in.crash.frames = g_strdupv ((char **) frames);
  in.crash.frames_at = g_strdupv ((char **) where);
  in.pace = REPLAY_PACE_RECORDED;
  in.pace_detail = g_strdup ("the app does not answer pings");
  in.app_wait_ms = 900;
  in.app_wait_max_ms = 250;
  in.app_waits = 12;
  in.missing_action = 7;
  in.missing_window = 2;
  in.missing_class = g_strdup ("Dialog");
  in.missing_title = g_strdup ("Save \"it\"?");
  in.missing_wait_ms = 2000;
  in.never_connected = TRUE;
  in.glx_asked = TRUE;

  json = replay_result_to_json (&in);
  g_assert_true (replay_result_from_json (json, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpint (out.verdict.kind, ==, VERDICT_CRASHED);
  g_assert_cmpint (out.verdict.signal, ==, 11);
  g_assert_true (out.stderr_matched);
  g_assert_cmpuint (out.n_actions, ==, 91);
  g_assert_cmpuint (out.n_replayed, ==, 40);
  g_assert_cmpint (out.server_ms, ==, 120);
  g_assert_cmpint (out.first_window_ms, ==, 300);
  g_assert_cmpint (out.replay_ms, ==, 1500);
  g_assert_cmpint (out.settle_ms, ==, 510);
  g_assert_cmpint (out.total_ms, ==, 2600);
  g_assert_cmpint (out.app_cpu_ms, ==, 77);
  g_assert_cmpint (out.app_peak_rss_kb, ==, 20480);
  g_assert_cmpint (out.window_latency_ms, ==, 42);
  g_assert_cmpstr (out.stderr_text, ==, in.stderr_text);
  g_assert_cmpuint (out.stderr_len, ==, in.stderr_len);
  g_assert_true (g_strv_equal ((const char *const *) out.crash.frames, frames));
  g_assert_true (g_strv_equal ((const char *const *) out.crash.frames_at, where));
  g_assert_cmpint (out.crash.signal, ==, 11);
  g_assert_cmpint (out.crash.code, ==, 1);
  g_assert_true (out.crash.has_address);
  g_assert_cmpuint (out.crash.address, ==, 0x10);
  g_assert_cmpint (out.crash.pid, ==, 3);
  g_assert_cmpint (out.crash.tid, ==, 5);
  g_assert_cmpstr (out.crash.process, ==, "app");
  g_assert_true (out.crash.child);
  g_assert_true (out.crash.sent);
  g_assert_cmpint (out.crash.sender_pid, ==, 4);
  g_assert_cmpstr (out.crash.sender, ==, "ba\"sh");
  g_assert_null (out.crash.no_frames);
  g_assert_cmpint (out.pace, ==, REPLAY_PACE_RECORDED);
  g_assert_cmpstr (out.pace_detail, ==, in.pace_detail);
  g_assert_cmpint (out.app_wait_ms, ==, 900);
  g_assert_cmpint (out.app_wait_max_ms, ==, 250);
  g_assert_cmpuint (out.app_waits, ==, 12);
  g_assert_cmpuint (out.missing_action, ==, 7);
  g_assert_cmpint (out.missing_window, ==, 2);
  g_assert_cmpstr (out.missing_class, ==, "Dialog");
  g_assert_cmpstr (out.missing_title, ==, in.missing_title);
  g_assert_cmpuint (out.missing_wait_ms, ==, 2000);
  g_assert_true (out.never_connected);
  g_assert_true (out.glx_asked);
}

/* The unknowns: a null window latency and no backtrace stay unknown (-1,
 * NULL); a long stderr comes back as its last 2 KiB. */
static void
test_result_unknowns (void)
{
  g_auto (ReplayResult) in = { 0 };
  g_auto (ReplayResult) out = { 0 };
  g_autofree char *json = NULL;

  verdict_init (&in.verdict, VERDICT_PASSED);
  in.window_latency_ms = in.app_cpu_ms = in.app_peak_rss_kb = -1;
  in.stderr_text = g_strnfill (5000, 'x');
  in.stderr_len = 5000;
  json = replay_result_to_json (&in);
  g_assert_true (replay_result_from_json (json, &out, NULL));
  g_assert_cmpint (out.verdict.kind, ==, VERDICT_PASSED);
  g_assert_cmpint (out.window_latency_ms, ==, -1);
  g_assert_cmpint (out.app_cpu_ms, ==, -1);
  g_assert_cmpint (out.app_peak_rss_kb, ==, -1);
  g_assert_null (out.crash.frames);
  g_assert_null (out.crash.frames_at);
  g_assert_cmpint (out.crash.signal, ==, 0);
  g_assert_null (out.pace_detail);
  g_assert_cmpuint (out.missing_action, ==, 0);
  g_assert_cmpuint (out.stderr_len, ==, 2048);
  /* Not asked, said so. */
  g_assert_false (out.glx_asked);
  /* Not said (an older xreplay's JSON): it may have been. */
  {
    g_auto (ReplayResult) old = { 0 };

    g_assert_true (replay_result_from_json ("{\"outcome\":\"passed\"}", &old, NULL));
    g_assert_true (old.glx_asked);
  }
}

/* What is no replay's JSON is an error, never a verdict. */
static void
test_result_bad_json (void)
{
  const char *bad[] = {
    "", "not json", "[1, 2]", "42", "{}", "{\"outcome\": \"exploded\"}",
    "{\"outcome\": 7}", "{\"outcome\": \"crashed\"",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto (ReplayResult) out = { 0 };
      g_autoptr (GError) error = NULL;

      g_test_message ("case %zu: %s", i, bad[i]);
      g_assert_false (replay_result_from_json (bad[i], &out, &error));
      g_assert_nonnull (error);
    }
}

/* Parses @argv (NULL-terminated, no program name) with the replay group
 * alone, then checks: the args, or NULL with @error. */
static ReplayArgs *
parse (const char *const *argv, GError **error)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (ReplayArgs) args = replay_args_new ();
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) strv = NULL;

  g_strv_builder_add (builder, "test");
  g_strv_builder_addv (builder, (const char **) argv);
  strv = g_strv_builder_end (builder);
  g_option_context_add_group (context, replay_args_get_group (args));
  if (!g_option_context_parse_strv (context, &strv, error))
    return NULL;
  if (!replay_args_check (args, error))
    return NULL;
  return g_steal_pointer (&args);
}

static void
test_args_defaults (void)
{
  const char *none[] = { NULL };
  g_autoptr (ReplayArgs) args = parse (none, NULL);
  const ReplaySettings *s;
  g_auto (GStrv) argv = NULL;

  g_assert_nonnull (args);
  s = replay_args_get_settings (args);
  g_assert_cmpint (s->pace, ==, REPLAY_PACE_APP);
  g_assert_false (s->pace_given || s->window_wait_given || s->start_timeout_given);
  g_assert_cmpfloat (s->speed, ==, REPLAY_DEFAULT_SPEED);
  g_assert_cmpuint (s->max_gap_ms, ==, REPLAY_DEFAULT_MAX_GAP_MS);
  g_assert_cmpuint (s->min_gap_ms, ==, REPLAY_DEFAULT_MIN_GAP_MS);
  g_assert_cmpuint (s->settle_ms, ==, REPLAY_DEFAULT_SETTLE_MS);
  g_assert_cmpuint (s->timeout_ms, ==, REPLAY_DEFAULT_TIMEOUT_MS);
  g_assert_cmpuint (s->start_timeout_ms, ==, REPLAY_DEFAULT_START_TIMEOUT_MS);
  g_assert_cmpuint (s->window_wait_ms, ==, REPLAY_DEFAULT_WINDOW_WAIT_MS);
  g_assert_cmpint (s->isolate, ==, SANDBOX_ISOLATE_AUTO);
  g_assert_null (s->home_seed);
  g_assert_null (s->wm_argv);
  /* Nothing given, nothing passed on. */
  argv = replay_args_to_argv (args);
  g_assert_cmpuint (g_strv_length (argv), ==, 0);
}

/* Every value lands where it says, and is passed on as given (--home as
 * an absolute path). */
static void
test_args_values (void)
{
  g_autofree char *cwd = g_get_current_dir ();
  const char *given[] = { "--pace", "recorded", "--speed", "2.5", "--max-gap", "900",
                          "--min-gap", "7", "--settle", "600", "--timeout", "4000",
                          "--start-timeout", "9000", "--window-wait", "1500",
                          "--wm", "true --flag", "--max-screen", "800x600",
                          "--max-session-size", "3", "--max-actions", "77", "--home", ".",
                          "--isolate", "require", "--share-net", "--keep-env", "A",
                          "--keep-env", "B", "--setenv", "C=1", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (ReplayArgs) args = parse (given, &error);
  const ReplaySettings *s;
  g_auto (GStrv) argv = NULL;
  const char *const keep[] = { "A", "B", NULL };
  const char *const wm[] = { "true", "--flag", NULL };

  g_assert_no_error (error);
  s = replay_args_get_settings (args);
  g_assert_cmpint (s->pace, ==, REPLAY_PACE_RECORDED);
  g_assert_true (s->pace_given && s->window_wait_given && s->start_timeout_given);
  g_assert_cmpfloat (s->speed, ==, 2.5);
  g_assert_cmpuint (s->max_gap_ms, ==, 900);
  g_assert_cmpuint (s->min_gap_ms, ==, 7);
  g_assert_cmpuint (s->settle_ms, ==, 600);
  g_assert_cmpuint (s->timeout_ms, ==, 4000);
  g_assert_cmpuint (s->start_timeout_ms, ==, 9000);
  g_assert_cmpuint (s->window_wait_ms, ==, 1500);
  g_assert_true (g_strv_equal (s->wm_argv, wm));
  g_assert_cmpint (s->max_screen_width, ==, 800);
  g_assert_cmpint (s->max_screen_height, ==, 600);
  g_assert_cmpuint (s->max_session_size, ==, 3 * 1024 * 1024);
  g_assert_cmpuint (s->max_actions, ==, 77);
  g_assert_cmpstr (s->home_seed, ==, cwd);
  g_assert_cmpint (s->isolate, ==, SANDBOX_ISOLATE_REQUIRE);
  g_assert_true (s->share_net);
  g_assert_true (g_strv_equal (s->keep_env, keep));
  g_assert_cmpstr (s->set_env[0], ==, "C=1");

  /* Passed on: the same options, parsed again, the same settings. */
  argv = replay_args_to_argv (args);
  {
    g_autoptr (ReplayArgs) again = parse ((const char *const *) argv, &error);
    const ReplaySettings *t;

    g_assert_no_error (error);
    t = replay_args_get_settings (again);
    g_assert_cmpint (t->pace, ==, s->pace);
    g_assert_cmpfloat (t->speed, ==, s->speed);
    g_assert_cmpuint (t->min_gap_ms, ==, s->min_gap_ms);
    g_assert_cmpuint (t->window_wait_ms, ==, s->window_wait_ms);
    g_assert_cmpstr (t->home_seed, ==, s->home_seed);
    g_assert_cmpint (t->isolate, ==, s->isolate);
    g_assert_true (g_strv_equal (t->keep_env, s->keep_env));
    g_assert_true (g_strv_equal (t->wm_argv, s->wm_argv));
  }
}

/* Every bad value is refused, with a message that starts with the option. */
static void
test_args_bad (void)
{
  static const struct
  {
    const char *argv[5];
    const char *message;
  } cases[] = {
    { { "--pace", "fast" }, "--pace: 'fast' is not app or recorded" },
    { { "--speed", "0" }, "--speed: '0' is not a factor between 0.001 and 1000" },
    { { "--speed", "nan" }, "--speed: 'nan' is not a factor" },
    { { "--speed", "2x" }, "--speed: '2x' is not a factor" },
    { { "--max-gap", "-1" }, "--max-gap: '-1' is not a number of milliseconds (0 to 86400000)" },
    { { "--settle", "1.5" }, "--settle: '1.5' is not a number of milliseconds" },
    { { "--timeout", "0" }, "--timeout: '0' is not a number of milliseconds (1 to 86400000)" },
    { { "--start-timeout", "0" }, "--start-timeout: '0' is not a number of milliseconds (1 to" },
    { { "--window-wait", "86400001" }, "--window-wait: '86400001' is not a number" },
    { { "--min-gap", "50", "--max-gap", "10" }, "--min-gap 50 is more than --max-gap 10" },
    { { "--max-screen", "8192" }, "--max-screen: '8192' is not a size WxH" },
    { { "--max-session-size", "0" }, "--max-session-size: '0' is not a whole number of MiB (1 to 1024)" },
    { { "--max-actions", "many" }, "--max-actions: 'many' is not a number of actions" },
    { { "--isolate", "maybe" }, "--isolate: 'maybe' is neither auto nor require" },
    { { "--isolate", "require", "--no-isolate" }, "--isolate=require and --no-isolate exclude each other" },
    { { "--home", ".", "--share-home" }, "--home and --share-home exclude each other" },
    { { "--home", "/nonexistent/seed" }, "--home /nonexistent/seed: No such file" },
    { { "--share-home", "--keep-env", "A" }, "--share-home runs the app with all of your environment" },
    { { "--share-home", "--setenv", "A=1" }, "--share-home runs the app with all of your environment" },
    { { "--setenv", "NOVALUE" }, "--setenv: 'NOVALUE' is not NAME=VALUE" },
    { { "--setenv", "=1" }, "--setenv: '=1' is not NAME=VALUE" },
    { { "--wm", "no-such-window-manager" }, "--wm: 'no-such-window-manager': no such program" },
    { { "--wm", "openbox 'unclosed" }, "--wm: not a command line" },
    { { "--speed", "\x1b]0;pwned\x07" }, "--speed: '\\x1b]0;pwned\\x07' is not a factor" },
    { { "--files", "/nonexistent/files" }, "--files: '/nonexistent/files' is not a folder" },
    { { "--files", ".", "--share-home" }, "--files and --share-home exclude each other" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ReplayArgs) args = parse (cases[i].argv, &error);

      g_test_message ("case %zu: expecting '%s'", i, cases[i].message);
      g_assert_null (args);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
    }
}

/* The names a test of both programs walks: the whole group. */
static void
test_args_names (void)
{
  g_auto (GStrv) names = replay_args_list_names ();

  g_assert_true (g_strv_contains ((const char *const *) names, "--min-gap"));
  g_assert_true (g_strv_contains ((const char *const *) names, "--window-wait"));
  g_assert_true (g_strv_contains ((const char *const *) names, "--setenv"));
  g_assert_true (g_strv_contains ((const char *const *) names, "--files"));
  g_assert_true (g_strv_contains ((const char *const *) names, "--double-click-time"));
  g_assert_true (g_strv_contains ((const char *const *) names, "--no-backtrace"));
  g_assert_cmpuint (g_strv_length (names), ==, 23);
}

/* A crash in words: a fault with its site (a source line first, a
 * Python frame before a C frame without one, a library without symbols
 * by its name), a signal another process sent, a child process. */
static void
test_crash_words (void)
{
  const char *frames[] = { "g_main_loop_run", "print_document", "main", NULL };
  const char *at[] = { "libglib-2.0.so.0", "xdemo.c:209", "xdemo.c:1148", NULL };
  const char *stripped[] = { "??", "g_closure_invoke", NULL };
  const char *stripped_at[] = { "libxul.so", "libgobject-2.0.so.0", NULL };
  g_auto (CrashInfo) crash = { .signal = 11, .code = 1, .has_address = TRUE, .pid = 3 };
  g_autofree char *fault = NULL, *cause = NULL, *python = NULL, *sent = NULL;
  g_autofree char *outside = NULL, *child = NULL, *library = NULL, *raised = NULL;

  crash.frames = g_strdupv ((char **) frames);
  crash.frames_at = g_strdupv ((char **) at);
  fault = crash_info_outcome (&crash, "on_crash (app.py:3)");
  g_assert_cmpstr (fault, ==, "crashed with SIGSEGV in print_document (xdemo.c:209)");
  cause = crash_info_describe_cause (&crash);
  g_assert_cmpstr (cause, ==, "a fault (SEGV_MAPERR at 0x0)");
  /* No source line: the Python frame says more. */
  g_strfreev (crash.frames_at);
  crash.frames_at = g_strdupv ((char **) (const char *[]) { "a.so", "b.so", "c.so", NULL });
  python = crash_info_outcome (&crash, "on_crash (app.py:3)");
  g_assert_cmpstr (python, ==, "crashed with SIGSEGV in on_crash (app.py:3)");
  g_strfreev (crash.frames);
  g_strfreev (crash.frames_at);
  crash.frames = g_strdupv ((char **) stripped);
  crash.frames_at = g_strdupv ((char **) stripped_at);
  library = crash_info_outcome (&crash, NULL);
  g_assert_cmpstr (library, ==, "crashed with SIGSEGV in ?? (libxul.so)");
  {
    /* A source line below a frame without a name (the C library's start,
     * with libc6-dbg) is no crash site. */
    const char *ff[] = { "??", "??", "__libc_start_call_main", "_start", NULL };
    const char *ff_at[] = { "libxul.so", "firefox-esr", "libc_start_call_main.h:58", "x", NULL };
    g_auto (CrashInfo) firefox = { .signal = 11, .code = 1 };
    g_autofree char *said = NULL;

    firefox.frames = g_strdupv ((char **) ff);
    firefox.frames_at = g_strdupv ((char **) ff_at);
    said = crash_info_outcome (&firefox, NULL);
    g_assert_cmpstr (said, ==, "crashed with SIGSEGV in ?? (libxul.so)");
  }
  crash.child = TRUE;
  crash.process = g_strdup ("Isolated Web Co");
  child = crash_info_outcome (&crash, NULL);
  g_assert_cmpstr (child, ==, "crashed with SIGSEGV in ?? (libxul.so), in its process Isolated Web Co");
  crash.code = SI_TKILL;
  crash.has_address = FALSE;
  crash.child = FALSE;
  raised = crash_info_describe_cause (&crash);
  g_assert_cmpstr (raised, ==, "raised by the process itself (SI_TKILL)");
  crash.sent = TRUE;
  crash.code = SI_USER;
  crash.sender_pid = 5;
  crash.sender = g_strdup ("bash");
  sent = crash_info_outcome (&crash, "ignored (app.py:3)");
  g_assert_cmpstr (sent, ==, "killed by SIGSEGV sent by pid 5 (bash)");
  crash.sender_pid = 0;
  outside = crash_info_outcome (&crash, NULL);
  g_assert_cmpstr (outside, ==, "killed by SIGSEGV sent from outside the app's sandbox");
}

/* xreduce --json's verdicts: each word read back as its verdict, the
 * words scripts match on unchanged, and an unknown word refused. */
static void
test_xreduce_verdicts (void)
{
  static const char *const words[] = { "reduced", "stopped_early", "nothing_to_reduce",
                                       "usage_error", "infra_error", "interrupted" };
  XreduceVerdict verdict;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      g_assert_true (xreduce_verdict_from_string (words[i], &verdict));
      g_assert_cmpstr (xreduce_verdict_to_string (verdict), ==, words[i]);
    }
  g_assert_cmpstr (xreduce_verdict_to_string (XREDUCE_VERDICT_INTERRUPTED), ==, "interrupted");
  g_assert_false (xreduce_verdict_from_string ("crashed", &verdict));
  g_assert_false (xreduce_verdict_from_string (NULL, &verdict));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/verdict/result/round-trip", test_result_round_trip);
  g_test_add_func ("/verdict/result/unknowns", test_result_unknowns);
  g_test_add_func ("/verdict/result/bad-json", test_result_bad_json);
  g_test_add_func ("/verdict/crash-words", test_crash_words);
  g_test_add_func ("/verdict/xreduce-verdicts", test_xreduce_verdicts);
  g_test_add_func ("/verdict/replay-args/defaults", test_args_defaults);
  g_test_add_func ("/verdict/replay-args/values", test_args_values);
  g_test_add_func ("/verdict/replay-args/bad", test_args_bad);
  g_test_add_func ("/verdict/replay-args/names", test_args_names);
  return g_test_run ();
}
