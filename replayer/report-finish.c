/* report-finish.c — the end of the report (see report.h, report_finish()):
 * report.md's text and its plain-text twin report.txt, the session's copy
 * and its xdotool script, and the folder put in place of what was at its
 * path. The pictures were taken during the replay and are written by
 * report.c (report_write_pictures()); what happened is said by
 * report-crash.c, the environment by report-env.c, the app by
 * report-app.c. Start reading at report_finish().
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report.h"
#include "report-private.h"
#include "output.h"
#include "plaintext.h"
#include "proc.h"
#include "quote.h"

#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>

static gboolean
write_session_copy (Report *report, GError **error)
{
  g_autofree char *path = g_build_filename (report->fresh_path, "session.log", NULL);
  g_autofree char *script_path = g_build_filename (report->fresh_path, "replay-xdotool.sh",
                                                   NULL);
  g_autofree char *name = g_path_get_basename (report->session_path);
  g_autofree char *script = session_export_xdotool (report->session, name);

  if (!session_save (report->session, path, error))
    return FALSE;
  return output_file_write (script_path, script, -1, OUTPUT_SCRIPT_MODE, error);
}

/* Releases that xreduce added to the session are not the user's: what
 * stays held, and from which step, in one line (the steps' words name
 * the chords: "Alt+click"). */
static void
append_held (Report *report, GString *md)
{
  g_autoptr (GArray) actions = session_get_actions (report->session);
  g_autoptr (GString) held = g_string_new (NULL);
  guint last_user = 0, n_held = 0;

  for (guint a = 0; a < actions->len; a++)
    if (!session_get_event (report->session, g_array_index (actions, guint, a))->added)
      last_user = a;
  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (report->session,
                                                  g_array_index (actions, guint, a));
      g_autofree char *what = NULL;
      g_autofree char *what_md = NULL;
      int step = -1;

      if (!ev->added)
        continue;
      /* The step of the press it releases. */
      for (guint b = a; b-- > 0;)
        {
          const SessionEvent *press = session_get_event (report->session,
                                                         g_array_index (actions, guint, b));

          if ((ev->kind == SESSION_EVENT_KEY_RELEASE && press->kind == SESSION_EVENT_KEY_PRESS
               && press->keycode == ev->keycode)
              || (ev->kind == SESSION_EVENT_BUTTON_RELEASE
                  && press->kind == SESSION_EVENT_BUTTON_PRESS && press->button == ev->button))
            {
              step = report_step_of_phrase (report, report->phrase_of[b]);
              break;
            }
        }
      if (step < 0)
        continue;
      /* A long list says nothing more than its count and first few. */
      if (n_held++ >= 6)
        continue;
      what = ev->kind == SESSION_EVENT_KEY_RELEASE ? g_strdup (ev->keysym)
                                                   : g_strdup_printf ("button %u", ev->button);
      what_md = quote_markdown_code (what);
      g_string_append_printf (held, "%s%s from step %d%s", held->len > 0 ? ", " : "", what_md,
                              step + 1, a > last_user ? "" : " until it is pressed again");
    }
  if (n_held > 6)
    g_string_append_printf (held, " and %u more", n_held - 6);
  if (held->len > 0)
    g_string_append_printf (md, "\nHeld down in these steps, as the failure needs (xreduce "
                            "releases each when it is pressed again, or after the last step): "
                            "%s.\n", held->str);
}

/* A word of the app's command line as report.md shows it: no absolute
 * path of this machine's (the program found in PATH by its name; a file
 * outside the system's folders as seen from the report). */
static char *
shown_word (const char *word, gboolean program, const char *report_dir)
{
  static const char *const system_dirs[] = { "/usr/", "/bin/", "/sbin/", "/lib", "/opt/",
                                             "/etc/", "/snap/", "/nix/" };
  g_autofree char *base = NULL;
  g_autofree char *found = NULL;
  g_autofree char *real_word = NULL;
  g_autofree char *real_found = NULL;

  if (!g_path_is_absolute (word) || !g_file_test (word, G_FILE_TEST_EXISTS))
    return g_strdup (word);
  base = g_path_get_basename (word);
  found = program ? g_find_program_in_path (base) : NULL;
  real_word = realpath (word, NULL);
  real_found = found != NULL ? realpath (found, NULL) : NULL;
  if (real_found != NULL && real_word != NULL && g_str_equal (real_found, real_word))
    return g_steal_pointer (&base);
  /* The system's own folders are the same on the reader's machine. */
  for (gsize i = 0; i < G_N_ELEMENTS (system_dirs); i++)
    if (g_str_has_prefix (word, system_dirs[i]))
      return g_strdup (word);
  return output_relative_path (report_dir, word);
}

/* What the app got from outside (session-world.h): where it was
 * recorded, the files it read, what it pasted and what was dropped on it
 * (the user's data, as typed text is: in code spans). */
static void
append_given (Report *report, GString *md)
{
  g_autoptr (GPtrArray) lines = session_describe_world (report->session, SESSION_WORDS_MARKDOWN);

  if (lines->len == 0)
    return;
  g_string_append (md, "\n## What the app got from outside\n\n");
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (md, "- %s\n", (const char *) g_ptr_array_index (lines, i));
}

/* The releases that xreduce added to the session (not the user's). */
static guint
count_added (Report *report)
{
  g_autoptr (GArray) actions = session_get_actions (report->session);
  guint n_added = 0;

  for (guint a = 0; a < actions->len; a++)
    if (session_get_event (report->session, g_array_index (actions, guint, a))->added)
      n_added++;
  return n_added;
}

/* The app's command line as report.md shows it (shown_word()), each word
 * quoted for the shell, on one line. */
static char *
command_shown (Report *report)
{
  g_autoptr (GString) command = g_string_new (NULL);

  for (char **a = report->argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *word = shown_word (*a, a == report->argv, report->dir);
      g_autofree char *q = quote_shell (word);
      g_string_append_printf (command, "%s%s", a == report->argv ? "" : " ", q);
    }
  /* An indented code block: one line, whatever the recorded command holds. */
  return quote_terminal (command->str);
}

/* report.md's head: the title, one count of the steps and the actions
 * they are made of, the command replayed, what became of the app, the
 * replay's pictures. */
static void
append_head (Report *report, GString *md, const ReplayResult *result, const char *title_md,
             const char *command_line, const char *verdict_md)
{
  guint n_actions = session_get_n_actions (report->session), n_added = count_added (report);
  guint n_steps = report->phrases->len;

  g_string_append_printf (md, "# %s\n\n", title_md);
  /* One count: the steps below, and the actions they are made of. */
  g_string_append_printf (md, "%u step%s (%u user action%s", n_steps, n_steps == 1 ? "" : "s",
                          n_actions - n_added, n_actions - n_added == 1 ? "" : "s");
  if (n_added > 0)
    g_string_append_printf (md, " and %u release%s that xreduce added", n_added,
                            n_added == 1 ? "" : "s");
  g_string_append (md, "), replayed from [session.log](session.log) against\n\n");
  g_string_append_printf (md, "    %s\n\n", command_line);
  if (result->verdict.kind == VERDICT_PASSED || report->steps->len == 0)
    g_string_append_printf (md, "The app **%s**.\n\n", verdict_md);
  else
    g_string_append_printf (md, "The app **%s** after step %u of %u.\n\n", verdict_md,
                            report->steps->len, n_steps);
  if (report->have_gif)
    g_string_append (md, "![the replay](replay.gif)\n\n");
  if (report->have_sheet)
    g_string_append (md, "Every step at a glance: [steps.png](steps.png)\n\n");
}

/* "## Steps": each in words, with its pictures; then what stays held and
 * what the app got from outside. */
static void
append_steps (Report *report, GString *md)
{
  g_string_append (md, "## Steps\n\n");
  for (guint i = 0; i < report->steps->len; i++)
    {
      Step *step = &g_array_index (report->steps, Step, i);
      g_string_append_printf (md, "%u. %s", i + 1, step->words);
      if (step->picture != NULL && step->typed != NULL)
        g_string_append_printf (md, " ([screen before](%s), [the text typed](%s))",
                                step->picture, step->typed);
      else if (step->picture != NULL)
        g_string_append_printf (md, " ([screen before](%s))", step->picture);
      g_string_append_c (md, '\n');
    }
  if (report->steps->len == 0)
    g_string_append (md, "(no action was replayed)\n");
  append_held (report, md);
  append_given (report, md);
}

/* "## Replay it": with xreplay (the options a session cannot carry, the
 * files the app read), with xdotool; then why pictures are missing. */
static void
append_replay_it (Report *report, GString *md, const char *command_line)
{
  g_string_append (md, "\n## Replay it\n\nWith xreduce's replayer (starts its own Xvfb):\n\n");
  {
    /* What session.log cannot carry (a --wm); its replay line has the
     * timing. */
    g_autoptr (GString) options = g_string_new (NULL);
    g_autofree char *shown = NULL;

    for (char **a = report->replay_argv; a != NULL && *a != NULL; a++)
      {
        g_autofree char *q = quote_shell (*a);
        g_string_append_printf (options, "%s ", q);
      }
    shown = quote_terminal (options->str);
    g_string_append_printf (md, "    xreplay %ssession.log -- %s\n\n", shown, command_line);
  }
  {
    g_autoptr (GPtrArray) files = session_get_files (report->session);
    gboolean copied = FALSE;

    for (guint i = 0; i < files->len; i++)
      copied |= ((const SessionEvent *) g_ptr_array_index (files, i))->copied;
    /* The files are the user's: not in the report; where they go. */
    if (copied)
      g_string_append (md, "The files the app read are not in this folder: xreplay takes "
                           "their copies (xrecord --with-files) from `session.log.files/` "
                           "beside the session, or from `--files DIR`.\n\n");
  }
  g_string_append (md, "Without xreduce, with xdotool, against the app already running on your display:\n\n"
                       "    DISPLAY=:0 sh replay-xdotool.sh\n");
  if (report->picture_error != NULL)
    {
      g_autofree char *why = quote_markdown_text (report->picture_error);
      g_string_append_printf (md, "\n(Some pictures could not be taken: %s)\n", why);
    }
}

gboolean
report_finish (Report *report, const ReplayResult *result, GError **error)
{
  g_autoptr (GString) md = g_string_new (NULL);
  g_autofree char *md_path = g_build_filename (report->fresh_path, "report.md", NULL);
  g_autofree char *txt_path = g_build_filename (report->fresh_path, "report.txt", NULL);
  g_autofree char *command_line = NULL;
  g_autofree char *plain = NULL;
  g_autoptr (GArray) python = crash_python_stack (result->stderr_text, result->stderr_len);
  g_autofree char *outcome = report_outcome_words (result, python);
  g_autofree char *verdict_words = report_verdict_words (result);
  g_autofree char *verdict_md = quote_markdown_text (verdict_words);
  g_autofree char *title = NULL;
  g_autofree char *title_md = NULL;
  g_autofree char *app_name = NULL;
  g_auto (ReportAppInfo) app = { 0 };

  /* Each may take seconds (an app slow to say its version, a long
   * replay's frames): a signal meanwhile ends the report. */
  report_app_info_probe (&app, (const char *const *) report->argv);
  if (!proc_check_interrupt (error))
    return FALSE;
  report_write_pictures (report, result, outcome);
  if (!proc_check_interrupt (error))
    return FALSE;
  app_name = report_app_title (&app);
  /* One line of plain text that reads right rendered or not (a bug
   * tracker's title, Debian's BTS). */
  title = g_strdup_printf ("%s %s", app_name, outcome);
  title_md = quote_markdown_title (title);
  command_line = command_shown (report);
  append_head (report, md, result, title_md, command_line, verdict_md);
  append_steps (report, md);

  g_string_append (md, "\n## What happened\n\n");
  report_append_what_happened (md, result, python, report->traced);
  if (report->have_last)
    g_string_append_printf (md, "\nThe last screen%s: [last-screen.png](last-screen.png)\n",
                            result->verdict.kind == VERDICT_PASSED ? ""
                            : ", the failure marked in red");
  report_append_environment (md, report->session, &app, report->x_server, report->wm,
                             report->how_known ? &report->how : NULL, report->dir);
  append_replay_it (report, md, command_line);

  if (report->write_error != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", report->write_error);
      return FALSE;
    }
  plain = plaintext_from_markdown (md->str);
  if (!write_session_copy (report, error)
      || !output_file_write (md_path, md->str, (gssize) md->len, OUTPUT_FILE_MODE, error)
      || !output_file_write (txt_path, plain, -1, OUTPUT_FILE_MODE, error))
    return FALSE;
  /* Complete: in place of what was at the path. */
  return output_dir_install (report->fresh_path, report->dir, error);
}
