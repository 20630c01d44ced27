/* test-report.c — the bug-report outputs end to end on the demo app:
 * `xreplay --report DIR` (report.md, the step pictures, the contact sheet),
 * the standalone xdotool script of `xreplay --export xdotool`, run against
 * xdemo on a private Xvfb, and the report `xreduce` writes beside its
 * minimal session.
 *
 * Programs and data come from the environment: XREPLAY, XREDUCE, XDEMO,
 * XREDUCE_SRCDIR. Synchronisation: Xvfb says when it is ready on
 * -displayfd, xdemo's window on MapNotify, xdemo's death on a pidfd. No
 * sleeps. Start reading at main().
 */
#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <json-glib/json-glib.h>
#include <poll.h>
#include <png.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <X11/Xlib.h>

#include "report.h"
#include "session.h"
#include "output.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-xvfb.h"
#include "shard.h"

#define WAIT_MS 20000

typedef struct
{
  char *dir;
  char *session;           /* the minimal print crash, written by the test */
  TestXvfb xvfb;           /* pid 0: none */
  Display *dpy;
  GPid xdemo;              /* 0: none or reaped */
} Fixture;

/* The minimal session that crashes xdemo --bug print (the end of
 * tests/data/demo.session): Alt+P opens the Print dialog, a click on its
 * Print button (40,112 100x32 in the dialog, at +760+120) crashes. */
static const char min_session[] =
  "# xreduce session, recorded by xrecord 0.1.0 on 2026-11-23 02:05\n"
  "# window manager: Openbox\n"
  "xreduce-session 1\n"
  "screen 1280x1024\n"
  "command \"xdemo\"\n"
  "keymap \"us\"\n"
  "10247 KeyPress keysym=Alt_L keycode=64 state=0x0 root=520,220 pos=420,120 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "10310 KeyPress keysym=p keycode=33 state=0x8 root=520,220 pos=420,120 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "10382 KeyRelease keysym=p keycode=33 state=0x8 root=520,220 pos=420,120 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "10440 KeyRelease keysym=Alt_L keycode=64 state=0x8 root=520,220 pos=420,120 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "11021 ButtonPress button=1 state=0x0 root=844,249 pos=84,129 window=1 class=\"XDemo\" title=\"Print\"\n"
  "11125 ButtonRelease button=1 state=0x100 root=844,249 pos=84,129 window=1 class=\"XDemo\" title=\"Print\"\n"
  "outcome crashed SIGSEGV\n";

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = test_make_tmp ("test-report-XXXXXX");
  f->session = g_build_filename (f->dir, "print.session", NULL);
  g_assert_true (g_file_set_contents (f->session, min_session, -1, NULL));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (f->xdemo > 0)
    {
      kill (-f->xdemo, SIGKILL);
      kill (f->xdemo, SIGKILL);
      waitpid (f->xdemo, NULL, 0);
    }
  if (f->dpy != NULL)
    XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->session);
}

/* Runs @argv to completion; returns its exit status (128+N if killed by
 * signal N) and what it wrote. stdout is always captured: it would break
 * the TAP stream. */
static int
run (const char *const *argv, const char *const *envp, char **out, char **err)
{
  return test_run_sync (argv, envp, G_SPAWN_SEARCH_PATH, out, err);
}

static char *
read_file (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The numbered list under "## Steps" in report.md: the words of each step
 * in @words, its picture's file name (or "") in @pictures. Checks the
 * numbering. */
static void
parse_steps (const char *md, GPtrArray *words, GPtrArray *pictures)
{
  g_autoptr (GRegex) line_re = g_regex_new (
    "^([0-9]+)\\. (.*?)(?: \\(\\[screen before\\]\\((step-[0-9]+\\.png)\\)"
    "(?:, \\[the text typed\\]\\(step-[0-9]+-typed\\.png\\))?\\))?$", 0, 0, NULL);
  const char *start = strstr (md, "\n## Steps\n\n");
  g_auto (GStrv) lines = NULL;

  g_assert_nonnull (start);
  g_assert_null (strstr (start + 1, "\n## Steps\n"));
  lines = g_strsplit (start + strlen ("\n## Steps\n\n"), "\n", -1);
  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_autofree char *number = NULL;

      if (!g_regex_match (line_re, lines[i], 0, &match))
        g_error ("not a step line in report.md: '%s'", lines[i]);
      number = g_match_info_fetch (match, 1);
      g_assert_cmpuint (g_ascii_strtoull (number, NULL, 10), ==, i + 1);
      g_ptr_array_add (words, g_match_info_fetch (match, 2));
      g_ptr_array_add (pictures, g_match_info_fetch (match, 3));
    }
}

/* report_step_words() of each phrase of the session at @path. */
static GPtrArray *
expected_steps (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (path, &error);
  g_autoptr (GPtrArray) phrases = NULL;
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);
  phrases = session_get_phrases (session);
  for (guint i = 0; i < phrases->len; i++)
    g_ptr_array_add (words, report_step_words (session, g_ptr_array_index (phrases, i)));
  return words;
}

/* Decodes the PNG at @path with libpng; its size in *@width, *@height. */
static void
png_size (const char *path, int *width, int *height)
{
  png_image image;
  g_autofree png_bytep pixels = NULL;

  memset (&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file (&image, path))
    g_error ("%s: %s", path, image.message);
  image.format = PNG_FORMAT_RGB;
  pixels = g_malloc (PNG_IMAGE_SIZE (image));
  if (!png_image_finish_read (&image, NULL, pixels, 0, NULL))
    g_error ("%s: %s", path, image.message);
  g_assert_cmpuint (image.width, >, 0);
  g_assert_cmpuint (image.height, >, 0);
  *width = (int) image.width;
  *height = (int) image.height;
  png_image_free (&image);
}

/* Decodes the PNG at @path; checks its size unless @width is 0. */
static void
assert_png (const char *path, int width, int height)
{
  int w, h;

  png_size (path, &w, &h);
  if (width > 0)
    {
      g_assert_cmpint (w, ==, width);
      g_assert_cmpint (h, ==, height);
    }
}

/* A report folder holds what the user typed: the folder is 0700 (a real
 * folder, not a link), every file in it 0600 (the script 0700). */
static void
assert_private_report (const char *dir)
{
  g_autoptr (GDir) d = NULL;
  struct stat st;
  guint n = 0;

  g_assert_cmpint (lstat (dir, &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  for (const char *name; (name = g_dir_read_name (d)) != NULL; n++)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_cmpint (lstat (path, &st), ==, 0);
      g_assert_true (S_ISREG (st.st_mode));
      g_assert_cmpint (st.st_mode & 07777, ==,
                       g_str_equal (name, "replay-xdotool.sh") ? 0700 : 0600);
    }
  g_assert_cmpuint (n, >=, 3);
}

/* @dir holds exactly @names (NULL-terminated, in any order): nothing
 * half-written beside them (no REPORT.partial-*). */
static void
assert_holds (const char *dir, const char *const *names)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  for (const char *name; (name = g_dir_read_name (d)) != NULL; n++)
    if (!g_strv_contains (names, name))
      g_error ("%s is left in %s", name, dir);
  g_assert_cmpuint (n, ==, g_strv_length ((char **) names));
}

/* An old report at @dir: 0755, its files 0644, one the new one lacks,
 * all listed in its manifest (what its writer put there). */
static void
make_old_report (const char *dir)
{
  g_autofree char *md = g_build_filename (dir, "report.md", NULL);
  g_autofree char *stray = g_build_filename (dir, "step-99.png", NULL);
  g_autofree char *manifest = g_build_filename (dir, OUTPUT_MANIFEST, NULL);

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (md, "# old report\n", -1, NULL));
  g_assert_true (g_file_set_contents (stray, "old", -1, NULL));
  g_assert_true (g_file_set_contents (manifest, "report.md\nstep-99.png\n", -1, NULL));
  g_assert_cmpint (g_chmod (md, 0644), ==, 0);
  g_assert_cmpint (g_chmod (stray, 0644), ==, 0);
}

/* ---- xreplay --report ---- */

/* replay.gif in @dir: a GIF that giflib decodes, @n_frames frames (the
 * steps and, after a crash, the end) of the same size within 960x720,
 * each shown a while, at most 2 MB; the last frame differs from the one
 * before it (its caption says what became of the app). */
static void
assert_replay_gif (const char *dir, guint n_frames)
{
  g_autofree char *path = g_build_filename (dir, "replay.gif", NULL);
  GifFileType *gif;
  int error = 0;
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_size, <=, 2 * 1024 * 1024);
  gif = DGifOpenFileName (path, &error);
  g_assert_nonnull (gif);
  g_assert_cmpint (DGifSlurp (gif), ==, GIF_OK);
  g_test_message ("replay.gif: %d frames of %dx%d, %ld bytes", gif->ImageCount, gif->SWidth,
                  gif->SHeight, (long) st.st_size);
  g_assert_cmpint (gif->ImageCount, ==, (int) n_frames);
  g_assert_cmpint (gif->SWidth, <=, 960);
  g_assert_cmpint (gif->SHeight, <=, 720);
  for (int i = 0; i < gif->ImageCount; i++)
    {
      GraphicsControlBlock gcb;

      g_assert_cmpint (gif->SavedImages[i].ImageDesc.Width, ==, gif->SWidth);
      g_assert_cmpint (gif->SavedImages[i].ImageDesc.Height, ==, gif->SHeight);
      g_assert_cmpint (DGifSavedExtensionToGCB (gif, i, &gcb), ==, GIF_OK);
      g_assert_cmpint (gcb.DelayTime, >=, 100);
    }
  if (gif->ImageCount >= 2)
    g_assert_cmpint (memcmp (gif->SavedImages[gif->ImageCount - 1].RasterBits,
                             gif->SavedImages[gif->ImageCount - 2].RasterBits,
                             (gsize) gif->SWidth * gif->SHeight), !=, 0);
  DGifCloseFile (gif, &error);
}

static void
test_replay_report (Fixture *f, gconstpointer data)
{
  g_autofree char *report = g_build_filename (f->dir, "report", NULL);
  const char *argv[] = { env ("XREPLAY"), "--max-gap", "100", "--settle", "300", "--report",
                         report, f->session, "--", env ("XDEMO"), NULL };
  g_autoptr (GPtrArray) want = expected_steps (f->session);
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) pictures = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (Session) session = session_load (f->session, NULL);
  g_autofree char *out = NULL, *md = NULL, *extra = NULL;
  int width = 0, height = 0;

  const char *const left[] = { "print.session", "report", NULL };

  /* An earlier report there is replaced, whole. */
  make_old_report (report);
  g_assert_cmpint (run (argv, NULL, &out, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "crashed with SIGSEGV"));
  md = read_file (report, "report.md");
  g_test_message ("report.md:\n%s", md);
  g_assert_nonnull (strstr (md, "crashed with SIGSEGV"));
  assert_private_report (report);
  assert_holds (f->dir, left);
  /* The recording, each of xrecord's two comment lines in its own item. */
  g_assert_nonnull (strstr (md, "\n- Recorded by: xrecord 0.1.0 on 2026-11-23 02\\:05\n"));
  g_assert_nonnull (strstr (md, "\n- Window manager: Openbox\n"));

  /* Exactly the session's phrases, numbered, in report_step_words(). */
  parse_steps (md, words, pictures);
  g_assert_cmpuint (want->len, ==, 2);
  g_assert_cmpuint (words->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpstr (g_ptr_array_index (words, i), ==, g_ptr_array_index (want, i));
  g_assert_cmpstr (g_ptr_array_index (words, 0), ==, "Press Alt+P in \"Editor\".");
  g_assert_cmpstr (g_ptr_array_index (words, 1), ==, "Click at 84,129 in \"Print\".");

  /* A picture before each step, cropped to the app's windows with a
   * margin of 24, the step's words in a band above it: xdemo's main
   * window is 640x480 at +100+100, its Print dialog 320x160 at +760+120. */
  session_get_screen (session, &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 1024);
  for (guint i = 0; i < words->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("step-%02u.png", i + 1);
      g_autofree char *path = g_build_filename (report, name, NULL);
      int w, h;

      g_assert_cmpstr (g_ptr_array_index (pictures, i), ==, name);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
      png_size (path, &w, &h);
      g_test_message ("%s: %dx%d", name, w, h);
      /* Before Alt+P only the main window is up: 76..764 x 76..604. */
      g_assert_cmpint (w, ==, i == 0 ? 640 + 2 * 24 : 1080 + 24 - 76);
      /* The band: one line of the 13-pixel "fixed" font and its padding. */
      g_assert_cmpint (h - (480 + 2 * 24), >=, 13);
      g_assert_cmpint (h - (480 + 2 * 24), <=, 40);
    }
  extra = g_strdup_printf ("%s/step-%02u.png", report, words->len + 1);
  g_assert_false (g_file_test (extra, G_FILE_TEST_EXISTS));
  {
    g_autofree char *last = g_build_filename (report, "last-screen.png", NULL);
    g_autofree char *sheet = g_build_filename (report, "steps.png", NULL);

    /* xdemo crashed: the last screen is the last step's picture, marked,
     * without its band. */
    g_assert_true (g_file_test (last, G_FILE_TEST_IS_REGULAR));
    assert_png (last, 1080 + 24 - 76, 480 + 2 * 24);
    g_assert_true (g_file_test (sheet, G_FILE_TEST_IS_REGULAR));
    assert_png (sheet, 0, 0);
  }
  /* The replay as an animation: a frame per step and the crash's. */
  assert_replay_gif (report, words->len + 1);
  g_assert_nonnull (strstr (md, "![the replay](replay.gif)"));
}

/* A typed terminal session (tests/data/xterm.session: five commands typed
 * into bash in an xterm, the last one kills it): the report's steps are
 * the commands as typed, one each, and the pictures show the terminal
 * (80x24 at +10+10), not the screen. */
static void
test_typed_report (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data",
                                               "xterm.session", NULL);
  g_autofree char *report = g_build_filename (f->dir, "typed", NULL);
  g_autofree char *xterm = g_find_program_in_path ("xterm");
  const char *argv[] = { env ("XREPLAY"), "--report", report, session, "--", "xterm",
                         "-geometry", "80x24+10+10", "-e", "bash", "--norc", "--noprofile", NULL };
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) pictures = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL, *md = NULL;
  static const char *const want[] = {
    "Click at 200,150 in \"bash\".",
    "Type `ls /` and press Return in \"bash\".",
    "Type `echo helo` and press Return in \"bash\".",
    "Type `cd /tnp` in \"bash\".",
    "Press BackSpace 2 times in \"bash\".",
    "Type `mp` and press Return in \"bash\".",
    "Type `pwd` and press Return in \"bash\".",
    "Type `kill -SEGV $PPID` and press Return in \"bash\".",
  };

  if (xterm == NULL)
    {
      g_test_skip ("xterm is not installed (scripts/bootstrap.sh installs it)");
      return;
    }
  g_assert_cmpint (run (argv, NULL, &out, NULL), ==, 1);
  g_assert_nonnull (strstr (out, "crashed with SIGSEGV"));
  md = read_file (report, "report.md");
  g_test_message ("report.md:\n%s", md);
  parse_steps (md, words, pictures);
  g_assert_cmpuint (words->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < words->len; i++)
    {
      g_autofree char *path = g_build_filename (report, g_ptr_array_index (pictures, i), NULL);
      int w, h;

      g_assert_cmpstr (g_ptr_array_index (words, i), ==, want[i]);
      png_size (path, &w, &h);
      /* The terminal and a margin, far less than the 1280x1024 screen. */
      g_assert_cmpint (w, <, 800);
      g_assert_cmpint (h, <, 600);
      g_assert_cmpint (w, >, 200);
    }
}

/* ---- the xdotool script ---- */

/* Xvfb and xdemo in groups of their own, and gone with the test even when
 * an assertion aborts it before the teardown. */
static void
child_setup (gpointer data)
{
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
xvfb_start (Fixture *f)
{
  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = XOpenDisplay (f->xvfb.display);
  g_assert_nonnull (f->dpy);
}

/* Waits up to WAIT_MS for a top-level window titled @title to be mapped;
 * the root's SubstructureNotify must have been selected before the app
 * started. */
static void
wait_for_map (Fixture *f, const char *title)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * G_TIME_SPAN_MILLISECOND;

  for (;;)
    {
      struct pollfd pfd = { ConnectionNumber (f->dpy), POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / G_TIME_SPAN_MILLISECOND;

      while (XPending (f->dpy) > 0)
        {
          XEvent ev;
          char *name = NULL;
          gboolean found;

          XNextEvent (f->dpy, &ev);
          if (ev.type != MapNotify || ev.xmap.override_redirect)
            continue;
          found = XFetchName (f->dpy, ev.xmap.window, &name) && g_strcmp0 (name, title) == 0;
          if (name != NULL)
            XFree (name);
          if (found)
            return;
        }
      if (left <= 0)
        g_error ("no window \"%s\" was mapped within %d ms", title, WAIT_MS);
      poll (&pfd, 1, (int) left);
    }
}

/* Waits up to WAIT_MS for child @pid to end; FALSE if it is still alive.
 * *@status is its wait status. */
static gboolean
wait_child (GPid pid, int *status)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * G_TIME_SPAN_MILLISECOND;
  pid_t r;

  while ((r = waitpid (pid, status, WNOHANG)) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);   /* polling a process's end, not synchronising */
  g_assert_cmpint (r, >=, 0);
  return r == pid;
}

/* Runs the script on the fixture's display, in a group of its own, for at
 * most WAIT_MS (its own sleeps add up to about a second); returns its exit
 * status and what it said on stderr. */
static int
run_script (Fixture *f, const char *script, char *const *envp, char **err)
{
  g_autofree char *err_path = g_build_filename (f->dir, "script.err", NULL);
  const char *argv[] = { "sh", script, NULL };
  g_autoptr (GError) error = NULL;
  int err_fd = g_open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int status = -1;
  GPid pid;

  g_assert_cmpint (err_fd, >=, 0);
  g_assert_true (g_spawn_async_with_pipes_and_fds (NULL, argv, (const char *const *) envp,
                   G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                   child_setup, NULL, -1, -1, err_fd, NULL, NULL, 0,
                   &pid, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  close (err_fd);
  if (!wait_child (pid, &status))
    {
      g_autofree char *said = NULL;

      kill (-pid, SIGKILL);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      g_file_get_contents (err_path, &said, NULL, NULL);
      g_error ("the xdotool script did not end within %d ms; it said: %s", WAIT_MS, said);
    }
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  g_test_message ("the script said:\n%s", *err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

static void
test_xdotool_script (Fixture *f, gconstpointer data)
{
  g_autofree char *script = g_build_filename (f->dir, "replay-xdotool.sh", NULL);
  g_autofree char *text = NULL, *err = NULL;
  g_autofree char *display_env = NULL;
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_auto (GStrv) envp = NULL;
  g_autoptr (GError) error = NULL;
  const char *export_argv[] = { env ("XREPLAY"), "--export", "xdotool", f->session, NULL };
  const char *xdemo_argv[] = { env ("XDEMO"), NULL };
  int status = -1;

  if (xdotool == NULL)
    {
      g_test_skip ("xdotool is not installed");
      return;
    }
  g_assert_cmpint (run (export_argv, NULL, &text, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (text, "#!/bin/sh\n"));
  g_assert_true (g_file_set_contents (script, text, -1, NULL));

  xvfb_start (f);
  envp = g_environ_setenv (g_get_environ (), "DISPLAY", f->xvfb.display, TRUE);
  /* Watch for xdemo's window before it can appear. */
  XSelectInput (f->dpy, DefaultRootWindow (f->dpy), SubstructureNotifyMask);
  XSync (f->dpy, False);
  /* At its default geometry, the one the session was recorded at. */
  g_assert_true (g_spawn_async (NULL, (char **) xdemo_argv, envp,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                child_setup, NULL, &f->xdemo, &error));
  g_assert_no_error (error);
  wait_for_map (f, "Editor");

  /* The crash is the last action's: the script sees the windows go, says
   * after which step, and exits 1 as xreplay does. */
  g_assert_cmpint (run_script (f, script, envp, &err), ==, 1);
  g_test_message ("the script said: %s", err);
  /* It found every window it aimed at: no fallback to screen positions. */
  g_assert_null (strstr (err, "no window"));
  g_assert_nonnull (strstr (err, "the app's windows are gone after action "));
  g_assert_nonnull (strstr (err, "(step 2 of 2): it crashed or exited\n"));
  if (!wait_child (f->xdemo, &status))
    g_error ("xdemo is still alive %d ms after the script ended", WAIT_MS);
  f->xdemo = 0;
  if (!WIFSIGNALED (status))
    g_error ("xdemo did not crash: wait status 0x%x; the script said: %s", status, err);
  g_assert_cmpint (WTERMSIG (status), ==, SIGSEGV);

  /* Without the app, nothing is typed anywhere: exit 2 at once. */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_script (f, script, envp, &err), ==, 2);
  g_assert_nonnull (strstr (err, "the app shows no window"));
}

/* --report naming a folder that is not a report: refused before the
 * replay (exit 2, one line), nothing in it touched. */
static void
test_report_not_ours (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_build_filename (f->dir, "work", NULL);
  g_autofree char *file = g_build_filename (dir, "thesis.tex", NULL);
  g_autofree char *err = NULL, *text = NULL;
  const char *argv[] = { env ("XREPLAY"), "--report", dir, f->session, "--", env ("XDEMO"),
                         NULL };
  const char *const left[] = { "print.session", "work", NULL };

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, "years of work", -1, NULL));
  g_assert_cmpint (run (argv, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--report"));
  g_assert_nonnull (strstr (err, dir));
  g_assert_null (strchr (g_strstrip (err), '\n'));
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "years of work");
  assert_holds (f->dir, left);
}

/* xreplay --report interrupted mid-replay (Ctrl-C once the Print dialog
 * is up, on the test's display): the earlier report is as it was, and no
 * half-written folder is left beside it. */
static void
test_report_interrupted (Fixture *f, gconstpointer data)
{
  g_autofree char *report = g_build_filename (f->dir, "report", NULL);
  g_autofree char *md = NULL;
  const char *argv[] = { env ("XREPLAY"), "--settle", "20000", "--display", NULL, "--report",
                         report, f->session, "--", env ("XDEMO"), "--bug", "none", NULL };
  const char *const left[] = { "print.session", "report", NULL };
  int status = -1;
  GPid pid;

  make_old_report (report);
  xvfb_start (f);
  argv[4] = f->xvfb.display;
  XSelectInput (f->dpy, DefaultRootWindow (f->dpy), SubstructureNotifyMask);
  XSync (f->dpy, False);
  pid = test_spawn_quiet (NULL, (const char *const *) argv, NULL, 0);
  wait_for_map (f, "Print");
  kill (pid, SIGINT);
  g_assert_true (wait_child (pid, &status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 130);
  md = read_file (report, "report.md");
  g_assert_cmpstr (md, ==, "# old report\n");
  assert_holds (f->dir, left);
  {
    const char *const old[] = { "report.md", "step-99.png", OUTPUT_MANIFEST, NULL };
    assert_holds (report, old);
  }
}

/* ---- xreduce's report ---- */

static void
test_reduce_report (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data",
                                               "demo.session", NULL);
  g_autofree char *min = g_build_filename (f->dir, "out.min", NULL);
  g_autofree char *report = g_strconcat (min, ".report", NULL);
  g_autofree char *report_line = g_strdup_printf ("report: %s/report.md\n", report);
  const char *reduce_argv[] = { env ("XREDUCE"), "--quiet", "--max-gap", "100", "--settle", "300",
                                "-o", min, session, "--", env ("XDEMO"), NULL };
  const char *list_argv[] = { env ("XREPLAY"), "--list", min, NULL };
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) pictures = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL, *listed = NULL, *md = NULL, *figures = NULL;
  g_auto (GStrv) list = NULL;
  const char *summary, *section;
  guint before = 0, after = 0, n_list;

  g_autofree char *victim = g_build_filename (f->dir, "victim", NULL);
  g_autofree char *victim_md = g_build_filename (victim, "report.md", NULL);
  g_autofree char *victim_text = NULL;
  struct stat st;

  /* What was at the outputs' paths: a 0644 file, a link to someone's
   * report. The file becomes a new 0600 one, the link a folder of ours;
   * what the link pointed to is untouched. */
  g_assert_true (g_file_set_contents (min, "old", -1, NULL));
  g_assert_cmpint (g_chmod (min, 0644), ==, 0);
  g_assert_cmpint (g_mkdir (victim, 0755), ==, 0);
  g_assert_true (g_file_set_contents (victim_md, "# theirs\n", -1, NULL));
  g_assert_cmpint (symlink (victim, report), ==, 0);
  g_assert_cmpint (run (reduce_argv, NULL, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, report_line));
  g_assert_cmpint (lstat (min, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  assert_private_report (report);
  g_assert_true (g_file_get_contents (victim_md, &victim_text, NULL, NULL));
  g_assert_cmpstr (victim_text, ==, "# theirs\n");
  {
    const char *const left[] = { "print.session", "out.min", "out.min.report", "victim", NULL };
    assert_holds (f->dir, left);
  }
  summary = strstr (out, " -> ");
  g_assert_nonnull (summary);
  g_assert_cmpint (sscanf (out, "%u -> %u actions", &before, &after), ==, 2);
  g_assert_cmpuint (before, ==, DEMO_ACTIONS);
  g_assert_cmpuint (after, >, 0);

  md = read_file (report, "report.md");
  g_test_message ("report.md:\n%s", md);
  g_assert_nonnull (strstr (md, "crashed with SIGSEGV"));

  /* The steps are the minimal session's phrases as `xreplay --list` says
   * them (with the action numbers), up to the crash; the releases the
   * reducer added are said to be its own. */
  g_assert_cmpint (run (list_argv, NULL, &listed, NULL), ==, 0);
  list = g_strsplit (listed, "\n", -1);
  n_list = g_strv_length (list) - 1;
  want = expected_steps (min);
  g_assert_cmpuint (n_list, >=, want->len);
  parse_steps (md, words, pictures);
  g_assert_cmpuint (words->len, ==, want->len);
  for (guint i = 0; i < words->len; i++)
    {
      const char *step = g_ptr_array_index (words, i);
      g_autofree char *number = g_strdup_printf ("%3u. ", i + 1);

      g_assert_cmpstr (step, ==, g_ptr_array_index (want, i));
      g_assert_true (g_str_has_prefix (list[i], number));
    }
  /* The user's releases went back in after the search (the demo needs
   * nothing held): nothing is said to be held, the Reduction says so. */
  g_assert_null (strstr (md, "Held down"));
  g_assert_nonnull (strstr (md, "- The user's releases: "));
  g_assert_nonnull (strstr (md, " put back after the search"));
  /* One count: the steps listed and the actions kept, as the console
   * said; the crash comes after the last step. */
  {
    g_autofree char *counts = g_strdup_printf ("\n\n%u step%s (%u user action%s)",
                                               words->len, words->len == 1 ? "" : "s", after,
                                               after == 1 ? "" : "s");
    g_autofree char *at_step = g_strdup_printf ("**crashed with SIGSEGV** after step %u of %u.",
                                                words->len, words->len);
    g_assert_nonnull (strstr (md, counts));
    g_assert_nonnull (strstr (md, at_step));
  }
  /* The title names the app, its version (xdemo --version) and where it
   * crashed; the backtrace has file:line (xdemo is built with -g). */
  g_assert_true (g_str_has_prefix (md, "# xdemo 1.0 crashed with SIGSEGV in print_document ("));
  g_assert_nonnull (strstr (md, "xdemo.c:"));
  g_assert_nonnull (strstr (md, "\n    #0 print_document at "));
  g_assert_true (g_regex_match_simple ("^    #[0-9] [a-z_]+ at [^ ]*xdemo\\.c:[0-9]+$", md,
                                       G_REGEX_MULTILINE, 0));
  /* The environment. */
  g_assert_nonnull (strstr (md, "\n## Environment\n"));
  g_assert_nonnull (strstr (md, "- App: `xdemo`, which says it is \"xdemo 1.0\""));
  g_assert_nonnull (strstr (md, "- X server: The X.Org Foundation "));
  g_assert_nonnull (strstr (md, "- OS: "));
  assert_replay_gif (report, words->len + 1);


  /* xreduce's figures, after the replay's report. */
  section = strstr (md, "\n## Reduction\n\n");
  g_assert_nonnull (section);
  g_assert_true (section > strstr (md, "\n## Steps\n"));
  figures = g_strdup_printf ("Actions: %u before, %u after", before, after);
  g_assert_nonnull (strstr (section, figures));
  /* Paths as seen from the report's folder, never absolute. */
  g_assert_null (strstr (md, f->dir));
  {
    const char *from = strstr (section, "Original session: `");
    g_autofree char *rel = NULL, *resolved = NULL, *want_path = NULL;
    g_autofree char *cwd = g_get_current_dir ();

    g_assert_nonnull (from);
    from += strlen ("Original session: `");
    rel = g_strndup (from, strcspn (from, "`"));
    g_assert_false (g_path_is_absolute (rel));
    resolved = g_canonicalize_filename (rel, report);
    want_path = g_canonicalize_filename (session, cwd);
    g_assert_cmpstr (resolved, ==, want_path);
    g_assert_nonnull (strstr (section, "Minimal session: `../out.min`"));
  }
  g_assert_nonnull (strstr (section, "Tests run: "));
  g_assert_nonnull (strstr (section, "Wall time: "));
  g_assert_nonnull (strstr (section, "Algorithm: hdd"));
  g_assert_nonnull (strstr (section, "1-minimal: verified"));
}

/* xreduce --no-backtrace: the report's replay runs without the crash
 * tracer (xreplay's default for a report is to trace), and the report
 * says it has no backtrace; the crash is still said. */
static void
test_reduce_no_backtrace (Fixture *f, gconstpointer data)
{
  g_autofree char *min = g_build_filename (f->dir, "out.min", NULL);
  g_autofree char *report = g_strconcat (min, ".report", NULL);
  const char *reduce_argv[] = { env ("XREDUCE"), "--quiet", "--no-backtrace", "--max-gap", "100",
                                "--settle", "300", "-o", min, f->session, "--", env ("XDEMO"),
                                NULL };
  g_autofree char *md = NULL;

  g_assert_cmpint (run (reduce_argv, NULL, NULL, NULL), ==, 0);
  md = read_file (report, "report.md");
  g_test_message ("report.md:\n%s", md);
  g_assert_nonnull (strstr (md, "crashed with SIGSEGV"));
  g_assert_nonnull (strstr (md, "\nNo backtrace: this replay did not trace the app "
                                "(--no-backtrace).\n"));
  g_assert_null (strstr (md, "Backtrace of the thread that died"));
  g_assert_null (strstr (md, "#0 "));
}

/* xreduce --json: one JSON object that says what the report says: the
 * counts, the steps in words, the tests and cache hits, the files. */
static void
test_reduce_json (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data",
                                               "demo.session", NULL);
  g_autofree char *min = g_build_filename (f->dir, "out.min", NULL);
  g_autofree char *report = g_strconcat (min, ".report", NULL);
  g_autofree char *report_md = g_build_filename (report, "report.md", NULL);
  const char *reduce_argv[] = { env ("XREDUCE"), "--json", "--max-gap", "100", "--settle", "300",
                                "-o", min, session, "--", env ("XDEMO"), NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) pictures = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL, *md = NULL, *figure = NULL;
  JsonObject *o, *files;
  JsonArray *steps;

  g_assert_cmpint (run (reduce_argv, NULL, &out, NULL), ==, 0);
  g_test_message ("stdout:\n%s", out);
  /* stdout is the object and nothing else. */
  o = test_json_object (parser, out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "reduced");
  g_assert_cmpstr (json_object_get_string_member (o, "failure"), ==, "crashed with SIGSEGV");
  g_assert_cmpint (json_object_get_int_member (o, "actions_before"), ==, DEMO_ACTIONS);
  g_assert_true (json_object_get_boolean_member (o, "one_minimal"));
  files = json_object_get_object_member (o, "files");
  g_assert_cmpstr (json_object_get_string_member (files, "minimal_session"), ==, min);
  g_assert_cmpstr (json_object_get_string_member (files, "report"), ==, report_md);
  g_assert_true (g_file_test (json_object_get_string_member (files, "replay_gif"),
                              G_FILE_TEST_IS_REGULAR));

  /* The same as the report: its steps, its figures. */
  md = read_file (report, "report.md");
  parse_steps (md, words, pictures);
  steps = json_object_get_array_member (o, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, words->len);
  for (guint i = 0; i < words->len; i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      g_autofree char *said = g_strconcat (json_object_get_string_member (step, "words"), ".",
                                           NULL);

      g_assert_cmpstr (said, ==, g_ptr_array_index (words, i));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (step, "actions")),
                        >, 0);
    }
  figure = g_strdup_printf ("Actions: %" G_GINT64_FORMAT " before, %" G_GINT64_FORMAT " after",
                            json_object_get_int_member (o, "actions_before"),
                            json_object_get_int_member (o, "actions_after"));
  g_assert_nonnull (strstr (md, figure));
  g_clear_pointer (&figure, g_free);
  figure = g_strdup_printf ("Tests run: %" G_GINT64_FORMAT " (and %" G_GINT64_FORMAT
                            " answered from the cache)",
                            json_object_get_int_member (o, "tests"),
                            json_object_get_int_member (o, "cache_hits"));
  g_assert_nonnull (strstr (md, figure));
  g_clear_pointer (&figure, g_free);
  /* The user's releases went back in: none added, or some (a key the
   * failure needs held). */
  if (json_object_get_int_member (o, "releases_added") > 0)
    figure = g_strdup_printf (" (%" G_GINT64_FORMAT " user actions and %" G_GINT64_FORMAT
                              " releases that xreduce added)",
                              json_object_get_int_member (o, "actions_after"),
                              json_object_get_int_member (o, "releases_added"));
  else
    figure = g_strdup_printf (" (%" G_GINT64_FORMAT " user actions)",
                              json_object_get_int_member (o, "actions_after"));
  g_assert_nonnull (strstr (md, figure));
  g_clear_pointer (&figure, g_free);
  /* How busy the workers were, and how often the search left some idle:
   * a share, and rounds of the search (at least the verification's). */
  g_assert_cmpint (json_object_get_int_member (o, "workers_busy_percent"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "workers_busy_percent"), <=, 100);
  g_assert_cmpint (json_object_get_int_member (o, "batches"), >=, 2);
  g_assert_cmpint (json_object_get_int_member (o, "batches_with_idle_workers"), <=,
                   json_object_get_int_member (o, "batches"));
  /* Speculative tests are some of the tests, none on one worker. */
  g_assert_cmpint (json_object_get_int_member (o, "speculative_tests"), <=,
                   json_object_get_int_member (o, "tests"));
  if (json_object_get_int_member (o, "workers") == 1)
    g_assert_cmpint (json_object_get_int_member (o, "speculative_tests"), ==, 0);
  if (json_object_get_int_member (o, "workers") > 1)
    {
      figure = g_strdup_printf ("Speculative tests: %" G_GINT64_FORMAT " of the %"
                                G_GINT64_FORMAT " (",
                                json_object_get_int_member (o, "speculative_tests"),
                                json_object_get_int_member (o, "tests"));
      g_assert_nonnull (strstr (md, figure));
      g_clear_pointer (&figure, g_free);
      figure = g_strdup_printf ("Workers busy: %" G_GINT64_FORMAT "%% of the time; in %"
                                G_GINT64_FORMAT " of %" G_GINT64_FORMAT " rounds",
                                json_object_get_int_member (o, "workers_busy_percent"),
                                json_object_get_int_member (o, "batches_with_idle_workers"),
                                json_object_get_int_member (o, "batches"));
      g_assert_nonnull (strstr (md, figure));
    }
}

/* xreduce --json without a result: still one object, with the verdict,
 * the error and the exit status. */
static void
test_reduce_json_nothing (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "data",
                                               "demo.session", NULL);
  g_autofree char *min = g_build_filename (f->dir, "out.min", NULL);
  const char *reduce_argv[] = { env ("XREDUCE"), "--json", "-q", "--verify-runs", "1",
                                "--max-gap", "100", "--settle", "300", "-o", min, session, "--",
                                env ("XDEMO"), "--bug", "none", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *o;

  g_assert_cmpint (run (reduce_argv, NULL, &out, NULL), ==, 4);
  o = test_json_object (parser, out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "nothing_to_reduce");
  g_assert_cmpint (json_object_get_int_member (o, "exit_status"), ==, 4);
  g_assert_nonnull (json_object_get_string_member (o, "error"));
  g_assert_true (json_object_get_null_member (json_object_get_object_member (o, "files"),
                                              "minimal_session"));
  g_assert_false (g_file_test (min, G_FILE_TEST_EXISTS));
}

/* ---- bad input ---- */

/* A picture of the report the disk has no room for (F2 of issue #34:
 * with about 100 KB free, xreduce exited 0 with replay.gif missing and
 * nothing said): the report fails as for report.md, exit 3 with the
 * reason, and nothing of it is left. The disk is a tmpfs in a mount
 * namespace of the script's own (unshare -rm: no root needed), first
 * roomy, to weigh the demo session's report, then with room for all of
 * it but half of replay.gif (the last picture written, the largest).
 * Exit 99: no tmpfs here. */
static const char full_disk_script[] =
  "d=$1; shift\n"
  "mount -t tmpfs -o size=8m none \"$d\" || exit 99\n"
  "\"$@\" \"$d/roomy\" \"$XREDUCE_SESSION\" -- \"$XDEMO\" > /dev/null 2>&1\n"
  "[ -f \"$d/roomy/replay.gif\" ] || { echo no replay.gif in a roomy report; exit 98; }\n"
  "gif=$(du -k \"$d/roomy/replay.gif\" | cut -f1); all=$(du -sk \"$d/roomy\" | cut -f1)\n"
  "rm -rf \"$d/roomy\"\n"
  "free=$(( all - gif / 2 ))\n"
  "head -c $(( (8192 - free) * 1024 )) /dev/zero > \"$d/filler\" 2>/dev/null\n"
  "echo \"the report: $all KiB, replay.gif $gif KiB; $free KiB free\"\n"
  "\"$@\" \"$d/report\" \"$XREDUCE_SESSION\" -- \"$XDEMO\"; echo \"status=$?\"\n"
  "echo left: $(ls -A \"$d\")\n";

static void
test_full_disk (Fixture *f, gconstpointer data)
{
  g_autofree char *session = data_path ("demo.session");
  const char *const args[] = { env ("XREPLAY"), "--max-gap", "100", "--settle", "300",
                               "--report", NULL };
  g_auto (GStrv) envp = g_get_environ ();
  g_autofree char *out = NULL, *err = NULL, *said = NULL;
  int status;

  envp = g_environ_setenv (envp, "XREDUCE_SESSION", session, TRUE);
  envp = g_environ_setenv (envp, "XDEMO", env ("XDEMO"), TRUE);
  if (!test_run_on_own_disk (f->dir, full_disk_script, args, (const char *const *) envp,
                             &status, &out, &err))
    return;
  said = g_strconcat (out, err, NULL);
  g_assert_nonnull (strstr (said, "the report: "));
  g_assert_nonnull (strstr (said, "status=3\n"));
  g_assert_nonnull (strstr (said, "No space left on device"));
  g_assert_nonnull (strstr (said, "left: filler\n"));
}

static void
test_bad_input (Fixture *f, gconstpointer data)
{
  const char *report_argv[] = { env ("XREPLAY"), "--report", "/proc/forbidden/x", f->session,
                                "--", env ("XDEMO"), NULL };
  const char *export_argv[] = { env ("XREPLAY"), "--export", "bogus", f->session, NULL };
  g_autofree char *err = NULL;

  g_assert_cmpint (run (report_argv, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--report"));
  g_assert_nonnull (strstr (err, "cannot create the report folder /proc/forbidden/x"));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run (export_argv, NULL, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "unknown format 'bogus'"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
#define ADD(path, fn) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/report/bad-input", test_bad_input);
  ADD ("/report/replay", test_replay_report);
  ADD ("/report/full-disk", test_full_disk);
  ADD ("/report/typed", test_typed_report);
  ADD ("/report/not-ours", test_report_not_ours);
  ADD ("/report/interrupted", test_report_interrupted);
  ADD ("/report/xdotool-script", test_xdotool_script);
  ADD ("/report/reduce", test_reduce_report);
  ADD ("/report/reduce-no-backtrace", test_reduce_no_backtrace);
  ADD ("/report/reduce-json", test_reduce_json);
  ADD ("/report/reduce-json-nothing", test_reduce_json_nothing);
  return g_test_run ();
}
