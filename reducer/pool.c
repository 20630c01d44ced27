/* pool.c — how many replays fit at once (see pool.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "pool.h"

#include <string.h>

/* The CPU demand may pass the cores by this factor: at the app's pace a
 * loaded app is waited for, not outrun, so a little oversubscription
 * costs some speed per replay and gains parallel replays. */
#define POOL_CPU_OVERCOMMIT 1.25
/* The weight of the newest replay in the CPU figure. */
#define POOL_CPU_WEIGHT 0.3
/* What a replay costs beside its app: xreplay, its Xvfb, the bus. */
#define POOL_OVERHEAD_CORES 0.03
#define POOL_OVERHEAD_KB (40 * 1024)

void
pool_init (Pool *pool, guint max_workers, guint n_cores, guint64 mem_available_kb)
{
  memset (pool, 0, sizeof *pool);
  pool->max_workers = MAX (max_workers, 1);
  pool->n_cores = MAX (n_cores, 1);
  pool->mem_available_kb = mem_available_kb;
  pool->cores = -1;
}

void
pool_observe (Pool *pool, gint64 cpu_ms, gint64 elapsed_ms, gint64 rss_kb)
{
  /* CPU: a moving average (one replay that starts slowly under load does
   * not pin the pool at its figure for the rest of the reduction);
   * memory: the most any replay held (running out of it is worse). */
  if (cpu_ms >= 0 && elapsed_ms > 0)
    {
      double cores = (double) cpu_ms / (double) elapsed_ms;

      pool->cores = pool->cores < 0 ? cores
                    : (1 - POOL_CPU_WEIGHT) * pool->cores + POOL_CPU_WEIGHT * cores;
    }
  if (rss_kb > 0)
    pool->rss_kb = MAX (pool->rss_kb, (guint64) rss_kb);
}

guint
pool_fit (const Pool *pool, char **reason)
{
  double cores = pool->cores + POOL_OVERHEAD_CORES;
  guint64 rss = pool->rss_kb + POOL_OVERHEAD_KB;
  guint by_cpu, by_mem = G_MAXUINT, n;

  if (pool->cores < 0)
    {
      n = MIN (pool->max_workers, pool->n_cores);
      if (reason != NULL)
        *reason = g_strdup_printf ("%u worker%s until a replay has been measured", n,
                                   n == 1 ? "" : "s");
      return n;
    }
  by_cpu = (guint) MIN (POOL_CPU_OVERCOMMIT * pool->n_cores / cores, 1e6);   /* truncated */
  if (pool->mem_available_kb > 0)
    by_mem = (guint) MIN (pool->mem_available_kb / 2 / rss, (guint64) 1000000);
  n = CLAMP (MIN (by_cpu, by_mem), 1, pool->max_workers);
  if (reason != NULL)
    {
      const char *limit = n == pool->max_workers ? "at most" : by_mem < by_cpu ? "memory" : "cpu";
      if (g_str_equal (limit, "memory"))
        *reason = g_strdup_printf ("%u worker%s: each replay holds %.0f MB", n,
                                   n == 1 ? "" : "s", rss / 1024.0);
      else
        *reason = g_strdup_printf ("%u worker%s%s: each replay uses %.2f cores", n,
                                   n == 1 ? "" : "s",
                                   g_str_equal (limit, "at most") ? " (the most allowed)" : "",
                                   pool->cores);
    }
  return n;
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
