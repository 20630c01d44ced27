/* child.h — the app under test (and the process plumbing Xvfb shares).
 *
 * A Child is a process spawned in its own process group (setpgid in the
 * child, so that killing the group also kills whatever the app started),
 * with DISPLAY set, stdout sent to /dev/null (or to our stderr when
 * verbose) and stderr captured through a pipe (the last 64 KiB are kept).
 * Its exit is watched with a pidfd in the main loop: the callback runs the
 * moment the app dies. child_kill() is synchronous and bounded: SIGTERM to
 * the group, SIGKILL after a grace period, reap.
 *
 * Every process spawned here also gets PR_SET_PDEATHSIG(SIGKILL): if the
 * replayer itself is SIGKILLed, its direct children die with it.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Bytes of the app's stderr that are kept (the last ones). */
#define CHILD_STDERR_KEEP (64 * 1024)

typedef struct Child Child;

/* Called once, from the main loop, when the app has exited and been
 * reaped; @wait_status is waitpid()'s. */
typedef void (*ChildExitFunc) (Child *child, int wait_status, gpointer user_data);

/* Spawns @argv (argv[0] looked up in PATH) with DISPLAY=@display. With
 * @verbose, the app's stdout goes to our stderr and its stderr is echoed
 * there as it arrives. A missing program is a G_SPAWN_ERROR. */
Child *child_spawn (const char *const *argv, const char *display, gboolean verbose,
                    ChildExitFunc on_exit, gpointer user_data, GError **error);
pid_t child_get_pid (const Child *child);
gboolean child_has_exited (const Child *child);
/* waitpid() status; only meaningful once child_has_exited(). */
int child_get_wait_status (const Child *child);

/* Reads what is left in the stderr pipe without blocking (call it after
 * the app died, before looking at its stderr). */
void child_drain_stderr (Child *child);
/* The captured stderr (the last CHILD_STDERR_KEEP bytes), not
 * NUL-terminated, owned by @child. */
const char *child_get_stderr (const Child *child, gsize *len);

/* Kills the app's process group: SIGTERM, then SIGKILL if the app has not
 * exited within @grace_ms, and reaps the app. The group is SIGKILLed in any
 * case, so that no grandchild survives. Does not run the exit callback. */
void child_kill (Child *child, guint grace_ms);
/* Kills (as child_kill with a short grace) if needed, then frees. */
void child_free (Child *child);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Child, child_free)

/* Process plumbing shared with xserver.c. */

/* A GSpawnChildSetupFunc: own process group, die with the parent. */
void child_setup_own_group (gpointer user_data);
/* A pidfd for @pid (Linux 5.3), or -1 with errno set. */
int child_pidfd_open (pid_t pid);
/* Waits up to @timeout_ms for @pid (our child, watched by @pidfd, or -1)
 * to exit, and reaps it. TRUE and *wait_status if it was reaped. */
gboolean child_reap_within (pid_t pid, int pidfd, guint timeout_ms, int *wait_status);

G_END_DECLS
