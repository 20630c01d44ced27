/* test-search.c — the search xreduce runs (search.h over dd.h), against
 * model apps (tests/sim/) on real recordings, without a display: which
 * actions it keeps (known minimal sets), that it is 1-minimal, that
 * batches do not change the result, and what it costs in tests (the
 * targets of issue #14: a typed terminal session in at most 120 tests, the
 * demo session in at most 30).
 */
#include <string.h>
#include <glib.h>

#include "sim-apps.h"
#include "search.h"

static Session *
load_data (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("XREDUCE_SRCDIR"), "tests", "data",
                                            name, NULL);
  g_autoptr (GError) error = NULL;
  Session *session = session_load (path, &error);

  g_assert_no_error (error);
  return session;
}

typedef struct
{
  guint *result;
  guint n_result;
  DdStats stats;
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_free (o->result);
}

static void
search (SimOracle *oracle, guint parallel, gboolean phrases, Outcome *o)
{
  g_autoptr (GError) error = NULL;

  memset (o, 0, sizeof *o);
  /* The premise: the whole recording fails in the model. */
  g_assert_true (oracle->fails (oracle->session, oracle->data));
  g_assert_true (sim_reduce (oracle, parallel, phrases, &o->result, &o->n_result, &o->stats,
                             &error));
  g_assert_no_error (error);
  g_assert_true (o->stats.one_minimal_verified);
}

/* The minimal session's steps, in words. */
static char *
steps_of (const Session *session, const Outcome *o)
{
  g_autoptr (Session) min = session_subset (session, o->result, o->n_result);

  return session_describe_steps (min, SESSION_WORDS_TERMINAL, FALSE);
}

/* Every action of the result matters: removing any one of them makes the
 * model pass (checked here again, not trusted from the search). */
static void
assert_one_minimal (SimOracle *oracle, const Outcome *o)
{
  g_autoptr (Session) min = session_subset (oracle->session, o->result, o->n_result);

  g_assert_true (oracle->fails (min, oracle->data));
  for (guint i = 0; i < o->n_result; i++)
    {
      g_autoptr (GArray) rest = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (Session) without = NULL;

      g_array_append_vals (rest, o->result, i);
      g_array_append_vals (rest, o->result + i + 1, o->n_result - i - 1);
      without = session_subset (oracle->session, (const guint *) rest->data, rest->len);
      g_assert_false (oracle->fails (without, oracle->data));
    }
}

/* The recorded xterm session (117 actions, five commands, the last one
 * kills the terminal): the result is the last command, typed, in at most
 * 120 tests, the same whatever the batch size. */
static void
test_terminal (void)
{
  g_autoptr (Session) session = load_data ("xterm.session");
  SimOracle oracle = { session, sim_terminal_fails, "kill -SEGV $PPID" };
  g_autofree char *words = NULL;
  Outcome one, six;

  search (&oracle, 1, TRUE, &one);
  words = steps_of (session, &one);
  g_test_message ("%u -> %u actions in %" G_GUINT64_FORMAT " tests:\n%s",
                  one.stats.n_initial, one.n_result, one.stats.tests, words);
  g_assert_true (g_str_has_prefix (words,
                                   "  1. Type \"kill -SEGV $PPID\" and press Return in \"bash\"\n"));
  /* 16 keys, Return and one Shift held from S to D: releases are added. */
  g_assert_cmpuint (one.n_result, ==, 18);
  assert_one_minimal (&oracle, &one);
  g_assert_cmpuint (one.stats.tests, <=, 120);

  search (&oracle, 6, TRUE, &six);
  g_assert_cmpuint (six.n_result, ==, one.n_result);
  g_assert_cmpmem (six.result, six.n_result * sizeof (guint), one.result,
                   one.n_result * sizeof (guint));
  g_assert_cmpuint (six.stats.batches, <, one.stats.batches);
  outcome_clear (&one);
  outcome_clear (&six);
}

/* A failure that needs two commands typed far apart ("cd /tmp", then
 * "pwd"): both phrases stay, the typo and its correction too (the
 * command that runs is what is typed), and phrases cost fewer tests than
 * gestures alone. */
static void
test_terminal_two_commands (void)
{
  g_autoptr (Session) session = load_data ("xterm.session");
  SimOracle oracle = { session, sim_terminal_fails, "cd /tmp\npwd" };
  g_autofree char *words = NULL;
  Outcome phrases, gestures;

  search (&oracle, 1, TRUE, &phrases);
  words = steps_of (session, &phrases);
  g_test_message ("%" G_GUINT64_FORMAT " tests:\n%s", phrases.stats.tests, words);
  g_assert_nonnull (strstr (words, "Type \"cd /tnp\" in \"bash\"\n"));
  g_assert_nonnull (strstr (words, "Press BackSpace 2 times in \"bash\"\n"));
  g_assert_nonnull (strstr (words, "Type \"mp\" and press Return in \"bash\"\n"));
  g_assert_nonnull (strstr (words, "Type \"pwd\" and press Return in \"bash\"\n"));
  g_assert_null (strstr (words, "echo"));
  assert_one_minimal (&oracle, &phrases);

  search (&oracle, 1, FALSE, &gestures);
  g_assert_cmpuint (gestures.n_result, ==, phrases.n_result);
  g_test_message ("phrases: %" G_GUINT64_FORMAT " tests, gestures only: %" G_GUINT64_FORMAT,
                  phrases.stats.tests, gestures.stats.tests);
  g_assert_cmpuint (phrases.stats.tests, <, gestures.stats.tests);
  outcome_clear (&phrases);
  outcome_clear (&gestures);
}

/* The bundled demo session (91 actions) against the demo editor's model:
 * Alt+P and the click on Print, in at most 30 tests. */
static void
test_editor (void)
{
  g_autoptr (Session) session = load_data ("demo.session");
  SimOracle oracle = { session, sim_editor_fails, NULL };
  g_autofree char *words = NULL;
  Outcome o;

  search (&oracle, 6, TRUE, &o);
  words = steps_of (session, &o);
  g_test_message ("%u -> %u actions in %" G_GUINT64_FORMAT " tests:\n%s", o.stats.n_initial,
                  o.n_result, o.stats.tests, words);
  g_assert_cmpuint (o.n_result, ==, 3);
  g_assert_true (g_str_has_prefix (words, "  1. Press Alt+P in \"Editor\"\n"
                                          "  2. Alt+click at 84,129 in \"Print\"\n"));
  assert_one_minimal (&oracle, &o);
  g_assert_cmpuint (o.stats.tests, <=, 30);
  outcome_clear (&o);
}

/* A Firefox session recorded by bench/bench-firefox.sh (131 actions:
 * about:about, about:robots, scrolling, clicks, then about:crashparent
 * typed into the address bar) against the browser model: the typed URL
 * and Return stay, in at most 1.5 tests a kept action (issue #24: typing
 * that survived the phrases is tried a character at a time at once), the
 * same result whatever the batch size. */
static void
test_browser (void)
{
  g_autoptr (Session) session = load_data ("firefox.session");
  SimOracle oracle = { session, sim_browser_fails, "about:crashparent" };
  g_autofree char *words = NULL;
  Outcome one, six;

  search (&oracle, 1, TRUE, &one);
  words = steps_of (session, &one);
  g_test_message ("%u -> %u actions in %" G_GUINT64_FORMAT " tests:\n%s",
                  one.stats.n_initial, one.n_result, one.stats.tests, words);
  g_assert_true (g_str_has_prefix (words, "  1. Type \"about:crashparent\" and press Return"));
  /* 17 characters and Return, and the Shift of ':' pressed and released. */
  g_assert_cmpuint (one.n_result, ==, 20);
  assert_one_minimal (&oracle, &one);
  g_assert_cmpuint (2 * one.stats.tests, <=, 3 * one.n_result);

  search (&oracle, 6, TRUE, &six);
  g_assert_cmpmem (six.result, six.n_result * sizeof (guint), one.result,
                   one.n_result * sizeof (guint));
  outcome_clear (&one);
  outcome_clear (&six);
}

/* Candidates are asked as they really replay: a key's release without
 * its press is no question of its own (search_normalize). */
static void
test_normalize (void)
{
  g_autoptr (Session) session = load_data ("xterm.session");
  g_autoptr (GArray) actions = session_get_actions (session);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (guint));
  guint press = G_MAXUINT, release = G_MAXUINT;
  guint both[2];

  /* The first key typed: its press and its release. */
  for (guint a = 0; a < actions->len && release == G_MAXUINT; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));
      if (ev->kind == SESSION_EVENT_KEY_PRESS && press == G_MAXUINT)
        press = a;
      else if (ev->kind == SESSION_EVENT_KEY_RELEASE && press != G_MAXUINT)
        release = a;
    }
  both[0] = press;
  both[1] = release;
  search_normalize (session, both, 2, out);
  g_assert_cmpuint (out->len, ==, 2);
  g_array_set_size (out, 0);
  search_normalize (session, &release, 1, out);
  g_assert_cmpuint (out->len, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/search/terminal", test_terminal);
  g_test_add_func ("/search/terminal-two-commands", test_terminal_two_commands);
  g_test_add_func ("/search/editor", test_editor);
  g_test_add_func ("/search/browser", test_browser);
  g_test_add_func ("/search/normalize", test_normalize);
  return g_test_run ();
}
