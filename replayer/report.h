/* report.h — a bug-report folder for one replay: report.md with the steps
 * in words (the session's phrases: "Type `ls /` and press Return", "Press
 * Alt+P"), the command line and what happened; a picture before each
 * step, cropped to the app's windows, with the pointer and the target
 * marked and the step's words above it; a contact sheet of all steps; the
 * xdotool script that replays it without xreduce.
 *
 * The replayer calls report_step() before each action it injects and
 * report_finish() at the end; xreduce appends its figures to report.md
 * (reducer/summary.c).
 */
#pragma once

#include <X11/Xlib.h>
#include <glib.h>
#include "replay.h"
#include "session.h"

G_BEGIN_DECLS

typedef struct Report Report;

Report *report_new (const char *dir, const Session *session, const char *session_path,
                    const char *const *argv, GError **error);
/* The replay options given that a session cannot carry (a --wm): report.md's
 * command that replays session.log says them. */
void report_set_replay_options (Report *report, const char *const *argv);
void report_free (Report *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Report, report_free)

/* How the replay runs (its window manager, sandbox, HOME, network; whether
 * the app runs under xreduce-crashtrace), for the Environment section:
 * before replay_run(). */
void report_set_replay (Report *report, const ReplayOptions *opts);

/* ReplayOptions.wait_before: before action @number the replay waits for
 * the app to take the ones before, even in a typed run: a typing step's
 * text is pictured then, before the key that ends it. */
gboolean report_wants_wait (Report *report, guint number);

/* Before each action is injected (ReplayOptions.on_action): a phrase's
 * first action makes it a step; its picture is taken before its click's
 * press (the pointer on the target), its last move, or its first action.
 * Failures are remembered, not fatal: the replay matters more than its
 * pictures. */
void report_step (Report *report, Display *dpy, const ReplayStep *step);

/* The verdict is known and the display still up: the screen at the end,
 * if @app_alive (after a failure, the last picture stands for it).
 * Failures are remembered, as in report_step. */
void report_take_last_pictures (Report *report, Display *dpy, gboolean app_alive);

/* The replay is over: writes report.md (and its plain-text twin
 * report.txt) with a title that names the app, what became of it and
 * where ("xdemo 1.0 crashed with SIGSEGV in print_document (xdemo.c:209)",
 * "xterm killed by SIGSEGV sent by pid 5 (bash)"), the steps, what
 * happened (the process, how the signal came, the backtrace or why there
 * is none, a Python app's stack, the end of stderr) and the environment;
 * the pictures (replay.gif, steps.png, last-screen.png, the failure
 * marked on its end frame); the session and its xdotool script. */
gboolean report_finish (Report *report, const ReplayResult *result, GError **error);

/* Which app: its name (the program's, or the script's an interpreter
 * runs), the version it tells (`APP --version`, run without a display for
 * at most 3 s; not an interpreter's), the Debian package that owns it and
 * its version, the toolkit its file links or imports. Any may be NULL. */
typedef struct
{
  char *name, *version, *package;
  const char *toolkit;       /* static */
} ReportAppInfo;

void report_app_info_probe (ReportAppInfo *info, const char *const *argv);
void report_app_info_clear (ReportAppInfo *info);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReportAppInfo, report_app_info_clear)

/* "The X.Org Foundation 21.1.7": the server's vendor and release. */
char *report_describe_server (Display *dpy);

/* A step of report.md: "Press Alt+P in "Editor".", "Click at 40,12 in
 * "Print"." (Markdown, one line). */
char *report_step_words (const Session *session, const SessionPhrase *phrase);

G_END_DECLS
