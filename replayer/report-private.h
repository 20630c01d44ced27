/* report-private.h — a report's state (report.c: the folder, the steps
 * and the pictures taken during the replay), shared with the files that
 * write the rest: report.md's text at the end (report-finish.c), which
 * app it is (report-app.c), what happened to it (report-crash.c: the
 * title's words, the crash, its backtrace and Python stack) and how the
 * replay ran and the session was recorded (report-env.c: the Environment
 * section). Not for other modules: report.h is the interface.
 */
#pragma once

#include <glib.h>

#include "proc.h"
#include "replay.h"
#include "report.h"
#include "session.h"
#include "snapshot.h"

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

/* A step of the report: a phrase reached in the replay. */
typedef struct
{
  guint phrase;       /* index in Report.phrases */
  char *words;        /* Markdown, one line */
  char *picture;      /* file name in the folder, or NULL */
  char *typed;        /* a typing step: the picture of its text typed, or NULL */
} Step;

struct Report
{
  char *dir;          /* where the report goes when complete */
  ProcTempDir *fresh; /* where it is written until then */
  const char *fresh_path;
  char *session_path;
  char **argv;
  char **replay_argv; /* the replay options a session cannot carry, or NULL */
  Session *session;   /* a copy */
  GPtrArray *phrases; /* of SessionPhrase: the steps */
  guint *phrase_of;   /* action number -> its phrase */
  guint *picture_of;  /* phrase -> the action its picture is taken before */
  guint *typed_of;    /* action number -> 1 + the typing phrase whose text is shown
                       * before it (the key that ends it, or what follows), or 0 */
  guint n_actions;
  GArray *steps;      /* of Step, the phrases reached */
  GPtrArray *pictures;   /* of Snapshot* (marked, no caption band): the frames, in order */
  GPtrArray *captions;   /* of char*, one a picture */
  Snapshot *alive_screen; /* the screen at the end, the app still there, or NULL */
  char *picture_error;   /* first failure to take a picture */
  char *write_error;     /* first picture that could not be written (a full disk): the
                            report fails (report_finish), as it does for report.md */
  char *x_server;        /* "The X.Org Foundation 21.1.7", from the first step's display */
  char *wm;              /* the window manager that ran at the first step, or NULL: none */
  ReportHow how;
  gboolean how_known;    /* report_set_replay() was called */
  gboolean traced;       /* the app ran under xreduce-crashtrace */
  gboolean have_last, have_sheet, have_gif;   /* last-screen.png, steps.png, replay.gif */
};

/* report.c: the step (0-based) of phrase @p, or -1 if it was not
 * reached; replay.gif, steps.png and last-screen.png written (each
 * picture with its caption, the failure marked on the last), failures
 * remembered in the report. */
int report_step_of_phrase (Report *report, guint p);
void report_write_pictures (Report *report, const ReplayResult *result, const char *outcome);

/* report-app.c: one line that a title can hold: the app's name, its
 * version, or the package's. */
char *report_app_title (const ReportAppInfo *info);
