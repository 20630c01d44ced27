/* main.c — xreplay: replay a recorded session's user actions against a
 * fresh instance of an X11 app and say what became of it.
 *
 *   xreplay [OPTIONS] SESSION [-- APP [ARGS...]]
 *   xreplay --list SESSION
 *   xreplay --export xdotool|json SESSION
 *
 * Parses the command line, loads the session and calls replay_run()
 * (replay.c), which does the work. Only main() exits; the exit status is
 * the verdict (see usage_description below and the README).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>

#include "replay.h"
#include "sandbox.h"
#include "report.h"
#include "session.h"

enum
{
  EXIT_PASSED = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_INFRA = 3,
  EXIT_NOT_STARTED = 4,
};

static const char usage_description[] =
  "Replays SESSION's user actions with XTest against a fresh instance of APP\n"
  "(default: the command recorded in SESSION) on a private Xvfb, and prints\n"
  "what happened: crashed, exited, hung or passed.\n"
  "\n"
  "Each replay runs the app in a sandbox of its own: a fresh temporary HOME\n"
  "(XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME in it), a\n"
  "private XDG_RUNTIME_DIR and TMPDIR, and a private D-Bus session bus, all\n"
  "removed afterwards, so that parallel replays and a crash's leftovers cannot\n"
  "change what the app does. --home DIR seeds HOME with a copy of DIR;\n"
  "--share-home turns the sandbox off.\n"
  "\n"
  "Exit status:\n"
  "  0  passed (or the app exited with status 0)\n"
  "  1  the app crashed, hung or exited non-zero\n"
  "     (with --stderr-match: its stderr matched, whatever the outcome)\n"
  "  2  usage or bad input (e.g. a malformed session)\n"
  "  3  infrastructure error (Xvfb, the X connection, dbus-daemon)\n"
  "  4  the app could not start (no such program, died or no window)\n"
  "  128+N  interrupted by signal N; the app and Xvfb are gone";

typedef struct
{
  GCancellable *cancellable;
  int signal;                /* the signal that interrupted us, or 0 */
} Interrupt;

static gboolean
on_signal (gpointer user_data, int signum)
{
  Interrupt *interrupt = user_data;

  if (interrupt->signal == 0)
    interrupt->signal = signum;
  g_cancellable_cancel (interrupt->cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigint (gpointer user_data)
{
  return on_signal (user_data, SIGINT);
}

static gboolean
on_sigterm (gpointer user_data)
{
  return on_signal (user_data, SIGTERM);
}

/* A whole number of milliseconds, or a usage error. */
static gboolean
parse_ms (const char *option, const char *text, guint *out, GError **error)
{
  guint64 value = 0;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, 24 * 3600 * 1000, &value, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s: '%s' is not a number of milliseconds (0 to 86400000)", option, text);
      return FALSE;
    }
  *out = (guint) value;
  return TRUE;
}

static int
print_list (const Session *session)
{
  g_autoptr (GArray) actions = session_get_actions (session);

  for (guint i = 0; i < actions->len; i++)
    {
      g_autofree char *words = session_event_describe (session_get_event (session, g_array_index (actions, guint, i)));
      g_print ("%s\n", words);
    }
  return EXIT_PASSED;
}

static int
print_export (const Session *session, const char *path, const char *format)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *text = NULL;

  if (g_strcmp0 (format, "xdotool") == 0)
    text = session_export_xdotool (session, name);
  else if (g_strcmp0 (format, "json") == 0)
    text = session_export_json (session);
  else
    {
      g_printerr ("xreplay: --export: unknown format '%s' (xdotool or json)\n", format);
      return EXIT_USAGE;
    }
  fputs (text, stdout);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      g_printerr ("xreplay: cannot write the export: %s\n", g_strerror (errno));
      return EXIT_INFRA;
    }
  return EXIT_PASSED;
}

/* xreduce-crashtrace beside this program (the build tree, or the install
 * prefix), else from PATH. */
static char *
find_crashtrace (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      g_autofree char *path = g_build_filename (dir, "xreduce-crashtrace", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
    }
  return g_find_program_in_path ("xreduce-crashtrace");
}

/* Report hooks: pictures while the display is there, words at the end. */
static void
on_report_action (Display *dpy, guint number, const SessionEvent *ev, int x, int y,
                  gpointer data)
{
  report_step (data, dpy, number, ev, x, y);
}

static void
on_report_end (Display *dpy, const ReplayResult *result, gpointer data)
{
  report_take_last_pictures (data, dpy, result->verdict.kind == VERDICT_PASSED);
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *display = NULL, *speed = NULL, *stderr_match = NULL, *pace = NULL;
  g_autofree char *max_gap = NULL, *min_gap = NULL, *settle = NULL, *timeout = NULL;
  g_autofree char *start_timeout = NULL, *window_wait = NULL;
  g_autofree char *export_format = NULL, *report_dir = NULL;
  g_autofree char *crashtrace = NULL, *home_seed = NULL;
  gboolean share_home = FALSE;
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (Report) report = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_auto (ReplayResult) result = { 0 };
  gboolean json = FALSE, quiet = FALSE, verbose = FALSE, list = FALSE, backtrace = FALSE;
  Interrupt interrupt = { cancellable, 0 };
  ReplayOptions opts;
  const char *const *app_argv = NULL;
  const char *session_path;
  guint sigint, sigterm;
  gboolean ok;
  g_auto (GStrv) args = NULL;
  int dashdash = -1, status;
  GOptionEntry entries[] = {
    { "display", 0, 0, G_OPTION_ARG_STRING, &display, "Replay on this existing display instead of a private Xvfb (e.g. a Xephyr to watch)", "DPY" },
    { "pace", 0, 0, G_OPTION_ARG_STRING, &pace, "app (default): each action once the app has taken the one before; recorded: the recorded gaps (see --speed)", "app|recorded" },
    { "speed", 0, 0, G_OPTION_ARG_STRING, &speed, "Divide the recorded gaps between actions by F (default 1; the recorded pace, and the timing that means something at the app's pace)", "F" },
    { "max-gap", 0, 0, G_OPTION_ARG_STRING, &max_gap, "Wait at most MS between two actions (default 1000)", "MS" },
    { "min-gap", 0, 0, G_OPTION_ARG_STRING, &min_gap, "Wait at least MS between two actions (default 5)", "MS" },
    { "settle", 0, 0, G_OPTION_ARG_STRING, &settle, "Time the app gets after the last action to crash (default 500); more, up to --timeout, while its processes are busy", "MS" },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &timeout, "An app that does not answer a ping within MS has hung (default 5000)", "MS" },
    { "start-timeout", 0, 0, G_OPTION_ARG_STRING, &start_timeout, "Wait at most MS for the app's first window (default 10000)", "MS" },
    { "window-wait", 0, 0, G_OPTION_ARG_STRING, &window_wait, "Wait at most MS for the window an action aims at (default 2000)", "MS" },
    { "stderr-match", 0, 0, G_OPTION_ARG_STRING, &stderr_match, "A failure counts only if the app's stderr matches REGEX", "REGEX" },
    { "backtrace", 0, 0, G_OPTION_ARG_NONE, &backtrace, "Run the app under gdb and report the crash's top frames", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the result as one JSON object", NULL },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &report_dir, "Write a bug-report folder: report.md, a picture before each step, steps.png, an xdotool script", "DIR" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "Print the session's user actions in words, one per line, and exit", NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &export_format, "Print the session as a standalone xdotool script or as JSON, and exit", "xdotool|json" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors (and --json)", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Say what is replayed where; pass the app's output through", NULL },
    { "home", 0, 0, G_OPTION_ARG_FILENAME, &home_seed, "The app's fresh HOME starts as a copy of DIR (a profile or configuration the bug needs)", "DIR" },
    { "share-home", 0, 0, G_OPTION_ARG_NONE, &share_home, "Run the app with your own HOME and D-Bus session bus instead of a private sandbox", NULL },
    { NULL }
  };

  /* Everything after "--" is the app's command line, untouched: only what
   * comes before it is parsed, from a copy. */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        dashdash = i;
        break;
      }
  if (dashdash >= 0)
    {
      if (dashdash + 1 >= argc)
        {
          g_printerr ("xreplay: nothing after '--': give the app's command\n");
          return EXIT_USAGE;
        }
      app_argv = (const char *const *) &argv[dashdash + 1];
    }
  args = g_new0 (char *, (dashdash >= 0 ? dashdash : argc) + 1);
  for (int i = 0; i < (dashdash >= 0 ? dashdash : argc); i++)
    args[i] = g_strdup (argv[i]);

  context = g_option_context_new ("SESSION [-- APP [ARGS...]]");
  g_option_context_set_summary (context, "Replay a recorded X11 session against an app.");
  g_option_context_set_description (context, usage_description);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_printerr ("xreplay: %s\nTry 'xreplay --help'.\n", error->message);
      return EXIT_USAGE;
    }
  if (g_strv_length (args) != 2)
    {
      g_printerr ("xreplay: %s\nUsage: xreplay [OPTIONS] SESSION [-- APP [ARGS...]]\n",
                  g_strv_length (args) < 2 ? "no session file given"
                                           : "more than one session file given");
      return EXIT_USAGE;
    }
  session_path = args[1];

  replay_options_init (&opts);
  if (!parse_ms ("--max-gap", max_gap, &opts.max_gap_ms, &error)
      || !parse_ms ("--min-gap", min_gap, &opts.min_gap_ms, &error)
      || !parse_ms ("--settle", settle, &opts.settle_ms, &error)
      || !parse_ms ("--timeout", timeout, &opts.timeout_ms, &error)
      || !parse_ms ("--start-timeout", start_timeout, &opts.start_timeout_ms, &error)
      || !parse_ms ("--window-wait", window_wait, &opts.window_wait_ms, &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (pace != NULL && !g_str_equal (pace, "app") && !g_str_equal (pace, "recorded"))
    {
      g_printerr ("xreplay: --pace: '%s' is not app or recorded\n", pace);
      return EXIT_USAGE;
    }
  opts.pace = pace != NULL && g_str_equal (pace, "recorded") ? REPLAY_PACE_RECORDED
                                                              : REPLAY_PACE_APP;
  if (speed != NULL)
    {
      char *end = NULL;
      opts.speed = g_ascii_strtod (speed, &end);
      if (end == speed || *end != '\0' || !(opts.speed > 0.001 && opts.speed <= 1000))
        {
          g_printerr ("xreplay: --speed: '%s' is not a factor between 0.001 and 1000\n", speed);
          return EXIT_USAGE;
        }
    }
  if (stderr_match != NULL)
    {
      regex = g_regex_new (stderr_match, G_REGEX_MULTILINE, 0, &error);
      if (regex == NULL)
        {
          g_printerr ("xreplay: --stderr-match: %s\n", error->message);
          return EXIT_USAGE;
        }
    }
  if (home_seed != NULL && share_home)
    {
      g_printerr ("xreplay: --home and --share-home exclude each other\n");
      return EXIT_USAGE;
    }
  if (home_seed != NULL && !sandbox_check_home_seed (home_seed, &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (display != NULL && *display == '\0')
    {
      g_printerr ("xreplay: --display: empty display name\n");
      return EXIT_USAGE;
    }

  session = session_load (session_path, &error);
  if (session == NULL)
    {
      g_printerr ("xreplay: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (list)
    return print_list (session);
  if (export_format != NULL)
    return print_export (session, session_path, export_format);

  if (app_argv == NULL)
    {
      app_argv = session_get_command (session);
      if (app_argv == NULL || app_argv[0] == NULL)
        {
          g_printerr ("xreplay: %s records no command: give the app after '--'\n", session_path);
          return EXIT_USAGE;
        }
    }
  if (backtrace)
    {
      crashtrace = find_crashtrace ();
      if (crashtrace == NULL)
        {
          g_printerr ("xreplay: --backtrace: xreduce-crashtrace not found beside xreplay or in PATH\n");
          return EXIT_INFRA;
        }
      g_autofree char *gdb = g_find_program_in_path ("gdb");
      if (gdb == NULL)
        {
          g_printerr ("xreplay: --backtrace: gdb is not installed\n");
          return EXIT_INFRA;
        }
      opts.crashtrace = crashtrace;
    }
  if (report_dir != NULL)
    {
      report = report_new (report_dir, session, session_path, app_argv, &error);
      if (report == NULL)
        {
          g_printerr ("xreplay: --report: %s\n", error->message);
          return EXIT_USAGE;
        }
      opts.on_action = on_report_action;
      opts.on_end = on_report_end;
      opts.hook_data = report;
    }

  opts.display = display;
  opts.home_seed = home_seed;
  opts.share_home = share_home;
  opts.stderr_match = regex;
  opts.verbose = verbose;
  opts.cancellable = cancellable;
  sigint = g_unix_signal_add (SIGINT, on_sigint, &interrupt);
  sigterm = g_unix_signal_add (SIGTERM, on_sigterm, &interrupt);
  ok = replay_run (session, app_argv, &opts, &result, &error);
  g_source_remove (sigint);
  g_source_remove (sigterm);

  if (interrupt.signal != 0)
    {
      if (!quiet)
        g_printerr ("xreplay: interrupted by %s; the app and the Xvfb are gone\n",
                    session_signal_name (interrupt.signal));
      return 128 + interrupt.signal;
    }

  if (json)
    {
      g_autofree char *text = replay_result_to_json (&result);
      g_print ("%s\n", text);
    }
  else if (!quiet || !ok)
    {
      g_autofree char *words = verdict_describe (&result.verdict);
      const char *matched = regex == NULL ? ""
                            : result.stderr_matched ? ", and stderr matched"
                            : ", stderr did not match";
      if (ok)
        g_print ("%s%s (%u of %u actions replayed, %.1f s)\n", words, matched,
                 result.n_replayed, result.n_actions, result.total_ms / 1000.0);
      else
        g_printerr ("xreplay: %s\n", error != NULL ? error->message : words);
    }

  if (report != NULL)
    {
      g_autofree char *words = verdict_describe (&result.verdict);
      g_autoptr (GError) report_error = NULL;
      if (!report_finish (report, words, result.stderr_text, result.backtrace,
                          result.n_replayed, &report_error))
        g_printerr ("xreplay: --report: %s\n", report_error->message);
      else if (!quiet && !json)
        g_print ("report: %s/report.md\n", report_dir);
    }

  if (!ok)
    return g_error_matches (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME) ? EXIT_USAGE
                                                                          : EXIT_INFRA;
  switch (result.verdict.kind)
    {
    case VERDICT_PASSED:
      status = EXIT_PASSED;
      break;
    case VERDICT_EXITED:
      status = result.verdict.exit_status == 0 ? EXIT_PASSED : EXIT_FAILED;
      break;
    case VERDICT_CRASHED:
    case VERDICT_HUNG:
      status = EXIT_FAILED;
      break;
    case VERDICT_COULD_NOT_START:
      return EXIT_NOT_STARTED;
    case VERDICT_INFRA_ERROR:
    default:
      return EXIT_INFRA;
    }
  /* The failure asked for is a message, crash or not. */
  if (regex != NULL)
    status = result.stderr_matched ? EXIT_FAILED : EXIT_PASSED;
  return status;
}
