/* session-export.h — a session for someone without xreduce: a shell script
 * of xdotool commands that replays it, and the whole session as JSON.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "session-model.h"

G_BEGIN_DECLS

/* Exports. A standalone shell script that replays the user actions with
 * xdotool against the app already running on $DISPLAY, re-anchored to its
 * windows by class and title (@source_name is named in its comments). */
char *session_export_xdotool (const Session *session, const char *source_name);
/* The whole session as one JSON object, for other tools. */
char *session_export_json (const Session *session);
/* The same written to @file as they are made (never the whole export in
 * memory); FALSE if writing failed (errno says why). */
gboolean session_export_xdotool_to (const Session *session, const char *source_name,
                                    FILE *file);
gboolean session_export_json_to (const Session *session, FILE *file);

G_END_DECLS
