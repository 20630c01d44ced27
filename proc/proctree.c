/* proctree.c — see proctree.h. */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proctree.h"
#include "procfs-private.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct
{
  pid_t pid, ppid, pgrp;
  guint64 ticks;             /* utime + stime + cutime + cstime */
  guint64 rss_pages;         /* resident set size */
  gboolean active;           /* state R (running or runnable) or D (disk) */
} ProcStat;

/* The pids of a /proc/PID/task/TID/children list ("12 34 "), appended
 * to @pids (of pid_t). */
static void
append_pids (GArray *pids, const char *list)
{
  const char *at = list;
  char *end;

  for (;; at = end)
    {
      gint64 child = g_ascii_strtoll (at, &end, 10);

      if (end == at)
        break;
      if (child > 0)
        {
          pid_t pid = (pid_t) child;
          g_array_append_val (pids, pid);
        }
    }
}

/* Reads /proc/@pid/stat: the parent and the CPU ticks. FALSE if the
 * process is gone or the line is not understood. */
static gboolean
read_stat (pid_t pid, ProcStat *stat)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  const char *after;

  if (!proc_read (path, &text))
    return FALSE;
  /* "pid (comm) state ppid ...": comm may hold spaces and parentheses. */
  after = strrchr (text, ')');
  if (after == NULL)
    return FALSE;
  fields = g_strsplit (after + 2, " ", 24);
  /* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
   * utime stime cutime cstime priority nice num_threads itrealvalue
   * starttime vsize rss */
  if (g_strv_length (fields) < 23)
    return FALSE;
  stat->pid = pid;
  stat->active = fields[0][0] == 'R' || fields[0][0] == 'D';
  stat->ppid = (pid_t) g_ascii_strtoll (fields[1], NULL, 10);
  stat->pgrp = (pid_t) g_ascii_strtoll (fields[2], NULL, 10);
  stat->ticks = 0;
  for (int i = 11; i <= 14; i++)
    stat->ticks += g_ascii_strtoull (fields[i], NULL, 10);
  stat->rss_pages = g_ascii_strtoull (fields[21], NULL, 10);
  return TRUE;
}

/* Every process of /proc, and which of them are @root's tree (@tree, a
 * set of pids); FALSE if /proc cannot be read. */
static gboolean
read_tree (pid_t root, GArray *procs, GHashTable *tree)
{
  g_autoptr (ProcDir) dir = procdir_open ("/proc");
  const char *name;
  gboolean grew = TRUE;

  if (dir == NULL || root <= 0)
    return FALSE;
  while ((name = procdir_next (dir)) != NULL)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (name, &end, 10);
      ProcStat stat;

      if (end == name || *end != '\0' || pid <= 0)
        continue;
      if (read_stat ((pid_t) pid, &stat))
        g_array_append_val (procs, stat);
    }
  /* The tree: @root, then whoever's parent is in it, until nothing joins
   * (parents are not always listed before their children). */
  g_hash_table_add (tree, GINT_TO_POINTER ((int) root));
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < procs->len; i++)
        {
          const ProcStat *p = &g_array_index (procs, ProcStat, i);
          if (!g_hash_table_contains (tree, GINT_TO_POINTER ((int) p->pid))
              && g_hash_table_contains (tree, GINT_TO_POINTER ((int) p->ppid)))
            {
              g_hash_table_add (tree, GINT_TO_POINTER ((int) p->pid));
              grew = TRUE;
            }
        }
    }
  return TRUE;
}

/* Appends to @pids the children of every thread of @pid, from
 * /proc/@pid/task/TID/children. FALSE if the kernel lists no children
 * (CONFIG_PROC_CHILDREN); TRUE with nothing added for a process gone. */
static gboolean
append_children (pid_t pid, GArray *pids)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (ProcDir) dir = procdir_open (task);
  const char *tid;

  if (dir == NULL)
    return TRUE;   /* gone meanwhile */
  while ((tid = procdir_next (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/children", task, tid);
      g_autofree char *list = NULL;
      
      if (!proc_read (path, &list))
        {
          g_autofree char *stat = g_strdup_printf ("%s/%s/stat", task, tid);

          if (g_file_test (stat, G_FILE_TEST_EXISTS))
            return FALSE;
          continue;   /* the thread ended meanwhile */
        }
      append_pids (pids, list);
    }
  return TRUE;
}

/* The stat of @root and of each of its descendants, found through the
 * threads' lists of children: a few files for an app's tree, where
 * reading all of /proc costs a file for every process of the machine
 * (on a desktop, hundreds; the replayer samples after every action).
 * FALSE if the kernel lists no children. */
static gboolean
read_tree_by_children (pid_t root, GArray *procs)
{
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));

  g_array_append_val (pids, root);
  /* A bound on the walk: a pid reused into a loop while we read cannot
   * keep us here. */
  for (guint i = 0; i < pids->len && i < 4096; i++)
    {
      pid_t pid = g_array_index (pids, pid_t, i);
      ProcStat stat;

      if (!read_stat (pid, &stat))
        continue;   /* gone meanwhile, and with it its children's link to us */
      if (!append_children (pid, pids))
        return FALSE;
      g_array_append_val (procs, stat);
    }
  return TRUE;
}

void
proctree_sample (pid_t root, ProcTreeSample *sample)
{
  g_autoptr (GArray) procs = g_array_new (FALSE, FALSE, sizeof (ProcStat));
  g_autoptr (GHashTable) tree = NULL;
  guint64 page_kb = (guint64) MAX (sysconf (_SC_PAGESIZE), 1024) / 1024;

  memset (sample, 0, sizeof *sample);
  if (root <= 0)
    return;
  if (!read_tree_by_children (root, procs))
    {
      /* Without lists of children: every process of /proc, and the tree
       * by their parents. */
      g_array_set_size (procs, 0);
      tree = g_hash_table_new (NULL, NULL);
      if (!read_tree (root, procs, tree))
        return;
    }
  for (guint i = 0; i < procs->len; i++)
    {
      const ProcStat *p = &g_array_index (procs, ProcStat, i);
      if (tree != NULL && !g_hash_table_contains (tree, GINT_TO_POINTER ((int) p->pid)))
        continue;
      sample->ticks += p->ticks;
      sample->n_active += p->active ? 1 : 0;
      sample->n_procs++;
      sample->pid_sum += (guint64) p->pid;
      sample->rss_kb += p->rss_pages * page_kb;
    }
}

gboolean
proctree_is_in (pid_t root, pid_t pid)
{
  ProcStat stat;

  if (root <= 0 || pid <= 0)
    return FALSE;
  if (pid == root)
    return TRUE;
  if (!read_stat (pid, &stat))
    return FALSE;
  if (stat.pgrp == root)
    return TRUE;
  /* Up the parents; a loop in a racing /proc ends at the depth bound. */
  for (int depth = 0; depth < 64 && stat.ppid > 1; depth++)
    {
      if (stat.ppid == root)
        return TRUE;
      if (!read_stat (stat.ppid, &stat))
        return FALSE;
    }
  return FALSE;
}

/* The state letter of /proc/@path ("PID (comm) S ..."), or 0 if gone. */
static char
read_state (const char *path)
{
  g_autofree char *text = NULL;
  const char *after;

  if (!proc_read (path, &text))
    return 0;
  after = strrchr (text, ')');
  return after != NULL && after[1] == ' ' ? after[2] : 0;
}

/* Is the main thread of @pid asleep on a timer? Its system call, from
 * /proc/PID/syscall ("35 0x..." while in nanosleep; FALSE when it cannot
 * be read, or the thread runs). */
static gboolean
asleep_on_timer (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/syscall", (int) pid);
  g_autofree char *text = NULL;
  gint64 nr;
  char *end = NULL;

  if (!proc_read (path, &text))
    return FALSE;
  nr = g_ascii_strtoll (text, &end, 10);
  if (end == text)
    return FALSE;
#ifdef SYS_nanosleep
  if (nr == SYS_nanosleep)
    return TRUE;
#endif
#ifdef SYS_clock_nanosleep
  if (nr == SYS_clock_nanosleep)
    return TRUE;
#endif
  return FALSE;
}

/* @n bytes of @pid's memory at @address (a timeout's struct), through
 * /proc/PID/mem: FALSE if it cannot be read (another user's process). */
static gboolean
read_memory (pid_t pid, guint64 address, void *buf, gsize n)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/mem", (int) pid);
  int fd;
  gboolean ok;

  if (address == 0)
    return FALSE;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  ok = pread (fd, buf, n, (off_t) address) == (ssize_t) n;
  close (fd);
  return ok;
}

/* A timeout in ms from a struct timespec (@nano) or timeval at @address
 * of @pid; -1 for none (a NULL pointer: forever) or unreadable. */
static gint64
read_timeout (pid_t pid, guint64 address, gboolean nano)
{
  gint64 parts[2];

  if (address == 0 || !read_memory (pid, address, parts, sizeof parts) || parts[0] < 0
      || parts[1] < 0)
    return -1;
  return parts[0] * 1000 + (nano ? parts[1] / 1000000 : parts[1] / 1000);
}

/* The calls that wait with a timeout, the argument that holds it, and
 * how: milliseconds (negative: forever), or the address of a struct
 * timespec or timeval (NULL: forever). */
typedef enum
{
  TIMEOUT_MS,
  TIMEOUT_TIMESPEC,
  TIMEOUT_TIMEVAL,
} TimeoutForm;

static const struct
{
  long nr;
  guint arg;
  TimeoutForm form;
} timed_calls[] = {
  { SYS_epoll_pwait, 3, TIMEOUT_MS },
  /* Each architecture has both or neither (a 32-bit one born with y2038's
   * time64 calls, riscv32, neither). */
#if defined SYS_ppoll && defined SYS_pselect6
  { SYS_ppoll, 2, TIMEOUT_TIMESPEC },
  { SYS_pselect6, 4, TIMEOUT_TIMESPEC },
#endif
  /* The older calls, which the generic system call table (arm64, riscv)
   * has not. */
#ifdef SYS_poll
  { SYS_poll, 2, TIMEOUT_MS },
#endif
#ifdef SYS_epoll_wait
  { SYS_epoll_wait, 3, TIMEOUT_MS },
#endif
#ifdef SYS_select
  { SYS_select, 4, TIMEOUT_TIMEVAL },
#endif
};

gint64
proctree_syscall_timeout (pid_t pid, const char *syscall_line)
{
  guint64 args[7] = { 0 };
  const char *p = syscall_line;
  char *end = NULL;
  gint64 nr = g_ascii_strtoll (p, &end, 10);
  guint n_args = 0;

  if (end == p)
    return -1;   /* "running": no system call */
  p = end;
  for (guint i = 0; i < G_N_ELEMENTS (args); i++)
    {
      while (*p == ' ')
        p++;
      if (!g_str_has_prefix (p, "0x"))
        break;
      args[i] = g_ascii_strtoull (p, &end, 16);
      if (end == p || (*end != ' ' && *end != '\n' && *end != '\0'))
        break;
      p = end;
      n_args++;
    }
  /* The six arguments, the stack pointer and the program counter. */
  if (n_args < 6)
    return -1;
  for (guint i = 0; i < G_N_ELEMENTS (timed_calls); i++)
    if (timed_calls[i].nr == nr)
      {
        guint64 arg = args[timed_calls[i].arg];
        gint32 ms = (gint32) (guint32) arg;

        if (timed_calls[i].form == TIMEOUT_MS)
          return ms >= 0 ? ms : -1;
        return read_timeout (pid, arg, timed_calls[i].form == TIMEOUT_TIMESPEC);
      }
  return -1;
}

/* Is a thread in the system call numbered @nr waiting as an idle program
 * waits: in its event loop, asleep, for a child, for input? Not in a lock
 * (futex: another thread's work), a write or a reply. */
static gboolean
idle_wait (gint64 nr)
{
  static const long waits[] = {
#ifdef SYS_poll
    SYS_poll,
#endif
#ifdef SYS_select
    SYS_select,
#endif
#ifdef SYS_epoll_wait
    SYS_epoll_wait,
#endif
#ifdef SYS_pause
    SYS_pause,
#endif
#ifdef SYS_epoll_pwait2
    SYS_epoll_pwait2,
#endif
    SYS_ppoll, SYS_pselect6, SYS_epoll_pwait, SYS_nanosleep, SYS_clock_nanosleep, SYS_wait4,
    SYS_waitid, SYS_read, SYS_rt_sigsuspend, SYS_rt_sigtimedwait, SYS_accept4,
    /* A message on a socket (Firefox's fork server waits for a fork's
     * request in recvmsg, all its life). */
    SYS_recvmsg, SYS_recvfrom, SYS_recvmmsg,
  };

  for (gsize i = 0; i < G_N_ELEMENTS (waits); i++)
    if (waits[i] == nr)
      return TRUE;
  return FALSE;
}

/* futex(2)'s operation that waits with a bit set (FUTEX_WAIT_BITSET),
 * without its flags (FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME). */
#define FUTEX_OP_MASK 0x7f
#define FUTEX_WAIT_BITSET_OP 9

/* Whether @text (/proc/PID/syscall) is a wait on a condition variable
 * (glibc's pthread_cond_wait and timedwait, sem_wait: FUTEX_WAIT_BITSET),
 * not on a lock (a mutex's FUTEX_WAIT: GLib's GMutex and GCond too). */
static gboolean
in_condition_wait (const char *text)
{
  char *end = NULL;
  gint64 nr = g_ascii_strtoll (text, &end, 10);
  guint64 op;

  if (end == text || nr != SYS_futex)
    return FALSE;
  while (*end == ' ')
    end++;
  if (!g_str_has_prefix (end, "0x"))
    return FALSE;
  /* The first argument (the futex's address), then the operation. */
  g_ascii_strtoull (end, &end, 16);
  while (*end == ' ')
    end++;
  if (!g_str_has_prefix (end, "0x"))
    return FALSE;
  op = g_ascii_strtoull (end, NULL, 16);
  return (op & FUTEX_OP_MASK) == FUTEX_WAIT_BITSET_OP;
}

/* Whether every thread of @pid but its main one sleeps in an idle wait
 * (and there is one): then nothing of the process's own can be at work
 * for a main thread that waits on one of them. */
static gboolean
others_idle (pid_t pid)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (ProcDir) dir = procdir_open (task);
  const char *tid;
  guint others = 0;

  if (dir == NULL)
    return FALSE;
  while ((tid = procdir_next (dir)) != NULL)
    {
      g_autofree char *stat = NULL, *path = NULL, *text = NULL;
      char *end = NULL;
      gint64 nr;
      char state;

      if (g_ascii_strtoll (tid, NULL, 10) == pid)
        continue;
      stat = g_strdup_printf ("%s/%s/stat", task, tid);
      state = read_state (stat);
      if (state == 0)
        continue;       /* gone meanwhile */
      path = g_strdup_printf ("%s/%s/syscall", task, tid);
      if (state == 'R' || state == 'D' || !proc_read (path, &text))
        return FALSE;
      nr = g_ascii_strtoll (text, &end, 10);
      if (end == text || !idle_wait (nr))
        return FALSE;
      others++;
    }
  return others > 0;
}

/* @pid's main thread: the timer it waits on in its event loop, in ms, or
 * -1; and *@mid_work, whether it is in a system call no idle program
 * waits in. A main thread waiting on a condition variable while the
 * process's other threads all sleep in idle waits is an event loop too,
 * whose events come through another thread: Tcl's (threaded, as
 * Debian's Tcl 8.6 is), where a notifier thread waits in select on the X
 * connection and signals the main thread; not GTK's main thread blocked
 * on a worker's lock (a lock, and a worker at work). */
static gint64
loop_timer (pid_t pid, gboolean *mid_work)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/syscall", (int) pid);
  g_autofree char *text = NULL;
  char *end = NULL;
  gint64 nr;

  *mid_work = FALSE;
  if (!proc_read (path, &text))
    return -1;
  nr = g_ascii_strtoll (text, &end, 10);
  /* ("running": no number; the thread's state says so.) */
  *mid_work = end != text && !idle_wait (nr)
              && !(in_condition_wait (text) && others_idle (pid));
  return proctree_syscall_timeout (pid, text);
}

/* The CPU time thread @task/@tid has had, in ns, from its schedstat
 * ("RUN_NS WAIT_NS SLICES"); FALSE if it cannot be read. */
static gboolean
read_ran (const char *task, const char *tid, guint64 *ran_ns)
{
  g_autofree char *path = g_strdup_printf ("%s/%s/schedstat", task, tid);
  g_autofree char *text = NULL;
  char *end = NULL;

  if (!proc_read (path, &text))
    return FALSE;
  *ran_ns = g_ascii_strtoull (text, &end, 10);
  return end != text;
}

/* Adds @pid's threads to @glance, and (with @children) pushes its
 * children on @todo. FALSE if the kernel lists no children. With
 * @glance->ran_read, the threads' CPU time too (ran_read cleared where a
 * thread's cannot be read). */
static gboolean
glance_at (pid_t pid, gboolean children, GArray *todo, ProcTreeGlance *glance)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (ProcDir) dir = procdir_open (task);
  const char *tid;
  gboolean listed = TRUE, any = FALSE;

  if (dir == NULL)
    return TRUE;   /* gone meanwhile */
  while ((tid = procdir_next (dir)) != NULL)
    {
      g_autofree char *stat = g_strdup_printf ("%s/%s/stat", task, tid);
      char state = read_state (stat);

      if (state == 0)
        continue;
      any = TRUE;
      if (state == 'R' || state == 'D')
        glance->n_active++;
      if (glance->ran_read)
        {
          guint64 ran;

          if (read_ran (task, tid, &ran))
            glance->ran_ns += ran;
          else if (g_file_test (stat, G_FILE_TEST_EXISTS))
            glance->ran_read = FALSE;
        }
      if (children)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/children", task, tid);
          g_autofree char *list = NULL;
          
          if (!proc_read (path, &list))
            {
              listed = g_file_test (stat, G_FILE_TEST_EXISTS) ? FALSE : listed;
              continue;
            }
          append_pids (todo, list);
        }
    }
  if (any && children)
    {
      glance->n_procs++;
      glance->pid_sum += (guint64) pid;
      gint64 timer;
      gboolean mid_work;

      if (asleep_on_timer (pid))
        glance->handler_asleep = TRUE;
      timer = loop_timer (pid, &mid_work);
      if (timer >= 0 && (glance->timer_ms < 0 || timer < glance->timer_ms))
        glance->timer_ms = timer;
      if (mid_work && glance->n_mid_work < PROCTREE_GLANCE_MID_MAX)
        glance->mid_work_pid[glance->n_mid_work] = pid;
      glance->n_mid_work += mid_work ? 1 : 0;
    }
  return listed;
}

static gboolean
glance_tree (pid_t root, pid_t also, gboolean ran, ProcTreeGlance *glance)
{
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (pid_t));

  memset (glance, 0, sizeof *glance);
  glance->timer_ms = -1;
  glance->ran_read = ran;
  if (root <= 0)
    return TRUE;
  g_array_append_val (todo, root);
  /* A bound on the walk: a pid reused into a loop while we read cannot
   * keep us here. */
  for (guint i = 0; i < todo->len && i < 4096; i++)
    if (!glance_at (g_array_index (todo, pid_t, i), TRUE, todo, glance))
      {
        memset (glance, 0, sizeof *glance);
        glance->timer_ms = -1;
        return FALSE;
      }
  if (also > 0)
    glance_at (also, FALSE, NULL, glance);
  return TRUE;
}

gboolean
proctree_glance (pid_t root, pid_t also, ProcTreeGlance *glance)
{
  return glance_tree (root, also, FALSE, glance);
}

gboolean
proctree_glance_ran (pid_t root, pid_t also, ProcTreeGlance *glance)
{
  return glance_tree (root, also, TRUE, glance);
}

void
proctree_glance_add_helper (pid_t pid, ProcTreeGlance *glance)
{
  ProcTreeGlance helper;

  /* The helper's tree as a tree of its own: only its threads at work
   * count (its children's event loops wait on timers of their own). */
  if (pid > 0 && glance_tree (pid, 0, glance->ran_read, &helper))
    {
      glance->n_active += helper.n_active;
      glance->ran_ns += helper.ran_ns;
      glance->ran_read = helper.ran_read;
    }
}

/* The armed timerfd of @pid's descriptor @fd: ms until it fires, or -1. */
static gint64
timerfd_left (pid_t pid, const char *fd)
{
  g_autofree char *link = g_strdup_printf ("/proc/%d/fd/%s", (int) pid, fd);
  g_autofree char *target = g_file_read_link (link, NULL);
  g_autofree char *info_path = NULL, *info = NULL;
  const char *value;
  gint64 sec = 0, nsec = 0;

  if (target == NULL || !g_str_equal (target, "anon_inode:[timerfd]"))
    return -1;
  info_path = g_strdup_printf ("/proc/%d/fdinfo/%s", (int) pid, fd);
  if (!proc_read (info_path, &info)
      || (value = strstr (info, "it_value: (")) == NULL
      || sscanf (value, "it_value: (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", &sec,
                 &nsec) != 2
      || sec < 0 || nsec < 0 || (sec == 0 && nsec == 0))
    return -1;
  return sec * 1000 + nsec / 1000000;
}

gint64
proctree_timerfd_ms (pid_t root)
{
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (pid_t));
  gint64 soonest = -1;

  if (root <= 0)
    return -1;
  g_array_append_val (todo, root);
  for (guint i = 0; i < todo->len && i < 4096; i++)
    {
      pid_t pid = g_array_index (todo, pid_t, i);
      g_autofree char *fds = g_strdup_printf ("/proc/%d/fd", (int) pid);
      g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
      g_autoptr (ProcDir) dir = procdir_open (fds);
      g_autoptr (ProcDir) tasks = procdir_open (task);
      const char *name;
      guint n = 0;

      /* (A bound: a process of a hundred thousand descriptors is looked
       * at in part.) */
      while (dir != NULL && (name = procdir_next (dir)) != NULL && n++ < 4096)
        {
          gint64 left = timerfd_left (pid, name);

          if (left >= 0 && (soonest < 0 || left < soonest))
            soonest = left;
        }
      while (tasks != NULL && (name = procdir_next (tasks)) != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/children", task, name);
          g_autofree char *list = NULL;
          
          if (!proc_read (path, &list))
            continue;
          append_pids (todo, list);
        }
    }
  return soonest;
}

guint64
proctree_run_delay_ms (pid_t root)
{
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (pid_t));
  guint64 delay_ns = 0;

  if (root <= 0)
    return 0;
  g_array_append_val (todo, root);
  for (guint i = 0; i < todo->len && i < 4096; i++)
    {
      pid_t pid = g_array_index (todo, pid_t, i);
      g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
      g_autoptr (ProcDir) dir = procdir_open (task);
      const char *tid;

      while (dir != NULL && (tid = procdir_next (dir)) != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/schedstat", task, tid);
          g_autofree char *children = g_strdup_printf ("%s/%s/children", task, tid);
          g_autofree char *text = NULL, *list = NULL;
          
          /* "run time, time waiting for a CPU (ns), time slices" */
          if (proc_read (path, &text))
            {
              g_auto (GStrv) fields = g_strsplit (text, " ", 3);

              if (fields[0] != NULL && fields[1] != NULL)
                delay_ns += g_ascii_strtoull (fields[1], NULL, 10);
            }
          if (!proc_read (children, &list))
            continue;
          append_pids (todo, list);
        }
    }
  return delay_ns / 1000000;
}

guint
proctree_find_libraries (pid_t root, const char *const *names)
{
  g_autoptr (GArray) procs = g_array_new (FALSE, FALSE, sizeof (ProcStat));
  g_autoptr (GHashTable) tree = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;
  guint found = 0, n_names = names != NULL ? g_strv_length ((char **) names) : 0;

  if (n_names == 0 || !read_tree (root, procs, tree))
    return 0;
  n_names = MIN (n_names, 32);
  g_hash_table_iter_init (&iter, tree);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/maps", GPOINTER_TO_INT (key));
      g_autofree char *maps = NULL;
      g_auto (GStrv) lines = NULL;

      /* (A browser's maps run to a few hundred kB: read once a replay.) */
      if (!proc_read (path, &maps))
        continue;
      lines = g_strsplit (maps, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          const char *file = strchr (lines[l], '/');
          const char *base;

          if (file == NULL)
            continue;
          base = strrchr (file, '/') + 1;
          for (guint k = 0; k < n_names; k++)
            if (g_str_has_prefix (base, names[k]))
              found |= 1u << k;
        }
    }
  return found;
}

guint
proctree_ticks_per_second (void)
{
  long hz = sysconf (_SC_CLK_TCK);

  return hz > 0 ? (guint) hz : 100;
}
