/* sandbox.h — a room of its own for each run of the app.
 *
 * Replays that share the user's HOME, profile and D-Bus session bus get
 * in each other's way: a second Firefox finds the first one's profile
 * lock, a single-instance GTK app hands its activation to the instance of
 * another replay over D-Bus and exits, a crash leaves "restore session"
 * state that changes the next start. A Sandbox is a fresh temporary HOME
 * (XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME inside
 * it), a private XDG_RUNTIME_DIR (0700) and TMPDIR beside it, and a private
 * `dbus-daemon --session` whose address is DBUS_SESSION_BUS_ADDRESS; the
 * accessibility bus stays off (NO_AT_BRIDGE=1). Optionally HOME starts as
 * a copy of a directory (a profile the bug needs), copy-on-write where the
 * filesystem can (cp --reflink=auto).
 *
 * Everything goes when the sandbox is freed, and also when its owner is
 * SIGKILLed: the bus dies with its owner, and the directory is a
 * ProcTempDir, whose cleaner removes it when its owner ends (proc.h).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SANDBOX_ERROR (sandbox_error_quark ())
GQuark sandbox_error_quark (void);

typedef enum
{
  SANDBOX_ERROR_BAD_HOME,    /* the --home directory is missing, not a directory, unreadable
                              * or cannot be copied: the user's input */
  SANDBOX_ERROR_NO_DBUS,     /* dbus-daemon is not installed */
  SANDBOX_ERROR_FAILED,      /* anything else (a full /tmp, the bus did not start) */
} SandboxError;

typedef struct
{
  const char *home_seed;     /* HOME starts as a copy of this directory, or NULL: empty */
  gboolean accessibility;    /* let toolkits reach an AT-SPI bus (off by default) */
} SandboxOptions;

typedef struct Sandbox Sandbox;

/* Makes the directories, copies the seed, starts the bus. */
Sandbox *sandbox_new (const SandboxOptions *options, GError **error);
/* Sets the sandbox's variables in @envp (g_environ_setenv semantics:
 * takes @envp, returns the new array). */
char **sandbox_apply (const Sandbox *sandbox, char **envp);
const char *sandbox_get_home (const Sandbox *sandbox);
/* Stops the bus and removes everything (whatever the app left in it). */
void sandbox_free (Sandbox *sandbox);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sandbox, sandbox_free)

/* Checks, without copying anything, that @dir can seed a HOME: exists,
 * is a directory, can be read. SANDBOX_ERROR_BAD_HOME otherwise. */
gboolean sandbox_check_home_seed (const char *dir, GError **error);

G_END_DECLS
