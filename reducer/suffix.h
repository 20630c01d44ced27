/* suffix.h — the last gestures first (X-free, beside dd.h).
 *
 * What crashes an app is most often what the user did last. Before the
 * search proper, one batch tries the session's last 1, 2, 4, 8, ...
 * units (gestures), shortest first, in parallel; the shortest that still
 * fails is where the search starts, and the units before it are dropped.
 * A failure that needs an early action costs one batch of mostly short
 * replays, whose passes are then in the cache's spirit known.
 */
#pragma once

#include <glib.h>
#include "dd.h"

G_BEGIN_DECLS

typedef struct Suffixes Suffixes;

/* The candidates for @units (a GPtrArray of GArray of guint; empty units
 * are skipped): the union of the last 1, 2, 4, ... non-empty units while
 * fewer than all of them, each sorted. */
Suffixes *suffixes_new (GPtrArray *units);
void suffixes_free (Suffixes *suffixes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Suffixes, suffixes_free)

guint suffixes_get_n (const Suffixes *suffixes);
/* suffixes_get_n() candidates, shortest first; owned by @suffixes. */
const DdCandidate *suffixes_get_candidates (const Suffixes *suffixes);
/* Units in candidate @i. */
guint suffixes_get_n_units (const Suffixes *suffixes, guint i);

/* After the batch: the index of the shortest candidate whose outcome is
 * DD_FAIL, or -1; the units before it are emptied in @units. */
gint suffixes_apply (const Suffixes *suffixes, GPtrArray *units, const DdOutcome *outcomes);

G_END_DECLS
