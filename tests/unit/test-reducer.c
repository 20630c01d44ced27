/* test-reducer.c — the reducer's X-free parts beside the search (dd.c):
 * the last-gestures-first batch (suffix.c) and the pool of workers that
 * fits the app (pool.c). No display. Start reading at main() at the
 * bottom.
 */
#include "dd.h"
#include "pool.h"
#include "suffix.h"

#include <string.h>

/* ---- the last gestures first (suffix.c) ------------------------------- */

static GPtrArray *
make_units (const guint *sizes, guint n)
{
  GPtrArray *units = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint next = 0;

  for (guint u = 0; u < n; u++)
    {
      GArray *unit = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < sizes[u]; i++, next++)
        g_array_append_val (unit, next);
      g_ptr_array_add (units, unit);
    }
  return units;
}

/* 6 units (one empty) of 2, 1, 0, 3, 1, 2 elements: candidates are the
 * last 1, 2 and 4 non-empty units, sorted unions; a failure of the last
 * 2 empties every unit before them. */
static void
test_suffixes (void)
{
  const guint sizes[] = { 2, 1, 0, 3, 1, 2 };
  g_autoptr (GPtrArray) units = make_units (sizes, G_N_ELEMENTS (sizes));
  g_autoptr (Suffixes) suffixes = suffixes_new (units);
  const DdCandidate *cands = suffixes_get_candidates (suffixes);
  DdOutcome outcomes[3] = { DD_PASS, DD_FAIL, DD_FAIL };
  const guint last2[] = { 6, 7, 8 };

  g_assert_cmpuint (suffixes_get_n (suffixes), ==, 3);
  g_assert_cmpuint (cands[0].n_elems, ==, 2);
  g_assert_cmpuint (cands[0].elems[0], ==, 7);
  g_assert_cmpuint (cands[1].n_elems, ==, 3);
  g_assert_cmpmem (cands[1].elems, 3 * sizeof (guint), last2, sizeof last2);
  g_assert_cmpuint (suffixes_get_n_units (suffixes, 2), ==, 4);
  g_assert_cmpuint (cands[2].n_elems, ==, 7);   /* units 1, 3, 4, 5 */
  g_assert_cmpuint (cands[2].elems[0], ==, 2);

  /* The shortest that fails wins; the units before it are emptied. */
  g_assert_cmpint (suffixes_apply (suffixes, units, outcomes), ==, 1);
  for (guint u = 0; u < 4; u++)
    g_assert_cmpuint (((GArray *) g_ptr_array_index (units, u))->len, ==, 0);
  g_assert_cmpuint (((GArray *) g_ptr_array_index (units, 4))->len, ==, 1);

  /* None fails: nothing changes. */
  outcomes[1] = outcomes[2] = DD_PASS;
  g_assert_cmpint (suffixes_apply (suffixes, units, outcomes), ==, -1);
  g_assert_cmpuint (((GArray *) g_ptr_array_index (units, 5))->len, ==, 2);
}

/* One unit: no suffix shorter than everything. */
static void
test_suffixes_single (void)
{
  const guint sizes[] = { 0, 4, 0 };
  g_autoptr (GPtrArray) units = make_units (sizes, G_N_ELEMENTS (sizes));
  g_autoptr (Suffixes) suffixes = suffixes_new (units);

  g_assert_cmpuint (suffixes_get_n (suffixes), ==, 0);
}

/* ---- the pool of workers (pool.c) ------------------------------------- */

/* The cores' load from /proc/stat as the kernel writes it ("cpu" and two
 * spaces): busy is user, nice, system, irq, softirq and steal; idle and
 * iowait are not. A machine busy in the kernel (write() in a loop) is
 * busy. */
static void
test_pool_busy (void)
{
  guint64 prev[2] = { 0, 0 };

  g_assert_cmpfloat (pool_parse_busy ("cpu  100 0 900 1000 0 0 0 0 0 0\ncpu0 1 2 3 4\n", prev),
                     ==, -1);
  /* +50 user, +150 system, no idle: all busy. */
  g_assert_cmpfloat (pool_parse_busy ("cpu  150 0 1050 1000 0 0 0 0 0 0\n", prev), ==, 1.0);
  /* +100 idle, +50 iowait, +50 user: a quarter busy. */
  g_assert_cmpfloat (pool_parse_busy ("cpu  200 0 1050 1100 50 0 0 0 0 0\n", prev), ==, 0.25);
  /* +10 softirq, +10 steal, +20 idle: half busy. */
  g_assert_cmpfloat (pool_parse_busy ("cpu 200 0 1050 1120 50 0 10 10 0 0\n", prev), ==, 0.5);
  /* Nothing since: unknown. Not /proc/stat: unknown. */
  g_assert_cmpfloat (pool_parse_busy ("cpu 200 0 1050 1120 50 0 10 10 0 0\n", prev), ==, -1);
  g_assert_cmpfloat (pool_parse_busy ("intr 1 2 3\n", prev), ==, -1);
  g_assert_cmpfloat (pool_parse_busy ("cpu  x\n", prev), ==, -1);
  g_assert_cmpfloat (pool_parse_busy (NULL, prev), ==, -1);
}

static void
test_pool (void)
{
  g_autofree char *reason = NULL;
  Pool pool;

  /* Until the load is known: one a core. */
  pool_init (&pool, 6, 2, 16 * 1024 * 1024);
  g_assert_cmpuint (pool_fit (&pool, &reason), ==, 2);
  g_assert_nonnull (strstr (reason, "until the load is known"));
  g_clear_pointer (&reason, g_free);

  /* Fairly idle cores: one more a replay; very idle ones: twice as many;
   * up to the most allowed. */
  pool_observe (&pool, 3000, 0.60);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 3);
  pool_observe (&pool, 3000, 0.10);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 6);
  pool_observe (&pool, 3000, 0.10);
  g_assert_cmpuint (pool_fit (&pool, &reason), ==, 6);
  g_assert_cmpstr (reason, ==, "6 workers (the most allowed): the cores are 10% busy");
  g_clear_pointer (&reason, g_free);

  /* Saturated cores (a browser a replay): one fewer a replay, never none;
   * between the bounds, as it is. */
  for (int i = 0; i < 4; i++)
    pool_observe (&pool, 400 * 1024, 0.99);
  g_assert_cmpuint (pool_fit (&pool, &reason), ==, 2);
  g_assert_cmpstr (reason, ==, "2 workers: the cores are 99% busy");
  g_clear_pointer (&reason, g_free);
  pool_observe (&pool, -1, 0.85);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 2);
  for (int i = 0; i < 4; i++)
    pool_observe (&pool, -1, 1.0);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 1);

  /* Memory: 1.5 GB a replay, 4 GB available: half of it holds one,
   * however idle the cores. */
  pool_init (&pool, 6, 8, 4 * 1024 * 1024);
  pool_observe (&pool, 1536 * 1024, 0.05);
  g_assert_cmpuint (pool_fit (&pool, &reason), ==, 1);
  g_assert_nonnull (strstr (reason, "each replay holds"));
  g_clear_pointer (&reason, g_free);

  /* The screen counts from the start: 8192x8192 is 512 MiB a worker's
   * Xvfb; 2 GiB available, half of it holds 1 (with the overhead),
   * before any replay said anything; a small screen changes nothing. */
  pool_init (&pool, 6, 2, 2 * 1024 * 1024);
  pool_set_screen (&pool, 8192, 8192);
  g_assert_cmpuint (pool.max_workers, ==, 1);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 1);
  pool_init (&pool, 6, 2, 8 * 1024 * 1024);
  pool_set_screen (&pool, 8192, 8192);
  g_assert_cmpuint (pool.max_workers, ==, 6);
  pool_init (&pool, 6, 2, 4 * 1024 * 1024);
  pool_set_screen (&pool, 8192, 8192);
  g_assert_cmpuint (pool.max_workers, ==, 3);
  pool_observe (&pool, 512 * 1024, 0.05);
  g_assert_cmpuint (pool_fit (&pool, &reason), ==, 1);
  g_assert_nonnull (strstr (reason, "each replay holds 1064 MB"));
  g_clear_pointer (&reason, g_free);
  pool_init (&pool, 6, 2, 4 * 1024 * 1024);
  pool_set_screen (&pool, 1280, 1024);
  g_assert_cmpuint (pool.max_workers, ==, 6);

  /* Unknown figures change nothing. */
  pool_init (&pool, 3, 1, 0);
  pool_observe (&pool, -1, -1);
  g_assert_cmpuint (pool_fit (&pool, NULL), ==, 1);

  /* The machine's own figure is a fraction, once there is a last look. */
  {
    guint64 prev[2] = { 0, 0 };
    double first = pool_read_busy (prev);
    double second = -1;

    g_assert_cmpfloat (first, ==, -1);
    /* Until the kernel's clock (100 Hz) has ticked: a second at most. */
    for (int i = 0; i < 100 && second < 0; i++)
      {
        g_usleep (10 * 1000);
        second = pool_read_busy (prev);
      }
    g_assert_cmpfloat (second, >=, 0);
    g_assert_cmpfloat (second, <=, 1);
  }
}

/* Through a launcher: -j, else the allocation's tasks, else one slot;
 * never the cores. A SLURM_NTASKS that is no count is not trusted. */
static void
test_pool_launcher (void)
{
  g_assert_cmpuint (pool_launcher_slots (6, "48"), ==, 6);
  g_assert_cmpuint (pool_launcher_slots (0, "48"), ==, 48);
  g_assert_cmpuint (pool_launcher_slots (0, NULL), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (0, ""), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (0, "0"), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (0, "-3"), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (0, "2(x3)"), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (0, "99999"), ==, 1);
  g_assert_cmpuint (pool_launcher_slots (5000, NULL), ==, POOL_MAX_SLOTS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/suffix/batch", test_suffixes);
  g_test_add_func ("/suffix/single", test_suffixes_single);
  g_test_add_func ("/pool/fit", test_pool);
  g_test_add_func ("/pool/busy", test_pool_busy);
  g_test_add_func ("/pool/launcher", test_pool_launcher);
  return g_test_run ();
}
