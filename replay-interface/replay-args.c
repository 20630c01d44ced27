/* replay-args.c — the replay's options, their defaults and checks, once
 * (see replay-args.h).
 */
#define G_LOG_DOMAIN "xreduce-verdict"

#include "replay-args.h"

#include <string.h>

#include "proc.h"
#include "quote.h"
#include "session.h"

/* What an option takes. */
typedef enum
{
  ARG_MS,                    /* a whole number of milliseconds, into ReplaySettings */
  ARG_TEXT,                  /* a word, checked in replay_args_check() */
  ARG_FLAG,
  ARG_LIST,                  /* repeatable */
} ArgKind;

typedef enum
{
  OPT_PACE,
  OPT_SPEED,
  OPT_MAX_GAP,
  OPT_MIN_GAP,
  OPT_SETTLE,
  OPT_TIMEOUT,
  OPT_START_TIMEOUT,
  OPT_WINDOW_WAIT,
  OPT_DOUBLE_CLICK_TIME,
  OPT_REPEAT_DELAY,
  OPT_WM,
  OPT_MAX_SCREEN,
  OPT_MAX_SESSION_SIZE,
  OPT_MAX_ACTIONS,
  OPT_HOME,
  OPT_SHARE_HOME,
  OPT_ISOLATE,
  OPT_NO_ISOLATE,
  OPT_SHARE_NET,
  OPT_KEEP_ENV,
  OPT_SETENV,
  OPT_FILES,
  OPT_BACKTRACE,
  OPT_NO_BACKTRACE,
  N_OPTIONS
} OptionId;

typedef struct
{
  const char *name;
  ArgKind kind;
  guint min;                 /* ARG_MS: the least value (no app answers in no time) */
  gsize offset;              /* ARG_MS: where the value goes in ReplaySettings */
  const char *help;
  const char *arg;
  gboolean xreplay_only;     /* xreplay's alone, among its own options: xreduce does not
                              * take it, and asks for it itself where it needs it */
} Option;

#define MS(field) G_STRUCT_OFFSET (ReplaySettings, field)

/* In the order --help shows them and replay_args_to_argv() passes them.
 * xreplay and xreduce both take, check and pass on every entry but those
 * marked xreplay_only, which are xreplay's alone. The defaults the help
 * says are the constants the settings start from (replay_settings_init());
 * tests/install/check-man.sh holds the man pages to what --help says. */
static const Option options[N_OPTIONS] = {
  [OPT_PACE] = { "pace", ARG_TEXT, 0, 0, "app: each action once the app has taken the one before (xreplay's default; xreduce takes the recorded pace when the session fails only so); recorded: the recorded gaps (see --speed)", "app|recorded" },
  [OPT_SPEED] = { "speed", ARG_TEXT, 0, 0, "Divide the recorded gaps between actions by F (default "
    G_STRINGIFY (REPLAY_DEFAULT_SPEED) "; the recorded pace, and the timing that means something at the app's pace)", "F" },
  [OPT_MAX_GAP] = { "max-gap", ARG_MS, 0, MS (max_gap_ms), "Wait at most MS between two actions (default " G_STRINGIFY (REPLAY_DEFAULT_MAX_GAP_MS) ")", "MS" },
  [OPT_MIN_GAP] = { "min-gap", ARG_MS, 0, MS (min_gap_ms), "Wait at least MS between two actions (default " G_STRINGIFY (REPLAY_DEFAULT_MIN_GAP_MS) ")", "MS" },
  [OPT_SETTLE] = { "settle", ARG_MS, 0, MS (settle_ms), "Time the app gets after the last action to crash (default " G_STRINGIFY (REPLAY_DEFAULT_SETTLE_MS) "); more, up to --timeout, while its processes are busy", "MS" },
  [OPT_TIMEOUT] = { "timeout", ARG_MS, 1, MS (timeout_ms), "An app that does not answer a ping within MS has hung (default " G_STRINGIFY (REPLAY_DEFAULT_TIMEOUT_MS) ")", "MS" },
  [OPT_START_TIMEOUT] = { "start-timeout", ARG_MS, 1, MS (start_timeout_ms), "Wait at most MS for the app's first window (default " G_STRINGIFY (REPLAY_DEFAULT_START_TIMEOUT_MS) "; xreduce raises it for an app it sees start slowly)", "MS" },
  [OPT_WINDOW_WAIT] = { "window-wait", ARG_MS, 0, MS (window_wait_ms), "Wait MS for the window an action aims at, and on while the app or the X server is at work (default " G_STRINGIFY (REPLAY_DEFAULT_WINDOW_WAIT_MS) "; xreduce learns it from the full session's replays, at most " G_STRINGIFY (REPLAY_DEFAULT_WINDOW_WAIT_MS) ")", "MS" },
  [OPT_DOUBLE_CLICK_TIME] = { "double-click-time", ARG_MS, 1, MS (double_click_ms), "The app's double-click time, when it cannot be read: presses recorded farther apart stay farther apart, ones within it stay within it (default: the app's toolkit's, GTK and Qt 400, Tk 500, Xt 250, or the display's XSETTINGS; else 500)", "MS" },
  [OPT_REPEAT_DELAY] = { "repeat-delay", ARG_MS, 1, MS (repeat_delay_ms), "The key auto-repeat delay: a key released before it, as recorded, is released before it (default: the X server's)", "MS" },
  [OPT_WM] = { "wm", ARG_TEXT, 0, 0, "Run the window manager CMD on the private Xvfb before the app, for a bug that needs one (default: none; the replay gives the windows their recorded size and focus itself)", "CMD" },
  [OPT_MAX_SCREEN] = { "max-screen", ARG_TEXT, 0, 0, "Refuse sessions whose screen is larger than WxH (default " G_STRINGIFY (SESSION_DEFAULT_MAX_SCREEN) "x" G_STRINGIFY (SESSION_DEFAULT_MAX_SCREEN) "): a replay's Xvfb holds about 8 bytes a pixel (some 500 MB at 8192x8192)", "WxH" },
  [OPT_MAX_SESSION_SIZE] = { "max-session-size", ARG_TEXT, 0, 0, "Refuse session files larger than MIB mebibytes (default " G_STRINGIFY (SESSION_MAX_FILE_SIZE_MIB) ", at most 1024), before reading them", "MIB" },
  [OPT_MAX_ACTIONS] = { "max-actions", ARG_TEXT, 0, 0, "Refuse sessions of more than N user actions, or of more than N events of the app, while reading them (default " G_STRINGIFY (SESSION_MAX_ACTIONS) ", some days of recording; xreduce holds about 500 bytes an action: some 500 MB for " G_STRINGIFY (SESSION_MAX_ACTIONS) ")", "N" },
  [OPT_HOME] = { "home", ARG_TEXT, 0, 0, "The app's fresh HOME starts as a copy of DIR (a profile or configuration the bug needs; copy-on-write where the filesystem can)", "DIR" },
  [OPT_SHARE_HOME] = { "share-home", ARG_FLAG, 0, 0, "Run the app with your own HOME and D-Bus session bus instead of a private sandbox (parallel replays then share them)", NULL },
  [OPT_ISOLATE] = { "isolate", ARG_TEXT, 0, 0, "auto (default): the app under bubblewrap where it works, else without it and a warning; require: refuse (exit 3) where it does not", "auto|require" },
  [OPT_NO_ISOLATE] = { "no-isolate", ARG_FLAG, 0, 0, "No bubblewrap: the app sees your files, network and processes (the fresh HOME, bus and environment allowlist stay)", NULL },
  [OPT_SHARE_NET] = { "share-net", ARG_FLAG, 0, 0, "Isolated, but with the network", NULL },
  [OPT_KEEP_ENV] = { "keep-env", ARG_LIST, 0, 0, "The app also gets this variable of ours (repeatable)", "NAME" },
  [OPT_SETENV] = { "setenv", ARG_LIST, 0, 0, "The app gets NAME=VALUE (repeatable)", "NAME=VALUE" },
  [OPT_FILES] = { "files", ARG_TEXT, 0, 0, "The copies of the files the app read (xrecord --with-files), put where the app found them (default: SESSION.files beside the session)", "DIR" },
  [OPT_BACKTRACE] = { "backtrace", ARG_FLAG, 0, 0, "Trace the app's processes (ptrace): say which one died of which signal, sent by whom, and its top frames", NULL, TRUE },
  [OPT_NO_BACKTRACE] = { "no-backtrace", ARG_FLAG, 0, 0, "The report's replay does not trace the app: no backtrace in the report (by default it does, as --backtrace; --backtrace and xreduce's --same-crash still do)", NULL },
};

/* What the command line said, by option. */
typedef union
{
  char *text;                /* ARG_MS, ARG_TEXT */
  gboolean flag;             /* ARG_FLAG */
  char **list;               /* ARG_LIST */
} Given;

struct ReplayArgs
{
  Given given[N_OPTIONS];
  gboolean from_session[N_OPTIONS]; /* given by the session's `replay` line, not by the
                              * command line (replay_args_take_session) */
  ReplaySettings settings;
  char *home;                /* --home, absolute */
  char *files;               /* --files, absolute */
  char **wm_argv;            /* --wm, split */
};

void
replay_settings_init (ReplaySettings *settings)
{
  memset (settings, 0, sizeof *settings);
  settings->pace = REPLAY_PACE_APP;
  settings->speed = REPLAY_DEFAULT_SPEED;
  settings->max_gap_ms = REPLAY_DEFAULT_MAX_GAP_MS;
  settings->min_gap_ms = REPLAY_DEFAULT_MIN_GAP_MS;
  settings->settle_ms = REPLAY_DEFAULT_SETTLE_MS;
  settings->timeout_ms = REPLAY_DEFAULT_TIMEOUT_MS;
  settings->start_timeout_ms = REPLAY_DEFAULT_START_TIMEOUT_MS;
  settings->window_wait_ms = REPLAY_DEFAULT_WINDOW_WAIT_MS;
  settings->max_screen_width = settings->max_screen_height = SESSION_DEFAULT_MAX_SCREEN;
  settings->max_session_size = SESSION_MAX_FILE_SIZE;
  settings->max_actions = SESSION_MAX_ACTIONS;
  settings->isolate = SANDBOX_ISOLATE_AUTO;
}

ReplayArgs *
replay_args_new (void)
{
  ReplayArgs *args = g_new0 (ReplayArgs, 1);

  replay_settings_init (&args->settings);
  return args;
}

void
replay_args_free (ReplayArgs *args)
{
  if (args == NULL)
    return;
  for (guint i = 0; i < N_OPTIONS; i++)
    if (options[i].kind == ARG_LIST)
      g_strfreev (args->given[i].list);
    else if (options[i].kind != ARG_FLAG)
      g_free (args->given[i].text);
  g_free (args->home);
  g_free (args->files);
  g_strfreev (args->wm_argv);
  g_free (args);
}

/* The GOption entries of the table's options that are (@xreplay_only)
 * or are not xreplay's alone, their values landing in @args; ended by
 * an empty one. */
static void
fill_entries (ReplayArgs *args, gboolean xreplay_only, GOptionEntry entries[N_OPTIONS + 1])
{
  static const GOptionArg arg_of[] = { [ARG_MS] = G_OPTION_ARG_STRING,
                                       [ARG_TEXT] = G_OPTION_ARG_STRING,
                                       [ARG_FLAG] = G_OPTION_ARG_NONE,
                                       [ARG_LIST] = G_OPTION_ARG_STRING_ARRAY };
  guint n = 0;

  for (guint i = 0; i < N_OPTIONS; i++)
    {
      if (options[i].xreplay_only != xreplay_only)
        continue;
      entries[n].long_name = options[i].name;
      entries[n].arg = arg_of[options[i].kind];
      /* --home is a file name, not text in the locale's encoding. */
      if (i == OPT_HOME || i == OPT_FILES)
        entries[n].arg = G_OPTION_ARG_FILENAME;
      entries[n].arg_data = &args->given[i];
      entries[n].description = options[i].help;
      entries[n].arg_description = options[i].arg;
      n++;
    }
  memset (&entries[n], 0, sizeof entries[n]);
}

GOptionGroup *
replay_args_get_group (ReplayArgs *args)
{
  GOptionGroup *group = g_option_group_new ("replay", "Replay options (xreduce passes them on to every replay):",
                                            "Show how the app is replayed", NULL, NULL);
  GOptionEntry entries[N_OPTIONS + 1] = { { NULL } };

  fill_entries (args, FALSE, entries);
  g_option_group_add_entries (group, entries);
  return group;
}

void
replay_args_add_xreplay_options (ReplayArgs *args, GOptionContext *context)
{
  GOptionEntry entries[N_OPTIONS + 1] = { { NULL } };

  /* GOption copies the entries (their strings are the table's). */
  fill_entries (args, TRUE, entries);
  g_option_context_add_main_entries (context, entries, NULL);
}

static gboolean
bad_value (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
bad_value (GError **error, const char *format, ...)
{
  va_list ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  return FALSE;
}

/* The milliseconds options into the settings. A timeout of 0 cannot work
 * (no app answers a ping or maps a window in no time): refused now, not
 * after a replay failed for it. */
static gboolean
check_ms (ReplayArgs *args, GError **error)
{
  for (guint i = 0; i < N_OPTIONS; i++)
    {
      const char *text = args->given[i].text;
      guint64 value = 0;

      if (options[i].kind != ARG_MS || text == NULL)
        continue;
      if (!g_ascii_string_to_unsigned (text, 10, options[i].min, 24 * 3600 * 1000, &value,
                                       NULL))
        {
          g_autofree char *shown = quote_terminal (text);
          return bad_value (error, "--%s: '%s' is not a number of milliseconds (%u to "
                            "86400000)", options[i].name, shown, options[i].min);
        }
      G_STRUCT_MEMBER (guint, &args->settings, options[i].offset) = (guint) value;
    }
  if (args->settings.min_gap_ms > args->settings.max_gap_ms)
    return bad_value (error, "--min-gap %u is more than --max-gap %u",
                      args->settings.min_gap_ms, args->settings.max_gap_ms);
  args->settings.start_timeout_given = args->given[OPT_START_TIMEOUT].text != NULL;
  args->settings.window_wait_given = args->given[OPT_WINDOW_WAIT].text != NULL;
  args->settings.settle_given = args->given[OPT_SETTLE].text != NULL;
  args->settings.max_gap_given = args->given[OPT_MAX_GAP].text != NULL;
  return TRUE;
}

static int
option_by_name (const char *name)
{
  for (guint i = 0; i < N_OPTIONS; i++)
    if (g_str_equal (options[i].name, name))
      return (int) i;
  return -1;
}

/* --pace, --speed. */
static gboolean
check_timing (ReplayArgs *args, GError **error)
{
  const char *pace = args->given[OPT_PACE].text;
  const char *speed = args->given[OPT_SPEED].text;

  if (pace != NULL && !g_str_equal (pace, "app") && !g_str_equal (pace, "recorded"))
    {
      g_autofree char *shown = quote_terminal (pace);
      return bad_value (error, "--pace: '%s' is not app or recorded", shown);
    }
  args->settings.pace_given = pace != NULL;
  args->settings.pace = pace != NULL && g_str_equal (pace, "recorded") ? REPLAY_PACE_RECORDED
                                                                         : REPLAY_PACE_APP;
  if (speed != NULL)
    {
      char *end = NULL;
      double value = g_ascii_strtod (speed, &end);

      if (end == speed || *end != '\0' || !(value > 0.001 && value <= 1000))
        {
          g_autofree char *shown = quote_terminal (speed);
          return bad_value (error, "--speed: '%s' is not a factor between 0.001 and 1000",
                            shown);
        }
      args->settings.speed = value;
    }
  return TRUE;
}

/* --max-screen, --max-session-size, --max-actions. */
static gboolean
check_limits (ReplayArgs *args, GError **error)
{
  ReplaySettings *settings = &args->settings;
  const char *screen = args->given[OPT_MAX_SCREEN].text;
  const char *size = args->given[OPT_MAX_SESSION_SIZE].text;
  const char *actions = args->given[OPT_MAX_ACTIONS].text;

  if (actions != NULL && !session_max_actions_parse (actions, &settings->max_actions))
    {
      g_autofree char *shown = quote_terminal (actions);
      return bad_value (error, "--max-actions: '%s' is not a number of actions (1 to %d)",
                        shown, SESSION_MAX_ACTIONS_CEILING);
    }
  if (size != NULL && !session_max_size_parse (size, &settings->max_session_size))
    {
      g_autofree char *shown = quote_terminal (size);
      return bad_value (error, "--max-session-size: '%s' is not a whole number of MiB (1 to %"
                        G_GSIZE_FORMAT ")", shown,
                        (gsize) (SESSION_MAX_FILE_SIZE_CEILING / (1024 * 1024)));
    }
  if (screen != NULL && !session_screen_size_parse (screen, &settings->max_screen_width,
                                                    &settings->max_screen_height))
    {
      g_autofree char *shown = quote_terminal (screen);
      return bad_value (error, "--max-screen: '%s' is not a size WxH (each 1 to %d)", shown,
                        SESSION_MAX_COORD);
    }
  return TRUE;
}

/* The sandbox's options and --wm. */
static gboolean
check_sandbox (ReplayArgs *args, GError **error)
{
  ReplaySettings *settings = &args->settings;
  const char *home = args->given[OPT_HOME].text;
  const char *isolate = args->given[OPT_ISOLATE].text;
  const char *wm = args->given[OPT_WM].text;
  char **set_env = args->given[OPT_SETENV].list;
  g_autoptr (GError) local = NULL;

  settings->share_home = args->given[OPT_SHARE_HOME].flag;
  settings->share_net = args->given[OPT_SHARE_NET].flag;
  settings->keep_env = (const char *const *) args->given[OPT_KEEP_ENV].list;
  settings->set_env = (const char *const *) set_env;
  if (home != NULL && settings->share_home)
    return bad_value (error, "--home and --share-home exclude each other");
  if (isolate != NULL && !g_str_equal (isolate, "auto") && !g_str_equal (isolate, "require"))
    {
      g_autofree char *shown = quote_terminal (isolate);
      return bad_value (error, "--isolate: '%s' is neither auto nor require", shown);
    }
  if (args->given[OPT_NO_ISOLATE].flag && isolate != NULL && g_str_equal (isolate, "require"))
    return bad_value (error, "--isolate=require and --no-isolate exclude each other");
  settings->isolate = args->given[OPT_NO_ISOLATE].flag ? SANDBOX_ISOLATE_OFF
                      : isolate != NULL && g_str_equal (isolate, "require")
                      ? SANDBOX_ISOLATE_REQUIRE : SANDBOX_ISOLATE_AUTO;
  if (settings->share_home && (settings->keep_env != NULL || set_env != NULL))
    return bad_value (error, "--share-home runs the app with all of your environment: "
                      "--keep-env and --setenv are for the sandbox");
  for (char **s = set_env; s != NULL && *s != NULL; s++)
    if (strchr (*s, '=') == NULL || **s == '=')
      {
        g_autofree char *shown = quote_terminal (*s);
        return bad_value (error, "--setenv: '%s' is not NAME=VALUE", shown);
      }
  if (home != NULL)
    {
      if (!sandbox_check_home_seed (home, &local))
        return bad_value (error, "%s", local->message);
      /* The same folder wherever the replay runs from (ssh starts in HOME). */
      g_free (args->home);
      args->home = g_canonicalize_filename (home, NULL);
      settings->home_seed = args->home;
    }
  if (args->given[OPT_FILES].text != NULL)
    {
      const char *files = args->given[OPT_FILES].text;

      if (settings->share_home)
        return bad_value (error, "--files and --share-home exclude each other: the files go "
                          "into the sandbox");
      if (!g_file_test (files, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *shown = quote_terminal (files);
          return bad_value (error, "--files: '%s' is not a folder", shown);
        }
      g_free (args->files);
      args->files = g_canonicalize_filename (files, NULL);
      settings->files_dir = args->files;
    }
  if (wm != NULL)
    {
      g_strfreev (args->wm_argv);
      args->wm_argv = proc_command_parse (wm, &local);
      if (args->wm_argv == NULL)
        return bad_value (error, "--wm: %s", local->message);
      settings->wm = wm;
      settings->wm_argv = (const char *const *) args->wm_argv;
    }
  return TRUE;
}

/* --backtrace, --no-backtrace. */
static gboolean
check_tracer (ReplayArgs *args, GError **error)
{
  args->settings.backtrace = args->given[OPT_BACKTRACE].flag;
  args->settings.no_backtrace = args->given[OPT_NO_BACKTRACE].flag;
  return TRUE;
}

gboolean
replay_args_check (ReplayArgs *args, GError **error)
{
  replay_settings_init (&args->settings);
  return check_limits (args, error) && check_ms (args, error) && check_timing (args, error)
         && check_sandbox (args, error) && check_tracer (args, error);
}

const ReplaySettings *
replay_args_get_settings (const ReplayArgs *args)
{
  return &args->settings;
}

char **
replay_args_to_argv (const ReplayArgs *args)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < N_OPTIONS; i++)
    {
      g_autofree char *flag = g_strconcat ("--", options[i].name, NULL);
      const Given *given = &args->given[i];

      if (options[i].xreplay_only)
        continue;
      switch (options[i].kind)
        {
        case ARG_FLAG:
          if (given->flag)
            g_strv_builder_add (builder, flag);
          break;
        case ARG_LIST:
          for (char **s = given->list; s != NULL && *s != NULL; s++)
            {
              g_strv_builder_add (builder, flag);
              g_strv_builder_add (builder, *s);
            }
          break;
        case ARG_MS:
        case ARG_TEXT:
        default:
          if (given->text != NULL)
            {
              g_strv_builder_add (builder, flag);
              g_strv_builder_add (builder, i == OPT_HOME && args->home != NULL ? args->home
                                           : i == OPT_FILES && args->files != NULL ? args->files
                                           : given->text);
            }
          break;
        }
    }
  return g_strv_builder_end (builder);
}

gboolean
replay_args_take_session (ReplayArgs *args, const Session *session, GError **error)
{
  const char *const *words = session_get_replay_options (session);
  gboolean any = FALSE;

  for (const char *const *w = words; w != NULL && *w != NULL; w++)
    {
      const char *eq = strchr (*w, '=');
      g_autofree char *name = eq != NULL ? g_strndup (*w, (gsize) (eq - *w)) : NULL;
      int i = name != NULL ? option_by_name (name) : -1;

      /* The session checked each word (session-options.c): a name of
       * this table, a bounded value. The command line's wins. */
      if (i < 0 || (options[i].kind != ARG_MS && options[i].kind != ARG_TEXT))
        continue;
      if (args->given[i].text != NULL && !args->from_session[i])
        continue;
      g_free (args->given[i].text);
      args->given[i].text = g_strdup (eq + 1);
      args->from_session[i] = TRUE;
      any = TRUE;
    }
  if (!any)
    return TRUE;
  {
    /* The checks again, with the session's values in: the sandbox's
     * choices made since (isolation off where it cannot work) stay. */
    SandboxIsolate isolate = args->settings.isolate;
    gboolean ok = replay_args_check (args, error);

    args->settings.isolate = isolate;
    return ok;
  }
}

gboolean
replay_args_from_session (const ReplayArgs *args, const char *name)
{
  int i = option_by_name (name);

  return i >= 0 && args->from_session[i];
}

/* The option @i as the `replay` line's word "name=value", or NULL if it
 * was not given or is not for a session to carry. */
static char *
session_word (const ReplayArgs *args, guint i)
{
  const char *text = args->given[i].text;

  if ((options[i].kind != ARG_MS && options[i].kind != ARG_TEXT) || text == NULL
      || !session_replay_option_check (options[i].name, text, NULL))
    return NULL;
  return g_strdup_printf ("%s=%s", options[i].name, text);
}

char **
replay_args_to_session_options (const ReplayArgs *args)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < N_OPTIONS; i++)
    {
      g_autofree char *word = session_word (args, i);

      if (word != NULL)
        g_strv_builder_add (builder, word);
    }
  return g_strv_builder_end (builder);
}

char **
replay_args_to_argv_not_in_session (const ReplayArgs *args)
{
  g_auto (GStrv) all = replay_args_to_argv (args);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  /* replay_args_to_argv's words: "--name" and its value, if it takes one. */
  for (guint w = 0; all[w] != NULL; w++)
    {
      int i = option_by_name (all[w] + 2);
      g_autofree char *word = NULL;

      if (i < 0)
        continue;
      word = session_word (args, (guint) i);
      if (word == NULL)
        {
          g_strv_builder_add (builder, all[w]);
          if (options[i].kind != ARG_FLAG && all[w + 1] != NULL)
            g_strv_builder_add (builder, all[w + 1]);
        }
      if (options[i].kind != ARG_FLAG)
        w++;
    }
  return g_strv_builder_end (builder);
}

/* ---- how xreduce runs xreplay ---- */

/* --NAME, NAME a flag of the table. */
static void
add_flag (GStrvBuilder *builder, guint option)
{
  g_autofree char *word = g_strconcat ("--", options[option].name, NULL);

  g_strv_builder_add (builder, word);
}

char **
replay_args_common (const char *const *given, const char *stderr_match, gboolean backtrace)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_strv_builder_add (builder, "--quiet");
  if (stderr_match != NULL)
    g_strv_builder_add_many (builder, "--stderr-match", stderr_match, NULL);
  if (backtrace)
    add_flag (builder, OPT_BACKTRACE);
  if (given != NULL)
    g_strv_builder_addv (builder, (const char **) given);
  return g_strv_builder_end (builder);
}

/* --NAME=MS, NAME an option of the table. */
static void
add_ms (GStrvBuilder *builder, guint option, guint ms)
{
  g_autofree char *word = g_strdup_printf ("--%s=%u", options[option].name, ms);

  g_strv_builder_add (builder, word);
}

char **
replay_args_command (const char *xreplay, const char *const *common,
                     const ReplayOverrides *o, const char *display, const char *session_path,
                     const char *const *app_argv)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_strv_builder_add_many (builder, xreplay, "--json", NULL);
  if (common != NULL)
    g_strv_builder_addv (builder, (const char **) common);
  if (o->window_wait_ms > 0)
    add_ms (builder, OPT_WINDOW_WAIT, o->window_wait_ms);
  if (o->settle_ms > 0)
    add_ms (builder, OPT_SETTLE, o->settle_ms);
  if (o->recorded_pace)
    {
      g_autofree char *pace = g_strdup_printf ("--%s=recorded", options[OPT_PACE].name);

      g_strv_builder_add (builder, pace);
      if (o->max_gap_ms > 0)
        add_ms (builder, OPT_MAX_GAP, o->max_gap_ms);
      if (o->speed > 0)
        {
          char number[G_ASCII_DTOSTR_BUF_SIZE];
          g_autofree char *speed = g_strdup_printf (
            "--%s=%s", options[OPT_SPEED].name,
            g_ascii_formatd (number, sizeof number, "%g", o->speed));

          g_strv_builder_add (builder, speed);
        }
    }
  if (o->start_timeout_ms > 0)
    add_ms (builder, OPT_START_TIMEOUT, o->start_timeout_ms);
  if (o->report_dir != NULL)
    g_strv_builder_add_many (builder, "--report", o->report_dir, NULL);
  if (o->no_backtrace)
    add_flag (builder, OPT_NO_BACKTRACE);
  if (display != NULL)
    g_strv_builder_add_many (builder, "--display", display, NULL);
  g_strv_builder_add_many (builder, session_path, "--", NULL);
  g_strv_builder_addv (builder, (const char **) app_argv);
  return g_strv_builder_end (builder);
}

char **
replay_args_list_names (void)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < N_OPTIONS; i++)
    if (!options[i].xreplay_only)
      {
        g_autofree char *flag = g_strconcat ("--", options[i].name, NULL);
        g_strv_builder_add (builder, flag);
      }
  return g_strv_builder_end (builder);
}

gboolean
replay_settings_resolve_isolation (ReplaySettings *settings, const char *what, char **warning,
                                   GError **error)
{
  g_autoptr (GError) local = NULL;

  *warning = NULL;
  if (settings->share_home || settings->isolate == SANDBOX_ISOLATE_OFF
      || sandbox_can_isolate (&local))
    return TRUE;
  if (settings->isolate == SANDBOX_ISOLATE_REQUIRE)
    {
      g_set_error (error, local->domain, local->code, "--isolate=require: %s", local->message);
      return FALSE;
    }
  *warning = g_strdup_printf ("%s; %s without isolation (%s your files, network and "
                              "processes; --isolate=require refuses instead)", local->message,
                              what, g_str_has_prefix (what, "the app") ? "it sees" : "the app sees");
  settings->isolate = SANDBOX_ISOLATE_OFF;
  return TRUE;
}
