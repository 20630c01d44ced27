/* input.c — the user's input to xreduce, checked (see input.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "input.h"
#include "output.h"
#include "quote.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

gboolean
input_choose_app (const ReduceOptions *options, const Session *session, char ***app_argv,
                  gboolean *recorded, GError **error)
{
  g_autoptr (GError) local = NULL;

  *recorded = FALSE;
  if (options->app_argv != NULL && options->app_argv[0] != NULL)
    {
      *app_argv = g_strdupv (options->app_argv);
      return TRUE;
    }
  /* A session may come from anyone: its command runs only if asked for,
   * or a plain program name. */
  if ((session_get_command (session) == NULL || !options->run_recorded_command)
      && !session_command_check (session, options->session_path, &local))
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
      return FALSE;
    }
  *app_argv = g_strdupv ((char **) session_get_command (session));
  *recorded = TRUE;
  return TRUE;
}

gboolean
input_check_output (const ReduceOptions *options, char **output_path, GError **error)
{
  g_autofree char *path = options->output_path != NULL
                            ? g_strdup (options->output_path)
                            : g_strconcat (options->session_path, ".min", NULL);
  g_autofree char *dir = NULL;
  g_autoptr (GError) local = NULL;

  /* Fail early, before minutes of work, if the output cannot be written. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                   "cannot write the result to %s: it is a folder", path);
      return FALSE;
    }
  if (options->report)
    {
      g_autofree char *report = g_strconcat (path, ".report", NULL);

      if (!output_dir_check (report, "report.md", &local))
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s (or --no-report)",
                       local->message);
          return FALSE;
        }
    }
  dir = g_path_get_dirname (path);
  if (access (dir, W_OK) != 0)
    {
      int saved = errno;
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "cannot write the result to %s: %s",
                   path, g_strerror (saved));
      return FALSE;
    }
  *output_path = g_steal_pointer (&path);
  return TRUE;
}

gboolean
input_check_screen (const ReduceOptions *options, const Session *session, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (session_check_screen (session, options->session_path, options->replay.max_screen_width,
                            options->replay.max_screen_height, &local))
    return TRUE;
  g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
  return FALSE;
}

/* Are @a and @b the same app's classes? Case aside, or one the other's
 * beginning: "firefox" and "firefox-esr", "Chromium" and
 * "chromium-browser". */
static gboolean
same_class (const char *a, const char *b)
{
  gsize n = MIN (strlen (a), strlen (b));

  return n > 0 && g_ascii_strncasecmp (a, b, n) == 0;
}

/* "\"XDemo\", \"XDemo-dialog\"", quoted for the terminal. */
static char *
classes_in_words (const char *const *classes)
{
  g_autoptr (GString) words = g_string_new (NULL);

  for (guint i = 0; classes[i] != NULL && i < 4; i++)
    {
      g_autofree char *shown = quote_terminal (classes[i]);
      g_string_append_printf (words, "%s\"%s\"", i > 0 ? ", " : "", shown);
    }
  return g_string_free (g_steal_pointer (&words), FALSE);
}

gboolean
input_check_app_classes (const Session *session, const char *session_path,
                         const char *const *app_classes, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) actions = session_get_actions (session);
  g_auto (GStrv) recorded = NULL;

  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));

      if (ev->window >= 0 && ev->wm_class != NULL && *ev->wm_class != '\0'
          && g_hash_table_add (seen, ev->wm_class))
        g_strv_builder_add (builder, ev->wm_class);
    }
  recorded = g_strv_builder_end (builder);
  if (recorded[0] == NULL || app_classes == NULL || app_classes[0] == NULL)
    return TRUE;
  for (guint i = 0; recorded[i] != NULL; i++)
    for (guint j = 0; app_classes[j] != NULL; j++)
      if (same_class (recorded[i], app_classes[j]))
        return TRUE;
  {
    g_autofree char *was = classes_in_words ((const char *const *) recorded);
    g_autofree char *is = classes_in_words (app_classes);
    g_autofree char *name = quote_terminal (session_path);

    g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                 "%s was recorded for another app: its actions aim at windows of class %s, "
                 "this app's windows are %s; give the app it was recorded with after '--' (or "
                 "the session for this app)", name, was, is);
    return FALSE;
  }
}
