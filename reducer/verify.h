/* verify.h — does the full session fail, and the empty one not?
 *
 * The verification's replays (the empty session once, the full one
 * --verify-runs times) run as background tests on the runner, beside the
 * search. verification_poll() says, without waiting, whether the verdict
 * is in: PENDING while replays run (or more were queued because the
 * session fails only sometimes), DONE with the figures the search needs,
 * or an error that ends the reduction (the full session does not fail,
 * the empty one does, the app cannot start, Ctrl-C).
 */
#pragma once

#include <glib.h>
#include "runner.h"
#include "session.h"
#include "target.h"
#include "replay-args.h"

G_BEGIN_DECLS

typedef enum
{
  VERIFICATION_PENDING,
  VERIFICATION_DONE,
  VERIFICATION_FAILED,       /* with an error */
} VerificationState;

typedef struct Verification Verification;

/* Queues the replays at once (keep the verification until the runner is
 * freed: its replays share its copy of the full session). @target's reference frames are filled from
 * the first failing full replay (--same-crash). Borrowed: everything.
 * With @pick_pace, a full session that never fails at the app's pace is
 * replayed at the recorded pace too (its gaps as they were, not capped by
 * the default --max-gap), then with gaps twice as long; if it fails so,
 * the runner keeps that pace (verification_get_recorded_pace,
 * verification_get_pace). @settings: the replays' options (borrowed). */
Verification *verification_start (Runner *runner, const Session *session, Target *target,
                                  const ReplaySettings *settings, guint runs,
                                  gboolean pick_pace, gboolean quiet);
void verification_free (Verification *verification);
/* What the replays are given of the recording's world, for the message
 * when the full session does not fail (session_world_missing()): the
 * files folder (or NULL), the folder HOME starts as (or NULL) and
 * whether a window manager runs (--wm). Borrowed. */
void verification_set_world (Verification *verification, const char *files_dir,
                             const char *home_dir, gboolean wm_used);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Verification, verification_free)

VerificationState verification_poll (Verification *verification, GError **error);
/* Runs the main context until the verdict is in: TRUE once DONE. */
gboolean verification_wait (Verification *verification, GError **error);
/* Runs the main context until a replay of the full session has failed
 * (the search has something to reduce) or the verdict is in: TRUE then,
 * unless the verdict is FAILED. */
gboolean verification_wait_failure (Verification *verification, GError **error);
/* The same, or until @enough (called after each replay that ends) says
 * the caller need wait no longer: TRUE then too. */
gboolean verification_wait_failure_or (Verification *verification,
                                       gboolean (*enough) (gpointer data), gpointer data,
                                       GError **error);

/* Once DONE: */
guint verification_get_runs (const Verification *verification);
guint verification_get_fails (const Verification *verification);
/* Runs a pass needs to be trusted at 95% (1 unless flaky). */
guint verification_get_confirm (const Verification *verification);
/* Actions replayed when the crash came (all, if not a crash or at the end). */
guint verification_get_crash_point (const Verification *verification);
/* The session fails only at the recorded pace: the replays use it. */
gboolean verification_get_recorded_pace (const Verification *verification);
/* The pace's --max-gap and --speed the replays keep (with the recorded
 * pace). */
void verification_get_pace (const Verification *verification, guint *max_gap_ms,
                            double *speed);
/* Full replays in which the app started (so far). */
guint verification_get_n_started (const Verification *verification);

G_END_DECLS
