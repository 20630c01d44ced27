/* extwatch.h — whether the replay's clients ask the X server for GLX.
 *
 * xreduce's later workers run their X servers without GLX, whose start
 * (Mesa, LLVM) is most of an Xvfb's: an app that never asks for it cannot
 * tell. One that does ask can: its replay there says nothing of the app
 * (xreduce runs it again where GLX is). The watch is a RECORD context on
 * connections of its own, enabled before the app starts, over every
 * client that connects after it (XRecordFutureClients), for the core
 * requests QueryExtension and ListExtensions: a client that asks for
 * "GLX" (or "SGI-GLX", its other name), or lists the extensions, may act
 * on GLX being there or not.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct ExtWatch ExtWatch;

/* Starts watching @display's future clients; returns once the server
 * has enabled the context (a client that connects after this is seen).
 * NULL with @error if the server has no RECORD or does not answer. */
ExtWatch *extwatch_new (const char *display, GError **error);
/* Stops watching, and takes what the server recorded up to now (bounded
 * in time). Idempotent. */
void extwatch_finish (ExtWatch *watch);
/* Whether a client asked for GLX, or listed the extensions, so far. */
gboolean extwatch_glx_asked (const ExtWatch *watch);
void extwatch_free (ExtWatch *watch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExtWatch, extwatch_free)

G_END_DECLS
