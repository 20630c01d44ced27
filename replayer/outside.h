/* outside.h — the other apps of a replay: the owner of the selections the
 * app pasted from, and the source of the drops it got.
 *
 * In the recording, another client owned CLIPBOARD (PRIMARY, ...) and
 * answered the app's paste; the session holds what it answered
 * (session-world.h). In the replay nobody would: Outside is that other
 * client, on a connection of its own. Before the gesture that pasted, it
 * owns the selection with the recorded data (outside_before_action()),
 * and answers the app's ConvertSelection from it: TARGETS (the recorded
 * list, or the targets it has), TIMESTAMP, each recorded target (INCR
 * for data larger than a request holds), a refusal for what the owner
 * refused or was not recorded. A SelectionClear (the app copied) ends
 * its ownership until the next paste needs it. A drop from another app is
 * replayed as that app made it (outside_drop()): Outside owns
 * XdndSelection with the drop's data and sends the app's window
 * XdndEnter, XdndPosition and, once the app answered XdndStatus,
 * XdndDrop; the app's request for the data is answered as a paste's.
 *
 * Events are read in the replay's main loop (xconn_watch); a drop waits
 * for the app's XdndStatus (at most OUTSIDE_WAIT_MS), answering requests
 * meanwhile. Start reading at outside_before_action().
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

#include "session.h"

G_BEGIN_DECLS

#define OUTSIDE_WAIT_MS 2000

typedef struct Outside Outside;

/* NULL (and no error) when @session has no paste and no drop: nothing
 * to do. Opens its connection to @display (while the replay's cookie is
 * set) and starts answering in the default main context. */
Outside *outside_new (const char *display, const Session *session, GError **error);
void outside_free (Outside *outside);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Outside, outside_free)

/* Owns the selections of the pastes that came before any action (the app
 * read them at its start): before the app starts. */
void outside_start (Outside *outside);
/* Owns the selections of the pastes whose gesture starts with action
 * @number (0-based): before it is injected. */
void outside_before_action (Outside *outside, guint number);
/* The drop @ev (action @number) at @root_x,@root_y, synchronously: FALSE
 * with *@what (newly allocated) when no window there takes drops or the
 * app refused it. */
gboolean outside_drop (Outside *outside, guint number, const SessionEvent *ev, int root_x,
                       int root_y, char **what);
/* Whether the app has yet to ask for a paste that came right before
 * action @number in the recording (fewer requests answered for it than
 * its recorded conversions): the action waits for it, as the user's came
 * once the app had the data. */
gboolean outside_paste_pending (Outside *outside, guint number);
/* The paste the app got data from last in this replay: the action it
 * came after in the recording (G_MAXUINT: before any), the recording's
 * time of its data, and when the app got it here (ms of
 * g_get_monotonic_time). FALSE when none yet. */
gboolean outside_last_paste (Outside *outside, guint *after_action, guint64 *recorded_ms,
                             gint64 *answered_ms);
/* Requests answered, and refused (a target not recorded). */
void outside_get_counts (Outside *outside, guint *n_answered, guint *n_refused);

G_END_DECLS
