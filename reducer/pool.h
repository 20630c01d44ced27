/* pool.h — how many replays fit on this machine at once (X-free).
 *
 * Every replay's app uses some CPU and memory; a browser uses a core to
 * start, a small Xlib app nothing. The pool watches what each finished
 * replay's app used (its whole process tree: CPU time over the replay's
 * wall time, the most resident memory) and says how many workers fit:
 * their CPU demand within the cores (a quarter over is allowed), their
 * memory within half of what is available. Until it has seen a replay it allows one worker a core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint max_workers;         /* -j, or the default: never more */
  guint n_cores;
  guint64 mem_available_kb;  /* MemAvailable when the reduction started */
  double cores;              /* the CPU a replay uses, in cores (moving average); < 0: none seen */
  guint64 rss_kb;            /* the most memory a replay held */
} Pool;

void pool_init (Pool *pool, guint max_workers, guint n_cores, guint64 mem_available_kb);
/* A replay's app used @cpu_ms of CPU over @elapsed_ms, and held at most
 * @rss_kb; unknown figures are negative. */
void pool_observe (Pool *pool, gint64 cpu_ms, gint64 elapsed_ms, gint64 rss_kb);
/* Workers that fit now (1 to max_workers), and why, in words: "2 workers:
 * each replay uses 0.9 cores". */
guint pool_fit (const Pool *pool, char **reason);

/* MemAvailable from /proc/meminfo, or 0 if unknown. */
guint64 pool_read_mem_available_kb (void);

G_END_DECLS
