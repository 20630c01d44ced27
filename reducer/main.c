/* main.c — xreduce: reduce a recorded session that makes an X11 app fail
 * to the minimal sequence of user actions that still does.
 *
 * Parses the command line and calls reduce_run() (reduce.c). Only main()
 * exits.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include <locale.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "crashgroups.h"
#include "exit-status.h"
#include "pool.h"
#include "proc.h"
#include "quote.h"
#include "reduce.h"
#include "help.h"
#include "summary.h"
#include "sandbox.h"
#include "session.h"
#include "signame.h"

/* The defaults the help says are the ones main() starts from. */
#define DEFAULT_FRAMES 3
#define DEFAULT_VERIFY_RUNS 3

/* The command line, as given. */
typedef struct
{
  char *output, *algorithm, *signal_name, *stderr_match, *test_cmd, *launcher;
  char *files_dir;           /* SESSION.files, absolute, when --files is not given */
  ReplayArgs *replay;        /* the options every replay gets (replay-args.h) */
  gint jobs, frames, verify_runs;
  gint64 limit_tests;
  gdouble limit_time;
  gint64 test_timeout;
  gboolean quiet, same_crash, report, run_recorded, json, version, verbose;
  gboolean summarize, no_inference;
  int dashdash;              /* the index of "--", or -1 */
  int n_args;                /* arguments left after the options, the program's name too */
} Args;

static void
args_clear (Args *a)
{
  char **strings[] = { &a->output, &a->algorithm, &a->signal_name, &a->stderr_match,
                       &a->test_cmd, &a->launcher, &a->files_dir };

  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&a->replay, replay_args_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Args, args_clear)

/* The --help's summary and description, below and after the options. */
static void
set_help_text (GOptionContext *context)
{
  g_option_context_set_summary (context,
    "Reduce a recorded session that makes an X11 app fail to the minimal\n"
    "sequence of user actions that still does (delta debugging, replaying\n"
    "candidates under Xvfb in parallel). The result is 1-minimal: removing\n"
    "any one remaining action makes the failure go away.");
  g_option_context_set_description (context,
    "Without '-- APP', the command recorded in the session runs only if it is a\n"
    "plain program name from PATH (one word, no arguments, letters, digits and\n"
    "._+- only, not in an sbin folder, not reboot, poweroff, halt, shutdown, init,\n"
    "telinit or zzz); a session may come from anyone, so any other recorded\n"
    "command is shown and refused (exit 2) unless --run-recorded-command is given.\n\n"
    "Every replay runs the app in a sandbox of its own: a fresh HOME and XDG\n"
    "directories, a private D-Bus session bus, under bubblewrap (no view of your\n"
    "home, /tmp, network, processes or display; an environment allowlist; see\n"
    "xreplay --help).\n\n"
    "OUT and OUT.report/ hold the user's keystrokes: OUT is a new 0600 file,\n"
    "OUT.report/ a 0700 folder of 0600 files put in place when complete, whatever\n"
    "was at their paths (links are replaced, not followed; an OUT.report that is\n"
    "neither empty nor an earlier report is refused before anything starts).\n\n"
    "Exit status:\n"
    "  0    reduced; the minimal session is in OUT, its bug report in OUT.report/\n"
    "  2    usage error or bad input (the session file, an option)\n"
    "  3    infrastructure error (Xvfb or xreplay failed; OUT or OUT.report/\n"
    "       could not be written: the minimal session is complete in OUT when\n"
    "       only the report could not)\n"
    "  4    nothing to reduce: the full session does not fail, or the empty one does,\n"
    "       or the app cannot start (no such program)\n"
    "  128+N  interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; 130 also\n"
    "       for --limit-time before anything failed); the best session so far is\n"
    "       in OUT, and the same command resumes\n\n"
    "Examples:\n"
    "  xreduce crash.log -- gedit\n"
    "  xreduce -j 4 --same-crash crash.log -- ./myapp --safe-mode\n"
    "  xreduce --json crash.log -- ./myapp > result.json\n"
    "  xreduce --summarize results/ > crashes.md\n"
    "  salloc -n 8 xreduce --launcher 'srun -n1 --exact --quiet' crash.log -- app\n\n"
    "Interrupted (Ctrl-C), xreduce keeps the best session so far and its report,\n"
    "marked \"interrupted, not minimal\", and a journal OUT.journal: the same\n"
    "command run again goes on from there.\n");
}

/* Parses what comes before "--" (the app's command line stays as it is);
 * a usage error is said. A step of main() (exit-status.h). */
static gboolean
parse_args (int *argc, char ***argv, Args *a, int *status)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  int opt_argc;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, "Write the minimal session to OUT (default: SESSION.min)", "OUT" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs, "Parallel workers, each with its own Xvfb (default: three times the number of cores: replays mostly wait); with --launcher, its slots (default: SLURM_NTASKS inside salloc or sbatch, else 1)", "N" },
    { "launcher", 0, 0, G_OPTION_ARG_STRING, &a->launcher, "Run every test as 'CMD xreplay --json ... -' wherever CMD runs it ('srun -n1 --exact --quiet', 'ssh HOST'), the candidate on its stdin: xreplay, the app and --home must be at the same absolute paths there", "CMD" },
    { "algorithm", 0, 0, G_OPTION_ARG_STRING, &a->algorithm, "hdd (default: the steps a person would name, then gestures, then single actions; complement-first, parallel) or ddmin (the original sequential ddmin, a fresh Xvfb per test: the baseline)", "ALGO" },
    { "signal", 0, 0, G_OPTION_ARG_STRING, &a->signal_name, "The failure is a crash with this signal (default: the outcome recorded in the session)", "SIG" },
    { "stderr-match", 0, 0, G_OPTION_ARG_STRING, &a->stderr_match, "The failure requires the app's stderr to match REGEX", "REGEX" },
    { "same-crash", 0, 0, G_OPTION_ARG_NONE, &a->same_crash, "The failure must be the same crash: same signal and same top frames of its backtrace", NULL },
    { "frames", 0, 0, G_OPTION_ARG_INT, &a->frames, "Frames compared by --same-crash (default " G_STRINGIFY (DEFAULT_FRAMES) ")", "N" },
    { "test", 0, 0, G_OPTION_ARG_STRING, &a->test_cmd, "Oracle command, given the candidate session path; exit 0 = still fails. DISPLAY is the worker's Xvfb", "CMD" },
    { "verify-runs", 0, 0, G_OPTION_ARG_INT, &a->verify_runs, "Replays of the full session to check it fails and how reliably (default " G_STRINGIFY (DEFAULT_VERIFY_RUNS) ")", "N" },
    { "no-inference", 0, 0, G_OPTION_ARG_NONE, &a->no_inference, "Replay every one-action removal that proves the result 1-minimal (by default a typed key that a replay showed needed is not replayed again after a later removal: failures are taken as monotone)", NULL },
    { "limit-time", 0, 0, G_OPTION_ARG_DOUBLE, &a->limit_time, "Stop after SECONDS with the best result so far", "SECONDS" },
    { "limit-tests", 0, 0, G_OPTION_ARG_INT64, &a->limit_tests, "Stop after N tests with the best result so far", "N" },
    { "test-timeout", 0, 0, G_OPTION_ARG_INT64, &a->test_timeout, "Kill a test (an xreplay stuck on a stopped X server) after MS and run it again on a fresh X server (default: four times the slowest replay so far, per action, plus the start timeout, at least 60000; 600000 before any replay ended)", "MS" },
    { "report", 0, 0, G_OPTION_ARG_NONE, &a->report, "Write the bug-report folder OUT.report/: report.md with the steps in words, a picture before each, an xdotool script, the reduction's figures (the default)", NULL },
    { "no-report", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &a->report, "Do not write OUT.report/", NULL },
    { "run-recorded-command", 0, 0, G_OPTION_ARG_NONE, &a->run_recorded, "Without '-- APP': run the command SESSION records, whatever it is (see below)", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &a->json, "Print the result as one JSON object on stdout (see xreduce(1)), also when there is none", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress line", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &a->verbose, "Say what every test does (debug messages on stderr)", NULL },
    { "summarize", 0, 0, G_OPTION_ARG_NONE, &a->summarize, "Instead of reducing: group RESULT... (xreduce --json files, or folders of them: a job array's) by crash, same failure and top frames, in one Markdown table (with --json: JSON) on stdout", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &a->version, "Print the version and exit", NULL },
    { NULL }
  };

  a->dashdash = -1;
  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--") == 0)
      {
        a->dashdash = i;
        break;
      }
  context = g_option_context_new ("SESSION [-- APP [ARGS...]]");
  set_help_text (context);
  g_option_context_add_main_entries (context, entries, NULL);
  a->replay = replay_args_new ();
  g_option_context_add_group (context, replay_args_get_group (a->replay));
  opt_argc = a->dashdash >= 0 ? a->dashdash : *argc;
  if (help_maybe_print (context, opt_argc, *argv))
    return exit_status_stop (status, EXIT_STATUS_OK);
  if (!g_option_context_parse (context, &opt_argc, argv, &error))
    {
      g_printerr ("xreduce: %s\nTry 'xreduce --help'.\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->version)
    {
      g_print ("xreduce %s\n", XREDUCE_VERSION);
      return exit_status_stop (status, EXIT_STATUS_OK);
    }
  if (a->verbose)
    g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
  a->n_args = opt_argc;
  if (a->summarize)
    {
      if (opt_argc >= 2 && a->dashdash < 0)
        return TRUE;
      g_printerr ("xreduce: --summarize: %s\nUsage: xreduce --summarize [--json] RESULT...\n",
                  a->dashdash >= 0 ? "no app: it reads results" : "no result given");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (opt_argc != 2)
    {
      g_printerr ("xreduce: %s\nUsage: xreduce [OPTIONS] SESSION [-- APP [ARGS...]]\n",
                  opt_argc < 2 ? "no session file given" : "more than one session file given");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  /* g_option_context_parse moved the remaining argument to argv[1]. */
  return TRUE;
}

/* What every replay gets from the command line (the sandbox, the
 * timing), checked as xreplay checks it: a bad value is said now, before
 * any server starts, not by every replay. A step of main() (exit-status.h). */
static gboolean
check_replay_options (Args *a, ReduceOptions *options, GStrv *replay_args, int *status)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) xreplay_args = g_strv_builder_new ();
  g_auto (GStrv) given = NULL;
  g_autofree char *warning = NULL;

  if (!replay_args_check (a->replay, &error))
    {
      g_printerr ("xreduce: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->replay = *replay_args_get_settings (a->replay);
  options->replay_args = a->replay;
  given = replay_args_to_argv (a->replay);
  g_strv_builder_addv (xreplay_args, (const char **) given);
  /* The copies of the files the app read (xrecord --with-files) beside
   * the session: every replay gets them, wherever its candidate is. */
  if (options->replay.files_dir == NULL && !options->replay.share_home
      && options->session_path != NULL)
    {
      g_autofree char *beside = g_strconcat (options->session_path, ".files", NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_DIR))
        {
          a->files_dir = g_canonicalize_filename (beside, NULL);
          options->replay.files_dir = a->files_dir;
          g_strv_builder_add_many (xreplay_args, "--files", a->files_dir, NULL);
        }
    }
  /* Whether bubblewrap works is asked once, here: every replay would
   * say it again. */
  if (!replay_settings_resolve_isolation (&options->replay, "the replays run", &warning, &error))
    {
      g_printerr ("xreduce: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_INFRA);
    }
  if (warning != NULL)
    {
      g_printerr ("xreduce: warning: %s\n", warning);
      g_strv_builder_add (xreplay_args, "--no-isolate");
    }
  *replay_args = g_strv_builder_end (xreplay_args);
  options->xreplay_args = *replay_args;
  return TRUE;
}

/* The session, the output and the app's command line. A step of
 * check_options(). */
static gboolean
check_command_line (const Args *a, char **argv, ReduceOptions *options, int *status)
{
  options->session_path = argv[1];
  options->output_path = a->output;
  if (a->output != NULL)
    {
      g_autofree char *in = g_canonicalize_filename (argv[1], NULL);
      g_autofree char *out = g_canonicalize_filename (a->output, NULL);
      g_autofree char *in_real = realpath (in, NULL);
      g_autofree char *out_real = realpath (out, NULL);

      if (g_str_equal (in, out) || (in_real != NULL && out_real != NULL
                                    && g_str_equal (in_real, out_real)))
        {
          g_printerr ("xreduce: -o %s is the session itself: the result would overwrite it\n",
                      a->output);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
    }
  options->app_argv = a->dashdash >= 0 ? argv + a->dashdash + 1 : NULL;
  if (a->dashdash >= 0 && a->run_recorded)
    {
      g_printerr ("xreduce: --run-recorded-command and '-- APP' exclude each other\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->run_recorded_command = a->run_recorded;
  if (a->dashdash >= 0 && argv[a->dashdash + 1] == NULL)
    {
      g_printerr ("xreduce: nothing after '--': give the app's command line\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  return TRUE;
}

/* The search: its workers and its algorithm. A step of check_options(). */
static gboolean
check_search (const Args *a, ReduceOptions *options, int *status)
{
  /* -1: not given (the default); -j 0 is a mistake, not the default.
   * A launcher's slots are other machines' cores. */
  if (a->jobs != -1 && (a->jobs < 1 || a->jobs > (a->launcher != NULL ? POOL_MAX_SLOTS : 64)))
    {
      g_printerr ("xreduce: --jobs must be between 1 and %d\n",
                  a->launcher != NULL ? POOL_MAX_SLOTS : 64);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->jobs = a->jobs > 0 ? (guint) a->jobs : 0;
  /* How many workers' first X servers have GLX (the others start
   * without, until an app asks: docs/design/search.md). */
  {
    const char *glx_first = g_getenv ("XREDUCE_GLX_FIRST");
    guint64 n = 0;

    if (glx_first != NULL
        && (!g_ascii_string_to_unsigned (glx_first, 10, 0, 64, &n, NULL)))
      {
        g_autofree char *shown = quote_message (glx_first);

        g_printerr ("xreduce: XREDUCE_GLX_FIRST must be a number of workers, 0 to 64, not %s\n",
                    shown);
        return exit_status_stop (status, EXIT_STATUS_USAGE);
      }
    options->glx_first = glx_first != NULL ? (guint) n : REDUCE_GLX_BY_SESSION;
  }
  if (a->algorithm == NULL || g_str_equal (a->algorithm, "hdd"))
    options->algorithm = DD_ALGORITHM_HDD;
  else if (g_str_equal (a->algorithm, "ddmin"))
    options->algorithm = DD_ALGORITHM_DDMIN;
  else
    {
      g_printerr ("xreduce: unknown --algorithm '%s' (hdd or ddmin)\n", a->algorithm);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  return TRUE;
}

/* What counts as the failure: a signal, stderr, the same crash, or a
 * --test command (@test_argv). A step of check_options(). */
static gboolean
check_failure (const Args *a, ReduceOptions *options, GStrv *test_argv, int *status)
{
  g_autoptr (GError) error = NULL;

  if (a->signal_name != NULL)
    {
      options->signal = proc_signal_from_name (a->signal_name);
      if (options->signal <= 0)
        {
          g_printerr ("xreduce: unknown signal '%s' (e.g. SIGSEGV, SEGV or 11)\n", a->signal_name);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
    }
  if (a->stderr_match != NULL)
    {
      g_autoptr (GRegex) regex = g_regex_new (a->stderr_match, 0, 0, &error);
      if (regex == NULL)
        {
          g_printerr ("xreduce: --stderr-match: %s\n", error->message);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
    }
  options->stderr_match = a->stderr_match;
  options->same_crash = a->same_crash;
  if (a->frames < 1 || a->frames > 32)
    {
      g_printerr ("xreduce: --frames must be between 1 and 32\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->same_crash_frames = (guint) a->frames;
  if (a->test_cmd != NULL)
    {
      if (!g_shell_parse_argv (a->test_cmd, NULL, test_argv, &error))
        {
          g_printerr ("xreduce: --test: %s\n", error->message);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
      {
        g_autofree char *program = g_find_program_in_path ((*test_argv)[0]);
        if (program == NULL)
          {
            g_printerr ("xreduce: --test: %s: no such program (or not executable)\n",
                        (*test_argv)[0]);
            return exit_status_stop (status, EXIT_STATUS_USAGE);
          }
      }
      if (a->same_crash || a->signal_name != NULL || a->stderr_match != NULL)
        {
          g_printerr ("xreduce: --test decides alone: it cannot be combined with "
                      "--signal, --stderr-match or --same-crash\n");
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
      options->test_argv = *test_argv;
    }
  return TRUE;
}

/* The tests: how many verify, where they run (@launcher_argv), the
 * limits, and what xreduce says. A step of check_options(). */
static gboolean
check_tests (const Args *a, ReduceOptions *options, GStrv *launcher_argv, int *status)
{
  g_autoptr (GError) error = NULL;

  if (a->verify_runs < 1 || a->verify_runs > 100)
    {
      g_printerr ("xreduce: --verify-runs must be between 1 and 100\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->verify_runs = (guint) a->verify_runs;
  if (a->launcher != NULL)
    {
      /* Split as the shell would, run without one. */
      *launcher_argv = proc_command_parse (a->launcher, &error);
      if (*launcher_argv == NULL)
        {
          g_printerr ("xreduce: --launcher: %s\n", error->message);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
      if (a->test_cmd != NULL)
        {
          g_printerr ("xreduce: --launcher runs xreplay elsewhere; --test runs here, on a "
                      "worker's Xvfb: they exclude each other\n");
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
      options->launcher_argv = *launcher_argv;
    }
  if (a->limit_time < 0 || a->limit_tests < 0)
    {
      g_printerr ("xreduce: limits must not be negative\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->limit_time = a->limit_time;
  if (a->test_timeout < 0 || a->test_timeout > 24 * 3600 * 1000 || (a->test_timeout > 0 && a->test_timeout < 1000))
    {
      g_printerr ("xreduce: --test-timeout: %" G_GINT64_FORMAT " is not a number of milliseconds "
                  "(1000 to 86400000)\n", a->test_timeout);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  options->test_timeout_ms = (guint) a->test_timeout;
  options->limit_tests = (guint64) a->limit_tests;
  options->no_inference = a->no_inference;
  options->quiet = a->quiet;
  options->json = a->json;
  options->report = a->report;
  return TRUE;
}

/* The options' values into @options (the strings it points to are in @a,
 * @test_argv and @replay_args); what is wrong is said. Nothing has started
 * yet. A step of main() (exit-status.h). */
static gboolean
check_options (Args *a, char **argv, ReduceOptions *options, GStrv *test_argv,
               GStrv *launcher_argv, GStrv *replay_args, int *status)
{
  reduce_options_init (options);
  return check_command_line (a, argv, options, status) && check_search (a, options, status)
         && check_failure (a, options, test_argv, status)
         && check_tests (a, options, launcher_argv, status)
         && check_replay_options (a, options, replay_args, status);
}

/* --json given before "--": the answer is JSON, whatever it is. */
static gboolean
wants_json (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--json") == 0)
      return TRUE;
  return FALSE;
}

/* What the option checks say on stderr, kept for --json's answer. */
static GString *said_on_stderr;

static void
print_and_keep (const char *text)
{
  fputs (text, stderr);
  if (said_on_stderr != NULL)
    g_string_append (said_on_stderr, text);
}

/* A command line refused before anything started: with --json, stdout
 * still holds one JSON object that says so (verdict usage_error, or
 * infra_error for an --isolate=require that cannot be met). */
static int
refused (int status, gboolean json)
{
  if (json && status != EXIT_STATUS_OK && said_on_stderr != NULL)
    {
      g_autofree char *first = g_strndup (said_on_stderr->str,
                                          strcspn (said_on_stderr->str, "\n"));
      const char *message = g_str_has_prefix (first, "xreduce: ") ? first + 9 : first;
      g_autofree char *text = summary_json_error (status == EXIT_STATUS_USAGE
                                                    ? XREDUCE_VERDICT_USAGE_ERROR
                                                    : XREDUCE_VERDICT_INFRA_ERROR,
                                                  *message != '\0' ? message : "bad options",
                                                  status, NULL, NULL);
      g_print ("%s\n", text);
    }
  return status;
}

/* xreduce --summarize: the results grouped by crash, on stdout. */
static int
summarize (const Args *a, char **argv)
{
  g_autoptr (CrashGroups) groups = crash_groups_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  for (int i = 1; i < a->n_args; i++)
    if (!crash_groups_add_path (groups, argv[i], &error))
      {
        g_printerr ("xreduce: --summarize: %s\n", error->message);
        return EXIT_STATUS_USAGE;
      }
  text = a->json ? crash_groups_to_json (groups) : crash_groups_to_markdown (groups);
  g_print ("%s%s", text, a->json ? "\n" : "");
  return EXIT_STATUS_OK;
}

int
main (int argc, char **argv)
{
  g_auto (Args) a = { .jobs = -1, .frames = DEFAULT_FRAMES, .verify_runs = DEFAULT_VERIFY_RUNS,
                      .report = TRUE };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) test_argv = NULL;
  g_auto (GStrv) launcher_argv = NULL;
  g_auto (GStrv) replay_args = NULL;
  ReduceOptions options;
  ReduceSummary summary = { 0 };
  gboolean json;
  int status;

  /* The terminal's character set, for GLib's conversion of what is
   * printed: titles in other scripts are shown, not '?'. LC_CTYPE only:
   * numbers in files and scripts stay "0.05" in every locale. */
  setlocale (LC_CTYPE, "");
#if GLIB_CHECK_VERSION (2, 68, 0)
  /* stdout is the result (--json's object, the minimal session's path):
   * -v's debug messages go to stderr, as --help says. */
  g_log_writer_default_set_use_stderr (TRUE);
#endif
  json = wants_json (argc, argv);
  said_on_stderr = g_string_new (NULL);
  g_set_printerr_handler (print_and_keep);
  if (!parse_args (&argc, &argv, &a, &status))
    return refused (status, json && !a.summarize);
  if (a.summarize)
    return summarize (&a, argv);
  if (!check_options (&a, argv, &options, &test_argv, &launcher_argv, &replay_args, &status))
    return refused (status, json);
  g_set_printerr_handler (NULL);
  g_string_free (g_steal_pointer (&said_on_stderr), TRUE);
  if (!reduce_run (&options, &summary, &error))
    {
      XreduceVerdict verdict = XREDUCE_VERDICT_INFRA_ERROR;

      status = EXIT_STATUS_INFRA;
      g_printerr ("xreduce: %s\n", error->message);
      if (error->domain == REDUCE_ERROR)
        switch ((ReduceError) error->code)
          {
          case REDUCE_ERROR_USAGE:
            status = EXIT_STATUS_USAGE;
            verdict = XREDUCE_VERDICT_USAGE_ERROR;
            break;
          case REDUCE_ERROR_VERIFY:
            status = EXIT_STATUS_NOTHING_TO_REDUCE;
            verdict = XREDUCE_VERDICT_NOTHING_TO_REDUCE;
            break;
          case REDUCE_ERROR_INTERRUPTED:
            /* 128 + the signal, as xreplay and xrecord exit; --limit-time
             * before anything was seen to fail: 130, as for Ctrl-C. */
            status = EXIT_STATUS_SIGNAL + (summary.signal != 0 ? summary.signal : SIGINT);
            verdict = XREDUCE_VERDICT_INTERRUPTED;
            break;
          case REDUCE_ERROR_INFRA:
          default:
            status = EXIT_STATUS_INFRA;
            break;
          }
      if (a.json)
        {
          g_autofree char *json = summary_json_error (verdict, error->message, status,
                                                      options.session_path,
                                                      summary.saved ? summary.output_path
                                                                    : NULL);
          g_print ("%s\n", json);
        }
      reduce_summary_clear (&summary);
      return status;
    }
  reduce_summary_clear (&summary);
  return EXIT_STATUS_OK;
}
