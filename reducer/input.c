/* input.c — the user's input to xreduce, checked (see input.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "input.h"
#include "output.h"

#include <errno.h>
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
