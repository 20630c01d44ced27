/* keeper.c — the keeper of our children's groups, and the spawn and the
 * kill that put a group on its list and take it off (see proc.h).
 *
 * Start reading at proc_spawn(): the child's descriptors, then, with the
 * keeper's lock held, the keeper started if it is not yet, and the child
 * started (child.c), which puts its own group on the keeper's list before
 * it runs anything; proc_child_kill() takes it off once the group is
 * killed. The keeper is itself a child of ours (one that outlives us),
 * which is why it lives beside proc_spawn().
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proc.h"
#include "proc-private.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

/* ---- the keeper ---- */

/* PR_SET_PDEATHSIG reaches a child, not what the child started: a --test
 * oracle's script and its own children, a launcher's app, would outlive a
 * SIGKILLed owner. The keeper is a small process, started with the first
 * child, that outlives us in a group of its own and reads on a socket
 * whose only other end is ours: "+PGID" when a child's group starts,
 * "-PGID" once we have killed it. At EOF (we are gone, however we went)
 * it sends SIGTERM, then SIGKILL, to every group still on its list. The
 * groups are digits we wrote, never part of the script. */
static const char keeper_script[] =
  "trap '' HUP INT TERM QUIT PIPE\n"
  "g=' '\n"
  "while read -r op n; do\n"
  "  case $op in\n"
  "    +) g=\"$g$n \" ;;\n"
  "    -) case $g in *\" $n \"*) g=\"${g%% $n *} ${g#* $n }\" ;; esac ;;\n"
  "  esac\n"
  "done\n"
  "[ \"$g\" = ' ' ] && exit 0\n"
  "for n in $g; do kill -s TERM -- \"-$n\" 2>/dev/null; done\n"
  "sleep 0.3\n"
  "for n in $g; do kill -s KILL -- \"-$n\" 2>/dev/null; done\n"
  "exit 0\n";

G_LOCK_DEFINE_STATIC (keeper);
static ProcChild *keeper;    /* the keeper process, or NULL */
static int keeper_fd = -1;   /* our end of its socket */
static gboolean keeper_failed;

/* At our normal end: the keeper's list is empty (every child was
 * stopped), it sees EOF and exits; wait for it, so that nothing of ours
 * is left running when we return. */
static void
keeper_at_exit (void)
{
  G_LOCK (keeper);
  if (keeper_fd >= 0)
    close (keeper_fd);
  keeper_fd = -1;
  if (keeper != NULL)
    proc_child_wait (keeper, 2000);
  G_UNLOCK (keeper);
}

/* Called with the lock held. */
static gboolean
keeper_start (void)
{
  const char *argv[] = { "sh", "-c", keeper_script, "xreduce-keeper", NULL };
  g_autoptr (GError) error = NULL;
  ProcSpawnOptions spawn;
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      g_warning ("cannot start the keeper of child groups: %s", g_strerror (errno));
      return FALSE;
    }
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.stdin_fd = fds[0];
  spawn.err = PROC_OUTPUT_INHERIT;
  spawn.outlive = TRUE;
  keeper = proc_spawn (&spawn, &error);
  close (fds[0]);
  if (keeper == NULL)
    {
      close (fds[1]);
      g_warning ("cannot start the keeper of child groups: %s", error->message);
      return FALSE;
    }
  keeper_fd = fds[1];
  atexit (keeper_at_exit);
  return TRUE;
}

/* '-' @pgid: off the keeper's list (a child registers itself, '+', in
 * child_setup). */
static void
keeper_forget (pid_t pgid)
{
  char line[32];
  int len = g_snprintf (line, sizeof line, "- %d\n", (int) pgid);

  G_LOCK (keeper);
  /* Never SIGPIPE: a keeper that died only loses us its service. */
  if (keeper_fd >= 0 && send (keeper_fd, line, (size_t) len, MSG_NOSIGNAL) != len)
    {
      close (keeper_fd);
      keeper_fd = -1;
    }
  G_UNLOCK (keeper);
}

pid_t
proc_keeper_get_pid (void)
{
  pid_t pid;

  G_LOCK (keeper);
  pid = keeper != NULL ? proc_child_get_pid (keeper) : 0;
  G_UNLOCK (keeper);
  return pid;
}

/* ---- spawning and killing ---- */

ProcChild *
proc_spawn (const ProcSpawnOptions *options, GError **error)
{
  g_autoptr (ProcChild) child = proc_child_new (options);
  ProcChildFds fds;
  int group_fd = -1;
  gboolean kept;
  gboolean ok;

  if (!proc_child_prepare (options, &fds, error))
    return NULL;
  /* A group of our children goes on the keeper's list from the child
   * (child_setup), with the lock held until the spawn returns: no
   * keeper_forget() of a pid that is not yet on it. */
  kept = !options->our_group && !options->outlive && !options->no_keeper;
  if (kept)
    {
      G_LOCK (keeper);
      if (keeper == NULL && !keeper_failed)
        keeper_failed = !keeper_start ();
      group_fd = keeper_fd;
    }
  ok = proc_child_start (child, options, &fds, group_fd, error);
  if (kept)
    G_UNLOCK (keeper);
  if (!ok)
    return NULL;
  child->kept = kept && group_fd >= 0;
  if (!proc_child_watch_exit (child, options->argv[0], error))
    {
      proc_child_kill (child, 0);
      return NULL;
    }
  return g_steal_pointer (&child);
}

void
proc_child_kill (ProcChild *child, guint grace_ms)
{
  if (child->pid <= 0)
    return;
  proc_child_stop (child, grace_ms);
  if (child->kept)
    {
      keeper_forget (child->pid);
      child->kept = FALSE;
    }
}

void
proc_child_free (ProcChild *child)
{
  if (child == NULL)
    return;
  proc_child_kill (child, 200);
  proc_child_destroy (child);
}
