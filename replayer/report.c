/* report.c — the bug-report folder of a replay (see report.h).
 *
 * Pictures are taken during the replay (report_step): one before each
 * step, one of the text a typing step typed (before the Return that ends
 * it, for which the replay waits until the app shows the text); the
 * screen at the end if the app is still there (report_take_last_pictures).
 * Everything is written at the end (report_finish, in report-finish.c):
 * report.md and its plain-text twin report.txt, replay.gif (the frames
 * and an end frame with the failure marked), steps.png, step-NN.png,
 * last-screen.png (report_write_pictures, here), replay-xdotool.sh and
 * the session itself. What happened is said by report-crash.c, the
 * environment by report-env.c, the app by report-app.c. All of it goes
 * into a private folder beside the report's path (0700, files 0600: they
 * show what the user typed), renamed into place once complete: an
 * interrupted replay leaves no half report, a killed one no folder.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report.h"
#include "report-private.h"
#include "output.h"
#include "proc.h"
#include "interrupt.h"
#include "quote.h"
#include "snapshot.h"
#include "xapp.h"
#include "xconn.h"
#include "signame.h"

#include <errno.h>
#include <string.h>
#include <gio/gio.h>

static void
step_clear (Step *step)
{
  g_free (step->words);
  g_free (step->picture);
  g_free (step->typed);
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

/* A typing phrase's text is shown before the key that ends it (Return,
 * Tab, Escape: what it does may close the window), else before the next
 * phrase's first action; G_MAXUINT: after the last action, not at all. */
static guint
typed_action (const Session *session, GArray *actions, const GPtrArray *phrases, guint p)
{
  const SessionPhrase *phrase = g_ptr_array_index (phrases, p);

  for (guint i = 0; i < phrase->actions->len; i++)
    {
      guint a = g_array_index (phrase->actions, guint, i);
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, a));

      if (ev->kind == SESSION_EVENT_KEY_PRESS && session_keysym_is_terminator (ev->keysym))
        return i > 0 ? a : G_MAXUINT;
    }
  if (p + 1 < phrases->len)
    return g_array_index (((SessionPhrase *) g_ptr_array_index (phrases, p + 1))->actions,
                          guint, 0);
  return G_MAXUINT;
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

    report->n_actions = actions->len;
    report->phrase_of = g_new0 (guint, MAX (actions->len, 1));
    report->typed_of = g_new0 (guint, MAX (actions->len, 1));
    report->picture_of = g_new0 (guint, MAX (report->phrases->len, 1));
    for (guint p = 0; p < report->phrases->len; p++)
      {
        const SessionPhrase *phrase = g_ptr_array_index (report->phrases, p);

        for (guint i = 0; i < phrase->actions->len; i++)
          report->phrase_of[g_array_index (phrase->actions, guint, i)] = p;
        report->picture_of[p] = picture_action (report->session, actions, phrase);
        if (phrase->kind == SESSION_PHRASE_TYPE)
          {
            guint at = typed_action (report->session, actions, report->phrases, p);

            if (at < actions->len)
              report->typed_of[at] = p + 1;
          }
      }
  }
  return g_steal_pointer (&report);
}

void
report_set_replay_options (Report *report, const char *const *argv)
{
  g_strfreev (report->replay_argv);
  report->replay_argv = g_strdupv ((char **) argv);
}

void
report_set_replay (Report *report, const ReplayOptions *opts)
{
  const ReplaySettings *settings = &opts->settings;

  g_free (report->how.wm);
  g_free (report->how.home_seed);
  report->how.wm = settings->wm_argv != NULL
                     ? quote_command_line ((const char *const *) settings->wm_argv) : NULL;
  report->how.share_home = settings->share_home;
  report->how.isolated = !settings->share_home && settings->isolate != SANDBOX_ISOLATE_OFF;
  report->how.share_net = settings->share_net;
  report->how.home_seed = g_strdup (settings->home_seed);
  report->how.on_display = opts->display != NULL;
  report->how_known = TRUE;
  report->traced = opts->crashtrace != NULL;
}

gboolean
report_wants_wait (Report *report, guint number)
{
  return number < report->n_actions && report->typed_of[number] > 0;
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
  g_strfreev (report->replay_argv);
  if (report->session != NULL)
    session_free (report->session);
  if (report->steps != NULL)
    g_array_unref (report->steps);
  if (report->pictures != NULL)
    g_ptr_array_unref (report->pictures);
  if (report->captions != NULL)
    g_ptr_array_unref (report->captions);
  g_clear_pointer (&report->alive_screen, snapshot_free);
  g_free (report->picture_error);
  g_free (report->write_error);
  g_free (report->x_server);
  g_free (report->wm);
  g_free (report->how.wm);
  g_free (report->how.home_seed);
  if (report->phrases != NULL)
    g_ptr_array_unref (report->phrases);
  g_free (report->phrase_of);
  g_free (report->picture_of);
  g_free (report->typed_of);
  g_free (report);
  /* The report was the only one to draw text. */
  snapshot_release_fonts ();
}

/* A caption: one line, control characters shown (pango draws the rest,
 * in any script). */
static char *
caption_text (const char *words)
{
  return quote_terminal (words);
}

/* A picture taken but not written: the disk (a full one, most often).
 * The report fails, as it does for report.md: never a report without a
 * file it should have (the console said nothing while replay.gif was
 * missing). Takes @error. */
static void
note_write_error (Report *report, GError **error)
{
  if (*error != NULL && report->write_error == NULL)
    report->write_error = g_strdup ((*error)->message);
  g_clear_error (error);
}
static void
remember_picture_error (Report *report, const GError *error)
{
  if (error != NULL && report->picture_error == NULL)
    report->picture_error = g_strdup (error->message);
}

/* The picture of step @index (0-based), before its action @step; with
 * @typed, the picture of the text the step typed. */
static void
take_picture (Report *report, Display *dpy, guint index, const ReplayStep *step, gboolean typed)
{
  Step *s = &g_array_index (report->steps, Step, index);
  const SessionPhrase *phrase = g_ptr_array_index (report->phrases, s->phrase);
  g_autofree char *said = session_phrase_describe (report->session, phrase,
                                                   SESSION_WORDS_TERMINAL);
  g_autofree char *plain = caption_text (said);
  g_autofree char *caption = typed ? g_strdup_printf ("%u. %s: the text typed", index + 1, plain)
                                   : g_strdup_printf ("%u. %s", index + 1, plain);
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

  /* The text typed: the windows as they are, no action's target. */
  if (typed)
    {
      marks.target_x = marks.target_y = -1;
      marks.target = (XRectangle) { 0 };
    }
  if (XQueryPointer (dpy, DefaultRootWindow (dpy), &root, &child, &marks.pointer_x,
                     &marks.pointer_y, &wx, &wy, &mask) == False)
    marks.pointer_x = marks.pointer_y = -1;
  if (screen != NULL)
    picture = snapshot_step_picture (screen, dpy, &marks, caption, &marked, &error);
  if (picture != NULL)
    {
      g_autofree char *name = g_strdup_printf (typed ? "step-%02u-typed.png" : "step-%02u.png",
                                               index + 1);
      g_autofree char *path = g_build_filename (report->fresh_path, name, NULL);

      if (snapshot_save_png (picture, path, &error))
        {
          if (typed)
            s->typed = g_steal_pointer (&name);
          else
            s->picture = g_steal_pointer (&name);
          g_ptr_array_add (report->pictures, g_steal_pointer (&marked));
          g_ptr_array_add (report->captions, g_steal_pointer (&caption));
        }
      else
        note_write_error (report, &error);
    }
  g_clear_pointer (&marked, snapshot_free);
  remember_picture_error (report, error);
}

/* The step (0-based) of phrase @p, or -1 if it was not reached. */
int
report_step_of_phrase (Report *report, guint p)
{
  for (guint i = report->steps->len; i-- > 0;)
    if (g_array_index (report->steps, Step, i).phrase == p)
      return (int) i;
  return -1;
}

void
report_step (Report *report, Display *dpy, const ReplayStep *step)
{
  guint p = report->phrase_of[step->number];
  const SessionPhrase *phrase = g_ptr_array_index (report->phrases, p);

  if (dpy != NULL && report->x_server == NULL)
    {
      report->x_server = report_describe_server (dpy);
      xconn_trap_push (dpy);
      report->wm = xapp_window_manager_name (dpy);
      xconn_trap_pop (dpy);
    }
  /* A typing step's text, now that the app shows it (the replay waited:
   * report_wants_wait()). */
  if (report->typed_of[step->number] > 0 && dpy != NULL)
    {
      int s = report_step_of_phrase (report, report->typed_of[step->number] - 1);

      if (s >= 0)
        take_picture (report, dpy, (guint) s, step, TRUE);
    }
  /* A phrase is a step of the report from its first action on. */
  if (step->number == g_array_index (phrase->actions, guint, 0))
    {
      Step s = { .phrase = p, .words = report_step_words (report->session, phrase) };
      g_array_append_val (report->steps, s);
    }
  if (step->number == report->picture_of[p] && dpy != NULL && report->steps->len > 0
      && g_array_index (report->steps, Step, report->steps->len - 1).phrase == p)
    take_picture (report, dpy, report->steps->len - 1, step, FALSE);
}

void
report_take_last_pictures (Report *report, Display *dpy, gboolean app_alive)
{
  g_autoptr (GError) error = NULL;

  /* The screen at the end, if the app is still there; after a failure
   * the last picture taken before it stands for it (report_finish). */
  if (app_alive)
    report->alive_screen = snapshot_take (dpy, &error);
  remember_picture_error (report, error);
}

/* The end of a replay that failed: the last picture, the failure marked
 * on it and said in its caption; NULL if there is none. */
static Snapshot *
end_picture (Report *report, const ReplayResult *result, const char *outcome, char **caption,
             GError **error)
{
  const char *name = proc_signal_name (result->verdict.signal);
  g_autofree char *badge = NULL;
  g_autofree char *said = NULL;

  if (result->verdict.kind == VERDICT_PASSED || report->pictures->len == 0)
    return NULL;
  badge = result->verdict.kind == VERDICT_CRASHED && name != NULL
            ? g_strdup_printf ("%s %s", crash_info_is_sent (&result->crash) ? "killed by"
                                                                           : "crashed:", name)
          /* "hung", "exited 3": the session file's words for them. */
          : result->verdict.kind == VERDICT_HUNG || result->verdict.kind == VERDICT_EXITED
          ? session_outcome_to_string (verdict_to_session_outcome (&result->verdict))
          : g_strdup ("the end");
  said = quote_terminal (outcome);
  *caption = g_strdup_printf ("The end: after step %u, the app %s", report->steps->len, said);
  return snapshot_mark_end (g_ptr_array_index (report->pictures, report->pictures->len - 1),
                            badge, error);
}

/* replay.gif, steps.png and last-screen.png: each picture with its
 * caption, 1.5 s each; when the app failed, the last one again marked,
 * under what became of it, 4 s. */
void
report_write_pictures (Report *report, const ReplayResult *result, const char *outcome)
{
  g_autoptr (GPtrArray) frames = g_ptr_array_new_with_free_func ((GDestroyNotify) snapshot_free);
  g_autoptr (GPtrArray) sheet = g_ptr_array_new ();
  g_autoptr (GPtrArray) captions = g_ptr_array_new ();
  g_autofree guint *delays = g_new (guint, report->pictures->len + 1);
  g_autofree char *path = g_build_filename (report->fresh_path, "replay.gif", NULL);
  g_autofree char *sheet_path = g_build_filename (report->fresh_path, "steps.png", NULL);
  g_autofree char *last_path = g_build_filename (report->fresh_path, "last-screen.png", NULL);
  g_autofree char *end_caption = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (Snapshot) end = end_picture (report, result, outcome, &end_caption, &error);

  remember_picture_error (report, error);
  g_clear_error (&error);
  for (guint i = 0; i < report->pictures->len && error == NULL
                  && proc_interrupt_get_signal () == 0; i++)
    {
      Snapshot *frame = snapshot_add_caption (g_ptr_array_index (report->pictures, i),
                                              g_ptr_array_index (report->captions, i), &error);
      if (frame != NULL)
        {
          delays[frames->len] = 150;
          g_ptr_array_add (frames, frame);
          g_ptr_array_add (sheet, g_ptr_array_index (report->pictures, i));
          g_ptr_array_add (captions, g_ptr_array_index (report->captions, i));
        }
    }
  if (error == NULL && end != NULL)
    {
      Snapshot *frame = snapshot_add_caption (end, end_caption, &error);
      if (frame != NULL)
        {
          delays[frames->len] = 400;
          g_ptr_array_add (frames, frame);
          g_ptr_array_add (sheet, end);
          g_ptr_array_add (captions, end_caption);
        }
    }
  if (error == NULL && frames->len > 0)
    {
      report->have_gif = snapshot_save_gif (frames, delays, path, &error);
      if (!report->have_gif)
        note_write_error (report, &error);
    }
  if (error == NULL && sheet->len > 0)
    {
      g_ptr_array_add (captions, NULL);
      report->have_sheet = snapshot_save_contact_sheet (sheet, (const char *const *) captions->pdata,
                                                        sheet_path, &error);
      if (!report->have_sheet)
        note_write_error (report, &error);
    }
  /* The screen at the end: what the app shows, if it is still there;
   * else the last picture, the failure marked. */
  if (error == NULL && (report->alive_screen != NULL || end != NULL))
    {
      report->have_last = snapshot_save_png (report->alive_screen != NULL ? report->alive_screen
                                                                          : end,
                                             last_path, &error);
      if (!report->have_last)
        note_write_error (report, &error);
    }
  remember_picture_error (report, error);
}
