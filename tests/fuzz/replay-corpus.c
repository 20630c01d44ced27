/* replay-corpus.c — runs every file of a corpus (CORPUS_DIR) through the
 * fuzz target it is linked with, one GTest case per file, so the unit
 * suite (and its ASan/UBSan build) replays what the fuzzer found. */
#include <stdint.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
replay_one (gconstpointer data)
{
  const char *path = data;
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpint (LLVMFuzzerTestOneInput ((const uint8_t *) contents, len), ==, 0);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_open (CORPUS_DIR, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >, 0);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *test = g_strdup_printf ("/fuzz-corpus/%s", file);
      /* Leaked on purpose: test data lives as long as the process. */
      char *path = g_build_filename (CORPUS_DIR, file, NULL);
      g_test_add_data_func_full (test, path, replay_one, g_free);
    }
  return g_test_run ();
}
