/* servers.h — the X servers xrecord starts itself: a nested Xephyr window
 * on the user's desktop, or a private headless Xvfb.
 *
 * Each runs in its own process group (and dies with xrecord, even when
 * xrecord is SIGKILLed: PR_SET_PDEATHSIG) and tells its display number on
 * a -displayfd pipe: no fixed numbers, no sleeps.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SERVER_ERROR (server_error_quark ())
GQuark server_error_quark (void);

typedef enum
{
  SERVER_ERROR_NOT_INSTALLED,
  SERVER_ERROR_FAILED,
} ServerError;

typedef enum
{
  SERVER_XEPHYR,
  SERVER_XVFB,
} ServerKind;

typedef struct RecordServer RecordServer;

/* @title: the Xephyr window's title (NULL: Xephyr's). */
RecordServer *server_start (ServerKind kind, int width, int height,
                            const char *title, GError **error);
/* ":N" */
const char *server_get_display (RecordServer *server);
GPid server_get_pid (RecordServer *server);
/* Terminates the server's process group and reaps it. */
void server_stop (RecordServer *server);
void server_free (RecordServer *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecordServer, server_free)

/* For the children xrecord spawns: a process group of its own, and death
 * with xrecord. */
void server_child_setup (gpointer user_data);

G_END_DECLS
