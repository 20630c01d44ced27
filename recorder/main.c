/* main.c — xrecord: records an X11 session of an app, for xreplay and
 * xreduce.
 *
 *   xrecord -o session.log [--display DPY | --headless] [--screen WxH]
 *           [--stop-key KEYSYM] [--with-files] [--no-selections]
 *           [--record-env NAME]... -- APP ARGS...
 *   xrecord --all -d DPY [--save-dir DIR] [--keep MINUTES] [--keep-actions N]
 *           [--exclude-class CLASS]...
 *
 * Parses the command line and hands over to recorder_run() (recorder.c),
 * or with --all to rec_all_run() (all.c).
 * Exit status: 0 recorded (whatever became of the app), 2 bad usage or
 * input (the output), 3 no X infrastructure (no DISPLAY server, no RECORD
 * extension, no Xephyr/Xvfb), 4 nothing of the app recorded: the app
 * could not start (no such program), no window was taken for the app's,
 * or none of its windows was mapped within --start-timeout (the log is
 * written); 128+N when signal N ended the recording (130 for Ctrl-C; the
 * log is complete). With --all: 0 when the display goes away, 2 and 3 as
 * above, 128+N when signal N ended it.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "recorder.h"
#include "all.h"
#include "interrupt.h"
#include "proc.h"
#include "quote.h"
#include "help.h"
#include "verdict.h"
#include "exit-status.h"
#include "signame.h"

static gboolean
parse_screen (const char *text, int *width, int *height)
{
  char *end;
  gint64 w, h;

  w = g_ascii_strtoll (text, &end, 10);
  if (end == text || (*end != 'x' && *end != 'X'))
    return FALSE;
  text = end + 1;
  h = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0' || w < 1 || h < 1 || w > 32767 || h > 32767)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

/* No window was the app's: nothing of it was recorded. Names the
 * windows that were mapped (already quoted for the terminal). */
static void
print_nothing_recorded (Recorder *recorder)
{
  const char *const *seen = recorder_get_seen_windows (recorder);
  guint n = g_strv_length ((char **) seen);

  g_printerr ("xrecord: warning: no window of the app's was mapped during the recording: "
              "nothing of it was recorded\n");
  if (n == 0)
    g_printerr ("xrecord: no window was mapped at all\n");
  else
    {
      g_printerr ("xrecord: %u window%s mapped, none taken for the app's (not created by "
                  "the app or a process it started):\n", n, n == 1 ? " was" : "s were");
      for (guint i = 0; i < n && i < 10; i++)
        g_printerr ("xrecord:   %s\n", seen[i]);
      if (n > 10)
        g_printerr ("xrecord:   and %u more\n", n - 10);
    }
}

/* No window of the app's was mapped within the start timeout. */
static void
print_start_timed_out (Recorder *recorder, guint timeout_ms, guint n_created)
{
  g_printerr ("xrecord: no window of the app's was mapped within %u ms "
              "(--start-timeout): stopped\n", timeout_ms);
  if (n_created > 0)
    g_printerr ("xrecord: the app created %u top-level window%s that %s never mapped: a "
                "window manager may be waiting for you to place %s (twm: click where it "
                "goes), or holding the server\n", n_created, n_created == 1 ? "" : "s",
                n_created == 1 ? "was" : "were", n_created == 1 ? "it" : "them");
}

/* The command line, as given. */
typedef struct
{
  char *output, *display, *screen, *stop_key, *start_timeout;
  gboolean headless, version, with_files, no_selections;
  char **record_env;
  gboolean all;              /* --all and its options */
  char *save_dir, *keep, *keep_actions, *save_key;
  char **exclude_class;
  char **command;            /* after "--" */
} Args;

static void
args_clear (Args *a)
{
  char **strings[] = { &a->output, &a->display, &a->screen, &a->stop_key, &a->start_timeout,
                       &a->save_dir, &a->keep, &a->keep_actions, &a->save_key };

  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&a->command, g_strfreev);
  g_clear_pointer (&a->record_env, g_strfreev);
  g_clear_pointer (&a->exclude_class, g_strfreev);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Args, args_clear)

/* Parses the command line; a usage error is said. A step of main()
 * (exit-status.h). */
static gboolean
parse_args (int *argc, char ***argv, Args *a, int *status)
{
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output,
      "Write the session log to FILE: a new file of mode 0600 in place of whatever was there (a link is replaced, not followed)", "FILE" },
    { "display", 'd', 0, G_OPTION_ARG_STRING, &a->display,
      "Run the app on this existing display (default: a nested Xephyr on $DISPLAY)", "DPY" },
    { "headless", 0, 0, G_OPTION_ARG_NONE, &a->headless,
      "Run the app on a private Xvfb (for scripted recordings)", NULL },
    { "screen", 's', 0, G_OPTION_ARG_STRING, &a->screen,
      "Screen size of the nested or private server (default 1280x1024)", "WxH" },
    { "stop-key", 0, 0, G_OPTION_ARG_STRING, &a->stop_key,
      "Stop recording when this key is pressed (not recorded), e.g. Pause", "KEYSYM" },
    { "start-timeout", 0, 0, G_OPTION_ARG_STRING, &a->start_timeout,
      "Stop if no window of the app's is mapped within MS (default " G_STRINGIFY (RECORDER_START_TIMEOUT_MS) ": a big app on a busy machine)", "MS" },
    { "with-files", 0, 0, G_OPTION_ARG_NONE, &a->with_files,
      "Copy the files the app reads (outside system folders; no secrets) into FILE.files/ beside the log, 0600, at most 256 MiB; without it they are only listed", NULL },
    { "no-selections", 0, 0, G_OPTION_ARG_NONE, &a->no_selections,
      "Do not write what the app pastes from other apps (the clipboard, the primary selection, drops): only that it did (also with --all)", NULL },
    { "record-env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->record_env,
      "Also record this variable of the app's environment (repeatable; never one that looks secret)", "NAME" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &a->all,
      "Always recording: every app on the display given with -d (default $DISPLAY), each app's last actions kept in memory and saved as a session in --save-dir when the app vanishes with its windows open (a crash), or on SIGUSR1 or --save-key (every app's); no APP, no -o", NULL },
    { "save-dir", 0, 0, G_OPTION_ARG_FILENAME, &a->save_dir,
      "--all: save sessions in DIR, 0600 files (default $XDG_STATE_HOME/xreduce/sessions, made 0700)", "DIR" },
    { "keep", 0, 0, G_OPTION_ARG_STRING, &a->keep,
      "--all: keep each app's actions of the last MINUTES (default 10)", "MINUTES" },
    { "keep-actions", 0, 0, G_OPTION_ARG_STRING, &a->keep_actions,
      "--all: keep each app's last N actions at most, whichever of --keep and this is smaller (default 2000; memory: with its share of server events, 4 an action, at most about 2 KiB an action per app, 4 MiB at the default; and at most 4 MiB of what the app pasted from others)", "N" },
    { "exclude-class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->exclude_class,
      "--all: record nothing of the apps with a window of this WM_CLASS class, e.g. KeePassXC (repeatable)", "CLASS" },
    { "save-key", 0, 0, G_OPTION_ARG_STRING, &a->save_key,
      "--all: save every app's buffer, as SIGUSR1 does, when this chord is pressed, e.g. ctrl+alt+Pause (modifiers ctrl, alt, shift, super; a keysym name); nothing is grabbed: the app with the focus gets the chord too; its keys are in no session", "KEY" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &a->version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->command, NULL,
      "-- APP [ARGS...]" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Records what the user does to an X11 app, and whether it crashes, as a\n"
    "session log that xreplay replays and xreduce reduces. The recording\n"
    "ends when the app exits or crashes, on SIGINT/SIGTERM, or on the stop\n"
    "key. Only actions aimed at the app's windows are recorded: on the\n"
    "server xrecord starts (nested or headless), every window but its own;\n"
    "on a display given, the windows the app's X clients created (the app\n"
    "and the processes it started, by their pids, from the X-Resource\n"
    "extension; else by their _NET_WM_PID).\n\n"
    "What the app gets from outside is recorded too: the data it pastes from\n"
    "other apps' selections and drops, the files it reads (listed; copied with\n"
    "--with-files), its locale and toolkit variables (LANG, LANGUAGE, LC_*, TZ,\n"
    "GDK_*, GTK_*, QT_*, XMODIFIERS, MOZ_*; never one that looks secret), its\n"
    "HOME, folder, host, date and window manager. xreplay gives them back.");
  g_option_context_set_description (context,
    "Exit status:\n"
    "  0  recorded (whatever became of the app); --all: the display went away\n"
    "  2  usage or bad input (the output file; DISPLAY not set without\n"
    "     --display or --headless)\n"
    "  3  infrastructure error (a display that cannot be opened, no RECORD,\n"
    "     no Xephyr or Xvfb)\n"
    "  4  nothing of the app was recorded: the app could not start (no such\n"
    "     program: no log), or no window was taken for the app's (xrecord\n"
    "     names the windows it saw), or none was mapped within --start-timeout\n"
    "     (the log is written)\n"
    "  128+N  signal N ended the recording (130 Ctrl-C, 143 SIGTERM, 129\n"
    "     SIGHUP); the log is complete, with its end line\n\n"
    "Examples:\n"
    "  xrecord -o crash.log -d :0 -- ./myapp      # on your desktop\n"
    "  xrecord -o crash.log -- gedit              # in a nested Xephyr\n"
    "  xrecord -o crash.log --headless -- ./myapp # scripted, on a private Xvfb\n"
    "  xrecord --all --exclude-class KeePassXC  # always recording your desktop\n"
    "  xrecord --all --save-key ctrl+alt+Pause  # ... and saving on demand");
  if (help_maybe_print (context, *argc, *argv))
    return exit_status_stop (status, EXIT_STATUS_OK);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("xrecord: %s\n", error->message);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->version)
    {
      g_print ("xrecord %s\n", XREDUCE_VERSION);
      return exit_status_stop (status, EXIT_STATUS_OK);
    }
  return TRUE;
}

/* The options' values into @options (its strings point into @a); what is
 * wrong is said. Nothing has started yet. A step of main()
 * (exit-status.h). */
static gboolean
check_options (const Args *a, RecorderOptions *options, int *status)
{
  guint64 start_timeout_ms = 0;

  if (a->command == NULL || a->command[0] == NULL)
    {
      g_printerr ("xrecord: no app given (xrecord -o FILE -- APP ARGS...)\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->output == NULL)
    {
      g_printerr ("xrecord: no output file given (-o FILE)\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->display != NULL && a->headless)
    {
      g_printerr ("xrecord: --display and --headless exclude each other\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->screen != NULL && !parse_screen (a->screen, &options->width, &options->height))
    {
      g_printerr ("xrecord: bad --screen '%s' (WxH, e.g. 1280x1024)\n", a->screen);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->start_timeout != NULL
      && !g_ascii_string_to_unsigned (a->start_timeout, 10, 1, 24 * 3600 * 1000,
                                      &start_timeout_ms, NULL))
    {
      g_printerr ("xrecord: --start-timeout: '%s' is not a number of milliseconds "
                  "(1 to 86400000)\n", a->start_timeout);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->screen != NULL && a->display != NULL)
    g_printerr ("xrecord: --screen is ignored with --display (the display has its own)\n");
  options->output = a->output;
  options->argv = (const char *const *) a->command;
  options->where = a->headless ? RECORDER_HEADLESS
                   : a->display != NULL ? RECORDER_EXISTING : RECORDER_NESTED;
  options->display = a->display;
  options->stop_key = a->stop_key;
  options->start_timeout_ms = (guint) start_timeout_ms;
  options->with_files = a->with_files;
  options->no_selections = a->no_selections;
  options->record_env = (const char *const *) a->record_env;
  for (char **n = a->record_env; n != NULL && *n != NULL; n++)
    {
      g_autoptr (GError) error = NULL;

      if (!recorder_check_env_name (*n, &error))
        {
          g_autofree char *shown = quote_message (error->message);
          g_printerr ("xrecord: %s\n", shown);
          return exit_status_stop (status, EXIT_STATUS_USAGE);
        }
    }
  return TRUE;
}

/* --all's options into @options (its strings point into @a); what is
 * wrong is said. A step of main() (exit-status.h). */
static gboolean
check_all_options (const Args *a, RecAllOptions *options, int *status)
{
  guint64 keep = 0, keep_actions = 0;
  const char *display;

  if (a->command != NULL && a->command[0] != NULL)
    {
      g_printerr ("xrecord: --all records the apps already on the display: no APP\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  /* The desktop's own, as the autostart entry starts it (data/). */
  display = a->display != NULL ? a->display : g_getenv ("DISPLAY");
  if (display == NULL || *display == '\0')
    {
      g_printerr ("xrecord: --all needs the display to record (-d DPY, e.g. -d :0; "
                  "DISPLAY is not set)\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->output != NULL || a->headless || a->screen != NULL || a->stop_key != NULL
      || a->start_timeout != NULL || a->with_files)
    {
      g_printerr ("xrecord: --all takes none of -o, --headless, --screen, --stop-key, "
                  "--start-timeout, --with-files (sessions go to --save-dir)\n");
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->keep != NULL && !g_ascii_string_to_unsigned (a->keep, 10, 1, 24 * 60, &keep, NULL))
    {
      g_autofree char *shown = quote_terminal (a->keep);
      g_printerr ("xrecord: --keep: '%s' is not a number of minutes (1 to 1440)\n", shown);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  if (a->keep_actions != NULL
      && !g_ascii_string_to_unsigned (a->keep_actions, 10, 1, 1000000, &keep_actions, NULL))
    {
      g_autofree char *shown = quote_terminal (a->keep_actions);
      g_printerr ("xrecord: --keep-actions: '%s' is not a number of actions (1 to 1000000)\n",
                  shown);
      return exit_status_stop (status, EXIT_STATUS_USAGE);
    }
  for (char **c = a->exclude_class; c != NULL && *c != NULL; c++)
    if (**c == '\0')
      {
        g_printerr ("xrecord: --exclude-class: an empty class\n");
        return exit_status_stop (status, EXIT_STATUS_USAGE);
      }
  options->display = display;
  options->save_dir = a->save_dir;
  options->keep_minutes = (guint) keep;
  options->keep_actions = (guint) keep_actions;
  options->exclude_classes = (const char *const *) a->exclude_class;
  options->save_key = a->save_key;
  options->record_env = (const char *const *) a->record_env;
  options->no_selections = a->no_selections;
  return TRUE;
}

/* xrecord --all, to its end: 0 (the display went), 128+N (signal N). */
static int
run_all (const Args *a)
{
  RecAllOptions options = { 0 };
  g_autoptr (RecAll) all = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  if (!check_all_options (a, &options, &status))
    return status;
  all = rec_all_new (&options, &error);
  if (all == NULL || !rec_all_run (all, &error))
    {
      g_autofree char *shown = quote_message (error->message);

      g_printerr ("xrecord: %s\n", shown);
      return g_error_matches (error, RECORDER_ERROR, RECORDER_ERROR_INFRA)
             ? EXIT_STATUS_INFRA : EXIT_STATUS_USAGE;
    }
  g_printerr ("xrecord: %u session%s saved\n", rec_all_get_n_saved (all),
              rec_all_get_n_saved (all) == 1 ? "" : "s");
  if (rec_all_get_signal (all) != 0)
    return EXIT_STATUS_SIGNAL + rec_all_get_signal (all);
  return EXIT_STATUS_OK;
}

/* What the recording came to: its exit status, said. */
static int
recorded (Recorder *recorder, SessionOutcome outcome, const char *output)
{
  g_autofree char *what = session_outcome_describe (outcome);
  guint timeout_ms, n_created;

  g_autofree char *given = recorder_describe_given (recorder);

  g_printerr ("xrecord: %u actions, %u server events written to %s; the app: %s\n",
              recorder_get_n_actions (recorder), recorder_get_n_server_events (recorder),
              output, what);
  if (given != NULL)
    g_printerr ("xrecord: what the app got from outside: %s\n", given);
  if (recorder_get_signal (recorder) != 0)
    {
      if (recorder_get_n_app_windows (recorder) == 0)
        print_nothing_recorded (recorder);
      g_printerr ("xrecord: stopped by %s\n",
                  proc_signal_name (recorder_get_signal (recorder)));
      return EXIT_STATUS_SIGNAL + recorder_get_signal (recorder);
    }
  if (recorder_get_start_timed_out (recorder, &timeout_ms, &n_created))
    {
      print_start_timed_out (recorder, timeout_ms, n_created);
      print_nothing_recorded (recorder);
      return EXIT_STATUS_NOTHING_RECORDED;
    }
  if (recorder_get_n_app_windows (recorder) == 0)
    {
      print_nothing_recorded (recorder);
      return EXIT_STATUS_NOTHING_RECORDED;
    }
  return EXIT_STATUS_OK;
}

int
main (int argc, char **argv)
{
  g_auto (Args) a = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (Recorder) recorder = NULL;
  RecorderOptions options = { .width = 1280, .height = 1024 };
  SessionOutcome outcome;
  int status;

  /* The terminal's character set, for GLib's conversion of what is
   * printed: titles in other scripts are shown, not '?'. LC_CTYPE only:
   * numbers in files and scripts stay "0.05" in every locale. */
  setlocale (LC_CTYPE, "");
  if (!parse_args (&argc, &argv, &a, &status))
    return status;
  /* What the app starts outside its process group (a terminal's shell,
   * in a session of its own) and leaves running ends when we do. */
  proc_adopt_orphans ("xrecord");
  if (a.all)
    return run_all (&a);
  if (a.save_dir != NULL || a.keep != NULL || a.keep_actions != NULL || a.exclude_class != NULL
      || a.save_key != NULL)
    {
      g_printerr ("xrecord: --save-dir, --keep, --keep-actions, --exclude-class and --save-key "
                  "go with --all\n");
      return EXIT_STATUS_USAGE;
    }
  if (!check_options (&a, &options, &status))
    return status;
  recorder = recorder_new (&options, &error);
  if (recorder != NULL && recorder_run (recorder, &outcome, &error))
    return recorded (recorder, outcome, a.output);
  if (proc_interrupt_get_signal () != 0)
    {
      /* Before the log was begun: nothing recorded, nothing left. */
      g_printerr ("xrecord: stopped by %s while starting\n",
                  proc_signal_name (proc_interrupt_get_signal ()));
      return EXIT_STATUS_SIGNAL + proc_interrupt_get_signal ();
    }
  g_printerr ("xrecord: %s\n", error->message);
  if (g_error_matches (error, RECORDER_ERROR, RECORDER_ERROR_INFRA))
    return EXIT_STATUS_INFRA;
  /* No such program: 4, as xreplay and xreduce say it (exit-status.h). */
  if (g_error_matches (error, RECORDER_ERROR, RECORDER_ERROR_APP))
    return EXIT_STATUS_NOT_STARTED;
  return EXIT_STATUS_USAGE;
}
