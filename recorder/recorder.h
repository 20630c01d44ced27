/* recorder.h — xrecord's core: runs an app on a display and writes what
 * the user did to it, and what became of it, to a session log.
 *
 * Where the app runs: a nested Xephyr (RECORDER_NESTED, the default on a
 * desktop), an existing display (RECORDER_EXISTING), or a private Xvfb
 * (RECORDER_HEADLESS). The log is written line by line as events arrive
 * (sessions/SessionWriter), so a crash of the app, or of xrecord, loses
 * nothing written so far.
 */
#pragma once

#include <glib.h>

#include "session.h"

G_BEGIN_DECLS

#define RECORDER_ERROR (recorder_error_quark ())
GQuark recorder_error_quark (void);

typedef enum
{
  RECORDER_ERROR_USAGE,    /* bad options or input: exit status 2 */
  RECORDER_ERROR_APP,      /* the app cannot be started: 4, as in xreplay and xreduce */
  RECORDER_ERROR_OUTPUT,   /* the log cannot be written: 2 */
  RECORDER_ERROR_INFRA,    /* no X server, no RECORD, ...: 3 */
} RecorderError;

typedef enum
{
  RECORDER_NESTED,         /* Xephyr on $DISPLAY */
  RECORDER_EXISTING,       /* the display in RecorderOptions.display */
  RECORDER_HEADLESS,       /* a private Xvfb */
} RecorderWhere;

typedef struct
{
  const char *output;      /* the session log */
  const char *const *argv; /* the app's command line, NULL-terminated */
  RecorderWhere where;
  const char *display;     /* RECORDER_EXISTING */
  int width, height;       /* the screen of NESTED and HEADLESS */
  const char *stop_key;    /* a keysym name, or NULL */
  guint start_timeout_ms;  /* for the app's first window; 0: the default */
  /* What the app got from outside (session-world.h): */
  gboolean no_selections;  /* pastes are noted, their data not written */
  gboolean with_files;     /* the files it read are copied beside the log (OUTPUT.files/) */
  const char *const *record_env; /* names to record beyond the default list, or NULL */
} RecorderOptions;

/* How long the app's first window is waited for by default: on a desktop
 * the window manager may wait for the user to place it (twm); Firefox
 * on a busy machine has taken more than 30 s to show its first. */
#define RECORDER_START_TIMEOUT_MS 60000

typedef struct Recorder Recorder;

/* Checks the options (the stop key, the app, the output path). */
Recorder *recorder_new (const RecorderOptions *options, GError **error);
void recorder_free (Recorder *recorder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Recorder, recorder_free)

/* Records until the app exits or crashes, SIGINT/SIGTERM, or the stop
 * key; the app and any server xrecord started are gone when it returns.
 * *outcome: what became of the app (NONE when the recording was stopped
 * with the app alive). */
gboolean recorder_run (Recorder *recorder, SessionOutcome *outcome,
                       GError **error);

/* The number of user actions and server events written. */
guint recorder_get_n_actions (Recorder *recorder);
guint recorder_get_n_server_events (Recorder *recorder);
/* After recorder_run: what the app got from outside, in words for the
 * terminal ("2 pastes (3 conversions), 1 drop, 4 files read (copied to
 * crash.log.files), 3 variables"), or NULL if nothing. */
char *recorder_describe_given (Recorder *recorder);
/* Whether @name may be given to --record-env; FALSE with why. */
gboolean recorder_check_env_name (const char *name, GError **error);

/* After recorder_run: the number of windows taken for the app's (0:
 * nothing of the app was recorded), and the windows mapped during the
 * recording, each described as `0x200015 "title" (Class)`, quoted for the
 * terminal (output/quote.h); NULL-terminated, owned by the recorder.
 * When none was the app's, these are the windows the user may have
 * meant. */
guint recorder_get_n_app_windows (Recorder *recorder);
/* After recorder_run: the signal (SIGINT, SIGTERM, SIGHUP) that ended the
 * recording, or 0; whether it ended because no window of the app's was
 * mapped within the start timeout, and how many top-level windows the
 * app had created by then (mapped or not). */
int recorder_get_signal (Recorder *recorder);
gboolean recorder_get_start_timed_out (Recorder *recorder, guint *timeout_ms,
                                       guint *n_created);
const char *const *recorder_get_seen_windows (Recorder *recorder);

G_END_DECLS
