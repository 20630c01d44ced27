/* proctree.c — see proctree.h. */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proctree.h"

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

/* Reads /proc/@pid/stat: the parent and the CPU ticks. FALSE if the
 * process is gone or the line is not understood. */
static gboolean
read_stat (pid_t pid, ProcStat *stat)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  const char *after;

  if (!g_file_get_contents (path, &text, NULL, NULL))
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

/* Appends to @pids the children of every thread of @pid, from
 * /proc/@pid/task/TID/children. FALSE if the kernel lists no children
 * (CONFIG_PROC_CHILDREN); TRUE with nothing added for a process gone. */
static gboolean
append_children (pid_t pid, GArray *pids)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (GDir) dir = g_dir_open (task, 0, NULL);
  const char *tid;

  if (dir == NULL)
    return TRUE;   /* gone meanwhile */
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/children", task, tid);
      g_autofree char *list = NULL;
      char *at, *end;

      if (!g_file_get_contents (path, &list, NULL, NULL))
        {
          g_autofree char *stat = g_strdup_printf ("%s/%s/stat", task, tid);

          if (g_file_test (stat, G_FILE_TEST_EXISTS))
            return FALSE;
          continue;   /* the thread ended meanwhile */
        }
      for (at = list;; at = end)
        {
          gint64 child = g_ascii_strtoll (at, &end, 10);

          if (end == at)
            break;
          if (child > 0)
            {
              pid_t p = (pid_t) child;
              g_array_append_val (pids, p);
            }
        }
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
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GArray) procs = g_array_new (FALSE, FALSE, sizeof (ProcStat));
  g_autoptr (GHashTable) tree = g_hash_table_new (NULL, NULL);
  const char *name;
  gboolean grew = TRUE;
  guint64 page_kb = (guint64) MAX (sysconf (_SC_PAGESIZE), 1024) / 1024;

  memset (sample, 0, sizeof *sample);
  if (root <= 0)
    return;
  if (read_tree_by_children (root, procs))
    {
      for (guint i = 0; i < procs->len; i++)
        {
          const ProcStat *p = &g_array_index (procs, ProcStat, i);

          sample->ticks += p->ticks;
          sample->n_active += p->active ? 1 : 0;
          sample->n_procs++;
          sample->pid_sum += (guint64) p->pid;
          sample->rss_kb += p->rss_pages * page_kb;
        }
      return;
    }
  /* Without lists of children: every process of /proc, and the tree by
   * their parents. */
  g_array_set_size (procs, 0);
  dir = g_dir_open ("/proc", 0, NULL);
  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
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
  for (guint i = 0; i < procs->len; i++)
    {
      const ProcStat *p = &g_array_index (procs, ProcStat, i);
      if (!g_hash_table_contains (tree, GINT_TO_POINTER ((int) p->pid)))
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

  if (!g_file_get_contents (path, &text, NULL, NULL))
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

  if (!g_file_get_contents (path, &text, NULL, NULL))
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

/* Adds @pid's threads to @glance, and (with @children) pushes its
 * children on @todo. FALSE if the kernel lists no children. */
static gboolean
glance_at (pid_t pid, gboolean children, GArray *todo, ProcTreeGlance *glance)
{
  g_autofree char *task = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (GDir) dir = g_dir_open (task, 0, NULL);
  const char *tid;
  gboolean listed = TRUE, any = FALSE;

  if (dir == NULL)
    return TRUE;   /* gone meanwhile */
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stat = g_strdup_printf ("%s/%s/stat", task, tid);
      char state = read_state (stat);

      if (state == 0)
        continue;
      any = TRUE;
      if (state == 'R' || state == 'D')
        glance->n_active++;
      if (children)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/children", task, tid);
          g_autofree char *list = NULL;
          char *at, *end;

          if (!g_file_get_contents (path, &list, NULL, NULL))
            {
              listed = g_file_test (stat, G_FILE_TEST_EXISTS) ? FALSE : listed;
              continue;
            }
          for (at = list;; at = end)
            {
              gint64 child = g_ascii_strtoll (at, &end, 10);

              if (end == at)
                break;
              if (child > 0)
                {
                  pid_t p = (pid_t) child;
                  g_array_append_val (todo, p);
                }
            }
        }
    }
  if (any && children)
    {
      glance->n_procs++;
      glance->pid_sum += (guint64) pid;
      if (asleep_on_timer (pid))
        glance->handler_asleep = TRUE;
    }
  return listed;
}

gboolean
proctree_glance (pid_t root, pid_t also, ProcTreeGlance *glance)
{
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (pid_t));

  memset (glance, 0, sizeof *glance);
  if (root <= 0)
    return TRUE;
  g_array_append_val (todo, root);
  /* A bound on the walk: a pid reused into a loop while we read cannot
   * keep us here. */
  for (guint i = 0; i < todo->len && i < 4096; i++)
    if (!glance_at (g_array_index (todo, pid_t, i), TRUE, todo, glance))
      {
        memset (glance, 0, sizeof *glance);
        return FALSE;
      }
  if (also > 0)
    glance_at (also, FALSE, NULL, glance);
  return TRUE;
}

guint
proctree_ticks_per_second (void)
{
  long hz = sysconf (_SC_CLK_TCK);

  return hz > 0 ? (guint) hz : 100;
}
