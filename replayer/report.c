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
  guint phrase;       /* index in Report.phrases */
  char *words;        /* Markdown, one line */
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
  GPtrArray *phrases; /* of SessionPhrase: the steps */
  guint *phrase_of;   /* action number -> its phrase */
  guint *picture_of;  /* phrase -> the action its picture is taken before */
  GArray *steps;      /* of Step, the phrases reached */
  GPtrArray *pictures;   /* of Snapshot* (marked, no caption band), for the contact sheet */
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
report_step_words (const Session *session, const SessionPhrase *phrase)
{
  g_autofree char *words = session_phrase_describe (session, phrase, SESSION_WORDS_MARKDOWN);

  return g_strconcat (words, ".", NULL);
}

/* The action a phrase's picture is taken before: a click's or drag's
 * press (the pointer is on the target then), the last move of a motion,
 * the first action of anything else. */
static guint
picture_action (const Session *session, GArray *actions, const SessionPhrase *phrase)
{
  guint first = g_array_index (phrase->actions, guint, 0);

  if (phrase->kind == SESSION_PHRASE_MOTION)
    return g_array_index (phrase->actions, guint, phrase->actions->len - 1);
  if (phrase->kind != SESSION_PHRASE_CLICK && phrase->kind != SESSION_PHRASE_DRAG)
    return first;
  for (guint i = 0; i < phrase->actions->len; i++)
    {
      guint a = g_array_index (phrase->actions, guint, i);
      if (session_get_event (session, g_array_index (actions, guint, a))->kind
          == SESSION_EVENT_BUTTON_PRESS)
        return a;
    }
  return first;
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
  /* The folder it goes in must be there: a typo in its path is said, not
   * made into folders. */
  if (!g_file_test (parent, G_FILE_TEST_IS_DIR))
    errno = ENOENT;
  if (!g_file_test (parent, G_FILE_TEST_IS_DIR)
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
  report->phrases = session_get_phrases (report->session);
  {
    g_autoptr (GArray) actions = session_get_actions (report->session);

    report->phrase_of = g_new0 (guint, MAX (actions->len, 1));
    report->picture_of = g_new0 (guint, MAX (report->phrases->len, 1));
    for (guint p = 0; p < report->phrases->len; p++)
      {
        const SessionPhrase *phrase = g_ptr_array_index (report->phrases, p);

        for (guint i = 0; i < phrase->actions->len; i++)
          report->phrase_of[g_array_index (phrase->actions, guint, i)] = p;
        report->picture_of[p] = picture_action (report->session, actions, phrase);
      }
  }
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
  if (report->phrases != NULL)
    g_ptr_array_unref (report->phrases);
  g_free (report->phrase_of);
  g_free (report->picture_of);
  g_free (report);
}

/* A caption the core "fixed" font can draw: ASCII, one line. */
static char *
caption_text (const char *words)
{
  g_autofree char *line = quote_terminal (words);
  GString *out = g_string_new (NULL);

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    g_string_append_c (out, (guchar) *p < 0x80 ? *p : '?');
  return g_string_free (out, FALSE);
}

/* The picture of step @index (0-based), before its action @step. */
static void
take_picture (Report *report, Display *dpy, guint index, const ReplayStep *step)
{
  Step *s = &g_array_index (report->steps, Step, index);
  const SessionPhrase *phrase = g_ptr_array_index (report->phrases, s->phrase);
  g_autofree char *said = session_phrase_describe (report->session, phrase,
                                                   SESSION_WORDS_TERMINAL);
  g_autofree char *plain = caption_text (said);
  g_autofree char *caption = g_strdup_printf ("%u. %s", index + 1, plain);
  g_autoptr (GError) error = NULL;
  g_autoptr (Snapshot) screen = snapshot_take (dpy, &error);
  g_autoptr (Snapshot) picture = NULL;
  Snapshot *marked = NULL;
  SnapshotMarks marks = { .pointer_x = -1, .pointer_y = -1, .target_x = step->x,
                          .target_y = step->y, .target = step->target,
                          .windows = step->windows, .n_windows = step->n_windows };
  Window root, child;
  int wx, wy;
  unsigned int mask;

  if (XQueryPointer (dpy, DefaultRootWindow (dpy), &root, &child, &marks.pointer_x,
                     &marks.pointer_y, &wx, &wy, &mask) == False)
    marks.pointer_x = marks.pointer_y = -1;
  if (screen != NULL)
    picture = snapshot_step_picture (screen, dpy, &marks, caption, &marked, &error);
  if (picture != NULL)
    {
      g_autofree char *name = g_strdup_printf ("step-%02u.png", index + 1);
      g_autofree char *path = g_build_filename (report->fresh_path, name, NULL);

      if (snapshot_save_png (picture, path, &error))
        {
          s->picture = g_steal_pointer (&name);
          g_ptr_array_add (report->pictures, g_steal_pointer (&marked));
          g_ptr_array_add (report->captions, g_steal_pointer (&caption));
        }
    }
  g_clear_pointer (&marked, snapshot_free);
  if (error != NULL && report->picture_error == NULL)
    report->picture_error = g_strdup (error->message);
}

void
report_step (Report *report, Display *dpy, const ReplayStep *step)
{
  guint p = report->phrase_of[step->number];
  const SessionPhrase *phrase = g_ptr_array_index (report->phrases, p);

  /* A phrase is a step of the report from its first action on. */
  if (step->number == g_array_index (phrase->actions, guint, 0))
    {
      Step s = { .phrase = p, .words = report_step_words (report->session, phrase) };
      g_array_append_val (report->steps, s);
    }
  if (step->number == report->picture_of[p] && dpy != NULL && report->steps->len > 0
      && g_array_index (report->steps, Step, report->steps->len - 1).phrase == p)
    take_picture (report, dpy, report->steps->len - 1, step);
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

/* Releases that xreduce added to the session are not the user's: say
 * which, and in which step. */
static void
append_added_releases (Report *report, GString *md)
{
  g_autoptr (GArray) actions = session_get_actions (report->session);
  g_autoptr (GString) list = g_string_new (NULL);
  guint n = 0;

  for (guint a = 0; a < actions->len; a++)
    {
      const SessionEvent *ev = session_get_event (report->session,
                                                  g_array_index (actions, guint, a));
      g_autofree char *said = NULL;
      g_autofree char *quoted = NULL;
      guint step = 0;

      if (!ev->added)
        continue;
      for (guint i = 0; i < report->steps->len; i++)
        if (g_array_index (report->steps, Step, i).phrase == report->phrase_of[a])
          step = i + 1;
      said = ev->kind == SESSION_EVENT_KEY_RELEASE
               ? g_strdup_printf ("release %s", ev->keysym)
               : g_strdup_printf ("release button %u", ev->button);
      quoted = quote_markdown_text (said);
      if (step > 0)
        g_string_append_printf (list, "%s%s (step %u)", n > 0 ? ", " : "", quoted, step);
      else
        g_string_append_printf (list, "%s%s", n > 0 ? ", " : "", quoted);
      n++;
    }
  if (n > 0)
    g_string_append_printf (md, "\nxreduce added %u release%s to this session, so that nothing "
                            "stays pressed; they are not the user's: %s.\n", n,
                            n == 1 ? "" : "s", list->str);
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
  /* What happened may quote the session (a window's title). */
  g_autofree char *outcome_md = quote_markdown_text (outcome);
  int width, height;

  session_get_screen (report->session, &width, &height);
  for (char **a = report->argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *q = quote_shell (*a);
      g_string_append_printf (command, "%s%s", a == report->argv ? "" : " ", q);
    }
  /* An indented code block: one line, whatever the recorded command holds. */
  command_line = quote_terminal (command->str);

  g_string_append_printf (md, "# %s: %s\n\n", name_md, outcome_md);
  g_string_append_printf (md, "Replaying %u user action%s of %s against\n\n    %s\n\n",
                          session_get_n_actions (report->session),
                          session_get_n_actions (report->session) == 1 ? "" : "s",
                          name_code, command_line);
  g_string_append_printf (md, "on a %dx%d X screen: the app **%s** after %u of them.\n\n",
                          width, height, outcome_md, replayed);
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
  append_added_releases (report, md);

  g_string_append (md, "\n## What happened\n\n");
  g_string_append_printf (md, "The app %s.\n", outcome_md);
  if (backtrace != NULL && backtrace[0] != NULL)
    {
      g_string_append (md, "\nTop of the crash's backtrace (gdb):\n\n");
      for (guint i = 0; backtrace[i] != NULL; i++)
        {
          g_autofree char *frame = quote_terminal (backtrace[i]);
          g_string_append_printf (md, "    #%u %s\n", i, frame);
        }
    }
  if (stderr_tail != NULL && *stderr_tail != '\0')
    {
      g_auto (GStrv) lines = g_strsplit (stderr_tail, "\n", -1);
      guint n = g_strv_length (lines), from = n > 20 ? n - 20 : 0;

      g_string_append (md, "\nThe end of its stderr:\n\n");
      for (guint i = from; i < n; i++)
        if (*lines[i] != '\0' || i + 1 < n)
          {
            /* The app may echo what was typed, a title: `cat report.md`
             * must not run its escapes. */
            g_autofree char *line = quote_terminal (lines[i]);
            g_string_append_printf (md, "    %s\n", line);
          }
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

