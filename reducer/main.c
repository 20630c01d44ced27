/* main.c — xreduce: reduce a recorded session that makes an X11 app fail
 * to the minimal sequence of user actions that still does.
 *
 * Parses the command line and calls reduce_run() (reduce.c). Only main()
 * exits.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "reduce.h"
#include "sandbox.h"
#include "session.h"

enum
{
  EXIT_REDUCED = 0,
  EXIT_USAGE = 2,
  EXIT_INFRA = 3,
  EXIT_VERIFY = 4,
  EXIT_INTERRUPTED = 130,
};

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *output = NULL, *algorithm = NULL, *signal_name = NULL;
  g_autofree char *stderr_match = NULL, *test_cmd = NULL;
  g_autofree char *speed = NULL, *max_gap = NULL, *settle = NULL, *timeout = NULL;
  g_autofree char *pace = NULL;
  g_autofree char *window_wait = NULL, *start_timeout = NULL, *home = NULL;
  g_auto (GStrv) test_argv = NULL;
  g_autoptr (GStrvBuilder) xreplay_args = g_strv_builder_new ();
  g_auto (GStrv) replay_args = NULL;
  gint jobs = 0, frames = 3, verify_runs = 3;
  gint64 limit_tests = 0;
  gdouble limit_time = 0;
  gboolean quiet = FALSE, same_crash = FALSE, report = TRUE, share_home = FALSE;
  ReduceOptions options;
  ReduceSummary summary = { 0 };
  int dashdash = -1;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the minimal session to OUT (default: SESSION.min)", "OUT" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Parallel workers, each with its own Xvfb (default: three times the number of cores: replays mostly wait)", "N" },
    { "algorithm", 0, 0, G_OPTION_ARG_STRING, &algorithm, "hdd (default: gestures then single actions, complement-first, parallel) or ddmin (the original sequential ddmin, a fresh Xvfb per test: the baseline)", "ALGO" },
    { "signal", 0, 0, G_OPTION_ARG_STRING, &signal_name, "The failure is a crash with this signal (default: the outcome recorded in the session)", "SIG" },
    { "stderr-match", 0, 0, G_OPTION_ARG_STRING, &stderr_match, "The failure requires the app's stderr to match REGEX", "REGEX" },
    { "same-crash", 0, 0, G_OPTION_ARG_NONE, &same_crash, "The failure must be the same crash: same signal and same top backtrace frames (gdb)", NULL },
    { "frames", 0, 0, G_OPTION_ARG_INT, &frames, "Frames compared by --same-crash (default 3)", "N" },
    { "test", 0, 0, G_OPTION_ARG_STRING, &test_cmd, "Oracle command, given the candidate session path; exit 0 = still fails. DISPLAY is the worker's Xvfb", "CMD" },
    { "verify-runs", 0, 0, G_OPTION_ARG_INT, &verify_runs, "Replays of the full session to check it fails and how reliably (default 3)", "N" },
    { "limit-time", 0, 0, G_OPTION_ARG_DOUBLE, &limit_time, "Stop after SECONDS with the best result so far", "SECONDS" },
    { "limit-tests", 0, 0, G_OPTION_ARG_INT64, &limit_tests, "Stop after N tests with the best result so far", "N" },
    { "pace", 0, 0, G_OPTION_ARG_STRING, &pace, "app or recorded (see xreplay; default: the app's, or the recorded one if the session fails only so)", "PACE" },
    { "speed", 0, 0, G_OPTION_ARG_STRING, &speed, "Replay speed factor (see xreplay)", "F" },
    { "max-gap", 0, 0, G_OPTION_ARG_STRING, &max_gap, "Longest wait between two actions in a replay (see xreplay)", "MS" },
    { "settle", 0, 0, G_OPTION_ARG_STRING, &settle, "Time the app gets after the last action (see xreplay)", "MS" },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &timeout, "Hang detection timeout (see xreplay)", "MS" },
    { "window-wait", 0, 0, G_OPTION_ARG_STRING, &window_wait, "Longest wait for an action's window (see xreplay; default: learned from the full session's replays, at most 2000)", "MS" },
    { "start-timeout", 0, 0, G_OPTION_ARG_STRING, &start_timeout, "Longest wait for the app's first window (see xreplay)", "MS" },
    { "report", 0, 0, G_OPTION_ARG_NONE, &report, "Write the bug-report folder OUT.report/: report.md with the steps in words, a picture before each, an xdotool script, the reduction's figures (the default)", NULL },
    { "no-report", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &report, "Do not write OUT.report/", NULL },
    { "home", 0, 0, G_OPTION_ARG_FILENAME, &home, "Every replay's fresh HOME starts as a copy of DIR (a profile the bug needs; copy-on-write where the filesystem can)", "DIR" },
    { "share-home", 0, 0, G_OPTION_ARG_NONE, &share_home, "Run the app with your own HOME and D-Bus session bus instead of a sandbox per replay (parallel replays may then get in each other's way)", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress line", NULL },
    { NULL }
  };

  /* Everything after "--" is the app's command line, untouched. */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        dashdash = i;
        break;
      }

  context = g_option_context_new ("SESSION [-- APP [ARGS...]]");
  g_option_context_set_summary (context,
    "Reduce a recorded session that makes an X11 app fail to the minimal\n"
    "sequence of user actions that still does (delta debugging, replaying\n"
    "candidates under Xvfb in parallel). The result is 1-minimal: removing\n"
    "any one remaining action makes the failure go away.");
  g_option_context_set_description (context,
    "Without APP, the command recorded in the session is used.\n\n"
    "Every replay runs the app in a sandbox of its own: a fresh HOME and XDG\n"
    "directories, a private D-Bus session bus (see xreplay --help).\n\n"
    "Exit status:\n"
    "  0    reduced; the minimal session is in OUT, its bug report in OUT.report/\n"
    "       (a report that cannot be written is only a warning)\n"
    "  2    usage error or bad input (the session file, an option)\n"
    "  3    infrastructure error (Xvfb or xreplay failed)\n"
    "  4    nothing to reduce: the full session does not fail, or the empty one does,\n"
    "       or the app cannot start\n"
    "  130  interrupted (Ctrl-C); the best session so far is in OUT\n\n"
    "Example:\n"
    "  xreduce crash.log -- gedit\n"
    "  xreduce -j 4 --same-crash crash.log -- ./myapp --safe-mode\n");
  g_option_context_add_main_entries (context, entries, NULL);
  {
    int opt_argc = dashdash >= 0 ? dashdash : argc;
    if (!g_option_context_parse (context, &opt_argc, &argv, &error))
      {
        g_printerr ("xreduce: %s\nTry 'xreduce --help'.\n", error->message);
        return EXIT_USAGE;
      }
    if (opt_argc != 2)
      {
        g_printerr ("xreduce: %s\nUsage: xreduce [OPTIONS] SESSION [-- APP [ARGS...]]\n",
                    opt_argc < 2 ? "no session file given" : "more than one session file given");
        return EXIT_USAGE;
      }
    /* g_option_context_parse moved the remaining argument to argv[1]. */
  }

  reduce_options_init (&options);
  options.session_path = argv[1];
  options.output_path = output;
  options.app_argv = dashdash >= 0 ? argv + dashdash + 1 : NULL;
  if (dashdash >= 0 && argv[dashdash + 1] == NULL)
    {
      g_printerr ("xreduce: nothing after '--': give the app's command line\n");
      return EXIT_USAGE;
    }
  if (jobs < 0 || jobs > 64)
    {
      g_printerr ("xreduce: --jobs must be between 1 and 64\n");
      return EXIT_USAGE;
    }
  options.jobs = (guint) jobs;
  if (algorithm == NULL || g_str_equal (algorithm, "hdd"))
    options.algorithm = DD_ALGORITHM_HDD;
  else if (g_str_equal (algorithm, "ddmin"))
    options.algorithm = DD_ALGORITHM_DDMIN;
  else
    {
      g_printerr ("xreduce: unknown --algorithm '%s' (hdd or ddmin)\n", algorithm);
      return EXIT_USAGE;
    }
  if (signal_name != NULL)
    {
      options.signal = session_signal_from_name (signal_name);
      if (options.signal <= 0)
        {
          g_printerr ("xreduce: unknown signal '%s' (e.g. SIGSEGV, SEGV or 11)\n", signal_name);
          return EXIT_USAGE;
        }
    }
  if (stderr_match != NULL)
    {
      g_autoptr (GRegex) regex = g_regex_new (stderr_match, 0, 0, &error);
      if (regex == NULL)
        {
          g_printerr ("xreduce: --stderr-match: %s\n", error->message);
          return EXIT_USAGE;
        }
    }
  options.stderr_match = stderr_match;
  options.same_crash = same_crash;
  if (frames < 1 || frames > 32)
    {
      g_printerr ("xreduce: --frames must be between 1 and 32\n");
      return EXIT_USAGE;
    }
  options.same_crash_frames = (guint) frames;
  if (test_cmd != NULL)
    {
      if (!g_shell_parse_argv (test_cmd, NULL, &test_argv, &error))
        {
          g_printerr ("xreduce: --test: %s\n", error->message);
          return EXIT_USAGE;
        }
      if (same_crash || signal_name != NULL || stderr_match != NULL)
        {
          g_printerr ("xreduce: --test decides alone: it cannot be combined with "
                      "--signal, --stderr-match or --same-crash\n");
          return EXIT_USAGE;
        }
      options.test_argv = test_argv;
    }
  if (verify_runs < 1 || verify_runs > 100)
    {
      g_printerr ("xreduce: --verify-runs must be between 1 and 100\n");
      return EXIT_USAGE;
    }
  options.verify_runs = (guint) verify_runs;
  if (limit_time < 0 || limit_tests < 0)
    {
      g_printerr ("xreduce: limits must not be negative\n");
      return EXIT_USAGE;
    }
  options.limit_time = limit_time;
  options.limit_tests = (guint64) limit_tests;
  options.quiet = quiet;
  options.report = report;
  if (home != NULL && share_home)
    {
      g_printerr ("xreduce: --home and --share-home exclude each other\n");
      return EXIT_USAGE;
    }
  if (home != NULL && !sandbox_check_home_seed (home, &error))
    {
      g_printerr ("xreduce: %s\n", error->message);
      return EXIT_USAGE;
    }
  options.home_seed = home;
  options.share_home = share_home;
  if (home != NULL)
    {
      g_strv_builder_add (xreplay_args, "--home");
      g_strv_builder_add (xreplay_args, home);
    }
  if (share_home)
    g_strv_builder_add (xreplay_args, "--share-home");

  {
    const struct { const char *name; const char *value; } pass[] = {
      { "--speed", speed }, { "--max-gap", max_gap }, { "--settle", settle },
      { "--timeout", timeout }, { "--window-wait", window_wait },
      { "--start-timeout", start_timeout },
    };
    for (gsize i = 0; i < G_N_ELEMENTS (pass); i++)
      if (pass[i].value != NULL)
        {
          char *end = NULL;
          double v = g_ascii_strtod (pass[i].value, &end);
          if (end == pass[i].value || *end != '\0' || v < 0)
            {
              g_printerr ("xreduce: %s: '%s' is not a non-negative number\n",
                          pass[i].name, pass[i].value);
              return EXIT_USAGE;
            }
          g_strv_builder_add (xreplay_args, pass[i].name);
          g_strv_builder_add (xreplay_args, pass[i].value);
        }
  }
  if (pace != NULL)
    {
      if (!g_str_equal (pace, "app") && !g_str_equal (pace, "recorded"))
        {
          g_printerr ("xreduce: --pace: '%s' is not app or recorded\n", pace);
          return EXIT_USAGE;
        }
      g_strv_builder_add (xreplay_args, "--pace");
      g_strv_builder_add (xreplay_args, pace);
    }
  options.pace_given = pace != NULL;
  options.pace_recorded = pace != NULL && g_str_equal (pace, "recorded");
  options.window_wait_given = window_wait != NULL;
  options.start_timeout_given = start_timeout != NULL;
  replay_args = g_strv_builder_end (xreplay_args);
  options.xreplay_args = replay_args;

  if (!reduce_run (&options, &summary, &error))
    {
      int status = EXIT_INFRA;

      g_printerr ("xreduce: %s\n", error->message);
      if (error->domain == REDUCE_ERROR)
        switch ((ReduceError) error->code)
          {
          case REDUCE_ERROR_USAGE: status = EXIT_USAGE; break;
          case REDUCE_ERROR_VERIFY: status = EXIT_VERIFY; break;
          case REDUCE_ERROR_INTERRUPTED: status = EXIT_INTERRUPTED; break;
          case REDUCE_ERROR_INFRA: default: status = EXIT_INFRA; break;
          }
      reduce_summary_clear (&summary);
      return status;
    }
  reduce_summary_clear (&summary);
  return EXIT_REDUCED;
}
