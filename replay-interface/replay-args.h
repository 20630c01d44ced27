/* replay-args.h — how a session is replayed, written once: the options
 * that say it (timing, windows, size limits, the sandbox), their defaults
 * and their checks, as one GOption group that xreplay and xreduce both add
 * to their command line (as halfempty's modules each add their own), and
 * the words that pass them on to xreplay. X-free.
 *
 * A new replay option is one entry in replay-args.c's table (its name,
 * help, and where its value goes in ReplaySettings): xreplay takes it,
 * xreduce takes it and passes it on to every replay, both check it the
 * same way before anything starts. An entry marked xreplay_only is
 * xreplay's alone (xreduce asks for it itself where it needs it:
 * replay_args_common()); unmarked, xreduce takes it too.
 */
#pragma once

#include <glib.h>

#include "sandbox.h"
#include "session.h"

G_BEGIN_DECLS

typedef enum
{
  REPLAY_PACE_APP,           /* after each action, wait until the app has taken it */
  REPLAY_PACE_RECORDED,      /* the recorded gaps (divided by speed, capped) */
} ReplayPace;

/* The defaults. */
#define REPLAY_DEFAULT_SPEED 1.0
#define REPLAY_DEFAULT_MAX_GAP_MS 1000
#define REPLAY_DEFAULT_MIN_GAP_MS 5
#define REPLAY_DEFAULT_SETTLE_MS 500
#define REPLAY_DEFAULT_TIMEOUT_MS 5000
#define REPLAY_DEFAULT_START_TIMEOUT_MS 10000
#define REPLAY_DEFAULT_WINDOW_WAIT_MS 2000

/* The checked values. Strings and lists point into the ReplayArgs they
 * came from (or are NULL: not given). */
typedef struct
{
  ReplayPace pace;           /* REPLAY_PACE_APP */
  double speed;              /* > 0; recorded gaps are divided by it */
  guint max_gap_ms;          /* gaps are capped at this */
  guint min_gap_ms;          /* and at least this */
  guint settle_ms;           /* after the last action, for a late crash; more, up to
                              * timeout_ms, while the app's processes are busy */
  guint timeout_ms;          /* for the app to answer a ping */
  guint start_timeout_ms;    /* for the app's first window */
  guint window_wait_ms;      /* for an action's window to appear */
  guint double_click_ms;     /* the app's double-click time, or 0: its toolkit's, read
                              * by the replay (replayer/apptiming.c) */
  guint repeat_delay_ms;     /* the key auto-repeat delay, or 0: the X server's */
  /* Given on the command line, not the default: xreduce picks the pace
   * and learns the waits itself unless told. */
  gboolean pace_given, start_timeout_given, window_wait_given, settle_given;
  gboolean max_gap_given;
  int max_screen_width, max_screen_height; /* sessions with a larger screen are refused */
  gsize max_session_size;    /* bytes: larger session files are refused unread */
  guint max_actions;         /* sessions with more user actions are refused */
  gboolean share_home;       /* run the app with our HOME and session bus, no sandbox */
  const char *home_seed;     /* or NULL: the sandbox's HOME starts as a copy of this
                              * (an absolute path) */
  const char *wm;            /* or NULL: --wm as given ... */
  const char *const *wm_argv; /* ... and split: a window manager to run on the private
                              * Xvfb before the app (else the replay is one) */
  SandboxIsolate isolate;    /* bubblewrap around the app: auto, require, off */
  gboolean share_net;        /* isolated, with the network */
  const char *const *keep_env; /* or NULL: our variables the app gets beyond the allowlist */
  const char *const *set_env;  /* or NULL: NAME=VALUE the app gets */
  const char *files_dir;     /* or NULL: the copies of the files the app read (xrecord
                              * --with-files), an absolute path; xreplay's default is
                              * SESSION.files beside the session */
  gboolean backtrace;        /* the app under the crash tracer (xreduce-crashtrace) */
  gboolean no_backtrace;     /* a report's replay without it (else it is under it) */
} ReplaySettings;

/* The defaults: what a replay does when no option says otherwise. */
void replay_settings_init (ReplaySettings *settings);

typedef struct ReplayArgs ReplayArgs;

ReplayArgs *replay_args_new (void);
void replay_args_free (ReplayArgs *args);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ReplayArgs, replay_args_free)

/* The options as a group ("Replay options", --help-replay) whose values
 * land in @args, for g_option_context_add_group() (which takes it). */
GOptionGroup *replay_args_get_group (ReplayArgs *args);
/* xreplay's own options of the table (--backtrace, ...), not in the
 * group, as @context's main options, whose values land in @args too. */
void replay_args_add_xreplay_options (ReplayArgs *args, GOptionContext *context);

/* After parsing: checks every value given (numbers, sizes, the --home
 * folder, the --wm command line, options that exclude each other) and
 * fills the settings; FALSE with a G_OPTION_ERROR whose message starts
 * with the option ("--speed: '0' is not a factor ..."). */
gboolean replay_args_check (ReplayArgs *args, GError **error);

/* The checked values (replay_args_check() first). */
const ReplaySettings *replay_args_get_settings (const ReplayArgs *args);

/* The options given, as xreplay's words ("--settle", "800", ...), in a
 * fixed order, with the checked values (--home as an absolute path):
 * what xreduce passes on to every replay (xreplay's own options are not
 * among them). Newly allocated. */
char **replay_args_to_argv (const ReplayArgs *args);

/* The options of @session's `replay` line (session_get_replay_options)
 * that the command line did not give, taken as if given (the settings,
 * replay_args_to_argv), and checked again: a session reduced with the
 * recorded pace or a longer settle replays so with nothing added.
 * FALSE with a G_OPTION_ERROR (a value out of the command line's bounds). */
gboolean replay_args_take_session (ReplayArgs *args, const Session *session, GError **error);
/* Was the option --@name given by the session, not the command line? */
gboolean replay_args_from_session (const ReplayArgs *args, const char *name);
/* The options given (by the command line or the session) that a session
 * may carry, as its `replay` line's words ("settle=3000"), in a fixed
 * order; and the others (a --wm, a --home, the sandbox's, a value past a
 * session's bounds) as xreplay's words, for the command line that replays
 * the session. Newly allocated. */
char **replay_args_to_session_options (const ReplayArgs *args);
char **replay_args_to_argv_not_in_session (const ReplayArgs *args);

/* ---- how xreduce runs xreplay: the one place that writes its words ---- */

/* Every replay xreduce runs: quiet, what its failure needs
 * (--stderr-match @stderr_match unless NULL; --backtrace with
 * @backtrace), then @given (replay_args_to_argv, the files' folder, the
 * sandbox's choice). Newly allocated. */
char **replay_args_common (const char *const *given, const char *stderr_match,
                           gboolean backtrace);

/* What one replay changes from the common options (0, FALSE and NULL:
 * nothing): what xreduce learnt of the app and the pace it fell back to;
 * and for the report's replay, its folder. */
typedef struct
{
  guint window_wait_ms;
  guint settle_ms;
  guint start_timeout_ms;
  gboolean recorded_pace;    /* --pace=recorded, with ... */
  guint max_gap_ms;          /* ... its gaps' cap, or 0: the common options' */
  double speed;              /* ... its speed, or 0: the common options' */
  const char *report_dir;    /* the report's replay: its folder, ... */
  gboolean no_backtrace;     /* ... and the app not under the crash tracer */
} ReplayOverrides;

/* xreplay's command line for one replay of the session at @session_path
 * ("-": on stdin) against @app_argv: @xreplay, --json, @common, then
 * @overrides (after them: xreplay takes the last of an option given
 * twice), the display (NULL: none), the session, "--" and the app.
 * Newly allocated. */
char **replay_args_command (const char *xreplay, const char *const *common,
                            const ReplayOverrides *overrides, const char *display,
                            const char *session_path, const char *const *app_argv);

/* The isolation of the replays, the one policy of both programs: as
 * asked (--isolate; none with --no-isolate or --share-home) if
 * bubblewrap works here; without it (@settings->isolate set to
 * SANDBOX_ISOLATE_OFF) if it does not and was not required, with
 * *@warning saying so, in words that follow @what ("the app runs", "the
 * replays run"); FALSE with @error (an infrastructure error) if it was
 * required. */
gboolean replay_settings_resolve_isolation (ReplaySettings *settings, const char *what,
                                            char **warning, GError **error);

/* Every option of the group (not xreplay's alone), "--name" (its long
 * name), for a test that checks that both programs take each. Newly
 * allocated. */
char **replay_args_list_names (void);

G_END_DECLS
