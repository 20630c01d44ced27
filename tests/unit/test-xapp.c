/* test-xapp.c — xapp's rule of window indexes, without a display: the
 * recorder and the replayer both rank the app's windows by it. */
#include <glib.h>

#include "xapp.h"

typedef struct
{
  guint64 first_map;         /* 0: never the app's */
  gboolean mapped;
} Win;

static guint64
win_first_map (gconstpointer data)
{
  const Win *win = data;

  return win->mapped ? win->first_map : 0;
}

static void
test_index (void)
{
  /* Listed out of first-map order (the recorder's stacking order). */
  Win wins[] = { { 3, TRUE }, { 1, TRUE }, { 0, TRUE }, { 2, FALSE }, { 4, TRUE } };
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (wins); i++)
    g_ptr_array_add (list, &wins[i]);
  /* The unmapped window (first map 2) and the one never the app's count
   * for nothing. */
  g_assert_cmpint (xapp_window_index (list, win_first_map, 1), ==, 0);
  g_assert_cmpint (xapp_window_index (list, win_first_map, 3), ==, 1);
  g_assert_cmpint (xapp_window_index (list, win_first_map, 4), ==, 2);
  g_assert_true (xapp_window_at_index (list, win_first_map, 0) == &wins[1]);
  g_assert_true (xapp_window_at_index (list, win_first_map, 1) == &wins[0]);
  g_assert_true (xapp_window_at_index (list, win_first_map, 2) == &wins[4]);
  g_assert_null (xapp_window_at_index (list, win_first_map, 3));
  g_assert_null (xapp_window_at_index (list, win_first_map, -1));
  /* Mapped again: it keeps its first map, and its index follows. */
  wins[3].mapped = TRUE;
  g_assert_cmpint (xapp_window_index (list, win_first_map, 3), ==, 2);
  g_assert_true (xapp_window_at_index (list, win_first_map, 1) == &wins[3]);
}

static void
test_empty (void)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();

  g_assert_cmpint (xapp_window_index (list, win_first_map, 1), ==, 0);
  g_assert_null (xapp_window_at_index (list, win_first_map, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/xapp/index", test_index);
  g_test_add_func ("/xapp/index-empty", test_empty);
  return g_test_run ();
}
