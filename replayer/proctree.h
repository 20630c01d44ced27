/* proctree.h — the CPU a process and its descendants have used (Linux
 * /proc), X-free.
 *
 * The replayer asks it while the app settles after the last action: an
 * app whose process tree is still busy (a terminal's shell starting up
 * under the load of parallel replays, a browser's content process) has
 * not yet done what the actions asked for, and is given more time
 * before the verdict.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The CPU time (user and system, in clock ticks) used so far by @root and
 * by every live descendant of it, found by their parent ids in /proc
 * (whatever their process group or session); 0 if @root is gone. With
 * @n_active, also how many of them are running or waiting to run, or in
 * an uninterruptible (disk) wait: busy even when they get no CPU. */
guint64 proctree_cpu_ticks (pid_t root, guint *n_active);

/* Clock ticks a second (sysconf (_SC_CLK_TCK)). */
guint proctree_ticks_per_second (void);

G_END_DECLS
