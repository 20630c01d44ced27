/* crashgroups.h — xreduce --summarize: the results of many reductions
 * (one `xreduce --json` file per session: a Slurm job array's, see
 * scripts/xreduce-array.sh) grouped by crash, so that a triager sees 3
 * distinct crashes in 200 sessions.
 *
 * A crash is the failure reduced for ("crashed with SIGSEGV") and the top
 * frames the reduction kept it by (`crash.frames`, with --same-crash):
 * results with both equal are one group. Results without a minimal
 * session (nothing to reduce, an infrastructure error, interrupted) are
 * listed apart. Everything read is a stranger's text (window titles in
 * the steps, frames): the Markdown escapes it, the JSON is json-glib's.
 * X-free; unit-tested in tests/unit/test-summary.c.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct CrashGroups CrashGroups;

CrashGroups *crash_groups_new (void);
void crash_groups_free (CrashGroups *groups);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CrashGroups, crash_groups_free)

/* One result: the JSON text @data (xreduce --json's output) read from
 * @name. FALSE (G_IO_ERROR_INVALID_DATA) for what is no such result. */
gboolean crash_groups_add_json (CrashGroups *groups, const char *data, gsize len,
                                const char *name, GError **error);
/* The same from a file of at most 16 MiB, or every *.json in a folder
 * (sorted by name). */
gboolean crash_groups_add_path (CrashGroups *groups, const char *path, GError **error);

guint crash_groups_get_n_groups (const CrashGroups *groups);
guint crash_groups_get_n_results (const CrashGroups *groups);

/* One table, a group a row (the largest first), then each group's
 * sessions, then the results that were not reduced. */
char *crash_groups_to_markdown (const CrashGroups *groups);
/* {"results": N, "groups": [{"failure", "signal", "frames": [...],
 * "count", "sessions": [{"result", "session", "minimal_session",
 * "actions_before", "actions_after"}]}], "not_reduced": [{"result",
 * "session", "verdict", "error"}]} */
char *crash_groups_to_json (const CrashGroups *groups);

G_END_DECLS
