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

#include <locale.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>

#include "proc.h"
#include "interrupt.h"
#include "replay.h"
#include "help.h"
#include "sandbox.h"
#include "quote.h"
#include "report.h"
#include "session.h"
#include "frame.h"
#include "exit-status.h"
#include "signame.h"

static const char usage_description[] =
  "Replays SESSION's user actions with XTest against a fresh instance of APP\n"
  "on a private Xvfb, and prints what happened: crashed, exited, hung or passed.\n"
  "\n"
  "Without '-- APP', the command recorded in SESSION runs only if it is a plain\n"
  "program name from PATH: one word, no arguments, letters, digits and ._+- only,\n"
  "not in an sbin folder, not one that acts on the machine (reboot, poweroff,\n"
  "halt, shutdown, init, telinit, zzz). A session may come from anyone: any other\n"
  "recorded command is shown and refused (exit 2) unless --run-recorded-command\n"
  "is given.\n"
  "\n"
  "Each replay runs the app in a sandbox of its own: a fresh temporary HOME\n"
  "(XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME in it), a\n"
  "private XDG_RUNTIME_DIR and TMPDIR, and a private D-Bus session bus, all\n"
  "removed afterwards, so that parallel replays and a crash's leftovers cannot\n"
  "change what the app does. --home DIR seeds HOME with a copy of DIR;\n"
  "--share-home turns the sandbox off.\n"
  "\n"
  "The app runs isolated by bubblewrap: it sees the system read-only, not your\n"
  "home, /tmp or /run/user (only its own HOME and the replay's X socket), no\n"
  "network (--share-net gives it back), no other process (its own PID\n"
  "namespace: its whole tree ends with the replay), and the replay's display\n"
  "only with a cookie of its own. Its environment is PATH, the locale (LANG,\n"
  "LANGUAGE, LC_*), TERM, the sandbox's HOME, XDG dirs, TMPDIR and bus,\n"
  "DISPLAY and XAUTHORITY; nothing else unless --keep-env NAME or --setenv\n"
  "NAME=VALUE asks. Where bubblewrap cannot work (no user namespaces), xreplay\n"
  "says so and runs without it; --isolate=require refuses then (exit 3),\n"
  "--no-isolate does without it.\n"
  "\n"
  "What holds the user's keystrokes is private: the --report folder is 0700 and\n"
  "its files 0600, written beside DIR and renamed over it when complete (an\n"
  "interrupted replay leaves none; a DIR that is neither empty nor an earlier\n"
  "report is refused). An app whose processes sit idle for 3 s without\n"
  "connecting to the X server could not start (exit 4), at once.\n"
  "\n"
  "SESSION '-' reads the session from stdin, to EOF, bounded as a file is. Framed\n"
  "('xreduce-session-frame LEN' and LEN bytes: how xreduce --launcher sends\n"
  "every test through srun or ssh), stdin stays open, and its EOF cancels the\n"
  "replay as SIGHUP does.\n"
  "\n"
  "Exit status:\n"
  "  0  passed (or the app exited with status 0)\n"
  "  1  the app crashed, hung or exited non-zero\n"
  "     (with --stderr-match: its stderr matched, whatever the outcome)\n"
  "  2  usage or bad input (e.g. a malformed session)\n"
  "  3  infrastructure error (Xvfb, the X connection, dbus-daemon; a --report\n"
  "     that cannot be written)\n"
  "  4  the app could not start (no such program, died or no window)\n"
  "  5  unresolved: the window an action aims at never appeared (the replay\n"
  "     stopped there; it is never replayed on another window)\n"
  "  128+N  interrupted by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 138\n"
  "         SIGUSR1, which srun passes on; 129 also for a framed stdin's EOF);\n"
  "         the app and Xvfb are gone\n\n"
  "Examples:\n"
  "  xreplay --list crash.log\n"
  "  xreplay crash.log -- ./myapp\n"
  "  xreplay --report crash.report crash.log -- ./myapp\n"
  "  ssh node xreplay --json - -- /opt/myapp < crash.log\n"
  "  xreplay -d :1 -v crash.log -- ./myapp   # watch it in a Xephyr :1\n"
  "  xreplay --export xdotool crash.log > replay.sh";

typedef struct
{
  GCancellable *cancellable;
  gboolean stdin_closed;     /* a framed session's sender closed stdin (as SIGHUP) */
  guint stdin_watch;         /* watching a framed session's stdin, or 0 */
} Interrupt;

/* SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGUSR1 (what srun
 * passes on to its step: xreduce --launcher asks a test to stop so), in
 * the main context: the replay stops, its app, bus and Xvfb go; 128+N.
 * Taken by proc_interrupt_watch() from the start, so that they count also
 * while xreplay waits synchronously (its Xvfb's readiness, the report's
 * probe of the app). */
static void
on_signal (int signum, gpointer user_data)
{
  Interrupt *interrupt = user_data;

  g_cancellable_cancel (interrupt->cancellable);
}

/* A framed session came on stdin (frame.h): from then on EOF there is the
 * sender's cancel (xreduce --launcher closes its end when the test no
 * longer matters; a killed ssh client closes it too), as SIGHUP. Anything
 * the sender writes meanwhile is read and ignored. */
static gboolean
on_stdin (int fd, GIOCondition condition, gpointer user_data)
{
  Interrupt *interrupt = user_data;
  char buf[4096];
  gssize n = read (fd, buf, sizeof buf);

  if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)))
    return G_SOURCE_CONTINUE;
  interrupt->stdin_closed = TRUE;
  interrupt->stdin_watch = 0;
  g_cancellable_cancel (interrupt->cancellable);
  return G_SOURCE_REMOVE;
}

/* The exit of an interrupted xreplay: 128+N, said; a framed stdin's EOF
 * (before any signal) as SIGHUP. */
static int
interrupted (const Interrupt *interrupt, gboolean quiet)
{
  int signum = proc_interrupt_get_signal ();

  if (signum == 0 && interrupt->stdin_closed)
    {
      if (!quiet)
        g_printerr ("xreplay: cancelled: the sender closed stdin; the app and the Xvfb are "
                    "gone\n");
      return 128 + SIGHUP;
    }
  if (!quiet)
    g_printerr ("xreplay: interrupted by %s; the app and the Xvfb are gone\n",
                proc_signal_name (signum));
  return 128 + signum;
}

static gboolean
is_interrupted (const Interrupt *interrupt)
{
  return proc_interrupt_get_signal () != 0 || interrupt->stdin_closed;
}

/* SESSION "-": the session from stdin, framed or to EOF (frame.h). */
static Session *
load_stdin (gsize max_session, guint max_actions, gboolean *framed, GError **error)
{
  g_autoptr (GBytes) data = frame_read (STDIN_FILENO, max_session, "stdin", framed, error);
  gsize len = 0;
  const char *text;

  if (data == NULL)
    return NULL;
  text = g_bytes_get_data (data, &len);
  return session_parse_cancellable (text, len, "stdin", max_actions,
                                    proc_interrupt_get_cancellable (), error);
}

/* The steps as a person would name them (phrases), with their actions. */
static int
print_steps (const Session *session)
{
  g_autofree char *steps = session_describe_steps (session, SESSION_WORDS_TERMINAL, TRUE);
  g_autoptr (GPtrArray) world = session_describe_world (session, SESSION_WORDS_TERMINAL);

  g_print ("%s", steps);
  /* What the app got from outside (session-world.h), quoted. */
  for (guint i = 0; i < world->len; i++)
    g_print ("%s%s\n", i == 0 ? "\n" : "", (const char *) g_ptr_array_index (world, i));
  return EXIT_STATUS_OK;
}

/* The folder of the files the app read: --files, else SESSION.files
 * beside the session (xrecord --with-files), if there is one. */
static char *
default_files_dir (const char *session_path)
{
  g_autofree char *beside = g_strconcat (session_path, ".files", NULL);

  if (strcmp (session_path, "-") != 0 && g_file_test (beside, G_FILE_TEST_IS_DIR))
    return g_canonicalize_filename (beside, NULL);
  return NULL;
}

/* The replay did not fail: what in the recording it could not give the
 * app (session-world.h), for the user to look at first. */
static void
print_missing (const Session *session, const ReplayOptions *opts, const ReplayResult *result)
{
  g_autoptr (GPtrArray) missing = NULL;

  if (result->verdict.kind != VERDICT_PASSED && result->verdict.kind != VERDICT_EXITED)
    return;
  missing = session_world_missing (session, opts->settings.files_dir,
                                   opts->settings.share_home ? g_get_home_dir ()
                                                             : opts->settings.home_seed,
                                   opts->settings.wm_argv != NULL);
  for (guint i = 0; i < missing->len; i++)
    g_printerr ("xreplay: note: the recording had what this replay did not: %s\n",
                (const char *) g_ptr_array_index (missing, i));
}

/* The app did not start: the end of what it printed, which says why
 * (a missing module, a display refused), unless -v passed it through. A
 * few lines, each quoted: the app's output is no text for the terminal. */
#define START_STDERR_LINES 5
#define START_STDERR_BYTES 600

static void
print_start_failure (const ReplayResult *result)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n, first;

  if (result->verdict.kind != VERDICT_COULD_NOT_START || result->stderr_text == NULL)
    return;
  text = g_strstrip (g_strdup (result->stderr_text));
  if (*text == '\0')
    return;
  lines = g_strsplit (text + (strlen (text) > START_STDERR_BYTES
                                ? strlen (text) - START_STDERR_BYTES : 0), "\n", -1);
  n = g_strv_length (lines);
  first = n > START_STDERR_LINES ? n - START_STDERR_LINES : 0;
  g_printerr ("xreplay: the app's stderr ends with:\n");
  for (guint i = first; i < n; i++)
    {
      g_autofree char *shown = quote_terminal (lines[i]);

      g_printerr ("xreplay:   %s\n", shown);
    }
}

static int
print_list (const Session *session)
{
  g_autoptr (GArray) actions = session_get_actions (session);

  for (guint i = 0; i < actions->len; i++)
    {
      g_autofree char *words = session_event_describe (session_get_event (session, g_array_index (actions, guint, i)));
      /* Titles are whatever a client chose: no escape sequence reaches
       * the terminal, no newline splits a line. */
      g_autofree char *line = quote_terminal (words);
      g_print ("%s\n", line);
    }
  return EXIT_STATUS_OK;
}

static int
print_export (const Session *session, const char *path, const char *format)
{
  g_autofree char *name = g_path_get_basename (path);
  gboolean written;

  /* Written as it is made: an export of a million actions is never held
   * in memory. */
  if (g_strcmp0 (format, "xdotool") == 0)
    written = session_export_xdotool_to (session, name, stdout);
  else if (g_strcmp0 (format, "json") == 0)
    written = session_export_json_to (session, stdout);
  else
    {
      g_autofree char *shown = quote_terminal (format);
      g_printerr ("xreplay: --export: unknown format '%s' (xdotool or json)\n", shown);
      return EXIT_STATUS_USAGE;
    }
  if (!written || fflush (stdout) != 0 || ferror (stdout))
    {
      g_printerr ("xreplay: cannot write the export: %s\n", g_strerror (errno));
      return EXIT_STATUS_INFRA;
    }
  return EXIT_STATUS_OK;
}

/* xreduce-crashtrace beside this program (the build tree), in the
 * install's libexecdir, else from PATH. */
static char *
find_crashtrace (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *installed = g_build_filename (XREDUCE_LIBEXECDIR, "xreduce-crashtrace",
                                                 NULL);

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      g_autofree char *path = g_build_filename (dir, "xreduce-crashtrace", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
    }
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return g_find_program_in_path ("xreduce-crashtrace");
}

/* Report hooks: pictures while the display is there, words at the end. */
static void
on_report_action (Display *dpy, const ReplayStep *step, gpointer data)
{
  report_step (data, dpy, step);
}

static void
on_report_end (Display *dpy, const ReplayResult *result, gpointer data)
{
  report_take_last_pictures (data, dpy, result->verdict.kind == VERDICT_PASSED);
}

static gboolean
on_report_wait_before (guint number, gpointer data)
{
  return report_wants_wait (data, number);
}

/* The command line, as given. */
typedef struct
{
  char *display, *stderr_match, *export_format, *report_dir;
  ReplayArgs *replay;        /* the options xreduce shares (replay-args.h) */
  gboolean json, quiet, verbose, list, list_actions, run_recorded, version;
  const char *const *app_argv; /* after "--", or NULL */
  char **rest;               /* what is left: the program name and SESSION */
} Args;

static void args_clear (Args *a);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Args, args_clear)

static void
args_clear (Args *a)
{
  char **strings[] = { &a->display, &a->stderr_match, &a->export_format, &a->report_dir };

  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&a->rest, g_strfreev);
  g_clear_pointer (&a->replay, replay_args_free);
}

/* Whether bubblewrap works here, asked before anything starts: said
 * once (auto, then without it) or refused (require: exit 3). */
static gboolean
check_isolation (const Args *a, ReplayOptions *opts, int *status)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *warning = NULL;

  if (!replay_settings_resolve_isolation (&opts->settings, "the app runs", &warning, &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_INFRA);
    }
  if (warning != NULL && !a->quiet)
    g_printerr ("xreplay: warning: %s\n", warning);
  return TRUE;
}

/* Parses what comes before "--" (from a copy: the app's command line
 * stays untouched). A step of main() (exit-status.h). */
static gboolean
parse_args (int argc, char **argv, Args *a, int *status)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("SESSION [-- APP [ARGS...]]");
  g_autoptr (GError) error = NULL;
  int dashdash = -1;
  GOptionEntry first[] = {
    { "display", 'd', 0, G_OPTION_ARG_STRING, &a->display, "Replay on this existing display instead of a private Xvfb (e.g. a Xephyr to watch)", "DPY" },
    { "stderr-match", 0, 0, G_OPTION_ARG_STRING, &a->stderr_match, "A failure counts only if the app's stderr matches REGEX", "REGEX" },
    { NULL }
  };
  /* After them, the replay options' table's own of xreplay (--backtrace,
   * ...), then: */
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &a->json, "Print the result as one JSON object", NULL },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &a->report_dir, "Write a bug-report folder: report.md, a picture before each step, steps.png, an xdotool script (private: 0700, files 0600; put in place of an earlier report when complete)", "DIR" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &a->list, "Print the session's steps in words (typing, keys, clicks, drags), numbered, with their actions, and exit", NULL },
    { "list-actions", 0, 0, G_OPTION_ARG_NONE, &a->list_actions, "Print the session's user actions in words, one per line, and exit", NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, &a->export_format, "Print the session as a standalone xdotool script or as JSON, and exit", "xdotool|json" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "Print nothing but errors (and --json)", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &a->version, "Print the version and exit", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &a->verbose, "Say what is replayed where; pass the app's output through", NULL },
    { "run-recorded-command", 0, 0, G_OPTION_ARG_NONE, &a->run_recorded, "Without '-- APP': run the command SESSION records, whatever it is (see below)", NULL },
    { NULL }
  };

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
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
      a->app_argv = (const char *const *) &argv[dashdash + 1];
    }
  a->rest = g_new0 (char *, (dashdash >= 0 ? dashdash : argc) + 1);
  for (int i = 0; i < (dashdash >= 0 ? dashdash : argc); i++)
    a->rest[i] = g_strdup (argv[i]);
  g_option_context_set_summary (context, "Replay a recorded X11 session against an app.");
  g_option_context_set_description (context, usage_description);
  a->replay = replay_args_new ();
  g_option_context_add_main_entries (context, first, NULL);
  replay_args_add_xreplay_options (a->replay, context);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, replay_args_get_group (a->replay));
  if (help_maybe_print (context, (int) g_strv_length (a->rest), a->rest))
    return exit_status_stop (status, EXIT_STATUS_OK);
  if (!g_option_context_parse_strv (context, &a->rest, &error))
    {
      g_printerr ("xreplay: %s\nTry 'xreplay --help'.\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->version)
    {
      g_print ("xreplay %s\n", XREDUCE_VERSION);
      return exit_status_stop (status, EXIT_STATUS_OK);
    }
  if (g_strv_length (a->rest) != 2)
    {
      g_printerr ("xreplay: %s\nUsage: xreplay [OPTIONS] SESSION [-- APP [ARGS...]]\n",
                  g_strv_length (a->rest) < 2 ? "no session file given"
                                              : "more than one session file given");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  return TRUE;
}

/* The options' values into @opts (and *@regex); a usage error is said.
 * Nothing has started yet. A step of main() (exit-status.h). */
static gboolean
check_options (const Args *a, ReplayOptions *opts, GRegex **regex, int *status)
{
  g_autoptr (GError) error = NULL;

  replay_options_init (opts);
  if (!replay_args_check (a->replay, &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  opts->settings = *replay_args_get_settings (a->replay);
  if (a->stderr_match != NULL)
    {
      *regex = g_regex_new (a->stderr_match, G_REGEX_MULTILINE, 0, &error);
      if (*regex == NULL)
        {
          g_printerr ("xreplay: --stderr-match: %s\n", error->message);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
    }
  if (a->run_recorded && a->app_argv != NULL)
    {
      g_printerr ("xreplay: --run-recorded-command and '-- APP' exclude each other\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->display != NULL && *a->display == '\0')
    {
      g_printerr ("xreplay: --display: empty display name\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->display != NULL && opts->settings.wm_argv != NULL)
    {
      g_printerr ("xreplay: --wm and --display exclude each other (a display given has "
                  "its own window manager, or none)\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  return TRUE;
}

/* The app: after "--", else the recorded command if it may run (see
 * session_command_check) or was asked for; else a usage error, said. A step
 * of main() (exit-status.h). */
static gboolean
choose_app (const Args *a, const Session *session, const char *const **app_argv, int *status)
{
  g_autoptr (GError) error = NULL;

  *app_argv = a->app_argv;
  if (*app_argv != NULL)
    return TRUE;
  *app_argv = session_get_command (session);
  if (*app_argv == NULL)
    {
      g_printerr ("xreplay: %s records no command: give the app after '--'\n", a->rest[1]);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (!a->run_recorded && !session_command_check (session, a->rest[1], &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (!a->quiet && !a->json)
    {
      g_autofree char *shown = quote_command_line (*app_argv);
      g_printerr ("xreplay: running the recorded command: %s\n", shown);
    }
  return TRUE;
}

/* --backtrace: the app's tracer, or an infrastructure error. A step of
 * main() (exit-status.h). */
static gboolean
check_backtrace (char **crashtrace, int *status)
{
  *crashtrace = find_crashtrace ();
  if (*crashtrace == NULL)
    {
      g_printerr ("xreplay: --backtrace: xreduce-crashtrace not found beside xreplay, in "
                  XREDUCE_LIBEXECDIR " or in PATH\n");
      return exit_status_stop (status, EXIT_STATUS_INFRA);
    }
  return TRUE;
}

/* What the replay said, on stdout (or stderr for a failure). */
static void
print_result (const Args *a, const ReplayResult *result, gboolean ok, const GError *error,
              gboolean with_regex)
{
  g_autofree char *said = verdict_describe (&result->verdict);
  /* It may quote the session (the title of a window that never came). */
  g_autofree char *words = quote_terminal (said);

  if (a->json)
    {
      g_autofree char *text = replay_result_to_json (result);
      g_print ("%s\n", text);
    }
  else if (!ok)
    g_printerr ("xreplay: %s\n", error != NULL ? error->message : words);
  else if (!a->quiet)
    g_print ("%s%s (%u of %u actions replayed, %.1f s)\n", words,
             !with_regex ? "" : result->stderr_matched ? ", and stderr matched"
                                                       : ", stderr did not match",
             result->n_replayed, result->n_actions, result->total_ms / 1000.0);
}

static int
exit_status (const ReplayResult *result, gboolean ok, const GError *error, gboolean with_regex)
{
  int status;

  if (!ok)
    return g_error_matches (error, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME) ? EXIT_STATUS_USAGE
                                                                          : EXIT_STATUS_INFRA;
  switch (result->verdict.kind)
    {
    case VERDICT_PASSED:
      status = EXIT_STATUS_OK;
      break;
    case VERDICT_EXITED:
      status = result->verdict.exit_status == 0 ? EXIT_STATUS_OK : EXIT_STATUS_FAILED;
      break;
    case VERDICT_CRASHED:
    case VERDICT_HUNG:
      status = EXIT_STATUS_FAILED;
      break;
    case VERDICT_COULD_NOT_START:
      return EXIT_STATUS_NOT_STARTED;
    case VERDICT_UNRESOLVED:
      return EXIT_STATUS_UNRESOLVED;
    case VERDICT_INFRA_ERROR:
    default:
      return EXIT_STATUS_INFRA;
    }
  /* The failure asked for is a message, crash or not. */
  if (with_regex)
    status = result->stderr_matched ? EXIT_STATUS_FAILED : EXIT_STATUS_OK;
  return status;
}

/* SESSION (a file, or "-": stdin) read and its `replay` line taken into
 * @opts, unless the command line says otherwise; *@framed: it came framed
 * on stdin. A step of main() (exit-status.h). */
static gboolean
load_session (const Args *a, ReplayOptions *opts, const Interrupt *interrupt, Session **session,
              gboolean *framed, int *status)
{
  g_autoptr (GError) error = NULL;

  /* "-": from stdin (xreduce --launcher sends each test so, framed). */
  if (strcmp (a->rest[1], "-") == 0)
    *session = load_stdin (opts->settings.max_session_size, opts->settings.max_actions, framed,
                           &error);
  else
    *session = session_load_cancellable (a->rest[1], opts->settings.max_session_size,
                                         opts->settings.max_actions,
                                         proc_interrupt_get_cancellable (), &error);
  /* A signal while a long session was read (xreduce stops a test so). */
  if (*session == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return exit_status_stop (status, interrupted (interrupt, a->quiet));
  if (*session == NULL)
    {
      g_printerr ("xreplay: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (session_get_warning (*session) != NULL && !a->quiet)
    g_printerr ("xreplay: warning: %s\n", session_get_warning (*session));
  /* What the session says it needs to fail (its `replay` line: xreduce
   * wrote it), unless the command line says otherwise. */
  if (!replay_args_take_session (a->replay, *session, &error))
    {
      g_printerr ("xreplay: %s: %s\n", a->rest[1], error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  opts->settings = *replay_args_get_settings (a->replay);
  return TRUE;
}

/* --list, --list-actions, --export: the session printed, and FALSE with
 * the exit status; TRUE if none was asked for. A step of main()
 * (exit-status.h). */
static gboolean
print_session (const Args *a, const Session *session, const Interrupt *interrupt, int *status)
{
  if (!a->list && !a->list_actions && a->export_format == NULL)
    return TRUE;
  /* Only printing from here: a signal ends it by its default action,
   * as it would any filter (nothing to stop, nothing to remove). */
  if (is_interrupted (interrupt))
    return exit_status_stop (status, interrupted (interrupt, a->quiet));
  proc_interrupt_unwatch ();
  if (a->list)
    return exit_status_stop (status, print_steps (session));
  if (a->list_actions)
    return exit_status_stop (status, print_list (session));
  return exit_status_stop (status, print_export (session, a->rest[1], a->export_format));
}

/* --report: the report started, its hooks in @opts; a folder that cannot
 * be made is a usage error, said. A step of main() (exit-status.h). */
static gboolean
start_report (const Args *a, const Session *session, const char *const *app_argv,
              ReplayOptions *opts, Report **report, int *status)
{
  g_autoptr (GError) error = NULL;

  *report = report_new (a->report_dir, session, a->rest[1], app_argv, &error);
  if (*report == NULL)
    {
      g_printerr ("xreplay: --report: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  {
    g_auto (GStrv) not_carried = replay_args_to_argv_not_in_session (a->replay);

    report_set_replay_options (*report, (const char *const *) not_carried);
  }
  opts->on_action = on_report_action;
  opts->on_end = on_report_end;
  opts->wait_before = on_report_wait_before;
  opts->hook_data = *report;
  return TRUE;
}

/* The replay is over, with a report asked for: the report written, the
 * result said; the exit status. */
static int
finish_report (const Args *a, Report *report, const Interrupt *interrupt,
               const ReplayResult *result, gboolean ok, const GError *error, gboolean with_regex)
{
  g_autoptr (GError) report_error = NULL;
  /* A report asked for and not written (a full disk) is no success:
   * the partial folder is gone, the error said, exit 3. Interrupted
   * while it is written: no report, 128+N. */
  gboolean written = report_finish (report, result, &report_error);

  if (proc_interrupt_get_signal () != 0)
    return interrupted (interrupt, a->quiet);
  print_result (a, result, ok, error, with_regex);
  if (!written)
    {
      g_printerr ("xreplay: --report: %s\n", report_error->message);
      return EXIT_STATUS_INFRA;
    }
  else if (!a->quiet && !a->json)
    g_print ("report: %s/report.md\n", a->report_dir);
  return exit_status (result, ok, error, with_regex);
}

int
main (int argc, char **argv)
{
  g_auto (Args) a = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *crashtrace = NULL;
  g_autofree char *files_dir = NULL;
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (Report) report = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_auto (ReplayResult) result = { 0 };
  Interrupt interrupt = { cancellable, FALSE, 0 };
  ReplayOptions opts;
  const char *const *app_argv;
  gboolean ok, framed = FALSE;
  int status;

  /* The terminal's character set, for GLib's conversion of what is
   * printed: titles in other scripts are shown, not '?'. LC_CTYPE only:
   * numbers in files and scripts stay "0.05" in every locale. */
  setlocale (LC_CTYPE, "");
#if GLIB_CHECK_VERSION (2, 68, 0)
  /* stdout is the result (--json is read by xreduce): G_MESSAGES_DEBUG's
   * messages go to stderr. */
  g_log_writer_default_set_use_stderr (TRUE);
#endif
  proc_interrupt_watch (on_signal, &interrupt);
  if (!parse_args (argc, argv, &a, &status) || !check_options (&a, &opts, &regex, &status))
    return status;
  /* What the app starts outside its process group and leaves running
   * (without the sandbox, --share-home: in the sandbox it dies with the
   * sandbox's pid namespace) ends when we do. */
  proc_adopt_orphans ("xreplay");
  if (!load_session (&a, &opts, &interrupt, &session, &framed, &status))
    return status;
  if (!print_session (&a, session, &interrupt, &status))
    return status;
  if (!choose_app (&a, session, &app_argv, &status))
    return status;
  if (opts.settings.files_dir == NULL && !opts.settings.share_home)
    opts.settings.files_dir = files_dir = default_files_dir (a.rest[1]);
  /* Before any Xvfb: one of the session's screen size could take
   * gigabytes. */
  if (a.display == NULL
      && !session_check_screen (session, a.rest[1], opts.settings.max_screen_width,
                                opts.settings.max_screen_height, &error))
    {
      g_printerr ("xreplay: %s\n", error->message);
      return EXIT_STATUS_USAGE;
    }
  if (opts.settings.backtrace && !check_backtrace (&crashtrace, &status))
    return status;
  /* A report says which process died and where: its replay traces the
   * app (xreduce's tests run without, its report's replay with). */
  if (!opts.settings.backtrace && a.report_dir != NULL && !opts.settings.no_backtrace)
    crashtrace = find_crashtrace ();
  opts.crashtrace = crashtrace;
  if (a.report_dir != NULL && !start_report (&a, session, app_argv, &opts, &report, &status))
    return status;
  opts.display = a.display;
  if (!opts.settings.share_home && !check_isolation (&a, &opts, &status))
    return status;
  opts.stderr_match = regex;
  opts.verbose = a.verbose;
  if (report != NULL)
    report_set_replay (report, &opts);
  opts.cancellable = cancellable;
  if (framed)
    interrupt.stdin_watch = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_stdin,
                                           &interrupt);
  if (is_interrupted (&interrupt))
    return interrupted (&interrupt, a.quiet);
  ok = replay_run (session, app_argv, &opts, &result, &error);
  g_clear_handle_id (&interrupt.stdin_watch, g_source_remove);
  if (is_interrupted (&interrupt))
    return interrupted (&interrupt, a.quiet);
  if (ok && !a.quiet && !a.json)
    print_missing (session, &opts, &result);
  if (ok && !a.quiet && !a.json && !a.verbose)
    print_start_failure (&result);
  if (report != NULL)
    return finish_report (&a, report, &interrupt, &result, ok, error, regex != NULL);
  print_result (&a, &result, ok, error, regex != NULL);
  return exit_status (&result, ok, error, regex != NULL);
}
