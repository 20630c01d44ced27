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
 *
 * The app itself runs isolated (sandbox_command()): under bubblewrap, with
 * a read-only view of the system, the user's home, /tmp and /run/user
 * hidden (only the sandbox's folder and the replay's X socket are bound
 * in), no network, its own PID namespace (its whole tree, daemons and
 * new sessions included, dies with the replay) and an environment made
 * from an allowlist (sandbox_environ()). Of the caller's files it sees
 * only those named on its command line, each file alone, never the
 * folder it is in (sandbox-view.c: sandbox_bind_named(), the one rule), and
 * no socket through them. Where bubblewrap cannot make
 * one (no user namespaces), SANDBOX_ISOLATE_AUTO goes on without it.
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
  SANDBOX_ERROR_NO_ISOLATION, /* SANDBOX_ISOLATE_REQUIRE, and bubblewrap cannot isolate here */
} SandboxError;

typedef enum
{
  SANDBOX_ISOLATE_AUTO,      /* bubblewrap where it works, else without (the caller says so) */
  SANDBOX_ISOLATE_REQUIRE,   /* bubblewrap, or SANDBOX_ERROR_NO_ISOLATION */
  SANDBOX_ISOLATE_OFF,       /* the app sees the system as we do (--no-isolate) */
} SandboxIsolate;

typedef struct
{
  const char *home_seed;     /* HOME starts as a copy of this directory, or NULL: empty */
  gboolean accessibility;    /* let toolkits reach an AT-SPI bus (off by default) */
  SandboxIsolate isolate;
  gboolean share_net;        /* isolated, but with the network (--share-net) */
  /* NULL, or NAME=VALUE the recording's app had (session-world.h), set
   * after the allowlist; then the locale (LANG, LANGUAGE, LC_*) is the
   * recording's, not ours. */
  const char *const *app_env;
  const char *const *keep_env; /* NULL, or names of our variables the app also gets */
  const char *const *set_env;  /* NULL, or NAME=VALUE the app gets (after everything else) */
} SandboxOptions;

typedef struct Sandbox Sandbox;

/* Makes the directories, copies the seed, starts the bus. */
Sandbox *sandbox_new (const SandboxOptions *options, GError **error);
/* Sets the sandbox's variables in @envp (g_environ_setenv semantics:
 * takes @envp, returns the new array). */
char **sandbox_apply (const Sandbox *sandbox, char **envp);

/* TRUE if bubblewrap can make a sandbox here (tried once, then
 * remembered); else FALSE with why. A process whose SANDBOX_CHECKED_ENV
 * names this host (set by its parent, which tried: xreduce for its
 * xreplays) does not try again: a try is a bwrap started, tens of
 * milliseconds of every replay. */
gboolean sandbox_can_isolate (GError **error);
#define SANDBOX_CHECKED_ENV "XREDUCE_BWRAP_CHECKED"
/* What to set SANDBOX_CHECKED_ENV to in a child's environment: this
 * host's name if bubblewrap was tried here and works, else NULL. */
const char *sandbox_checked_mark (void);
/* TRUE if the app runs under bubblewrap. */
gboolean sandbox_is_isolated (const Sandbox *sandbox);
/* The processes of ours in the app's process tree: bwrap and the PID
 * namespace's init when isolated (2), else 0. An app of one process
 * is a tree of 1 + this. */
guint sandbox_helper_processes (const Sandbox *sandbox);

/* The X authority the app gets (an Xauthority file's bytes: the cookie
 * of the replay's display), written into the sandbox. */
gboolean sandbox_set_xauthority (Sandbox *sandbox, const guint8 *data, gsize len,
                                 GError **error);
/* Holds on to @display's socket file (/tmp/.X11-unix/XN): a hard link in
 * the sandbox's folder, which the app gets in its place, so that the app
 * reaches the server even once something has removed the file (another
 * server's exit can). FALSE if the file is not there (the app could not
 * reach the server); TRUE, holding nothing, where a link cannot be made
 * (another file system: the file itself is bound then). */
gboolean sandbox_keep_display_socket (Sandbox *sandbox, const char *display, GError **error);

/* The app's whole environment, from nothing: PATH, the locale (LANG,
 * LANGUAGE, LC_*; the recording's when app_env is given), TERM; app_env;
 * the sandbox's HOME, XDG dirs, TMPDIR, bus and NO_AT_BRIDGE;
 * DISPLAY=@display and XAUTHORITY (once set); then the variables of
 * keep_env, then set_env. Nothing else of ours. */
char **sandbox_environ (const Sandbox *sandbox, const char *display);
/* @envp (taken, returned) with apps' own crash reporters turned off, as
 * xrecord and every replay run the app: Mozilla's (MOZ_CRASHREPORTER_DISABLE:
 * else breakpad catches the SIGSEGV, writes a minidump and the app exits
 * with a status of its own), KDE's DrKonqi (KDE_DEBUG). The crash is then
 * the signal that ends the app, the same in the recording and in every
 * replay, and the report's tracer sees it. A variable set already (the
 * user's, --keep-env, --setenv) is left as it is. */
char **sandbox_without_crash_reporters (char **envp);
/* The command line that runs @argv in the sandbox for @display (":N"):
 * bwrap's, or a copy of @argv when not isolated. A program that is not
 * there is PROC_ERROR_NOT_FOUND (said before bwrap runs, as proc_spawn
 * would). */
char **sandbox_command (const Sandbox *sandbox, const char *const *argv, const char *display,
                        GError **error);
/* What the last sandbox_command() did not show the app of the files
 * named on its command line, and why, in one line ("not shown to the
 * app: the folder /tmp holds /tmp"; a local display whose socket file is
 * not there; paths as they are: quote it for where it goes), or NULL. */
char *sandbox_take_notes (Sandbox *sandbox);
/* The app's wait status from the command's: bubblewrap exits 128+N for
 * an app killed by signal N, which this turns back into the signal. */
int sandbox_app_wait_status (const Sandbox *sandbox, int wait_status);
const char *sandbox_get_home (const Sandbox *sandbox);
/* The private session bus's dbus-daemon (the services it starts are its
 * children), or 0. */
pid_t sandbox_get_bus_pid (const Sandbox *sandbox);
/* Its TMPDIR: a folder both we and the isolated app see. */
const char *sandbox_get_tmpdir (const Sandbox *sandbox);
/* Stops the bus and removes everything (whatever the app left in it). */
void sandbox_free (Sandbox *sandbox);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sandbox, sandbox_free)

/* A file the recording's app read, @source's bytes, put where the app
 * finds it at @dest (absolute, in the app's view): under the sandbox's
 * HOME, a copy in place; elsewhere, isolated, a copy bound at @dest
 * (read-write: the app's writes go to the copy), only in a folder the
 * sandbox hides (/tmp, /home, /root, /run/user, our HOME), where the
 * app's view holds nothing else; never over the sandbox's own folder or
 * the X sockets. A file, never a folder, never a socket. FALSE with
 * SANDBOX_ERROR_FAILED and why when it is not placed. */
gboolean sandbox_add_file (Sandbox *sandbox, const char *dest, const char *source,
                           GError **error);
/* Where the app starts (its working folder), in its view. */
char *sandbox_get_app_cwd (const Sandbox *sandbox);

/* Checks, without copying anything, that @dir can seed a HOME: exists,
 * is a directory, can be read. SANDBOX_ERROR_BAD_HOME otherwise. */
gboolean sandbox_check_home_seed (const char *dir, GError **error);

G_END_DECLS
