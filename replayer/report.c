/* report.c — the bug-report folder of a replay (see report.h).
 *
 * Pictures are taken during the replay (report_step): one before each
 * step, one of the text a typing step typed (before the Return that ends
 * it, for which the replay waits until the app shows the text); the
 * screen at the end if the app is still there (report_take_last_pictures).
 * Everything is written at the end (report_finish): report.md and its
 * plain-text twin report.txt, replay.gif (the frames and an end frame
 * with the failure marked), steps.png, step-NN.png, last-screen.png,
 * replay-xdotool.sh and the session itself. What happened is said by
 * report-crash.c, the environment by report-env.c. All of it goes into a
 * private folder beside the report's path (0700, files 0600: they show
 * what the user typed), renamed into place once complete: an interrupted
 * replay leaves no half report, a killed one no folder.
 */
#define _GNU_SOURCE   /* memmem */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "report.h"
#include "report-private.h"
#include "output.h"
#include "plaintext.h"
#include "proc.h"
#include "interrupt.h"
#include "quote.h"
#include "snapshot.h"
#include "xapp.h"
#include "xconn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

typedef struct
{
  guint phrase;       /* index in Report.phrases */
  char *words;        /* Markdown, one line */
  char *picture;      /* file name in the folder, or NULL */
  char *typed;        /* a typing step: the picture of its text typed, or NULL */
} Step;

struct Report
{
  char *dir;          /* where the report goes when complete */
  ProcTempDir *fresh; /* where it is written until then */
  const char *fresh_path;
  char *session_path;
  char **argv;
  char **replay_argv; /* the replay options a session cannot carry, or NULL */
  Session *session;   /* a copy */
  GPtrArray *phrases; /* of SessionPhrase: the steps */
  guint *phrase_of;   /* action number -> its phrase */
  guint *picture_of;  /* phrase -> the action its picture is taken before */
  guint *typed_of;    /* action number -> 1 + the typing phrase whose text is shown
                       * before it (the key that ends it, or what follows), or 0 */
  guint n_actions;
  GArray *steps;      /* of Step, the phrases reached */
  GPtrArray *pictures;   /* of Snapshot* (marked, no caption band): the frames, in order */
  GPtrArray *captions;   /* of char*, one a picture */
  Snapshot *alive_screen; /* the screen at the end, the app still there, or NULL */
  char *picture_error;   /* first failure to take a picture */
  char *write_error;     /* first picture that could not be written (a full disk): the
                            report fails (report_finish), as it does for report.md */
  char *x_server;        /* "The X.Org Foundation 21.1.7", from the first step's display */
  char *wm;              /* the window manager that ran at the first step, or NULL: none */
  ReportHow how;
  gboolean how_known;    /* report_set_replay() was called */
  gboolean traced;       /* the app ran under xreduce-crashtrace */
  gboolean have_last, have_sheet, have_gif;   /* last-screen.png, steps.png, replay.gif */
};

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
static int
step_of_phrase (Report *report, guint p)
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
      int s = step_of_phrase (report, report->typed_of[step->number] - 1);

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

/* ---- the environment: which app, which system ---- */

char *
report_describe_server (Display *dpy)
{
  int v = VendorRelease (dpy);
  const char *vendor = ServerVendor (dpy);

  if (vendor == NULL)
    vendor = "an unknown vendor";
  /* X.Org's numbering, as xdpyinfo reads it: 12101007 is 21.1.7,
   * 11804000 is 1.18.4. */
  if (strstr (vendor, "X.Org") != NULL && v >= 12100000)
    {
      v -= 10000000;
      return g_strdup_printf ("%s %d.%d.%d", vendor, (v / 100000) % 100, (v / 1000) % 100,
                              v % 1000);
    }
  if (strstr (vendor, "X.Org") != NULL && v >= 10000000)
    return g_strdup_printf ("%s %d.%d.%d", vendor, v / 10000000, (v / 100000) % 100,
                            (v / 1000) % 100);
  return g_strdup_printf ("%s, release %d", vendor, v);
}

/* Runs @argv without a display (an app that ignores --version must not
 * open a window anywhere), at most 3 s: its stdout's first line if it
 * exited 0, else NULL. */
static char *
first_line_of (const char *const *argv)
{
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (ProcChild) child = NULL;
  ProcSpawnOptions spawn;
  const char *out;
  gsize len;
  int status;

  env = g_environ_unsetenv (env, "DISPLAY");
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.envp = (const char *const *) env;
  spawn.out = PROC_OUTPUT_CAPTURE;
  child = proc_spawn (&spawn, NULL);
  if (child == NULL)
    return NULL;
  if (!proc_child_wait_interruptible (child, 3000))
    return NULL;   /* freed: killed with its group */
  proc_child_drain (child);
  status = proc_child_get_wait_status (child);
  out = proc_child_get_stdout (child, &len);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || out == NULL || len == 0)
    return NULL;
  {
    g_autofree char *text = g_utf8_make_valid (out, (gssize) MIN (len, 4096));
    char *nl = strchr (text, '\n');

    if (nl != NULL)
      *nl = '\0';
    g_strstrip (text);
    if (*text == '\0' || strlen (text) > 120)
      return NULL;
    return g_steal_pointer (&text);
  }
}

/* Interpreters: the app is the script they run. */
static gboolean
is_interpreter (const char *name)
{
  static const char *const names[] = { "python", "python3", "perl", "ruby", "node", "sh",
                                       "bash", "dash", "tclsh", "wish", "gjs", "env" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]) || (g_str_has_prefix (name, names[i])
                                         && g_ascii_isdigit (name[strlen (names[i])])))
      return TRUE;
  return FALSE;
}

/* What the program's file links or imports: "GTK 3", "Qt 5", "Tk",
 * "Xaw (Athena)", "Motif", or NULL. */
static const char *
guess_toolkit (const char *path)
{
  static const struct { const char *mark, *name; } marks[] = {
    { "libgtk-4.so", "GTK 4" }, { "libgtk-3.so", "GTK 3" }, { "libgtk-x11-2.0.so", "GTK 2" },
    { "libQt6Widgets", "Qt 6" }, { "libQt5Widgets", "Qt 5" }, { "libtk8.", "Tk" },
    { "libXaw", "Xaw (Athena)" }, { "libXm.so", "Motif" }, { "libfltk", "FLTK" },
    { "libwx_gtk", "wxWidgets" }, { "Gtk', '3.0'", "GTK 3" }, { "Gtk\", \"3.0\"", "GTK 3" },
    { "PyQt5", "Qt 5" }, { "PyQt6", "Qt 6" }, { "tkinter", "Tk" }, { "package require Tk", "Tk" },
  };
  g_autoptr (GMappedFile) file = path != NULL ? g_mapped_file_new (path, FALSE, NULL) : NULL;
  const char *data;
  gsize len;

  if (file == NULL)
    return NULL;
  data = g_mapped_file_get_contents (file);
  len = MIN (g_mapped_file_get_length (file), (gsize) 64 * 1024 * 1024);
  for (gsize i = 0; data != NULL && i < G_N_ELEMENTS (marks); i++)
    if (memmem (data, len, marks[i].mark, strlen (marks[i].mark)) != NULL)
      return marks[i].name;
  return NULL;
}

/* The Debian package that owns @path, and its version ("xterm 379-1"). */
static char *
debian_package_of (const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  const char *dpkg_s[] = { "dpkg-query", "-S", real, NULL };
  g_autofree char *owner = NULL;
  char *colon;

  if (real == NULL || (owner = first_line_of (dpkg_s)) == NULL
      || (colon = strstr (owner, ": ")) == NULL || strchr (owner, ',') != NULL)
    return NULL;
  *colon = '\0';
  {
    const char *version[] = { "dpkg-query", "-W", "-f", "${Version}\n", owner, NULL };
    g_autofree char *v = first_line_of (version);

    return v != NULL ? g_strdup_printf ("%s %s", owner, v) : g_strdup (owner);
  }
}

void
report_app_info_clear (ReportAppInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->version, g_free);
  g_clear_pointer (&info->package, g_free);
  info->toolkit = NULL;
}

void
report_app_info_probe (ReportAppInfo *info, const char *const *argv)
{
  g_autofree char *program = NULL;
  g_autofree char *base = NULL;
  const char *script = NULL;

  memset (info, 0, sizeof *info);
  if (argv == NULL || argv[0] == NULL)
    return;
  program = g_find_program_in_path (argv[0]);
  base = g_path_get_basename (argv[0]);
  if (is_interpreter (base))
    for (guint i = 1; argv[i] != NULL && script == NULL; i++)
      if (argv[i][0] != '-' && strchr (argv[i], '=') == NULL)
        script = argv[i];
  info->name = script != NULL ? g_path_get_basename (script) : g_steal_pointer (&base);
  info->toolkit = guess_toolkit (script != NULL ? script : program);
  if (program == NULL)
    return;
  info->package = debian_package_of (script != NULL ? script : program);
  /* The version it tells: only a program's own, not its interpreter's. */
  if (script == NULL)
    {
      const char *ask[] = { program, "--version", NULL };
      info->version = first_line_of (ask);
    }
}

/* One line that a title can hold: the app's name, its version, or the
 * package's. */
static char *
app_title (const ReportAppInfo *info)
{
  if (info->name == NULL)
    return g_strdup ("the app");
  if (info->version != NULL)
    return strstr (info->version, info->name) != NULL
             ? g_strdup (info->version)
             : g_strdup_printf ("%s (%s)", info->name, info->version);
  if (info->package != NULL)
    return g_strdup_printf ("%s (Debian package %s)", info->name, info->package);
  return g_strdup (info->name);
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
              step = step_of_phrase (report, report->phrase_of[b]);
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

/* The end of a replay that failed: the last picture, the failure marked
 * on it and said in its caption; NULL if there is none. */
static Snapshot *
end_picture (Report *report, const ReplayResult *result, const char *outcome, char **caption,
             GError **error)
{
  const char *name = session_signal_name (result->verdict.signal);
  g_autofree char *badge = NULL;
  g_autofree char *said = NULL;

  if (result->verdict.kind == VERDICT_PASSED || report->pictures->len == 0)
    return NULL;
  badge = result->verdict.kind == VERDICT_CRASHED && name != NULL
            ? g_strdup_printf ("%s %s", crash_info_is_sent (&result->crash) ? "killed by"
                                                                           : "crashed:", name)
          : result->verdict.kind == VERDICT_HUNG ? g_strdup ("hung")
          : result->verdict.kind == VERDICT_EXITED
          ? g_strdup_printf ("exited %d", result->verdict.exit_status) : g_strdup ("the end");
  said = quote_terminal (outcome);
  *caption = g_strdup_printf ("The end: after step %u, the app %s", report->steps->len, said);
  return snapshot_mark_end (g_ptr_array_index (report->pictures, report->pictures->len - 1),
                            badge, error);
}

/* replay.gif, steps.png and last-screen.png: each picture with its
 * caption, 1.5 s each; when the app failed, the last one again marked,
 * under what became of it, 4 s. */
static void
write_pictures (Report *report, const ReplayResult *result, const char *outcome)
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

gboolean
report_finish (Report *report, const ReplayResult *result, GError **error)
{
  g_autoptr (GString) md = g_string_new (NULL);
  g_autoptr (GString) command = g_string_new (NULL);
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
  guint n_actions = session_get_n_actions (report->session), n_added = 0;
  guint n_steps = report->phrases->len;

  /* Each may take seconds (an app slow to say its version, a long
   * replay's frames): a signal meanwhile ends the report. */
  report_app_info_probe (&app, (const char *const *) report->argv);
  if (!proc_check_interrupt (error))
    return FALSE;
  write_pictures (report, result, outcome);
  if (!proc_check_interrupt (error))
    return FALSE;
  app_name = app_title (&app);
  /* One line of plain text that reads right rendered or not (a bug
   * tracker's title, Debian's BTS). */
  title = g_strdup_printf ("%s %s", app_name, outcome);
  title_md = quote_markdown_title (title);
  {
    g_autoptr (GArray) actions = session_get_actions (report->session);
    for (guint a = 0; a < actions->len; a++)
      if (session_get_event (report->session, g_array_index (actions, guint, a))->added)
        n_added++;
  }
  for (char **a = report->argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *word = shown_word (*a, a == report->argv, report->dir);
      g_autofree char *q = quote_shell (word);
      g_string_append_printf (command, "%s%s", a == report->argv ? "" : " ", q);
    }
  /* An indented code block: one line, whatever the recorded command holds. */
  command_line = quote_terminal (command->str);

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

  g_string_append (md, "\n## What happened\n\n");
  report_append_what_happened (md, result, python, report->traced);
  if (report->have_last)
    g_string_append_printf (md, "\nThe last screen%s: [last-screen.png](last-screen.png)\n",
                            result->verdict.kind == VERDICT_PASSED ? ""
                            : ", the failure marked in red");
  report_append_environment (md, report->session, &app, report->x_server, report->wm,
                             report->how_known ? &report->how : NULL, report->dir);

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
