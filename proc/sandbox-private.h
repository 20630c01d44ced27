/* sandbox-private.h — a sandbox's state (sandbox.c: its folders, its bus,
 * the app's environment), shared with sandbox-view.c (what the isolated
 * app sees: bubblewrap's command line, the caller's files shown, the
 * recording's files placed). Not a module's interface: sandbox.h is.
 */
#pragma once

#include "proc.h"
#include "sandbox.h"

G_BEGIN_DECLS

struct Sandbox
{
  ProcTempDir *dir;          /* everything below, removed with it */
  const char *root;          /* dir's */
  char *home, *runtime, *tmp;
  char *bus_address;
  ProcChild *bus;            /* dbus-daemon, or NULL */
  gboolean accessibility;
  gboolean isolated;         /* the app runs under bwrap */
  gboolean share_net;
  char *xauthority;          /* the app's Xauthority file, or NULL */
  char *x_socket, *x_socket_link; /* a display's socket file and its hard link, or NULL */
  char **app_env, **keep_env, **set_env;
  GPtrArray *notes;          /* of char*: what sandbox_command() did not show the app */
  GPtrArray *binds;          /* the recording's files bound in: copy, place, copy, place... */
  guint n_files;
};

/* sandbox.c: bubblewrap's namespaces and lifetime, the same for the check
 * (sandbox_can_isolate()) and the app (sandbox_command()). */
void sandbox_add_unshare (GStrvBuilder *argv);

G_END_DECLS
