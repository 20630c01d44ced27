/* pastes.h — what the app got from other clients' selections, and drops
 * from other apps, while it was recorded.
 *
 * The app pastes: it asks the owner of CLIPBOARD (PRIMARY, SECONDARY) for
 * a conversion (ConvertSelection, a request the RECORD context hands
 * over), and the owner, another client, answers it. xrecord is a client
 * too: when the app asks for a selection that another client owns, it
 * asks the owner for the same conversion on a connection of its own, at
 * once, and writes what it got as Selection lines (session-world.h),
 * right where the request came among the actions. A drop from another app
 * is the XDND messages that app sends the app's window (XdndEnter,
 * XdndPosition, XdndDrop, delivered to the app and recorded): at the
 * drop, a Drop action (where, on which window, the types offered); the
 * data the app then asks of XdndSelection is fetched like a paste's.
 *
 * The fetch waits for the owner (at most REC_PASTES_WAIT_MS for each of
 * its answers, INCR transfers included) with the main loop held: what the
 * RECORD context delivers meanwhile waits, in order. Data beyond
 * SESSION_MAX_SELECTION_BYTES, and all data with --no-selections, is
 * not written (omitted=1). Start reading at rec_pastes_request().
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>

#include "session.h"
#include "toplevels.h"

G_BEGIN_DECLS

#define REC_PASTES_WAIT_MS 2000

typedef struct RecPastes RecPastes;

/* A line to write: Selection lines and Drop actions (the strings are the
 * RecPastes's until it returns). */
typedef void (*RecPastesFunc) (const SessionEvent *ev, gpointer user_data);

/* Opens its own connection to @display. @tops: whose clients are the
 * app's, and the app's windows (not owned). @with_data: FALSE for
 * --no-selections. */
RecPastes *rec_pastes_new (const char *display, Toplevels *tops, gboolean with_data,
                           RecPastesFunc func, gpointer user_data, GError **error);
void rec_pastes_free (RecPastes *pastes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecPastes, rec_pastes_free)

/* Its connection: its resource base (never the app's), its descriptor
 * (for the guard). */
XID rec_pastes_get_base (RecPastes *pastes);
int rec_pastes_get_fd (RecPastes *pastes);

/* A request of the app's client (@data, @len bytes, in the server's byte
 * order): a ConvertSelection is acted on, anything else ignored. */
void rec_pastes_request (RecPastes *pastes, const guint8 *data, gsize len, guint64 time_ms);
/* A ClientMessage delivered to the app: the XDND ones are followed. */
void rec_pastes_client_message (RecPastes *pastes, const xEvent *ev, guint64 time_ms);
/* A user action was written: what the app asks from now on is another
 * paste's. */
void rec_pastes_action (RecPastes *pastes);

/* xrecord --all: the requests and messages given from now on are those
 * of the app of process @app_pid, whose own selections and drags are not
 * another's (0: one app's recording, toplevels_is_app_client()). */
void rec_pastes_set_app (RecPastes *pastes, pid_t app_pid);

/* Conversions fetched, and omitted (--no-selections, too large, or the
 * owner did not answer in time). */
void rec_pastes_get_counts (RecPastes *pastes, guint *n_fetched, guint *n_omitted,
                            guint *n_drops);

G_END_DECLS
