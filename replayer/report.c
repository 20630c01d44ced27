/* report.c — the bug-report folder of a replay (see report.h).
 *
 * Pictures are taken during the replay (report_step); everything is
 * written at the end (report_finish): report.md, steps.png, step-NN.png,
 * last-screen.png, replay-xdotool.sh and the session itself. All of it
 * goes into a private folder beside the report's path (0700, files 0600:
 * they show what the user typed), renamed into place once complete: an
 * interrupted replay leaves no half report, a killed one no folder.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report.h"
#include "output.h"
#include "proc.h"
#include "quote.h"
#include "snapshot.h"

#include <errno.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

typedef struct
{
  guint number;       /* action number, 0-based */
  char *words;
  char *picture;      /* file name in the folder, or NULL */
} Step;

struct Report
{
  char *dir;          /* where the report goes when complete */
  ProcTempDir *fresh; /* where it is written until then */
  const char *fresh_path;
  char *session_path;
  char **argv;
  Session *session;   /* a copy */
  GArray *steps;      /* of Step */
  GPtrArray *pictures;   /* of Snapshot*, for the contact sheet */
  GPtrArray *captions;   /* of char*, NULL-terminated at the end */
  char *picture_error;   /* first failure to take a picture */
  gboolean have_last, have_sheet;   /* last-screen.png, steps.png written */
};

static void
step_clear (Step *step)
{
  g_free (step->words);
  g_free (step->picture);
}

char *
report_step_words (const SessionEvent *ev)
{
  g_autofree char *words = session_event_describe (ev);
  g_autoptr (GString) out = g_string_new (NULL);

  g_string_append_c (out, g_ascii_toupper (words[0]));
  g_string_append (out, words + 1);
  /* Keys say where they were typed. */
  if ((ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
      && ev->wm_name != NULL && *ev->wm_name != '\0')
    g_string_append_printf (out, " in \"%s\"", ev->wm_name);
  g_string_append_c (out, '.');
  /* The title is whatever a client chose: Markdown text on one line. */
  return quote_markdown_text (out->str);
}

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

Report *
report_new (const char *dir, const Session *session, const char *session_path,
            const char *const *argv, GError **error)
{
  g_autoptr (Report) report = g_new0 (Report, 1);
  g_autofree char *text = session_to_string (session);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *tmpl = NULL;
  g_autofree char *base = NULL;

  /* An earlier report at @dir is replaced at the end; anything else there
   * is not ours to remove. */
  if (!output_dir_check (dir, "report.md", error))
    return NULL;
  base = g_path_get_basename (dir);
  tmpl = g_strdup_printf ("%s/%s.partial-XXXXXX", parent, base);
  if (g_mkdir_with_parents (parent, 0700) != 0
      || (report->fresh = proc_tempdir_new_at (tmpl, NULL)) == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot create the report folder %s: %s", dir, g_strerror (saved));
      return NULL;
    }
  report->fresh_path = proc_tempdir_get_path (report->fresh);
  report->dir = g_strdup (dir);
  report->session_path = g_strdup (session_path);
  report->argv = g_strdupv ((char **) argv);
  report->session = session_parse (text, strlen (text), session_path, error);
  if (report->session == NULL)
    return NULL;
  report->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  g_array_set_clear_func (report->steps, (GDestroyNotify) step_clear);
  report->pictures = g_ptr_array_new_with_free_func ((GDestroyNotify) snapshot_free);
  report->captions = g_ptr_array_new_with_free_func (g_free);
  return g_steal_pointer (&report);
}

void
report_free (Report *report)
{
  if (report == NULL)
    return;
  /* What was not put in place goes (an interrupted replay). */
  g_clear_pointer (&report->fresh, proc_tempdir_free);
  g_free (report->dir);
  g_free (report->session_path);
  g_strfreev (report->argv);
  if (report->session != NULL)
    session_free (report->session);
  if (report->steps != NULL)
    g_array_unref (report->steps);
  if (report->pictures != NULL)
    g_ptr_array_unref (report->pictures);
  if (report->captions != NULL)
    g_ptr_array_unref (report->captions);
  g_free (report->picture_error);
  g_free (report);
}

void
report_step (Report *report, Display *dpy, guint number, const SessionEvent *ev, int x, int y)
{
  Step step = { .number = number };
  g_autoptr (GError) error = NULL;
  g_autoptr (Snapshot) picture = NULL;
  g_autofree char *caption = NULL;
  g_autofree char *words = session_event_describe (ev);

  step.words = report_step_words (ev);
  caption = g_strdup_printf ("%u. %s", report->steps->len + 1, words);
  picture = dpy != NULL ? snapshot_take (dpy, &error) : NULL;
  if (picture != NULL && snapshot_annotate (picture, dpy, x, y, caption, &error))
    {
      g_autofree char *path = NULL;

      step.picture = g_strdup_printf ("step-%02u.png", report->steps->len + 1);
      path = g_build_filename (report->fresh_path, step.picture, NULL);
      if (!snapshot_save_png (picture, path, &error))
        g_clear_pointer (&step.picture, g_free);
      else
        {
          g_ptr_array_add (report->pictures, g_steal_pointer (&picture));
          g_ptr_array_add (report->captions, g_strdup (caption));
        }
    }
  if (error != NULL && report->picture_error == NULL)
    report->picture_error = g_strdup (error->message);
  g_array_append_val (report->steps, step);
}

void
report_take_last_pictures (Report *report, Display *dpy, gboolean app_alive)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *last_path = g_build_filename (report->fresh_path, "last-screen.png", NULL);

  /* The screen at the end: if the app is still there, what it shows now;
   * after a crash, the last picture taken before it. */
  if (app_alive)
    {
      g_autoptr (Snapshot) last = snapshot_take (dpy, &error);
      report->have_last = last != NULL && snapshot_save_png (last, last_path, &error);
    }
  else if (report->pictures->len > 0)
    report->have_last = snapshot_save_png (g_ptr_array_index (report->pictures,
                                                              report->pictures->len - 1),
                                           last_path, &error);
  if (report->pictures->len > 0 && error == NULL)
    {
      g_autofree char *sheet = g_build_filename (report->fresh_path, "steps.png", NULL);
      g_ptr_array_add (report->captions, NULL);
      report->have_sheet = snapshot_save_contact_sheet (report->pictures,
                                                        (const char *const *) report->captions->pdata,
                                                        dpy, sheet, &error);
      g_ptr_array_remove_index (report->captions, report->captions->len - 1);
    }
  if (error != NULL && report->picture_error == NULL)
    report->picture_error = g_strdup (error->message);
}

gboolean
report_finish (Report *report, const char *outcome, const char *stderr_tail,
               char *const *backtrace, guint replayed, GError **error)
{
  g_autoptr (GString) md = g_string_new (NULL);
  g_autoptr (GString) command = g_string_new (NULL);
  g_autofree char *md_path = g_build_filename (report->fresh_path, "report.md", NULL);
  g_autofree char *session_name = g_path_get_basename (report->session_path);
  g_autofree char *name_md = quote_markdown_text (session_name);
  g_autofree char *name_code = quote_markdown_code (session_name);
  g_autofree char *command_line = NULL;
  int width, height;

  session_get_screen (report->session, &width, &height);
  for (char **a = report->argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *q = quote_shell (*a);
      g_string_append_printf (command, "%s%s", a == report->argv ? "" : " ", q);
    }
  /* An indented code block: one line, whatever the recorded command holds. */
  command_line = quote_terminal (command->str);

  g_string_append_printf (md, "# %s: %s\n\n", name_md, outcome);
  g_string_append_printf (md, "Replaying %u user action%s of %s against\n\n    %s\n\n",
                          session_get_n_actions (report->session),
                          session_get_n_actions (report->session) == 1 ? "" : "s",
                          name_code, command_line);
  g_string_append_printf (md, "on a %dx%d X screen: the app **%s** after %u of them.\n\n",
                          width, height, outcome, replayed);
  if (report->have_sheet)
    g_string_append (md, "![every step at a glance](steps.png)\n\n");

  g_string_append (md, "## Steps\n\n");
  for (guint i = 0; i < report->steps->len; i++)
    {
      Step *step = &g_array_index (report->steps, Step, i);
      g_string_append_printf (md, "%u. %s", i + 1, step->words);
      if (step->picture != NULL)
        g_string_append_printf (md, " ([screen before](%s))", step->picture);
      g_string_append_c (md, '\n');
    }
  if (report->steps->len == 0)
    g_string_append (md, "(no action was replayed)\n");

  g_string_append (md, "\n## What happened\n\n");
  g_string_append_printf (md, "The app %s.\n", outcome);
  if (backtrace != NULL && backtrace[0] != NULL)
    {
      g_string_append (md, "\nTop of the crash's backtrace (gdb):\n\n");
      for (guint i = 0; backtrace[i] != NULL; i++)
        g_string_append_printf (md, "    #%u %s\n", i, backtrace[i]);
    }
  if (stderr_tail != NULL && *stderr_tail != '\0')
    {
      g_auto (GStrv) lines = g_strsplit (stderr_tail, "\n", -1);
      guint n = g_strv_length (lines), from = n > 20 ? n - 20 : 0;

      g_string_append (md, "\nThe end of its stderr:\n\n");
      for (guint i = from; i < n; i++)
        if (*lines[i] != '\0' || i + 1 < n)
          g_string_append_printf (md, "    %s\n", lines[i]);
    }
  if (report->have_last)
    g_string_append (md, "\nThe last screen before the end: [last-screen.png](last-screen.png)\n");

  g_string_append (md, "\n## Replay it\n\nWith xreduce's replayer (starts its own Xvfb):\n\n");
  g_string_append_printf (md, "    xreplay session.log -- %s\n\n", command_line);
  g_string_append (md, "Without xreduce, with xdotool, against the app already running on your display:\n\n"
                       "    DISPLAY=:0 sh replay-xdotool.sh\n");
  if (report->picture_error != NULL)
    g_string_append_printf (md, "\n(Some pictures could not be taken: %s)\n", report->picture_error);

  if (!write_session_copy (report, error)
      || !output_file_write (md_path, md->str, (gssize) md->len, OUTPUT_FILE_MODE, error))
    return FALSE;
  /* Complete: in place of what was at the path. */
  return output_dir_install (report->fresh_path, report->dir, error);
}

