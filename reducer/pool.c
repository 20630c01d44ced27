/* pool.c — how many replays run at once (see pool.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "pool.h"

#include <string.h>

/* Above this load of the cores, one replay fewer; below the other, one
 * more. Between them, as it is. */
#define POOL_BUSY 0.95
#define POOL_IDLE 0.75
/* What a replay costs beside its app: xreplay, its Xvfb, the bus. */
#define POOL_OVERHEAD_KB (40 * 1024)

void
pool_init (Pool *pool, guint max_workers, guint n_cores, guint64 mem_available_kb)
{
  memset (pool, 0, sizeof *pool);
  pool->max_workers = MAX (max_workers, 1);
  pool->n_cores = MAX (n_cores, 1);
  pool->mem_available_kb = mem_available_kb;
  pool->workers = MIN (pool->max_workers, pool->n_cores);
  pool->busy = -1;
}

/* A replay's memory: its app, the screen, xreplay and the bus. */
static guint64
replay_kb (const Pool *pool)
{
  return pool->rss_kb + pool->screen_kb + POOL_OVERHEAD_KB;
}

static guint
by_memory (const Pool *pool)
{
  if (pool->mem_available_kb == 0 || (pool->rss_kb == 0 && pool->screen_kb == 0))
    return G_MAXUINT;
  return (guint) MIN (pool->mem_available_kb / 2 / replay_kb (pool), (guint64) 1000000);
}

void
pool_set_screen (Pool *pool, int width, int height)
{
  pool->screen_kb = POOL_SCREEN_KB (MAX (width, 0), MAX (height, 0));
  pool->max_workers = CLAMP (MIN (pool->max_workers, by_memory (pool)), 1, pool->max_workers);
  pool->workers = CLAMP (MIN (pool->workers, by_memory (pool)), 1, pool->max_workers);
}

void
pool_observe (Pool *pool, gint64 rss_kb, double busy)
{
  if (rss_kb > 0)
    pool->rss_kb = MAX (pool->rss_kb, (guint64) rss_kb);
  if (busy >= 0)
    {
      pool->busy = busy;
      if (busy > POOL_BUSY && pool->workers > 1)
        pool->workers--;
      else if (busy < POOL_IDLE / 2)
        pool->workers *= 2;   /* far from busy: no need to creep up */
      else if (busy < POOL_IDLE)
        pool->workers++;
    }
  pool->workers = CLAMP (MIN (pool->workers, by_memory (pool)), 1, pool->max_workers);
}

guint
pool_fit (const Pool *pool, char **reason)
{
  guint n = pool->workers;

  if (reason == NULL)
    return n;
  if (n == by_memory (pool) && n < pool->max_workers)
    *reason = g_strdup_printf ("%u worker%s: each replay holds %.0f MB", n, n == 1 ? "" : "s",
                               replay_kb (pool) / 1024.0);
  else if (pool->busy < 0)
    *reason = g_strdup_printf ("%u worker%s until the load is known", n, n == 1 ? "" : "s");
  else
    *reason = g_strdup_printf ("%u worker%s%s: the cores are %.0f%% busy", n, n == 1 ? "" : "s",
                               n == pool->max_workers ? " (the most allowed)" : "",
                               100 * pool->busy);
  return n;
}

double
pool_parse_busy (const char *stat, guint64 prev[2])
{
  guint64 total = 0, idle = 0, busy;
  double load = -1;
  const char *at;
  guint i;

  if (stat == NULL || !g_str_has_prefix (stat, "cpu "))
    return -1;
  /* "cpu  user nice system idle iowait irq softirq steal ...": the
   * kernel pads "cpu" with two spaces (as wide as "cpu0"); counted by
   * numbers, not by separators, so that no field is taken for another
   * (system time taken for idle: a load of write()s read as none). */
  at = stat + 3;
  for (i = 0; i < 8; i++)
    {
      char *end;
      guint64 v;

      while (*at == ' ')
        at++;
      v = g_ascii_strtoull (at, &end, 10);
      if (end == at)
        break;
      at = end;
      total += v;
      if (i == 3 || i == 4)
        idle += v;
    }
  if (i < 4)
    return -1;
  busy = total - idle;
  if (prev[1] > 0 && total > prev[1])
    load = (double) (busy - MIN (busy, prev[0])) / (double) (total - prev[1]);
  prev[0] = busy;
  prev[1] = total;
  return load;
}

double
pool_read_busy (guint64 prev[2])
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/stat", &text, NULL, NULL))
    return -1;
  return pool_parse_busy (text, prev);
}

guint64
pool_read_mem_available_kb (void)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/meminfo", &text, NULL, NULL))
    return 0;
  line = strstr (text, "MemAvailable:");
  return line != NULL ? g_ascii_strtoull (line + strlen ("MemAvailable:"), NULL, 10) : 0;
}

guint
pool_launcher_slots (guint jobs, const char *slurm_ntasks)
{
  guint64 n;

  if (jobs > 0)
    return MIN (jobs, POOL_MAX_SLOTS);
  if (slurm_ntasks != NULL
      && g_ascii_string_to_unsigned (slurm_ntasks, 10, 1, POOL_MAX_SLOTS, &n, NULL))
    return (guint) n;
  return 1;
}
