/* test-session-options.c — the session's `desktop` and `replay` header
 * lines (sessions/session-options.c), and how the replay options take
 * them (replay-interface/replay-args.c): hostile input, every bad value
 * refused with file:line and the word; what a file may not carry refused
 * by name; the lines round-trip, survive a subset, and the command line wins; the
 * command line xreduce gives each replay, built in one place.
 */
#include <string.h>
#include <glib.h>

#include "replay-args.h"

#include <glib/gstdio.h>
#include "session.h"

#define HEAD "xreduce-session 1\nscreen 1280x1024\n"

typedef struct
{
  const char *name;
  const char *line;          /* a header line, after HEAD */
  const char *message;       /* expected substring of the error */
} BadLine;

static const BadLine bad_lines[] = {
  /* What a stranger's file may not ask for. */
  { "wm", "replay wm=xterm", "'wm' is not an option a session may carry" },
  { "home", "replay home=/etc", "'home' is not an option" },
  { "no-isolate", "replay no-isolate=1", "'no-isolate' is not an option" },
  { "share-home", "replay share-home=1", "'share-home' is not an option" },
  { "share-net", "replay share-net=1", "'share-net' is not an option" },
  { "setenv", "replay setenv=LD_PRELOAD=/tmp/x.so", "'setenv' is not an option" },
  { "keep-env", "replay keep-env=SSH_AUTH_SOCK", "'keep-env' is not an option" },
  { "isolate", "replay isolate=auto", "'isolate' is not an option" },
  { "max-screen", "replay max-screen=32767x32767", "'max-screen' is not an option" },
  { "max-session-size", "replay max-session-size=1024", "'max-session-size' is not an option" },
  { "max-actions", "replay max-actions=100000000", "'max-actions' is not an option" },
  { "escape", "replay \x1b[31m=1", "'\\x1b[31m' is not an option" },
  /* Bounded values. */
  { "pace", "replay pace=fast", "pace 'fast' is not app or recorded" },
  { "pace-empty", "replay pace=", "pace '' is not app or recorded" },
  { "speed-zero", "replay speed=0", "speed '0' is not a factor from 0.1 to 10" },
  { "speed-tiny", "replay speed=0.001", "is not a factor" },
  { "speed-huge", "replay speed=1000", "is not a factor" },
  { "speed-negative", "replay speed=-1", "is not a factor" },
  { "speed-exponent", "replay speed=1e1", "is not a factor" },
  { "speed-nan", "replay speed=nan", "is not a factor" },
  { "speed-four-places", "replay speed=0.1234", "is not a factor" },
  { "speed-point", "replay speed=1.", "is not a factor" },
  { "max-gap-huge", "replay max-gap=86400000", "max-gap '86400000' is not a number of milliseconds from 0 to 60000" },
  { "max-gap-over", "replay max-gap=60001", "from 0 to 60000" },
  { "max-gap-negative", "replay max-gap=-5", "max-gap '-5'" },
  { "max-gap-hex", "replay max-gap=0x10", "max-gap '0x10'" },
  { "max-gap-plus", "replay max-gap=+10", "max-gap '+10'" },
  { "max-gap-leading-zero", "replay max-gap=010", "max-gap '010'" },
  { "max-gap-space", "replay max-gap= 10", "max-gap ''" },
  { "min-gap", "replay min-gap=5001", "from 0 to 5000" },
  { "settle", "replay settle=600000", "from 0 to 60000" },
  { "timeout-zero", "replay timeout=0", "timeout '0' is not a number of milliseconds from 1 to 60000" },
  { "timeout", "replay timeout=99999999999", "timeout '99999999999'" },
  { "start-timeout", "replay start-timeout=120001", "from 1 to 120000" },
  { "window-wait", "replay window-wait=60001", "from 0 to 60000" },
  { "double-click-time", "replay double-click-time=0", "from 1 to 5000" },
  { "repeat-delay", "replay repeat-delay=5001", "from 1 to 5000" },
  /* Malformed. */
  { "replay-empty", "replay", "replay: expected one or more NAME=VALUE" },
  { "replay-no-equals", "replay settle", "replay: expected NAME=VALUE, got 'settle'" },
  { "replay-no-name", "replay =5", "replay: expected NAME=VALUE" },
  { "replay-twice", "replay settle=1\nreplay settle=2", "second 'replay' line" },
  { "replay-option-twice", "replay settle=1 settle=2", "replay: settle given twice" },
  { "replay-double-space", "replay settle=1  pace=app", "separated by single spaces" },
  { "replay-quoted", "replay settle=\"1\"", "settle '\"1\"'" },
  { "desktop-empty", "desktop", "desktop: expected one or more NAME=VALUE" },
  { "desktop-unknown", "desktop colour=red", "desktop: unknown field in 'colour=red'" },
  { "desktop-zero", "desktop double-click-time=0", "desktop: bad value" },
  { "desktop-huge", "desktop repeat-delay=10001", "desktop: bad value" },
  { "desktop-negative", "desktop double-click-distance=-1", "desktop: bad value" },
  { "desktop-twice", "desktop repeat-delay=660\ndesktop repeat-delay=500", "second 'desktop' line" },
  { "desktop-field-twice", "desktop repeat-delay=660 repeat-delay=500", "repeat-delay given twice" },
  { "desktop-no-equals", "desktop repeat-delay", "desktop: expected NAME=VALUE" },
};

static void
test_bad_line (gconstpointer data)
{
  const BadLine *bad = data;
  g_autofree char *text = g_strconcat (HEAD, bad->line, "\n", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", &error);

  g_assert_null (session);
  g_test_message ("%s -> %s", bad->name, error->message);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "t.log:3: ")
                 || g_str_has_prefix (error->message, "t.log:4: "));
  g_assert_nonnull (strstr (error->message, bad->message));
  /* No escape sequence reaches a terminal. */
  g_assert_null (strchr (error->message, '\x1b'));
}

/* Written back as read (a file xreduce wrote: its words in the fixed
 * order), kept by a subset. */
static void
test_round_trip (void)
{
  const char *text = HEAD "keymap \"de\"\n"
                     "desktop double-click-time=250 repeat-delay=500\n"
                     "replay pace=recorded speed=0.5 max-gap=5000 settle=2000\n"
                     "10 KeyPress keysym=a keycode=38 state=0x0\n"
                     "20 KeyRelease keysym=a keycode=38 state=0x0\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", &error);
  g_autofree char *back = NULL, *sub_text = NULL;
  g_autoptr (Session) subset = NULL;
  const SessionDesktop *desktop;
  const guint keep[] = { 0 };

  g_assert_no_error (error);
  back = session_to_string (session);
  g_assert_cmpstr (back, ==, text);
  desktop = session_get_desktop (session);
  g_assert_cmpuint (desktop->double_click_ms, ==, 250);
  g_assert_cmpuint (desktop->double_click_distance, ==, 0);
  g_assert_cmpuint (desktop->repeat_delay_ms, ==, 500);
  g_assert_cmpstr (session_get_replay_options (session)[2], ==, "max-gap=5000");
  subset = session_subset (session, keep, 1);
  sub_text = session_to_string (subset);
  g_assert_nonnull (strstr (sub_text, "desktop double-click-time=250 repeat-delay=500\n"));
  g_assert_nonnull (strstr (sub_text, "replay pace=recorded speed=0.5 max-gap=5000 settle=2000\n"));
}

/* Set in any order, written in the table's; none is no line. */
static void
test_set_order (void)
{
  g_autoptr (Session) session = session_new ();
  const char *const words[] = { "settle=3000", "pace=recorded", NULL };
  const char *const bad[] = { "wm=openbox", NULL };
  const char *const none[] = { NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL, *empty = NULL;

  g_assert_true (session_set_replay_options (session, words, &error));
  text = session_to_string (session);
  g_assert_nonnull (strstr (text, "\nreplay pace=recorded settle=3000\n"));
  g_assert_false (session_set_replay_options (session, bad, &error));
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
  /* A refusal leaves what was there. */
  g_assert_cmpstr (session_get_replay_options (session)[0], ==, "pace=recorded");
  g_assert_true (session_set_replay_options (session, none, NULL));
  empty = session_to_string (session);
  g_assert_null (strstr (empty, "replay"));
}

/* The session's options count where the command line is silent; the
 * command line's win; what a session cannot carry stays for the command
 * line. */
static void
test_take_session (void)
{
  const char *text = HEAD "replay pace=recorded max-gap=5000 settle=2000\n";
  g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", NULL);
  g_autoptr (ReplayArgs) args = replay_args_new ();
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = g_strdupv ((char *[]) { "xreplay", "--settle", "700", "--wm",
                                                "openbox --sm-disable", NULL });
  g_auto (GStrv) carried = NULL, not_carried = NULL;
  const ReplaySettings *settings;

  g_assert_nonnull (session);
  g_option_context_add_group (context, replay_args_get_group (args));
  g_assert_true (g_option_context_parse_strv (context, &argv, &error));
  g_assert_true (replay_args_check (args, &error));
  g_assert_true (replay_args_take_session (args, session, &error));
  g_assert_no_error (error);
  settings = replay_args_get_settings (args);
  g_assert_cmpint (settings->pace, ==, REPLAY_PACE_RECORDED);
  g_assert_true (settings->pace_given);
  g_assert_cmpuint (settings->max_gap_ms, ==, 5000);
  g_assert_cmpuint (settings->settle_ms, ==, 700);
  g_assert_true (replay_args_from_session (args, "max-gap"));
  g_assert_false (replay_args_from_session (args, "settle"));
  carried = replay_args_to_session_options (args);
  g_assert_cmpuint (g_strv_length (carried), ==, 3);
  g_assert_cmpstr (carried[0], ==, "pace=recorded");
  g_assert_cmpstr (carried[1], ==, "max-gap=5000");
  g_assert_cmpstr (carried[2], ==, "settle=700");
  not_carried = replay_args_to_argv_not_in_session (args);
  g_assert_cmpuint (g_strv_length (not_carried), ==, 2);
  g_assert_cmpstr (not_carried[0], ==, "--wm");
  g_assert_cmpstr (not_carried[1], ==, "openbox --sm-disable");
}

/* A value the command line takes but a session cannot carry (a gap of an
 * hour) stays for the command line. */
static void
test_not_carried (void)
{
  g_autoptr (ReplayArgs) args = replay_args_new ();
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_auto (GStrv) argv = g_strdupv ((char *[]) { "xreplay", "--max-gap", "3600000", NULL });
  g_auto (GStrv) carried = NULL, not_carried = NULL;

  g_option_context_add_group (context, replay_args_get_group (args));
  g_assert_true (g_option_context_parse_strv (context, &argv, NULL));
  g_assert_true (replay_args_check (args, NULL));
  carried = replay_args_to_session_options (args);
  not_carried = replay_args_to_argv_not_in_session (args);
  g_assert_cmpuint (g_strv_length (carried), ==, 0);
  g_assert_cmpuint (g_strv_length (not_carried), ==, 2);
  g_assert_cmpstr (not_carried[1], ==, "3600000");
}

/* How xreduce runs xreplay, written in one place: every replay's options
 * (quiet, the failure's needs, the user's), then one replay's own after
 * them (xreplay takes the last of an option given twice), the display,
 * the session and the app. */
static void
test_command (void)
{
  const char *user[] = { "--settle", "800", "--no-isolate", NULL };
  const char *app[] = { "/usr/bin/app", "--", "-x", NULL };
  g_auto (GStrv) common = replay_args_common (user, "boom.*", TRUE);
  const char *want_common[] = { "--quiet", "--stderr-match", "boom.*", "--backtrace",
                                "--settle", "800", "--no-isolate", NULL };
  ReplayOverrides none = { 0 };
  ReplayOverrides learnt = { .window_wait_ms = 300, .settle_ms = 900, .start_timeout_ms = 20000,
                             .recorded_pace = TRUE, .max_gap_ms = 5000, .speed = 0.5 };
  ReplayOverrides report = { .report_dir = "/tmp/r dir", .no_backtrace = TRUE };
  g_auto (GStrv) plain = replay_args_command ("/bin/xreplay", NULL, &none, NULL, "c.log", app);
  g_auto (GStrv) each = replay_args_command ("/bin/xreplay", (const char *const *) common,
                                             &learnt, ":7", "-", app);
  g_auto (GStrv) reporting = replay_args_command ("xreplay", NULL, &report, ":7", "s.log", app);
  const char *want_plain[] = { "/bin/xreplay", "--json", "c.log", "--", "/usr/bin/app", "--",
                               "-x", NULL };
  const char *want_each[] = { "/bin/xreplay", "--json", "--quiet", "--stderr-match", "boom.*",
                              "--backtrace", "--settle", "800", "--no-isolate",
                              "--window-wait=300", "--settle=900", "--pace=recorded",
                              "--max-gap=5000", "--speed=0.5", "--start-timeout=20000",
                              "--display", ":7", "-", "--", "/usr/bin/app", "--", "-x", NULL };
  const char *want_reporting[] = { "xreplay", "--json", "--report", "/tmp/r dir",
                                   "--no-backtrace", "--display", ":7", "s.log", "--",
                                   "/usr/bin/app", "--", "-x", NULL };

  g_assert_cmpstrv (common, want_common);
  g_assert_cmpstrv (plain, want_plain);
  g_assert_cmpstrv (each, want_each);
  g_assert_cmpstrv (reporting, want_reporting);
  {
    /* Without the recorded pace, its cap and speed are not said. */
    ReplayOverrides app_pace = { .max_gap_ms = 5000, .speed = 2 };
    g_auto (GStrv) words = replay_args_command ("x", NULL, &app_pace, NULL, "-", app);

    g_assert_cmpuint (g_strv_length (words), ==, 7);
  }
}

/* One policy of isolation for both programs, where bubblewrap cannot
 * make a sandbox (a bwrap on PATH that fails): auto goes on without it
 * and says so; require refuses; --no-isolate and --share-home never ask.
 * (Each in a process of its own: whether bubblewrap works is asked once
 * a process.) */
static void
test_isolation_policy (void)
{
  if (g_test_subprocess ())
    {
      const char *which = g_getenv ("POLICY_CASE");
      g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", NULL);
      g_autofree char *bwrap = g_build_filename (dir, "bwrap", NULL);
      g_autofree char *path = g_strconcat (dir, ":", g_getenv ("PATH"), NULL);
      g_autoptr (GError) error = NULL;
      g_autofree char *warning = NULL;
      ReplaySettings settings;
      gboolean ok;

      g_assert_true (g_file_set_contents (bwrap, "#!/bin/sh\necho 'bwrap: no namespaces' >&2\n"
                                          "exit 1\n", -1, NULL));
      g_assert_cmpint (g_chmod (bwrap, 0700), ==, 0);
      g_setenv ("PATH", path, TRUE);
      g_unsetenv (SANDBOX_CHECKED_ENV);
      replay_settings_init (&settings);
      settings.isolate = g_str_equal (which, "require") ? SANDBOX_ISOLATE_REQUIRE
                         : g_str_equal (which, "off") ? SANDBOX_ISOLATE_OFF
                         : SANDBOX_ISOLATE_AUTO;
      settings.share_home = g_str_equal (which, "share-home");
      ok = replay_settings_resolve_isolation (&settings, "the app runs", &warning, &error);
      g_unlink (bwrap);
      g_rmdir (dir);
      if (g_str_equal (which, "require"))
        {
          g_assert_false (ok);
          g_assert_error (error, SANDBOX_ERROR, SANDBOX_ERROR_NO_ISOLATION);
          g_assert_true (g_str_has_prefix (error->message, "--isolate=require: bubblewrap "
                                                           "cannot make a sandbox here"));
          g_assert_nonnull (strstr (error->message, "bwrap: no namespaces"));
        }
      else if (g_str_equal (which, "auto"))
        {
          g_assert_true (ok);
          g_assert_no_error (error);
          g_assert_cmpint (settings.isolate, ==, SANDBOX_ISOLATE_OFF);
          g_assert_nonnull (strstr (warning, "bwrap: no namespaces; the app runs without "
                                             "isolation (it sees your files"));
        }
      else
        {
          g_assert_true (ok);
          g_assert_null (warning);
          g_assert_cmpint (settings.isolate, ==, g_str_equal (which, "off")
                                                   ? SANDBOX_ISOLATE_OFF : SANDBOX_ISOLATE_AUTO);
        }
      return;
    }
  for (const char *const *c = (const char *const[]) { "auto", "require", "off", "share-home", NULL };
       *c != NULL; c++)
    {
      g_setenv ("POLICY_CASE", *c, TRUE);
      g_test_trap_subprocess ("/session-options/isolation-policy", 0,
                              G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_lines); i++)
    {
      g_autofree char *path = g_strdup_printf ("/session-options/bad/%s", bad_lines[i].name);
      g_test_add_data_func (path, &bad_lines[i], test_bad_line);
    }
  g_test_add_func ("/session-options/round-trip", test_round_trip);
  g_test_add_func ("/session-options/set-order", test_set_order);
  g_test_add_func ("/session-options/take-session", test_take_session);
  g_test_add_func ("/session-options/not-carried", test_not_carried);
  g_test_add_func ("/session-options/isolation-policy", test_isolation_policy);
  g_test_add_func ("/session-options/command", test_command);
  return g_test_run ();
}
