/* fuzz-session.c — libFuzzer/AFL++ target for the session parser.
 *
 * Properties checked on every input: parsing never crashes, hangs or leaks;
 * an accepted session prints to text that parses again and prints the same
 * (the canonical form is a fixed point); gestures partition the actions;
 * a subset of a parsed session is itself printable and parsable.
 * Build and run: tests/fuzz/run-fuzz.sh; the unit suite replays corpus/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "session.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse ((const char *) data, size, "fuzz", &error);
  g_autofree char *text = NULL, *text2 = NULL, *subset_text = NULL;
  g_autoptr (Session) again = NULL, subset = NULL, subset_again = NULL;
  g_autoptr (GPtrArray) gestures = NULL;
  g_autoptr (GArray) keep = NULL;
  guint covered = 0, n_actions;

  if (session == NULL)
    {
      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        abort ();
      return 0;
    }
  text = session_to_string (session);
  again = session_parse (text, strlen (text), "fuzz-again", &error);
  if (again == NULL)
    abort ();
  text2 = session_to_string (again);
  if (strcmp (text, text2) != 0)
    abort ();

  n_actions = session_get_n_actions (session);
  gestures = session_get_gestures (session);
  for (guint i = 0; i < gestures->len; i++)
    covered += ((SessionGesture *) g_ptr_array_index (gestures, i))->actions->len;
  if (covered != n_actions)
    abort ();

  keep = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint a = 0; a < n_actions; a += 2)
    g_array_append_val (keep, a);
  subset = session_subset (session, (guint *) keep->data, keep->len);
  subset_text = session_to_string (subset);
  subset_again = session_parse (subset_text, strlen (subset_text), "fuzz-subset", &error);
  if (subset_again == NULL)
    abort ();
  return 0;
}
