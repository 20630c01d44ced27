/* report-private.h — the parts of report.md that report.c leaves to
 * others: what happened to the app (report-crash.c: the title's words,
 * the crash, its backtrace and Python stack) and how the replay ran and
 * the session was recorded (report-env.c: the Environment section). Not
 * for other modules: report.h is the interface.
 */
#pragma once

#include <glib.h>

#include "replay.h"
#include "report.h"
#include "session.h"

/* What became of the app, for the title, one line of plain text:
 * "crashed with SIGSEGV in print_document (xdemo.c:209)", "killed by
 * SIGSEGV sent by pid 5 (bash)", "exited with status 3". The crash site
 * is the first frame with a source line, else the Python frame, else
 * the first frame. */
char *report_outcome_words (const ReplayResult *result, GArray *python);

/* The verdict after "The app": "crashed with SIGSEGV", "was killed by
 * SIGSEGV" (sent by another process), "hung". */
char *report_verdict_words (const ReplayResult *result);

/* "## What happened" without its heading: the outcome, the process and
 * how the signal came, the backtrace or why there is none (@traced: the
 * replay ran the app under xreduce-crashtrace), the Python stack, the end
 * of stderr. */
void report_append_what_happened (GString *md, const ReplayResult *result, GArray *python,
                                  gboolean traced);

/* How the replay ran (ReplayOptions.settings, as report_set_replay()
 * was told). */
typedef struct
{
  char *wm;                  /* --wm's command line, or NULL: none */
  gboolean share_home;       /* no sandbox */
  gboolean isolated;         /* under bubblewrap */
  gboolean share_net;
  char *home_seed;           /* --home, or NULL */
  gboolean on_display;       /* --display: the user's server, not a private Xvfb */
} ReportHow;

/* "## Environment", the one place the report says where and how the
 * session was recorded and replayed: the app (@app), the system, the X
 * server of the replay (@x_server, or NULL), the window manager (@wm_seen:
 * the one that ran, or NULL), the
 * sandbox, HOME, network, locale, keymap and screen; then the recording
 * (from @session's header): its date and xrecord's version, its screen,
 * keymap and window manager. @report_dir: paths are said from there. */
void report_append_environment (GString *md, const Session *session,
                                const ReportAppInfo *app, const char *x_server,
                                const char *wm_seen, const ReportHow *how,
                                const char *report_dir);
