/* orphans.c — the processes that come to us when their parent ends (see
 * proc.h): we are their subreaper, and they end when we do.
 *
 * Killing the app's process group ends what stayed in it. What left it
 * does not die with it: xterm's shell is in a session of its own and ends
 * on its terminal's hangup, unless it is a subshell of the shell's rc
 * file still reading a pipe, or a program the app ran with setsid. Such a
 * process, once its parent is gone, is reparented to the nearest
 * subreaper: us, after proc_adopt_orphans(). An orphan is then a process
 * whose parent we are and which we did not start (child.c's list), nor
 * the keeper; a zombie among them is reaped.
 *
 * Start reading at proc_end_orphans().
 */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proc.h"
#include "proc-private.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

/* SIGTERM, then SIGKILL this much later. */
#define ORPHANS_GRACE_MS 500
#define ORPHANS_KILL_WAIT_MS 2000
/* The most pidfds a wait watches at once (the others are seen on the next
 * round). */
#define ORPHANS_POLL_MAX 64


/* PF_EXITING, /proc/PID/stat's flags: in its exit already. */
#define ORPHANS_PF_EXITING 0x4

/* The orphans that still run, in @pids; a zombie among them is reaped.
 * Those in their exit already (the sandbox's pid 1, which ends just after
 * the bwrap that waited for it) go in @exiting too. */
static void
orphans_list (GArray *pids, GHashTable *exiting)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc", 0, NULL);
  pid_t self = getpid (), keeper = proc_keeper_get_pid ();
  const char *name;

  g_array_set_size (pids, 0);
  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL, *stat = NULL;
      pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);
      const char *p;
      char state;
      int ppid;
      unsigned int flags = 0;

      if (pid <= 0 || pid == self || pid == keeper)
        continue;
      path = g_strdup_printf ("/proc/%d/stat", (int) pid);
      /* (The name in parentheses is the program's: it may hold anything,
       * a ')' too; the fields after the last one are the kernel's.) */
      if (!g_file_get_contents (path, &stat, NULL, NULL)
          || (p = strrchr (stat, ')')) == NULL
          || sscanf (p + 1, " %c %d %*d %*d %*d %*d %u", &state, &ppid, &flags) < 2
          || ppid != self || proc_child_is_ours (pid))
        continue;
      if (state == 'Z')
        {
          waitpid (pid, NULL, WNOHANG);
          continue;
        }
      if (flags & ORPHANS_PF_EXITING)
        g_hash_table_add (exiting, GINT_TO_POINTER (pid));
      g_array_append_val (pids, pid);
    }
}

/* Waits up to @timeout_ms for one of @pids to end (its pidfd), or for a
 * signal. */
static void
orphans_wait (GArray *pids, int timeout_ms)
{
  struct pollfd fds[ORPHANS_POLL_MAX];
  nfds_t n = 0;

  for (guint i = 0; i < pids->len && n < ORPHANS_POLL_MAX; i++)
    {
      int fd = proc_pidfd_open (g_array_index (pids, pid_t, i));

      if (fd >= 0)
        fds[n++] = (struct pollfd) { .fd = fd, .events = POLLIN };
    }
  if (n > 0)
    poll (fds, n, timeout_ms);
  else
    g_usleep (10000);   /* (no pidfd: gone meanwhile, or no pidfd_open) */
  for (nfds_t i = 0; i < n; i++)
    close (fds[i].fd);
}

guint
proc_end_orphans (guint grace_ms)
{
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) exiting = g_hash_table_new (NULL, NULL);
  guint ended = 0;
  gint64 start = g_get_monotonic_time ();
  gint64 kill_at = start + (gint64) grace_ms * 1000;
  gint64 give_up = kill_at + (gint64) ORPHANS_KILL_WAIT_MS * 1000;

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      g_hash_table_remove_all (exiting);
      orphans_list (pids, exiting);
      if (pids->len == 0)
        break;
      if (now >= give_up)
        {
          g_warning ("%u process(es) left by the app did not die of SIGKILL", pids->len);
          break;
        }
      for (guint i = 0; i < pids->len; i++)
        {
          pid_t pid = g_array_index (pids, pid_t, i);
          gboolean first = g_hash_table_add (seen, GINT_TO_POINTER (pid));

          /* (One in its exit when first seen was not ended by us.) */
          if (first && !g_hash_table_contains (exiting, GINT_TO_POINTER (pid)))
            ended++;

          if (now >= kill_at)
            kill (pid, SIGKILL);
          else if (first)
            {
              g_debug ("ending process %d, which the app left running", (int) pid);
              kill (pid, SIGHUP);
              kill (pid, SIGTERM);
              kill (pid, SIGCONT);
            }
        }
      orphans_wait (pids, (int) (((now < kill_at ? kill_at : give_up) - now) / 1000) + 1);
    }
  return ended;
}

static const char *orphans_program;

static void
orphans_at_exit (void)
{
  guint ended = proc_end_orphans (ORPHANS_GRACE_MS);

  if (ended > 0 && orphans_program != NULL)
    g_printerr ("%s: ended %u process%s the app had started and left running outside its "
                "process group\n", orphans_program, ended, ended == 1 ? "" : "es");
}

gboolean
proc_adopt_orphans (const char *program)
{
  if (prctl (PR_SET_CHILD_SUBREAPER, 1) != 0)
    {
      g_debug ("cannot be a subreaper: %s", g_strerror (errno));
      return FALSE;
    }
  orphans_program = program;
  atexit (orphans_at_exit);
  return TRUE;
}
