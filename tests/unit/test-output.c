/* test-output.c — outputs that hold keystrokes (output/output.h): the
 * files session_save() and the recorder's SessionWriter make, and the
 * report folders, are private whatever was at their path (an existing
 * 0644 file, a symbolic link, someone's folder), and never follow a link.
 * No display.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "output.h"
#include "session.h"

static const char session_text[] =
  "xreduce-session 1\nscreen 640x480\ncommand \"app\"\n"
  "10 KeyPress keysym=a keycode=38 state=0x0\n"
  "20 KeyRelease keysym=a keycode=38 state=0x0\n";

typedef struct
{
  char *dir;
  char *path;                /* dir/out */
  char *victim;              /* dir/victim: what a link at the path points to */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("test-output-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "out", NULL);
  f->victim = g_build_filename (f->dir, "victim", NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  output_remove_tree (f->dir);
  g_assert_false (g_file_test (f->dir, G_FILE_TEST_EXISTS));
  g_free (f->dir);
  g_free (f->path);
  g_free (f->victim);
}

static void
assert_mode (const char *path, mode_t type, mode_t mode)
{
  struct stat st;

  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & S_IFMT, ==, type);
  g_assert_cmpint (st.st_mode & 07777, ==, mode);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* Only @names (NULL-terminated, sorted) in @dir: no temporary left. */
static void
assert_dir_holds (const char *dir, const char *const *names)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  guint n = 0;

  g_assert_nonnull (d);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    g_ptr_array_add (seen, g_strdup (name));
  g_ptr_array_sort (seen, compare_names);
  for (; names[n] != NULL; n++)
    {
      g_assert_cmpuint (n, <, seen->len);
      g_assert_cmpstr (g_ptr_array_index (seen, n), ==, names[n]);
    }
  g_assert_cmpuint (seen->len, ==, n);
}

/* What can be at the output path before: nothing, a 0644 file, a link to
 * a 0644 file, a dangling link. */
typedef enum { BEFORE_NOTHING, BEFORE_FILE, BEFORE_LINK, BEFORE_DANGLING } Before;

static void
prepare (Fixture *f, Before before)
{
  switch (before)
    {
    case BEFORE_FILE:
      g_assert_true (g_file_set_contents (f->path, "old", -1, NULL));
      g_assert_cmpint (g_chmod (f->path, 0644), ==, 0);
      break;
    case BEFORE_LINK:
      g_assert_true (g_file_set_contents (f->victim, "victim", -1, NULL));
      g_assert_cmpint (g_chmod (f->victim, 0644), ==, 0);
      g_assert_cmpint (symlink (f->victim, f->path), ==, 0);
      break;
    case BEFORE_DANGLING:
      g_assert_cmpint (symlink (f->victim, f->path), ==, 0);
      break;
    case BEFORE_NOTHING:
    default:
      break;
    }
}

/* The link's target is untouched (or still missing). */
static void
check_victim (Fixture *f, Before before)
{
  g_autofree char *text = NULL;

  if (before == BEFORE_LINK)
    {
      g_assert_true (g_file_get_contents (f->victim, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, "victim");
      assert_mode (f->victim, S_IFREG, 0644);
    }
  else
    g_assert_false (g_file_test (f->victim, G_FILE_TEST_EXISTS));
}

static const Before befores[] = { BEFORE_NOTHING, BEFORE_FILE, BEFORE_LINK, BEFORE_DANGLING };

static void
test_file_write (Fixture *f, gconstpointer data)
{
  mode_t old_umask = umask (0);

  for (gsize i = 0; i < G_N_ELEMENTS (befores); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *text = NULL;

      prepare (f, befores[i]);
      g_assert_true (output_file_write (f->path, "new", -1, OUTPUT_FILE_MODE, &error));
      g_assert_no_error (error);
      assert_mode (f->path, S_IFREG, 0600);
      g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, "new");
      check_victim (f, befores[i]);
      g_unlink (f->path);
      g_unlink (f->victim);
    }
  g_assert_true (output_file_write (f->path, "#!/bin/sh\n", -1, OUTPUT_SCRIPT_MODE, NULL));
  assert_mode (f->path, S_IFREG, 0700);
  umask (old_umask);
  {
    const char *const names[] = { "out", NULL };
    assert_dir_holds (f->dir, names);
  }
}

/* A folder at the path is not replaced by a file: an error, and no
 * temporary file is left. */
static void
test_file_over_folder (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  const char *const names[] = { "out", NULL };

  g_assert_cmpint (g_mkdir (f->path, 0755), ==, 0);
  g_assert_false (output_file_write (f->path, "new", -1, OUTPUT_FILE_MODE, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, f->path));
  assert_mode (f->path, S_IFDIR, 0755);
  assert_dir_holds (f->dir, names);
}

static void
test_session_save (Fixture *f, gconstpointer data)
{
  g_autoptr (Session) session = session_parse (session_text, strlen (session_text), "s", NULL);

  g_assert_nonnull (session);
  for (gsize i = 0; i < G_N_ELEMENTS (befores); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (Session) back = NULL;

      prepare (f, befores[i]);
      g_assert_true (session_save (session, f->path, &error));
      g_assert_no_error (error);
      assert_mode (f->path, S_IFREG, 0600);
      back = session_load (f->path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (session_get_n_actions (back), ==, 2);
      check_victim (f, befores[i]);
      g_unlink (f->path);
      g_unlink (f->victim);
    }
}

/* xrecord's log: the same, and it is at its path from the header on. */
static void
test_writer (Fixture *f, gconstpointer data)
{
  g_autoptr (Session) session = session_parse (session_text, strlen (session_text), "s", NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (befores); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (SessionWriter) writer = NULL;
      g_autoptr (Session) back = NULL;
      const char *const names[] = { "out", befores[i] == BEFORE_LINK ? "victim" : NULL, NULL };

      prepare (f, befores[i]);
      writer = session_writer_open (f->path, session, &error);
      g_assert_no_error (error);
      assert_mode (f->path, S_IFREG, 0600);
      assert_dir_holds (f->dir, names);
      g_assert_true (session_writer_append (writer, session_get_event (session, 0), &error));
      /* Killed here, the log loads. */
      back = session_load (f->path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (session_get_n_actions (back), ==, 1);
      g_assert_true (session_writer_finish (writer, (SessionOutcome) { .kind = SESSION_OUTCOME_NONE },
                                            &error));
      g_assert_no_error (error);
      check_victim (f, befores[i]);
      g_unlink (f->path);
      g_unlink (f->victim);
    }
}

/* A report folder at @dir as a writer leaves it: made under another name,
 * put in place by output_dir_install() (which lists what it holds). */
static void
make_report (const char *dir, const char *text)
{
  g_autofree char *fresh = g_strconcat (dir, ".fresh", NULL);
  g_autofree char *md = g_build_filename (fresh, "report.md", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (fresh, 0755), ==, 0);
  g_assert_true (g_file_set_contents (md, text, -1, NULL));
  g_assert_true (output_dir_install (fresh, dir, &error));
  g_assert_no_error (error);
}

/* An old report that holds a file its writer did not put there (someone's
 * notes, a folder) is refused, not deleted with it; so is a report.md
 * without a manifest (made by hand). */
static void
test_dir_check_foreign (Fixture *f, gconstpointer data)
{
  g_autofree char *report = g_build_filename (f->dir, "out.report", NULL);
  g_autofree char *precious = g_build_filename (report, "precious.txt", NULL);
  g_autofree char *sub = g_build_filename (report, "sub", NULL);
  g_autofree char *notes = g_build_filename (sub, "notes.txt", NULL);
  g_autofree char *manifest = g_build_filename (report, OUTPUT_MANIFEST, NULL);
  g_autoptr (GError) error = NULL;

  make_report (report, "# old\n");
  g_assert_true (output_dir_check (report, "report.md", NULL));
  g_assert_true (g_file_set_contents (precious, "mine", -1, NULL));
  g_assert_false (output_dir_check (report, "report.md", &error));
  g_assert_nonnull (strstr (error->message, "precious.txt"));
  g_clear_error (&error);
  g_unlink (precious);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (notes, "mine", -1, NULL));
  g_assert_false (output_dir_check (report, "report.md", &error));
  g_assert_nonnull (strstr (error->message, "sub"));
  g_clear_error (&error);
  g_assert_true (g_file_test (notes, G_FILE_TEST_IS_REGULAR));
  g_unlink (notes);
  g_rmdir (sub);
  g_assert_true (output_dir_check (report, "report.md", NULL));
  g_unlink (manifest);
  g_assert_false (output_dir_check (report, "report.md", &error));
  g_assert_nonnull (strstr (error->message, OUTPUT_MANIFEST));
}

/* What a report folder may replace, and what it may not. */
static void
test_dir_check (Fixture *f, gconstpointer data)
{
  g_autofree char *other = g_build_filename (f->dir, "other", NULL);
  g_autofree char *mine = g_build_filename (f->dir, "mine", NULL);
  g_autofree char *empty = g_build_filename (f->dir, "empty", NULL);
  g_autofree char *file = g_build_filename (f->dir, "file", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link", NULL);
  g_autofree char *inside = g_build_filename (other, "thesis.tex", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (other, 0755), ==, 0);
  g_assert_true (g_file_set_contents (inside, "years of work", -1, NULL));
  make_report (mine, "# old report\n");
  g_assert_cmpint (g_mkdir (empty, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  g_assert_cmpint (symlink (other, link), ==, 0);

  g_assert_true (output_dir_check (f->path, "report.md", NULL));
  g_assert_true (output_dir_check (mine, "report.md", NULL));
  g_assert_true (output_dir_check (empty, "report.md", NULL));
  g_assert_true (output_dir_check (link, "report.md", NULL));
  g_assert_false (output_dir_check (other, "report.md", &error));
  g_assert_nonnull (strstr (error->message, other));
  g_clear_error (&error);
  g_assert_false (output_dir_check (file, "report.md", &error));
  g_assert_nonnull (strstr (error->message, "not a folder"));
  g_assert_true (g_file_test (inside, G_FILE_TEST_IS_REGULAR));
}

/* A complete folder goes in place of nothing, an old report, an empty
 * folder, a link (whose target is untouched). */
static void
test_dir_install (Fixture *f, gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "target", NULL);
  g_autofree char *kept = g_build_filename (target, "kept", NULL);
  const char *before[] = { "nothing", "report", "empty", "link" };

  g_assert_cmpint (g_mkdir (target, 0755), ==, 0);
  g_assert_true (g_file_set_contents (kept, "kept", -1, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (before); i++)
    {
      g_autofree char *fresh = g_build_filename (f->dir, "fresh", NULL);
      g_autofree char *md = g_build_filename (f->path, "report.md", NULL);
      g_autofree char *text = NULL;
      g_autoptr (GError) error = NULL;
      const char *const names[] = { "out", "target", NULL };

      if (g_str_equal (before[i], "report"))
        make_report (f->path, "# old\n");
      else if (g_str_equal (before[i], "empty"))
        g_assert_cmpint (g_mkdir (f->path, 0755), ==, 0);
      else if (g_str_equal (before[i], "link"))
        g_assert_cmpint (symlink (target, f->path), ==, 0);
      make_report (fresh, "# new\n");
      g_assert_cmpint (g_chmod (fresh, OUTPUT_DIR_MODE), ==, 0);
      g_assert_true (output_dir_install (fresh, f->path, &error));
      g_assert_no_error (error);
      assert_mode (f->path, S_IFDIR, 0700);
      g_assert_true (g_file_get_contents (md, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, "# new\n");
      /* Nothing aside is left; the link's target is as it was. */
      assert_dir_holds (f->dir, names);
      g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
      output_remove_tree (f->path);
    }
}

/* The recorder's writer: whatever a window's title is (up to the 4096
 * bytes of the X property it reads, control characters that take 4 bytes
 * escaped, multibyte characters), the line it writes loads again, with the
 * title cut at a character's boundary; a command line too long for a line
 * is refused before anything is written. */
static void
test_writer_long_title (Fixture *f, gconstpointer data)
{
  g_autoptr (Session) header = session_new ();
  g_autofree char *escapes = g_strnfill (4096, '\033');
  g_autoptr (GString) accents = g_string_new (NULL);
  const char *titles[2];
  g_autoptr (GError) error = NULL;
  g_autoptr (SessionWriter) writer = NULL;
  g_autoptr (Session) back = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  for (int i = 0; i < 2048; i++)
    g_string_append (accents, "\xc3\xa9");   /* é */
  titles[0] = escapes;
  titles[1] = accents->str;
  writer = session_writer_open (f->path, header, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      SessionEvent ev = { .kind = SESSION_EVENT_MOTION, .time_ms = 10, .has_pos = TRUE,
                          .root_x = 1, .root_y = 1, .window = 0, .wm_class = (char *) "C",
                          .wm_name = (char *) titles[i] };

      g_assert_true (session_writer_append (writer, &ev, &error));
      g_assert_no_error (error);
    }
  g_assert_true (session_writer_finish (writer, (SessionOutcome) { 0 }, &error));
  back = session_load (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (session_get_n_actions (back), ==, 2);
  for (gsize i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      const char *title = session_get_event (back, (guint) i)->wm_name;

      g_assert_cmpuint (strlen (title), >, 900);
      g_assert_true (g_str_has_prefix (titles[i], title));
      g_assert_true (g_utf8_validate (title, -1, NULL));
    }
  g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    g_assert_cmpuint (strlen (*l), <=, SESSION_MAX_LINE);

  /* A command line that no line can hold. */
  {
    g_autofree char *long_arg = g_strnfill (5000, 'x');
    const char *argv[] = { "app", long_arg, NULL };
    g_autoptr (SessionWriter) refused = NULL;
    g_autofree char *other = g_build_filename (f->dir, "other", NULL);

    g_clear_error (&error);
    session_set_command (header, argv);
    refused = session_writer_open (other, header, &error);
    g_assert_null (refused);
    g_assert_nonnull (strstr (error->message, "longer than 4096 bytes"));
    g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/output/file-write", test_file_write);
  ADD ("/output/file-over-folder", test_file_over_folder);
  ADD ("/output/session-save", test_session_save);
  ADD ("/output/writer", test_writer);
  ADD ("/output/writer-long-title", test_writer_long_title);
  ADD ("/output/dir-check", test_dir_check);
  ADD ("/output/dir-install", test_dir_install);
  ADD ("/output/dir-check-foreign", test_dir_check_foreign);
  return g_test_run ();
}
