/* reduce-options.h — what xreduce was asked (ReduceOptions) and its
 * error domain (REDUCE_ERROR, whose codes are exit statuses): the small
 * header the reducer's parts (input.c, target.c, verify.c, summary.c)
 * include, so that none of them calls into the driver (reduce.c) that
 * calls them. X-free.
 */
#pragma once

#include <glib.h>
#include "dd.h"
#include "replay-args.h"

G_BEGIN_DECLS

#define REDUCE_ERROR (reduce_error_quark ())
GQuark reduce_error_quark (void);
typedef enum
{
  REDUCE_ERROR_USAGE,        /* bad options or input: exit 2 */
  REDUCE_ERROR_INFRA,        /* Xvfb/xreplay broke: exit 3 */
  REDUCE_ERROR_VERIFY,       /* the full session does not fail, or the empty one does: exit 4 */
  REDUCE_ERROR_INTERRUPTED,  /* Ctrl-C: exit 130, best result kept */
} ReduceError;

/* The workers whose first X server has GLX, by default: the first two,
 * which the verification's replays start on (XREDUCE_GLX_FIRST), when the
 * session does not say whether the app asked for GLX (its `glx` line):
 * none when it did not, every server when it did. */
#define REDUCE_GLX_FIRST 2
/* options.glx_first's default: by the session, as above. */
#define REDUCE_GLX_BY_SESSION G_MAXUINT

typedef struct
{
  const char *session_path;
  const char *output_path;   /* NULL: SESSION.min */
  char **app_argv;           /* NULL or empty: the session's recorded command, if
                              * session_command_check() allows it or... */
  gboolean run_recorded_command; /* ... this is set (--run-recorded-command) */
  guint jobs;                /* 0: number of cores */
  guint glx_first;           /* workers whose first X server has GLX (XREDUCE_GLX_FIRST),
                              * or REDUCE_GLX_BY_SESSION */
  DdAlgorithm algorithm;
  int signal;                /* 0: from the session */
  const char *stderr_match;
  gboolean same_crash;
  guint same_crash_frames;   /* frames compared, default 3 */
  char **test_argv;          /* --test CMD */
  gboolean quiet;
  gboolean json;             /* the result on stdout as one JSON object (summary_json) */
  double limit_time;         /* seconds, 0 = none */
  guint test_timeout_ms;     /* --test-timeout, 0 = derived (runner_test_timeout) */
  guint64 limit_tests;
  gboolean no_inference;     /* replay every removal of a typed part (dd.h) */
  guint verify_runs;         /* full-session replays before reducing */
  ReplaySettings replay;     /* what every replay gets (replay-args.h): the limits, the
                              * sandbox; a wait or pace not given (*_given) is learnt
                              * or picked */
  ReplayArgs *replay_args;   /* ... as parsed (borrowed, or NULL): the session's replay
                              * line fills what it does not give, and the result's
                              * carries them (reduce.c) */
  char **xreplay_args;       /* ... as xreplay's words, passed to every replay */
  const char *xreplay;       /* path of xreplay; NULL: find it */
  gboolean report;           /* write OUT.report/ (report.md and pictures); default TRUE */
  char **launcher_argv;      /* --launcher CMD's words, or NULL (runner.h); then jobs
                              * counts its slots (0: SLURM_NTASKS, else 1) */
} ReduceOptions;

void reduce_options_init (ReduceOptions *options);

G_END_DECLS
