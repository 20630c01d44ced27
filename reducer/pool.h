/* pool.h — how many replays run at once on this machine (X-free).
 *
 * Every replay's app uses some CPU and memory: a browser a core while it
 * starts, a small Xlib app nothing. A figure per replay (CPU time over
 * wall time) misleads: the more replays share the cores, the longer each
 * takes and the smaller its figure, which would ask for still more. So
 * the pool watches the machine instead, after every finished replay:
 *   - the cores' load since the last look (from /proc/stat): above
 *     POOL_BUSY it runs one replay fewer (at least one), below POOL_IDLE
 *     one more, below half of it twice as many (at most max_workers);
 *   - memory: never more replays than half of the memory available at the
 *     start holds, at the most any replay's app held (its whole tree).
 * It starts at one worker a core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint max_workers;         /* -j, or the default: never more */
  guint n_cores;
  guint64 mem_available_kb;  /* MemAvailable when the reduction started */
  guint64 rss_kb;            /* the most memory a replay held */
  guint64 screen_kb;         /* what a replay's X server holds for its screen (pool_set_screen) */
  guint workers;             /* the current figure */
  double busy;               /* the cores' load at the last look, 0 to 1; < 0: none yet */
} Pool;

void pool_init (Pool *pool, guint max_workers, guint n_cores, guint64 mem_available_kb);
/* The session's screen, @width x @height: every worker's Xvfb holds about
 * twice its framebuffer (4 bytes a pixel; some 500 MB at 8192x8192),
 * counted in each replay's memory from the start. max_workers is lowered
 * to what half the available memory holds, never below 1. */
void pool_set_screen (Pool *pool, int width, int height);
#define POOL_SCREEN_KB(width, height) ((guint64) (width) * (guint64) (height) * 4 * 2 / 1024)
/* A replay has ended whose app held at most @rss_kb (or < 0: unknown),
 * and the cores were @busy (0 to 1, or < 0: unknown) since the last
 * replay ended. */
void pool_observe (Pool *pool, gint64 rss_kb, double busy);
/* Workers that fit now (1 to max_workers), and why, in words: "2
 * workers: the cores are 97% busy". */
guint pool_fit (const Pool *pool, char **reason);

/* The cores' load since @prev (jiffies busy and total, from /proc/stat;
 * updated), 0 to 1, or -1 the first time or if unknown. */
double pool_read_busy (guint64 prev[2]);
/* The same from @stat, the text of /proc/stat ("cpu  user nice system
 * idle iowait irq softirq steal ..."): busy is all but idle and iowait. */
double pool_parse_busy (const char *stat, guint64 prev[2]);
/* MemAvailable from /proc/meminfo, or 0 if unknown. */
guint64 pool_read_mem_available_kb (void);

/* Through a launcher (xreduce --launcher) the replays run elsewhere: the
 * pool is the launcher's slots, not this machine's cores or load. @jobs
 * (-j) if given (> 0), else the allocation's tasks when run inside
 * salloc or sbatch (@slurm_ntasks, SLURM_NTASKS's value: 1 to
 * POOL_MAX_SLOTS), else 1. */
#define POOL_MAX_SLOTS 1024
guint pool_launcher_slots (guint jobs, const char *slurm_ntasks);

G_END_DECLS
