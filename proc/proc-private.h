/* proc-private.h — a child's state (child.c), shared with keeper.c, whose
 * proc_spawn() and proc_child_kill() put its group on the keeper's list
 * and take it off, and with proc.c (the pidfd of another's process). Not
 * a module's interface: proc.h is.
 */
#pragma once

#include "proc.h"

G_BEGIN_DECLS

typedef struct
{
  int fd;                    /* owned, -1 at EOF */
  guint source;
  GByteArray *buf;
  gsize keep;                /* 0: everything */
  gboolean echo;
} Capture;

struct ProcChild
{
  pid_t pid;                 /* also the process group id, unless our_group */
  gboolean own_group;
  int pidfd;                 /* owned, -1 once closed */
  guint pidfd_source;
  gboolean exited;
  gboolean kept;             /* its group is on the keeper's list */
  int wait_status;
  ProcExitFunc on_exit;
  gpointer user_data;
  Capture out, err;
};

/* The descriptors a child starts with: its stdin, stdout and stderr
 * (closed by proc_child_start()), and our ends of the pipes that capture
 * its output (-1: none). */
typedef struct
{
  int in, out, err;
  int out_read, err_read;
} ProcChildFds;

/* pidfd_open(2), or -1 with errno (ENOSYS without it). */
int proc_pidfd_open (pid_t pid);

/* child.c, proc_spawn()'s steps: a child not started yet (on_exit and
 * user_data taken from @options); before any fork, the program is there
 * (else PROC_ERROR_NOT_FOUND) and @fds are open; the fork and exec, with
 * @fds (closed, whatever happens), the child putting its group on the
 * keeper's list first when @keeper_fd >= 0, then its output read as it
 * comes; its exit watched in the main loop (FALSE: no pidfd, the child
 * is left to the caller to kill). */
ProcChild *proc_child_new (const ProcSpawnOptions *options);
gboolean proc_child_prepare (const ProcSpawnOptions *options, ProcChildFds *fds,
                             GError **error);
gboolean proc_child_start (ProcChild *child, const ProcSpawnOptions *options,
                           const ProcChildFds *fds, int keeper_fd, GError **error);
gboolean proc_child_watch_exit (ProcChild *child, const char *program, GError **error);

/* child.c, proc_child_kill()'s and proc_child_free()'s steps: the group
 * stopped as proc_child_kill() says (the keeper is not told); the
 * child's descriptors, sources and memory freed (it is not killed). */
void proc_child_stop (ProcChild *child, guint grace_ms);
void proc_child_destroy (ProcChild *child);

/* child.c: is @pid a child we started that has not been reaped yet
 * (orphans.c's test: any other child of ours is an orphan)? */
gboolean proc_child_is_ours (pid_t pid);

G_END_DECLS
