/* proctree.c — see proctree.h. */
#define G_LOG_DOMAIN "xreduce-proc"

#include "proctree.h"

#include <stdlib.h>
#include <string.h>
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

void
proctree_sample (pid_t root, ProcTreeSample *sample)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc", 0, NULL);
  g_autoptr (GArray) procs = g_array_new (FALSE, FALSE, sizeof (ProcStat));
  g_autoptr (GHashTable) tree = g_hash_table_new (NULL, NULL);
  const char *name;
  gboolean grew = TRUE;
  guint64 page_kb = (guint64) MAX (sysconf (_SC_PAGESIZE), 1024) / 1024;

  memset (sample, 0, sizeof *sample);
  if (dir == NULL || root <= 0)
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

guint
proctree_ticks_per_second (void)
{
  long hz = sysconf (_SC_CLK_TCK);

  return hz > 0 ? (guint) hz : 100;
}
