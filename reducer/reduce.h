/* reduce.h — the reducer's driver: verify the session fails (verify.h),
 * pick the target failure (target.h), run the search (dd.h, suffix.h)
 * with replays (runner.h) as the oracle on a pool that fits the app
 * (pool.h), keep the best result on disk, report (summary.h). Its
 * options and error domain are in reduce-options.h, which the parts
 * include instead of this.
 *
 * To understand the reducer, start reading at reduce_run() in reduce.c.
 */
#pragma once

#include <glib.h>
#include "dd.h"
#include "reduce-options.h"

G_BEGIN_DECLS

typedef struct
{
  guint n_before, n_after;
  guint64 tests, cache_hits;
  double seconds;
  gboolean one_minimal;
  gboolean stopped_early;    /* a limit was hit */
  char *output_path;
  char *report_path;         /* OUT.report/report.md, or NULL: not written */
  gboolean saved;            /* OUT holds a result (also when interrupted) */
  int signal;                /* the signal that interrupted it (SIGINT, SIGTERM,
                              * SIGHUP, SIGUSR1), or 0 */
} ReduceSummary;

void reduce_summary_clear (ReduceSummary *summary);

/* Runs the whole reduction. On REDUCE_ERROR_INTERRUPTED or a limit, the
 * best session found so far is in the output file. With options->report,
 * a successful reduction also replays the result once with
 * `xreplay --report OUT.report` and appends the reduction's figures to
 * its report.md; a report that cannot be written is REDUCE_ERROR_INFRA
 * (exit 3), with the minimal session complete in the output file. */
gboolean reduce_run (const ReduceOptions *options, ReduceSummary *summary,
                     GError **error);

G_END_DECLS
