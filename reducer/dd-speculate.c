/* dd-speculate.c: speculation (HDD) for the delta debugging search (see
 * dd-private.h and dd.c's top comment).
 *
 * Start reading at dd_speculate(): it fills the idle slots of an oracle
 * call with what the following steps would test, on the branch where none
 * of the call's candidates fails and on the branch where candidate k is
 * the first to fail, and within those branches again, the likeliest
 * first.  It finds out what a branch tests by running the search on with
 * the branch's outcomes assumed (dd_lookahead(): dd.c's search, through
 * Dd.run, from where the search is, until the first batch it cannot
 * decide, dd_lookahead_batch()).  Speculative outcomes only feed the
 * cache.  No X.
 */
#define G_LOG_DOMAIN "xreduce-dd"

#include "dd-private.h"

/* An assumption of a lookahead: a persistent list, newest first, shared
 * by the options of dd_speculate() that extend it. */
typedef struct Assumption Assumption;
struct Assumption {
  gint ref;
  Assumption *next;     /* owned reference, or NULL */
  Digest digest;
  gboolean fail;        /* assumed to fail, else to pass */
};

#define ASSUME_PASS GINT_TO_POINTER (1)
#define ASSUME_FAIL GINT_TO_POINTER (2)

static Assumption *
assumption_ref (Assumption *a)
{
  if (a != NULL)
    a->ref++;
  return a;
}

static void
assumption_unref (Assumption *a)
{
  while (a != NULL && --a->ref == 0)
    {
      Assumption *next = a->next;

      g_free (a);
      a = next;
    }
}

/* @assumed, and also that the set of @d fails (@fail) or passes. */
static Assumption *
assumed_with (Assumption *assumed, const Digest *d, gboolean fail)
{
  Assumption *a = g_new (Assumption, 1);

  *a = (Assumption) { .ref = 1, .next = assumption_ref (assumed), .digest = *d, .fail = fail };
  return a;
}

static void
guess_free (Guess *guess)
{
  g_array_unref (guess->set);
  g_free (guess);
}

typedef enum {
  KNOWN_NOT,
  KNOWN_PASS,
  KNOWN_FAIL,
} Known;

/* What the cache, or in a lookahead what it assumes, says of the set of @d. */
static Known
dd_known (Dd *dd, const Digest *d)
{
  gpointer assumed = dd->assumed != NULL ? g_hash_table_lookup (dd->assumed, d) : NULL;
  CacheEntry *entry;

  if (assumed != NULL)
    return assumed == ASSUME_FAIL ? KNOWN_FAIL : KNOWN_PASS;
  entry = g_hash_table_lookup (dd->cache, d);
  if (entry != NULL && entry->failed)
    return KNOWN_FAIL;
  if (entry != NULL && dd_runs_needed (dd, entry) == 0)
    return KNOWN_PASS;
  return KNOWN_NOT;
}

/* dd_run_batch() in a lookahead: decides the batch if what is known and
 * assumed can; else the undecided candidates before the first known
 * failure (at most frontier_cap of them) are the frontier, and the
 * lookahead stops.  The first batch of a lookahead is the one the search
 * is in: it starts where the search's own left off. */
void
dd_lookahead_batch (Dd *dd, const Cands *cands, gint *first_fail, GArray **chosen)
{
  g_autoptr (GHashTable) in_frontier = dd_digest_table_new ();
  guint i = 0;

  if (dd->resume_batch)
    {
      i = dd->resume->from;
      dd->resume_batch = FALSE;
    }
  for (; i < cands->n && !dd_should_stop (dd); i++)
    {
      g_autoptr (GArray) set = dd_candidate (dd, cands, i);
      Digest d = dd_digest_of (set);
      Known known = dd_known (dd, &d);

      if (known == KNOWN_FAIL)
        {
          if (dd->frontier->len == 0)
            {
              *first_fail = (gint) i;
              *chosen = g_steal_pointer (&set);
            }
          break;
        }
      if (known == KNOWN_PASS)
        continue;
      if (dd_digest_table_add (in_frontier, &d, NULL))
        g_ptr_array_add (dd->frontier, g_steal_pointer (&set));
      if (dd->frontier->len >= dd->frontier_cap)
        break;
    }
  dd->stopped = dd->stopped || dd->frontier->len > 0;
}

/* What the search would ask next if the outcomes @assumed were known: it
 * goes on from where it is (dd->at), the cache answering what was tested,
 * the assumptions the rest, until a batch it cannot decide.  Returns that
 * batch's first undecided candidates (at most @cap), in order (a new list
 * of GArray*), or NULL if the search would end. */
static GPtrArray *
dd_lookahead (Dd *dd, Assumption *assumed, guint cap)
{
  Dd ahead = { .opts = dd->opts, .cache = dd->cache, .levels = dd->levels,
               .n_levels = dd->n_levels, .lookahead = TRUE, .resume = &dd->at,
               .resume_batch = TRUE, .frontier_cap = MAX (cap, 1), .run = dd->run };
  GPtrArray *frontier = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  /* No inference of its own (dd-infer.c: .needed NULL): what the cache
   * says of an assumed branch's sets would then hold what a sequential
   * search may ask a replay, and the result at -j N could differ from
   * -j 1's where a failure is not monotone. It reads the search's. */
  /* The newest assumption about a set counts. */
  ahead.assumed = dd_digest_table_new ();
  for (Assumption *a = assumed; a != NULL; a = a->next)
    dd_digest_table_add (ahead.assumed, &a->digest, a->fail ? ASSUME_FAIL : ASSUME_PASS);
  ahead.opts.progress = NULL;
  ahead.opts.improved = NULL;
  ahead.opts.limit_tests = 0;
  ahead.frontier = frontier;
  ahead.current = g_array_ref (dd->current);
  dd->run (&ahead, dd->levels, dd->n_levels, NULL);
  g_array_unref (ahead.current);
  g_hash_table_unref (ahead.assumed);
  if (ahead.halted)
    dd->halted = dd->stopped = TRUE;
  if (frontier->len == 0)
    g_clear_pointer (&frontier, g_ptr_array_unref);
  return frontier;
}

/* An option of dd_speculate(): a branch to look ahead on (@set NULL), or
 * a candidate in one. */
typedef struct {
  double odds;           /* the chance that it is wanted, as guessed */
  Assumption *assumed;   /* what it assumes (a candidate: also that the ones before it
                            in its sequence pass); owned reference */
  GArray *set;           /* owned, or NULL */
  Digest digest;         /* @set's */
  guint if_fails;        /* the sequence it is in, as DdCandidate's */
} Option;

static void
option_free (Option *option)
{
  assumption_unref (option->assumed);
  if (option->set != NULL)
    g_array_unref (option->set);
  g_free (option);
}

/* Takes @assumed and @set. */
static void
option_add (GPtrArray *options, double odds, Assumption *assumed, GArray *set, guint if_fails)
{
  Option *option = g_new0 (Option, 1);

  *option = (Option) { .odds = odds, .assumed = assumed, .set = set, .if_fails = if_fails };
  if (set != NULL)
    option->digest = dd_digest_of (set);
  g_ptr_array_add (options, option);
}

/* The likeliest option, the first added of equals; removed from @options. */
static Option *
option_take_likeliest (GPtrArray *options)
{
  guint best = 0;

  for (guint i = 1; i < options->len; i++)
    if (((Option *) g_ptr_array_index (options, i))->odds
        > ((Option *) g_ptr_array_index (options, best))->odds)
      best = i;
  return g_ptr_array_steal_index (options, best);
}

/* What fills @slots idle slots of an oracle call of the @n candidates
 * @sets (the batch's own): the candidates the following batches would
 * test, on the branch where none of them fails and on each branch where
 * one is the first to, and deeper; the likeliest first.  A candidate is
 * guessed to fail as often as the tests so far did; each is wanted if its
 * branch is taken and the ones before it in its sequence pass.  Returns a
 * list of Guess, in the order of the call (a branch's candidate before
 * the branch, a sequence in its order).
 *
 * A lookahead's frontier is cut to what can be taken: within a sequence
 * the candidates are taken in order (their odds only fall), and each one
 * taken fills a slot unless it is already in the call (one of the @n or
 * a guess), so no more than @slots + @n + @slots of one frontier can ever
 * be taken, nor the branch after all of them. */
GPtrArray *
dd_speculate (Dd *dd, GArray *const *sets, guint n, guint slots)
{
  GPtrArray *guesses = g_ptr_array_new_with_free_func ((GDestroyNotify) guess_free);
  g_autoptr(GPtrArray) options = NULL;
  g_autoptr(GHashTable) in_call = NULL;
  Assumption *assumed = NULL;
  double q, odds = 1.0;
  guint lookaheads = 0, max_lookaheads = 2 * slots + 2, cap = n + 2 * slots;

  if (slots == 0 || dd->opts.algorithm != DD_ALGORITHM_HDD || dd->lookahead)
    return guesses;
  q = (dd->n_failed + 1.0) / (dd->stats.tests + 2.0);
  options = g_ptr_array_new_with_free_func ((GDestroyNotify) option_free);
  in_call = dd_digest_table_new ();
  for (guint k = 0; k < n; k++)
    {
      Digest d = dd_digest_of (sets[k]);
      Assumption *next;

      if (!dd_digest_table_add (in_call, &d, NULL))
        continue;   /* one more run of a candidate (confirm_passes) */
      option_add (options, odds * q, assumed_with (assumed, &d, TRUE), NULL, k + 1);
      next = assumed_with (assumed, &d, FALSE);
      assumption_unref (assumed);
      assumed = next;
      odds *= 1.0 - q;
    }
  option_add (options, odds, assumed, NULL, 0);

  /* Each lookahead runs the search on: a few more than the slots. */
  while (slots > 0 && options->len > 0 && lookaheads < max_lookaheads && !dd_should_stop (dd))
    {
      Option *option = option_take_likeliest (options);

      if (option->set == NULL)
        {
          g_autoptr(GPtrArray) frontier = dd_lookahead (dd, option->assumed, cap);
          Assumption *ahead = assumption_ref (option->assumed);
          gboolean cut = frontier != NULL && frontier->len >= cap;

          lookaheads++;
          odds = option->odds;
          for (guint j = 0; frontier != NULL && j < frontier->len; j++)
            {
              GArray *set = g_ptr_array_index (frontier, j);
              Digest d = dd_digest_of (set);
              Assumption *next = assumed_with (ahead, &d, FALSE);

              option_add (options, odds, ahead, g_array_ref (set), option->if_fails);
              ahead = next;
              odds *= 1.0 - q;
            }
          /* The branch after all of the frontier: never taken when it was cut. */
          if (frontier != NULL && !cut)
            option_add (options, odds, ahead, NULL, option->if_fails);
          else
            assumption_unref (ahead);
        }
      else if (dd_digest_table_add (in_call, &option->digest, NULL))
        {
          Guess *guess = g_new (Guess, 1);

          *guess = (Guess) { .set = g_array_ref (option->set), .digest = option->digest,
                             .if_fails = option->if_fails };
          g_ptr_array_add (guesses, guess);
          slots--;
          option_add (options, option->odds * q,
                      assumed_with (option->assumed, &option->digest, TRUE), NULL,
                      n + guesses->len);
        }
      option_free (option);
    }
  return guesses;
}
