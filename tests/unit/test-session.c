/* test-session.c — the session model and format: round trips, filtering,
 * gestures, well-formed subsets, and every class of bad input. No display.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "quote.h"
#include "session.h"
#include "verdict.h"
#include "signame.h"

static const char sample[] =
  "# xreduce session, recorded by a test\n"
  "xreduce-session 1\n"
  "screen 1280x1024\n"
  "command \"xdemo\" \"--bug\" \"print\" \"a \\\"quoted\\\" arg\"\n"
  "keymap \"us\"\n"
  "100 MapNotify window=0x200002 override=0\n"
  "110 Expose window=0x200002 area=0,0,640,480 count=0\n"
  "\n"
  "# typing\n"
  "1000 MotionNotify state=0x0 root=200,200 pos=100,100 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1020 KeyPress keysym=Alt_L keycode=64 state=0x0 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1100 KeyPress keysym=p keycode=33 state=0x8 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1180 KeyRelease keysym=p keycode=33 state=0x8 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1190 KeyRelease keysym=Alt_L keycode=64 state=0x8 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1200 MapNotify window=0x200010 override=0\n"
  "1300 KeyPress keysym=a keycode=38 state=0x0 root=210,200 pos=110,100 window=0 class=\"XDemo\" title=\"Editor\"\n"
  "1310 KeyPress keysym=b keycode=56 state=0x0\n"
  "1320 KeyRelease keysym=a keycode=38 state=0x0\n"
  "1330 KeyRelease keysym=b keycode=56 state=0x0\n"
  "1500 MotionNotify state=0x0 root=760,140 pos=60,40 window=1 class=\"XDemo\" title=\"Print\"\n"
  "1510 MotionNotify state=0x0 root=761,141 pos=61,41 window=1 class=\"XDemo\" title=\"Print\"\n"
  "1700 ButtonPress button=1 state=0x0 root=760,140 pos=60,40 window=1 class=\"XDemo\" title=\"Print\"\n"
  "1790 ButtonRelease button=1 state=0x100 root=760,140 pos=60,40 window=1 class=\"XDemo\" title=\"Print\"\n"
  "1800 ButtonPress button=1 state=0x0 root=300,300\n"
  "1810 MotionNotify state=0x100 root=310,300\n"
  "1820 ButtonRelease button=1 state=0x100 root=320,300\n"
  "1830 ButtonRelease button=3 state=0x0 root=320,300\n"
  "outcome crashed SIGSEGV\n";

static Session *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  Session *session = session_parse (text, strlen (text), "t.log", &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

static void
test_round_trip (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  g_autofree char *text = session_to_string (session);
  int w, h;
  SessionOutcome outcome = session_get_outcome (session);

  g_assert_cmpstr (text, ==, sample);
  session_get_screen (session, &w, &h);
  g_assert_cmpint (w, ==, 1280);
  g_assert_cmpint (h, ==, 1024);
  g_assert_cmpstr (session_get_command (session)[3], ==, "a \"quoted\" arg");
  g_assert_cmpstr (session_get_keymap (session), ==, "us");
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (outcome.signal, ==, 11);
  g_assert_true (session_outcome_is_failure (outcome));
}

/* A wait status becomes a verdict in one function, and the verdict's
 * words are the recorded outcome's too. */
static void
test_wait_status (void)
{
  const struct
  {
    int status;
    VerdictKind kind;
    int signal, exit_status;
    const char *words, *outcome_words;
  } cases[] = {
    { W_EXITCODE (0, SIGSEGV), VERDICT_CRASHED, SIGSEGV, -1, "crashed with SIGSEGV",
      "crashed with SIGSEGV" },
    { W_EXITCODE (0, SIGSEGV) | 0x80, VERDICT_CRASHED, SIGSEGV, -1, "crashed with SIGSEGV",
      "crashed with SIGSEGV" },                              /* with a core dump */
    { W_EXITCODE (0, 40), VERDICT_CRASHED, 40, -1, "crashed with signal 40",
      "crashed with signal 40" },                            /* a real-time signal */
    { W_EXITCODE (3, 0), VERDICT_EXITED, 0, 3, "exited with status 3", "exited with status 3" },
    { W_EXITCODE (0, 0), VERDICT_EXITED, 0, 0, "exited with status 0", "exited with status 0" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Verdict verdict;
      g_autofree char *words = NULL, *outcome_words = NULL;
      SessionOutcome outcome;

      verdict_from_wait_status (&verdict, cases[i].status);
      g_assert_cmpint (verdict.kind, ==, cases[i].kind);
      g_assert_cmpint (verdict.signal, ==, cases[i].signal);
      g_assert_cmpint (verdict.exit_status, ==, cases[i].exit_status);
      g_assert_null (verdict.detail);
      words = verdict_describe (&verdict);
      g_assert_cmpstr (words, ==, cases[i].words);
      outcome = verdict_to_session_outcome (&verdict);
      outcome_words = session_outcome_describe (outcome);
      g_assert_cmpstr (outcome_words, ==, cases[i].outcome_words);
      g_assert_true (session_outcome_is_failure (outcome) == (cases[i].status != 0));
    }
}

/* The outcomes a verdict records, and the words of the file's own. */
static void
test_outcome_words (void)
{
  Verdict verdict;
  const VerdictKind unknown[] = { VERDICT_COULD_NOT_START, VERDICT_UNRESOLVED,
                                  VERDICT_INFRA_ERROR };
  SessionOutcome none = { .kind = SESSION_OUTCOME_NONE };
  SessionOutcome unrecorded = { .kind = SESSION_OUTCOME_UNKNOWN };
  SessionOutcome hung = { .kind = SESSION_OUTCOME_HUNG };
  g_autofree char *none_words = session_outcome_describe (none);
  g_autofree char *unrecorded_words = session_outcome_describe (unrecorded);
  g_autofree char *hung_words = session_outcome_describe (hung);

  g_assert_cmpstr (none_words, ==, "none");
  g_assert_cmpstr (unrecorded_words, ==, "not recorded");
  g_assert_cmpstr (hung_words, ==, "hung");
  verdict_init (&verdict, VERDICT_PASSED);
  g_assert_cmpint (verdict_to_session_outcome (&verdict).kind, ==, SESSION_OUTCOME_NONE);
  verdict_init (&verdict, VERDICT_HUNG);
  g_assert_cmpint (verdict_to_session_outcome (&verdict).kind, ==, SESSION_OUTCOME_HUNG);
  for (gsize i = 0; i < G_N_ELEMENTS (unknown); i++)
    {
      verdict_init (&verdict, unknown[i]);
      g_assert_cmpint (verdict_to_session_outcome (&verdict).kind, ==, SESSION_OUTCOME_UNKNOWN);
    }
}

/* One list of modifiers: held ones make chords; locks and latches do
 * not, but neither's hold means anything (the replay keeps neither's). */
static void
test_modifiers (void)
{
  const char *const held[] = { "Shift_L", "Shift_R", "Control_L", "Control_R", "Alt_L",
                               "Alt_R", "Meta_L", "Meta_R", "Super_L", "Super_R", "Hyper_L",
                               "Hyper_R", "ISO_Level3_Shift", "ISO_Level5_Shift",
                               "Mode_switch" };
  const char *const locks[] = { "Caps_Lock", "Shift_Lock", "ISO_Level3_Lock",
                                "ISO_Level3_Latch", "ISO_Level5_Lock", "ISO_Level5_Latch" };
  const char *const keys[] = { "a", "Return", "Num_Lock", "Scroll_Lock", "Alt", "Shift",
                               "shift_l", "Caps", "" };

  for (gsize i = 0; i < G_N_ELEMENTS (held); i++)
    {
      g_assert_true (session_keysym_is_modifier (held[i]));
      g_assert_false (session_keysym_is_lock (held[i]));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (locks); i++)
    {
      g_assert_false (session_keysym_is_modifier (locks[i]));
      g_assert_true (session_keysym_is_lock (locks[i]));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_assert_false (session_keysym_is_modifier (keys[i]));
      g_assert_false (session_keysym_is_lock (keys[i]));
    }
  g_assert_false (session_keysym_is_lock (NULL));
}

static void
test_save_load (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "s.log", NULL);
  g_autoptr (Session) session = parse_ok (sample);
  g_autoptr (Session) again = NULL;
  g_autofree char *a = NULL, *b = NULL, *contents = NULL;

  g_assert_no_error (error);
  g_assert_true (session_save (session, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, sample);
  again = session_load (path, &error);
  g_assert_no_error (error);
  a = session_to_string (session);
  b = session_to_string (again);
  g_assert_cmpstr (a, ==, b);
  g_unlink (path);
  g_rmdir (dir);
}

/* A reduction's candidate: the same text as session_save, written as it
 * is made; never over a file already there (a link planted in the
 * folder is not followed); given up at once, leaving nothing, when
 * cancelled, as is the copy of a long session. */
static void
test_save_scratch (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "candidate.log", NULL);
  g_autofree char *big_path = g_build_filename (dir, "big.log", NULL);
  g_autoptr (Session) session = parse_ok (sample);
  g_autoptr (GString) text = g_string_new ("xreduce-session 1\nscreen 800x600\n");
  g_autoptr (Session) big = NULL;
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  g_autofree char *contents = NULL, *whole = NULL;
  g_autofree guint *all = NULL;
  guint n;

  g_assert_no_error (error);
  g_assert_true (session_save_scratch (session, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, sample);
  g_assert_false (session_save_scratch (session, path, NULL, &error));
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
  g_clear_error (&error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, sample);

  /* 100,000 keys: more than one flush of text, and of looks at the
   * cancellable. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (text, "%u KeyPress keysym=a keycode=38 state=0x0\n"
                            "%u KeyRelease keysym=a keycode=38 state=0x0\n", 2 * i + 1, 2 * i + 2);
  big = parse_ok (text->str);
  g_assert_true (session_save_scratch (big, big_path, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (big_path, &contents, NULL, NULL));
  whole = session_to_string (big);
  g_assert_cmpstr (contents, ==, whole);
  g_unlink (big_path);

  g_cancellable_cancel (cancelled);
  g_assert_false (session_save_scratch (big, big_path, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (big_path, G_FILE_TEST_EXISTS));
  n = session_get_n_actions (big);
  all = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    all[i] = i;
  g_assert_null (session_subset_cancellable (big, all, n, cancelled));
  {
    g_autoptr (Session) copy = session_subset_cancellable (big, all, n, NULL);
    g_autofree char *copied = session_to_string (copy);

    g_assert_cmpuint (session_get_n_actions (copy), ==, n);
    g_assert_cmpstr (copied, ==, whole);
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* `outcome unknown` (xrecord --all: the app vanished with its windows
 * up): a failure, of a kind not known, that is written, read back and
 * worded; not the absence of an outcome line (not recorded). */
static void
test_outcome_lost (void)
{
  const char *text = "xreduce-session 1\nscreen 800x600\n"
                     "10 KeyPress keysym=a keycode=38 state=0x0\n"
                     "20 KeyRelease keysym=a keycode=38 state=0x0\noutcome unknown\n";
  g_autoptr (Session) session = parse_ok (text);
  g_autofree char *again = session_to_string (session);
  g_autofree char *words = session_outcome_describe (session_get_outcome (session));
  SessionOutcome unrecorded = { .kind = SESSION_OUTCOME_UNKNOWN };

  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_LOST);
  g_assert_true (session_outcome_is_failure (session_get_outcome (session)));
  g_assert_cmpstr (again, ==, text);
  g_assert_cmpstr (words, ==, "unknown (the app was gone with its windows open)");
  /* The absence of a line stays the absence of a line. */
  g_assert_false (session_outcome_is_failure (unrecorded));
}

/* The `glx` footer: read, written back where it was (before the outcome),
 * kept by a subset; no line is UNKNOWN and writes none. */
static void
test_glx_footer (void)
{
  const char *text = "xreduce-session 1\nscreen 800x600\n"
                     "10 KeyPress keysym=a keycode=38 state=0x0\n"
                     "20 KeyRelease keysym=a keycode=38 state=0x0\nglx asked\noutcome hung\n";
  const char *none = "xreduce-session 1\nscreen 800x600\n"
                     "10 KeyPress keysym=a keycode=38 state=0x0\n";
  g_autoptr (Session) session = parse_ok (text);
  g_autoptr (Session) without = parse_ok (none);
  g_autofree char *again = session_to_string (session);
  g_autofree char *none_again = session_to_string (without);
  guint keep[] = { 0 };
  g_autoptr (Session) subset = session_subset (session, keep, 1);
  g_autofree char *subset_text = session_to_string (subset);
  SessionGlx glx = SESSION_GLX_UNKNOWN;

  g_assert_cmpint (session_get_glx (session), ==, SESSION_GLX_ASKED);
  g_assert_cmpstr (again, ==, text);
  g_assert_cmpint (session_get_glx (without), ==, SESSION_GLX_UNKNOWN);
  g_assert_cmpstr (none_again, ==, none);
  g_assert_cmpint (session_get_glx (subset), ==, SESSION_GLX_ASKED);
  g_assert_nonnull (strstr (subset_text, "\nglx asked\n"));
  /* Before the records too (a hand-made file), written at the end. */
  {
    g_autoptr (Session) early = parse_ok ("xreduce-session 1\nscreen 800x600\nglx not-asked\n"
                                          "10 KeyPress keysym=a keycode=38 state=0x0\n");
    g_autofree char *early_text = session_to_string (early);

    g_assert_cmpint (session_get_glx (early), ==, SESSION_GLX_NOT_ASKED);
    g_assert_true (g_str_has_suffix (early_text, "state=0x0\nglx not-asked\n"));
  }
  g_assert_true (session_glx_parse ("not-asked", &glx));
  g_assert_cmpint (glx, ==, SESSION_GLX_NOT_ASKED);
  g_assert_false (session_glx_parse ("unknown", &glx));
  g_assert_null (session_glx_to_string (SESSION_GLX_UNKNOWN));
}

static void
test_header_outcome (void)
{
  g_autoptr (Session) session = session_new ();
  g_autofree char *text = NULL;
  g_autoptr (Session) again = NULL;
  const char *argv[] = { "app", "-x", NULL };
  SessionOutcome exited = { .kind = SESSION_OUTCOME_EXITED, .status = 3 };
  g_autofree char *words = session_outcome_describe (exited);

  session_set_command (session, argv);
  session_set_screen (session, 800, 600);
  session_set_outcome (session, exited, FALSE);
  session_add_header_comment (session, "made by a test");
  text = session_to_string (session);
  g_assert_cmpstr (text, ==,
                   "# made by a test\nxreduce-session 1\nscreen 800x600\n"
                   "command \"app\" \"-x\"\noutcome exited 3\n");
  again = parse_ok (text);
  g_assert_cmpint (session_get_outcome (again).status, ==, 3);
  g_assert_cmpstr (words, ==, "exited with status 3");
}

/* The first character of @text a terminal acts on but a newline
 * (quote_is_hidden()), as an offset, or -1. */
static gssize
first_hidden_char (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (*p != '\n' && quote_is_hidden (g_utf8_get_char (p)))
      return p - text;
  return -1;
}

/* What a written session holds (a minimal session, a report's copy): no
 * character a terminal acts on, raw (F3 of issue #34: C1 CSI U+009B and
 * the bidi override U+202E stayed raw where C0 was escaped), whether in
 * a quoted string, a comment or a server event's fields, and the same
 * strings when read again; a header comment naming a file whose name
 * holds ESC and a newline stays one line, and the file loads. */
static void
test_written_shown_safely (void)
{
  static const char hostile[] =
    "# a comment with \302\233" "2J and \342\200\256txt.exe in it\n"
    "xreduce-session 1\nscreen 800x600\n"
    "command \"app\\x1b\" \"\302\233" "2J\" \"\342\200\256exe.txt\"\n"
    "keymap \"us\342\200\250\"\n"
    "1 MapNotify window=\342\200\256 override=0\n"
    "2 KeyPress keysym=a keycode=38 state=0x0 window=0 class=\"C\302\233" "1m\" "
    "title=\"evil\342\200\256txt.exe \\x1b]52;c;x\\x07 \342\200\251\"\n";
  g_autoptr (Session) session = parse_ok (hostile);
  g_autoptr (Session) again = NULL;
  g_autofree char *text = NULL;
  const SessionEvent *key = NULL;
  const char *const *command;

  session_add_header_comment (session, "reduced by xreduce from s\033]0;x\007\nname.session"
                                       " \302\233" "2J: 1 -> 1 actions");
  text = session_to_string (session);
  g_test_message ("written:\n%s", text);
  g_assert_cmpint (first_hidden_char (text), ==, -1);
  g_assert_nonnull (strstr (text, "# reduced by xreduce from s\\x1b]0;x\\x07\\x0aname.session "
                                  "\\xc2\\x9b2J: 1 -> 1 actions\n"));
  again = parse_ok (text);
  /* The strings are the same, read back. */
  command = session_get_command (again);
  g_assert_cmpstr (command[0], ==, "app\033");
  g_assert_cmpstr (command[1], ==, "\302\233" "2J");
  g_assert_cmpstr (command[2], ==, "\342\200\256exe.txt");
  for (guint i = 0; i < session_get_n_events (again); i++)
    if (session_event_is_action (session_get_event (again, i)))
      key = session_get_event (again, i);
  g_assert_nonnull (key);
  g_assert_cmpstr (key->wm_class, ==, "C\302\233" "1m");
  g_assert_cmpstr (key->wm_name, ==, "evil\342\200\256txt.exe \033]52;c;x\007 \342\200\251");
  /* Written again: the same bytes (the canonical form). */
  {
    g_autofree char *twice = session_to_string (again);
    g_assert_cmpstr (twice, ==, text);
  }
}

static void
test_writer (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "w.log", NULL);
  g_autoptr (Session) source = parse_ok (sample);
  g_autoptr (Session) header = session_new ();
  g_autoptr (SessionWriter) writer = NULL;
  g_autoptr (Session) loaded = NULL;
  SessionOutcome crashed = { .kind = SESSION_OUTCOME_CRASHED, .signal = 6 };
  struct stat st;

  session_set_command (header, session_get_command (source));
  session_set_keymap (header, "us");
  writer = session_writer_open (path, header, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  for (guint i = 0; i < session_get_n_events (source); i++)
    {
      const SessionEvent *ev = session_get_event (source, i);
      if (ev->kind == SESSION_EVENT_COMMENT)
        continue;
      g_assert_true (session_writer_append (writer, ev, &error));
      /* Every prefix is a loadable session: nothing is buffered. */
      if (i == 12)
        {
          g_autoptr (Session) partial = session_load (path, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (session_get_n_events (partial), >, 5);
        }
    }
  g_assert_true (session_writer_note_glx (writer, SESSION_GLX_NOT_ASKED, &error));
  g_assert_true (session_writer_finish (writer, crashed, &error));
  g_assert_no_error (error);
  loaded = session_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (session_get_n_actions (loaded), ==, session_get_n_actions (source));
  g_assert_cmpint (session_get_outcome (loaded).signal, ==, 6);
  g_assert_cmpint (session_get_glx (loaded), ==, SESSION_GLX_NOT_ASKED);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_writer_unwritable (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) header = session_new ();
  g_autoptr (SessionWriter) writer =
    session_writer_open ("/nonexistent-dir/s.log", header, &error);

  g_assert_null (writer);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/s.log"));
}

static void
test_actions (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  g_autoptr (GArray) actions = session_get_actions (session);
  const char *expected[] = {
    "move to 100,100 in \"Editor\"", "press Alt_L", "press p", "release p",
    "release Alt_L", "press a", "press b", "release a", "release b",
    "move to 60,40 in \"Print\"", "move to 61,41 in \"Print\"",
    "press button 1 at 60,40 in \"Print\"",
    "release button 1 at 60,40 in \"Print\"",
    "press button 1 at 300,300", "move to 310,300",
    "release button 1 at 320,300", "release button 3 at 320,300",
  };

  g_assert_cmpuint (actions->len, ==, G_N_ELEMENTS (expected));
  g_assert_cmpuint (session_get_n_actions (session), ==, actions->len);
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      g_autofree char *words = session_event_describe (ev);
      g_assert_true (session_event_is_action (ev));
      g_assert_cmpstr (words, ==, expected[i]);
    }
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      if (ev->kind == SESSION_EVENT_SERVER || ev->kind == SESSION_EVENT_COMMENT)
        g_assert_false (session_event_is_action (ev));
    }
}

static GString *
gestures_to_string (Session *session)
{
  g_autoptr (GPtrArray) gestures = session_get_gestures (session);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < gestures->len; i++)
    {
      SessionGesture *g = g_ptr_array_index (gestures, i);
      g_string_append_printf (out, "%s%s:", i ? " " : "",
                              session_gesture_kind_to_string (g->kind));
      for (guint j = 0; j < g->actions->len; j++)
        g_string_append_printf (out, "%s%u", j ? "," : "", g_array_index (g->actions, guint, j));
    }
  return out;
}

static void
test_gestures (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  g_autoptr (GString) text = gestures_to_string (session);

  /* motion; Alt+P; a; b (overlapping keys stay apart); a motion run;
   * click; drag, and the unpaired release after it, which goes with the
   * stroke before it (as in the phrases: gestures are built from the
   * strokes). */
  g_assert_cmpstr (text->str, ==,
                   "motion:0 keystroke:1,2,3,4 keystroke:5,7 keystroke:6,8 "
                   "motion:9,10 click:11,12 drag:13,14,15,16");
}

/* Checks that @session is well-formed: releases match held presses, no
 * press of something held, nothing held at the end. */
static void
assert_well_formed (Session *session)
{
  g_autoptr (GHashTable) held = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      guint id = (ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
                   ? ev->keycode : 0x10000 + ev->button;
      if (session_event_is_press (ev))
        g_assert_true (g_hash_table_add (held, GUINT_TO_POINTER (id)));
      else if (session_event_is_release (ev))
        g_assert_true (g_hash_table_remove (held, GUINT_TO_POINTER (id)));
    }
  g_assert_cmpuint (g_hash_table_size (held), ==, 0);
}

static Session *
make_random_session (GRand *rand, guint n_actions)
{
  Session *session = session_new ();
  const char *keys[][2] = { { "a", "38" }, { "b", "56" }, { "Alt_L", "64" },
                            { "Shift_L", "50" }, { "Return", "36" } };
  gboolean key_down[G_N_ELEMENTS (keys)] = { 0 };
  gboolean button_down[4] = { 0 };
  guint64 t = 0;

  for (guint i = 0; i < n_actions; i++)
    {
      SessionEvent ev = { .window = -1, .has_pos = TRUE };
      guint choice = g_rand_int_range (rand, 0, 3);

      ev.time_ms = t += g_rand_int_range (rand, 1, 100);
      ev.root_x = g_rand_int_range (rand, 0, 1280);
      ev.root_y = g_rand_int_range (rand, 0, 1024);
      if (choice == 0)
        {
          guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (keys));
          ev.kind = key_down[k] ? SESSION_EVENT_KEY_RELEASE : SESSION_EVENT_KEY_PRESS;
          key_down[k] = !key_down[k];
          ev.keysym = (char *) keys[k][0];
          ev.keycode = atoi (keys[k][1]);
          ev.has_pos = FALSE;
        }
      else if (choice == 1)
        {
          guint b = g_rand_int_range (rand, 1, 4);
          ev.kind = button_down[b] ? SESSION_EVENT_BUTTON_RELEASE : SESSION_EVENT_BUTTON_PRESS;
          button_down[b] = !button_down[b];
          ev.button = b;
        }
      else
        ev.kind = SESSION_EVENT_MOTION;
      session_append (session, &ev);
      if (g_rand_boolean (rand))
        {
          SessionEvent server = { .kind = SESSION_EVENT_SERVER, .window = -1,
                                  .time_ms = t, .name = (char *) "Expose",
                                  .args = (char *) "window=0x1 count=0" };
          session_append (session, &server);
        }
    }
  return session;
}

static void
test_random_subsets (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 200; round++)
    {
      g_autoptr (Session) session = make_random_session (rand, g_rand_int_range (rand, 1, 60));
      g_autoptr (GPtrArray) gestures = session_get_gestures (session);
      g_autoptr (GArray) keep = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (Session) subset = NULL;
      g_autoptr (Session) reparsed = NULL;
      g_autofree char *text = NULL;
      g_autoptr (GError) error = NULL;
      guint n_covered = 0;
      gboolean by_gesture = round % 2 == 0;

      /* Gestures partition the actions. */
      for (guint g = 0; g < gestures->len; g++)
        n_covered += ((SessionGesture *) g_ptr_array_index (gestures, g))->actions->len;
      g_assert_cmpuint (n_covered, ==, session_get_n_actions (session));

      if (by_gesture)
        {
          for (guint g = 0; g < gestures->len; g++)
            if (g_rand_boolean (rand))
              g_array_append_vals (keep, ((SessionGesture *) g_ptr_array_index (gestures, g))->actions->data,
                                   ((SessionGesture *) g_ptr_array_index (gestures, g))->actions->len);
        }
      else
        for (guint a = 0; a < session_get_n_actions (session); a++)
          if (g_rand_boolean (rand))
            g_array_append_val (keep, a);
      /* sort ascending */
      for (guint i = 1; i < keep->len; i++)
        for (guint j = i; j > 0 && g_array_index (keep, guint, j - 1) > g_array_index (keep, guint, j); j--)
          {
            guint tmp = g_array_index (keep, guint, j);
            g_array_index (keep, guint, j) = g_array_index (keep, guint, j - 1);
            g_array_index (keep, guint, j - 1) = tmp;
          }

      subset = session_subset (session, (guint *) keep->data, keep->len);
      assert_well_formed (subset);
      text = session_to_string (subset);
      reparsed = session_parse (text, strlen (text), "subset", &error);
      g_assert_no_error (error);
      g_assert_nonnull (reparsed);
      /* Server events ride along. */
      {
        guint servers_a = 0, servers_b = 0;
        for (guint i = 0; i < session_get_n_events (session); i++)
          servers_a += session_get_event (session, i)->kind == SESSION_EVENT_SERVER;
        for (guint i = 0; i < session_get_n_events (subset); i++)
          servers_b += session_get_event (subset, i)->kind == SESSION_EVENT_SERVER;
        g_assert_cmpuint (servers_a, ==, servers_b);
      }
    }
}

static void
test_subset_releases_at_end (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  /* Keep Alt_L press (1), p press (2), and the click press (11). */
  guint keep[] = { 1, 2, 11 };
  g_autoptr (Session) subset = session_subset (session, keep, G_N_ELEMENTS (keep));
  g_autoptr (GArray) actions = session_get_actions (subset);
  const char *expected[] = { "press Alt_L", "press p", "press button 1 at 60,40 in \"Print\"",
                             "release button 1 at 60,40 in \"Print\"", "release p",
                             "release Alt_L" };

  g_assert_cmpuint (actions->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < actions->len; i++)
    {
      g_autofree char *words =
        session_event_describe (session_get_event (subset, g_array_index (actions, guint, i)));
      g_assert_cmpstr (words, ==, expected[i]);
    }
  g_assert_cmpint (session_get_outcome (subset).kind, ==, SESSION_OUTCOME_UNKNOWN);
  assert_well_formed (subset);
}

/* A key typed twice, its release dropped: the second press comes after a
 * release of the first, right after it (not held until the second press,
 * which would make it a long press), marked as added; the file stays
 * well-formed and in time order. */
static void
test_subset_repress (void)
{
  g_autoptr (Session) session = parse_ok (
    "xreduce-session 1\nscreen 100x100\n"
    "1000 KeyPress keysym=l keycode=46 state=0x0\n"
    "1100 KeyRelease keysym=l keycode=46 state=0x0\n"
    "1200 MapNotify window=0x2 override=0\n"
    "1300 KeyPress keysym=l keycode=46 state=0x0\n"
    "1400 KeyRelease keysym=l keycode=46 state=0x0\n");
  const guint keep[] = { 0, 2 };
  g_autoptr (Session) subset = session_subset (session, keep, G_N_ELEMENTS (keep));
  g_autoptr (GArray) kept = session_subset_actions (session, keep, G_N_ELEMENTS (keep));
  g_autofree char *text = session_to_string (subset);
  g_autoptr (Session) reparsed = parse_ok (text);

  g_assert_cmpstr (text, ==,
                   "xreduce-session 1\nscreen 100x100\n"
                   "1000 KeyPress keysym=l keycode=46 state=0x0\n"
                   "1000 KeyRelease keysym=l keycode=46 state=0x0 added=1\n"
                   "1200 MapNotify window=0x2 override=0\n"
                   "1300 KeyPress keysym=l keycode=46 state=0x0\n"
                   "# released here so that nothing stays held (not part of the recording)\n"
                   "1300 KeyRelease keysym=l keycode=46 state=0x0 added=1\n");
  assert_well_formed (subset);
  /* Both presses are replayed; the releases are not the recording's. */
  g_assert_cmpuint (kept->len, ==, 2);
  g_assert_cmpuint (g_array_index (kept, guint, 1), ==, 2);
  g_assert_true (session_get_event (reparsed, 1)->added);
  g_assert_false (session_get_event (reparsed, 0)->added);
}

/* ---- bad input ---- */

typedef struct
{
  const char *name;
  const char *text;
  int code;
  const char *message;   /* expected substring */
} BadCase;

#define HEAD "xreduce-session 1\nscreen 1280x1024\n"

static const BadCase bad_cases[] = {
  { "empty", "", SESSION_ERROR_EMPTY, "t.log: empty file" },
  { "only-comments", "# nothing\n\n", SESSION_ERROR_VERSION, "no 'xreduce-session 2' line" },
  { "missing-version", "screen 1280x1024\n", SESSION_ERROR_VERSION, "t.log:1: not a session log" },
  { "newer-version", "xreduce-session 3\n", SESSION_ERROR_VERSION, "t.log:1: format version 3 is newer" },
  { "bad-version", "xreduce-session x\n", SESSION_ERROR_PARSE, "t.log:1: bad format version" },
  { "unknown-event", HEAD "12 KeyPres keysym=a keycode=38 state=0\n", SESSION_ERROR_PARSE,
    "t.log:3: unknown event 'KeyPres'" },
  { "unknown-keysym", HEAD "12 KeyPress keysym=Alt_X keycode=38 state=0\n", SESSION_ERROR_PARSE,
    "t.log:3: unknown keysym 'Alt_X'" },
  { "root-outside", HEAD "12 ButtonPress button=1 state=0 root=1280,10\n", SESSION_ERROR_PARSE,
    "t.log:3: root coordinates 1280,10 outside the 1280x1024 screen" },
  { "root-negative", HEAD "12 MotionNotify state=0 root=-1,10\n", SESSION_ERROR_PARSE,
    "outside the 1280x1024 screen" },
  { "pos-out-of-range", HEAD "12 MotionNotify state=0 root=1,1 pos=99999,1 window=0\n", SESSION_ERROR_PARSE,
    "window coordinates 99999,1 out of range" },
  { "huge-number", HEAD "12 MotionNotify state=0 root=1,99999999999999999999\n", SESSION_ERROR_PARSE,
    "bad root coordinates" },
  { "missing-keycode", HEAD "12 KeyPress keysym=a state=0\n", SESSION_ERROR_PARSE, "KeyPress without keycode=" },
  { "missing-button", HEAD "12 ButtonPress state=0 root=1,1\n", SESSION_ERROR_PARSE, "ButtonPress without button=" },
  { "missing-root", HEAD "12 MotionNotify state=0\n", SESSION_ERROR_PARSE, "MotionNotify without root=" },
  { "missing-pos", HEAD "12 MotionNotify state=0 root=1,1 window=0\n", SESSION_ERROR_PARSE, "without pos=" },
  { "unknown-field", HEAD "12 KeyPress keysym=a keycode=38 state=0 colour=red\n", SESSION_ERROR_PARSE,
    "unknown field 'colour' for KeyPress" },
  { "duplicate-field", HEAD "12 KeyPress keysym=a keysym=b keycode=38 state=0\n", SESSION_ERROR_PARSE,
    "field 'keysym' given twice" },
  { "bad-keycode", HEAD "12 KeyPress keysym=a keycode=300 state=0\n", SESSION_ERROR_PARSE, "bad keycode '300'" },
  { "bad-button", HEAD "12 ButtonPress button=0 state=0 root=1,1\n", SESSION_ERROR_PARSE, "bad button '0'" },
  { "time-backwards", HEAD "12 Expose window=1\n11 Expose window=1\n", SESSION_ERROR_PARSE,
    "t.log:4: time goes backwards" },
  { "bad-timestamp", HEAD "12x Expose\n", SESSION_ERROR_PARSE, "bad timestamp" },
  { "garbage-field", HEAD "12 Expose window\n", SESSION_ERROR_PARSE, "expected NAME=VALUE" },
  { "bad-escape", HEAD "12 Expose name=\"a\\q\"\n", SESSION_ERROR_PARSE, "bad escape" },
  { "nul-escape", HEAD "12 Expose name=\"a\\x00\"\n", SESSION_ERROR_PARSE, "bad escape" },
  { "bad-utf8-escape", HEAD "12 Expose name=\"\\xff\"\n", SESSION_ERROR_PARSE, "not valid UTF-8" },
  { "missing-screen", "xreduce-session 1\n12 Expose\n", SESSION_ERROR_PARSE, "missing 'screen WxH'" },
  { "missing-screen-no-records", "xreduce-session 1\n", SESSION_ERROR_PARSE, "missing 'screen WxH'" },
  { "bad-screen", "xreduce-session 1\nscreen 0x10\n", SESSION_ERROR_PARSE, "bad screen size" },
  { "unknown-header", HEAD "colour red\n", SESSION_ERROR_PARSE, "t.log:3: unknown header line 'colour'" },
  { "header-twice", HEAD "screen 10x10\n", SESSION_ERROR_PARSE, "second 'screen' line" },
  { "header-after-records", HEAD "12 Expose\nkeymap \"us\"\n", SESSION_ERROR_PARSE, "expected a record" },
  { "bad-outcome", HEAD "outcome exploded\n", SESSION_ERROR_PARSE, "bad outcome 'exploded'" },
  { "bad-signal", HEAD "outcome crashed SIGFOO\n", SESSION_ERROR_PARSE, "unknown signal 'SIGFOO'" },
  { "record-after-footer", HEAD "12 Expose\noutcome hung\n13 Expose\n", SESSION_ERROR_PARSE,
    "record after the 'outcome' footer" },
  { "bad-glx", HEAD "12 Expose\nglx maybe\n", SESSION_ERROR_PARSE,
    "t.log:4: glx: expected 'asked' or 'not-asked', got 'maybe'" },
  { "glx-twice", HEAD "glx asked\n12 Expose\nglx asked\n", SESSION_ERROR_PARSE,
    "second 'glx' line" },
  { "record-after-glx", HEAD "12 Expose\nglx not-asked\n13 Expose\n", SESSION_ERROR_PARSE,
    "record after the 'glx' footer" },
  { "binary-nul", "xreduce-session 1\n\x7f" "ELF\x02\x01\x01\0\0\0", SESSION_ERROR_PARSE, "t.log:2: binary data" },
  { "binary-utf8", "\x89PNG\r\n\x1a\n", SESSION_ERROR_PARSE, "t.log:1: invalid UTF-8" },
  { "bad-command", HEAD "command xdemo\n", SESSION_ERROR_PARSE, "command: expected a quoted string" },
  { "class-unquoted", HEAD "12 MotionNotify state=0 root=1,1 class=XDemo\n", SESSION_ERROR_PARSE,
    "must be a quoted string" },
  { "added-press", HEAD "12 KeyPress keysym=a keycode=38 state=0 added=1\n", SESSION_ERROR_PARSE,
    "t.log:3: added= is for releases only, not KeyPress" },
  { "added-value", HEAD "12 KeyRelease keysym=a keycode=38 state=0 added=yes\n",
    SESSION_ERROR_PARSE, "t.log:3: bad added 'yes' (1)" },
};

static void
test_bad_input (gconstpointer data)
{
  const BadCase *bad = data;
  g_autoptr (GError) error = NULL;
  gsize len = strlen (bad->text);
  g_autoptr (Session) session = NULL;

  if (g_str_equal (bad->name, "binary-nul"))
    len = sizeof ("xreduce-session 1\n\x7f" "ELF\x02\x01\x01\0\0\0") - 1;
  session = session_parse (bad->text, len, "t.log", &error);
  g_assert_null (session);
  g_assert_nonnull (error);
  g_test_message ("%s -> %s", bad->name, error->message);
  g_assert_error (error, SESSION_ERROR, bad->code);
  g_assert_nonnull (strstr (error->message, bad->message));
}

static void
test_long_line (void)
{
  g_autoptr (GString) text = g_string_new (HEAD "12 Expose x=\"");
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = NULL;

  for (int i = 0; i < 5000; i++)
    g_string_append_c (text, 'a');
  g_string_append (text, "\"\n");
  session = session_parse (text->str, text->len, "t.log", &error);
  g_assert_null (session);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "t.log:3: line longer than 4096 bytes"));
}

static void
test_huge_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "huge.log", NULL);
  g_autoptr (Session) session = NULL;
  int fd = g_open (path, O_WRONLY | O_CREAT, 0600);

  /* A sparse 1 GB file: refused from its size, never read. */
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 1 << 30), ==, 0);
  close (fd);
  session = session_load (path, &error);
  g_assert_null (session);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "too large"));
  g_unlink (path);
  g_rmdir (dir);
}

/* --max-session-size: the limit in MiB, the file refused from its size
 * with the option that reads it, read under a raised limit. */
static void
test_max_size (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xreduce-test-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "large.log", NULL);
  g_autoptr (GString) text = g_string_new ("xreduce-session 1\nscreen 100x100\n");
  g_autoptr (Session) session = NULL;
  gsize max = 0;
  const char *const bad[] = { "0", "-1", "1025", "1.5", "1M", "", " 2", "99999999999999999999" };

  g_assert_true (session_max_size_parse ("1", &max));
  g_assert_cmpuint (max, ==, 1024 * 1024);
  g_assert_true (session_max_size_parse ("1024", &max));
  g_assert_cmpuint (max, ==, SESSION_MAX_FILE_SIZE_CEILING);
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (session_max_size_parse (bad[i], &max));
  g_assert_false (session_max_size_parse (NULL, &max));

  /* 1.5 MiB: over a limit of 1, under one of 2 and the default. */
  while (text->len < 3 * 512 * 1024)
    g_string_append (text, "# padding\n");
  g_string_append (text, "10 KeyPress keysym=a keycode=38 state=0x0\n");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, &error));
  session = session_load_limited (path, 1024 * 1024, &error);
  g_assert_null (session);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "(at most 1 MiB): --max-session-size 2 reads it"));
  g_clear_error (&error);
  session = session_load_limited (path, 2 * 1024 * 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (session_get_n_actions (session), ==, 1);
  g_clear_pointer (&session, session_free);
  session = session_load (path, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_missing_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load ("/nonexistent/session.log", &error);

  g_assert_null (session);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/session.log"));
  g_clear_error (&error);
  session = session_load ("/", &error);
  g_assert_null (session);
  g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "directory"));
}

/* A FIFO (nobody writing) and an endless device are refused at once, not
 * waited for or read forever. */
static void
test_not_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-session-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "session.fifo", NULL);
  const char *paths[] = { fifo, "/dev/zero" };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (Session) session = session_load (paths[i], &error);

      g_assert_null (session);
      g_assert_error (error, SESSION_ERROR, SESSION_ERROR_IO);
      g_assert_nonnull (strstr (error->message, "not a regular file"));
    }
  g_unlink (fifo);
  g_rmdir (dir);
}

static void
test_crlf_and_footer (void)
{
  const char text[] = "xreduce-session 1\r\nscreen 100x100\r\n5 KeyPress keysym=a keycode=38 state=0\r\noutcome none\r\n# after\r\n";
  g_autoptr (Session) session = parse_ok (text);

  g_assert_cmpuint (session_get_n_actions (session), ==, 1);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_NONE);
}

static void
test_signals (void)
{
  g_assert_cmpint (proc_signal_from_name ("SIGSEGV"), ==, 11);
  g_assert_cmpint (proc_signal_from_name ("segv"), ==, 11);
  g_assert_cmpint (proc_signal_from_name ("6"), ==, 6);
  g_assert_cmpint (proc_signal_from_name ("SIGNOPE"), ==, -1);
  g_assert_cmpint (proc_signal_from_name ("99"), ==, -1);
  g_assert_cmpstr (proc_signal_name (6), ==, "SIGABRT");
}

static void
test_export_json (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  g_autofree char *json = session_export_json (session);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;
  JsonArray *events;
  guint n_actions = 0;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "outcome"), ==, "crashed SIGSEGV");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "command"), 3),
                   ==, "a \"quoted\" arg");
  events = json_object_get_array_member (root, "events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      if (!g_str_equal (json_object_get_string_member (ev, "type"), "server"))
        {
          /* Each user action says its number, from 1; a server event none. */
          n_actions++;
          g_assert_cmpint (json_object_get_int_member (ev, "action"), ==, n_actions);
        }
      else
        g_assert_false (json_object_has_member (ev, "action"));
    }
  g_assert_cmpuint (n_actions, ==, session_get_n_actions (session));

  /* The steps: one per phrase, in words, covering every action once. */
  {
    g_autoptr (GPtrArray) phrases = session_get_phrases (session);
    JsonArray *steps = json_object_get_array_member (root, "steps");
    guint covered = 0;

    g_assert_cmpuint (json_array_get_length (steps), ==, phrases->len);
    for (guint p = 0; p < phrases->len; p++)
      {
        const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
        JsonObject *step = json_array_get_object_element (steps, p);
        JsonArray *actions = json_object_get_array_member (step, "actions");
        g_autofree char *said = session_phrase_describe (session, phrase,
                                                         SESSION_WORDS_TERMINAL);

        g_assert_cmpstr (json_object_get_string_member (step, "words"), ==, said);
        g_assert_cmpstr (json_object_get_string_member (step, "kind"), ==,
                         session_phrase_kind_to_string (phrase->kind));
        g_assert_cmpuint (json_array_get_length (actions), ==, phrase->actions->len);
        for (guint i = 0; i < phrase->actions->len; i++)
          /* Numbered from 1, as --list says them. */
          g_assert_cmpint (json_array_get_int_element (actions, i), ==,
                           g_array_index (phrase->actions, guint, i) + 1);
        covered += phrase->actions->len;
      }
    g_assert_cmpuint (covered, ==, session_get_n_actions (session));
  }
}

/* A release that xreduce added says so in JSON; the user's do not. */
static void
test_export_json_added (void)
{
  g_autoptr (Session) session = parse_ok (
    "xreduce-session 1\nscreen 100x100\n"
    "1000 KeyPress keysym=l keycode=46 state=0x0\n"
    "1000 KeyRelease keysym=l keycode=46 state=0x0 added=1\n"
    "1300 KeyPress keysym=l keycode=46 state=0x0\n"
    "1400 KeyRelease keysym=l keycode=46 state=0x0\n");
  g_autofree char *json = session_export_json (session);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *events;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (json, "}\n"));
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "events");
  g_assert_cmpuint (json_array_get_length (events), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);

      g_assert_cmpint (json_object_get_boolean_member_with_default (ev, "added", FALSE), ==,
                       i == 1);
    }
}

static void
test_export_xdotool (void)
{
  g_autoptr (Session) session = parse_ok (sample);
  g_autofree char *script = session_export_xdotool (session, "t.log");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("export-XXXXXX.sh", &path, &error);
  const char *argv[] = { "sh", "-n", NULL, NULL };
  int status = -1;

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  /* Syntactically valid sh, with one step comment per action. */
  argv[2] = path;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (script, "# 17. release button 3 at 320,300\n"));
  g_assert_nonnull (strstr (script, "xdotool keydown 'Alt_L'\n"));
  g_assert_nonnull (strstr (script, "at '^XDemo$' '^Print$' 60 40 760 140\nxdotool mousedown 1\n"));
  g_unlink (path);
}

/* ---- the typed verdict (verdict.h) ---- */

static JsonObject *
verdict_round_trip (const Verdict *in, JsonParser *parser)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  json_builder_begin_object (builder);
  verdict_to_json (in, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_verdict_json (void)
{
  const Verdict cases[] = {
    { VERDICT_PASSED, 0, -1, NULL },
    { VERDICT_CRASHED, SIGSEGV, -1, NULL },
    { VERDICT_EXITED, 0, 3, NULL },
    { VERDICT_HUNG, 0, -1, NULL },
    { VERDICT_COULD_NOT_START, 0, 1, (char *) "the app exited with status 1\n\"quoted\"" },
    { VERDICT_UNRESOLVED, 0, -1, (char *) "no window \"Print\" came" },
    { VERDICT_INFRA_ERROR, 0, -1, (char *) "Xvfb died" },
  };
  const char *words[] = { "passed", "crashed with SIGSEGV", "exited with status 3", "hung",
                          "could not start: the app exited with status 1\n\"quoted\"",
                          "unresolved: no window \"Print\" came",
                          "infrastructure error: Xvfb died" };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *said = verdict_describe (&cases[i]);
      JsonObject *object = verdict_round_trip (&cases[i], parser);
      Verdict back;

      g_assert_cmpstr (said, ==, words[i]);
      g_assert_true (verdict_from_json (object, &back, &error));
      g_assert_no_error (error);
      g_assert_cmpint (back.kind, ==, cases[i].kind);
      g_assert_cmpint (back.signal, ==, cases[i].signal);
      g_assert_cmpint (back.exit_status, ==, cases[i].exit_status);
      g_assert_cmpstr (back.detail, ==, cases[i].detail);
      verdict_clear (&back);
    }
}

static void
test_verdict_bad_json (void)
{
  const char *texts[] = { "{}", "{\"outcome\": \"exploded\"}", "{\"outcome\": 3}" };

  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      Verdict verdict;

      g_assert_true (json_parser_load_from_data (parser, texts[i], -1, NULL));
      g_assert_false (verdict_from_json (json_node_get_object (json_parser_get_root (parser)),
                                         &verdict, &error));
      g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
    }
}

/* A last line without its newline was cut (every writer ends its lines):
 * it is not read, whatever it says, and the session says so. The cases
 * that once parsed with a wrong value, or failed with a puzzling error. */
static void
test_cut_last_line (void)
{
  const struct { const char *text; guint actions; } cut[] = {
    { HEAD "10 KeyPress keysym=a keycode=38 state=0\n12 KeyRelease keysym=a keycode=3", 1 },
    { HEAD "12 KeyPress keysym=Al", 0 },
    { HEAD "12 ButtonPress button=1 state=0 root=12", 0 },
    { HEAD "12 MotionNotify state=0 root=1,1 pos=1,1 window=0 title=\"Edi", 0 },
    { HEAD "10 KeyPress keysym=a keycode=38 state=0\noutcome crashed SIGSEG", 1 },
    /* In the middle of a character. */
    { HEAD "10 KeyPress keysym=a keycode=38 state=0\n"
      "12 MotionNotify state=0 root=1,1 pos=1,1 window=0 title=\"caf\xc3", 1 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cut); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (Session) session = session_parse (cut[i].text, strlen (cut[i].text), "t.log",
                                                   &error);
      guint lines = 1;

      g_assert_no_error (error);
      for (const char *p = cut[i].text; *p != '\0'; p++)
        lines += *p == '\n';
      g_assert_cmpuint (session_get_n_actions (session), ==, cut[i].actions);
      if (cut[i].actions > 0)
        g_assert_cmpuint (session_get_event (session, 0)->keycode, ==, 38);
      g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_UNKNOWN);
      {
        g_autofree char *warning = g_strdup_printf ("t.log:%u: the last line does not end "
                                                    "with a newline (cut short?): ignored",
                                                    lines);
        g_assert_cmpstr (session_get_warning (session), ==, warning);
      }
    }
  /* A cut comment carries nothing: kept, no warning; a whole file: none. */
  {
    const char *texts[] = { HEAD "# a note", HEAD "12 Expose window=1\n" };

    for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        g_autoptr (Session) session = session_parse (texts[i], strlen (texts[i]), "t.log", NULL);

        g_assert_nonnull (session);
        g_assert_null (session_get_warning (session));
      }
  }
  /* The header itself cut: the error says that the last line was cut. */
  {
    const char text[] = "xreduce-session 1\nscreen 640x4";
    g_autoptr (GError) error = NULL;
    g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", &error);

    g_assert_null (session);
    g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
    g_assert_cmpstr (error->message, ==, "t.log: missing 'screen WxH' header line (its last "
                     "line, cut short, was ignored)");
  }
}

/* A line the parser takes is one it takes again once written back: raw
 * control characters in a title or a command (4 bytes each, escaped) that
 * would make it too long are refused when read, with the line's number. */
static void
test_grows_when_written (void)
{
  g_autofree char *escapes = g_strnfill (1500, '\033');
  const char *formats[] = {
    HEAD "10 MotionNotify state=0 root=1,1 pos=1,1 window=0 title=\"%s\"\n",
    "xreduce-session 1\ncommand \"%s\"\nscreen 1280x1024\n",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *text = g_strdup_printf (formats[i], escapes);
      g_autoptr (GError) error = NULL;
      g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", &error);

      g_assert_null (session);
      g_assert_error (error, SESSION_ERROR, SESSION_ERROR_PARSE);
      g_assert_true (g_str_has_prefix (error->message, i == 0 ? "t.log:3: " : "t.log:2: "));
      g_assert_nonnull (strstr (error->message, "written back, this line would be longer than "
                                                "4096 bytes"));
    }
  /* Just within: taken, and it round-trips. */
  {
    g_autofree char *fit = g_strnfill (900, '\033');
    g_autofree char *text = g_strdup_printf (formats[0], fit);
    g_autoptr (Session) session = session_parse (text, strlen (text), "t.log", NULL);
    g_autofree char *written = NULL;
    g_autoptr (Session) again = NULL;

    g_assert_nonnull (session);
    written = session_to_string (session);
    again = session_parse (written, strlen (written), "t2.log", NULL);
    g_assert_nonnull (again);
    g_assert_cmpstr (session_get_event (again, 0)->wm_name, ==, fit);
  }
}

/* The app's top-levels the recording had mapped before each action:
 * made (CreateNotify), mapped, unmapped, destroyed; an override-redirect
 * menu and a window the app never said it made do not count. */
static void
test_windows_open (void)
{
  static const char text[] =
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"app\"\n"
    "10 CreateNotify window=0xc00001 parent=0x50d area=10,10,10,10 border=0 override=0\n"
    "11 CreateNotify window=0xc00003 parent=0x50d area=0,0,400,300 border=0 override=0\n"
    "12 MapNotify window=0xc00003 override=0\n"
    "100 KeyPress keysym=a keycode=38 state=0x0 window=0 class=\"A\" title=\"Main\"\n"
    "110 CreateNotify window=0xc00050 parent=0x50d area=0,0,600,400 border=0 override=0\n"
    "111 MapNotify window=0xc00050 override=0\n"
    "112 CreateNotify window=0xc00060 parent=0x50d area=5,5,50,50 border=0 override=1\n"
    "113 MapNotify window=0xc00060 override=1\n"
    "114 MapNotify window=0xc00099 override=0\n"
    "200 KeyRelease keysym=a keycode=38 state=0x0 window=1 class=\"A\" title=\"Open\"\n"
    "300 UnmapNotify window=0xc00050 event=0xc00050 from_configure=0\n"
    "301 DestroyNotify window=0xc00050 event=0xc00050\n"
    "400 ButtonPress button=1 state=0x0 root=5,5 pos=5,5 window=0 class=\"A\" title=\"Main\"\n"
    "410 UnmapNotify window=0xc00003 event=0xc00003 from_configure=0\n"
    "500 ButtonRelease button=1 state=0x100 root=5,5 pos=5,5 window=0 class=\"A\" title=\"Main\"\n";
  g_autoptr (Session) session = parse_ok (text);
  g_autoptr (GArray) open = session_get_windows_open (session);
  g_autoptr (Session) plain = parse_ok (sample);
  g_autoptr (GArray) none = session_get_windows_open (plain);

  g_assert_cmpuint (open->len, ==, 4);
  g_assert_cmpuint (g_array_index (open, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (open, guint, 1), ==, 2);
  g_assert_cmpuint (g_array_index (open, guint, 2), ==, 1);
  g_assert_cmpuint (g_array_index (open, guint, 3), ==, 0);
  /* No CreateNotify recorded: nothing known, 0 throughout. */
  g_assert_cmpuint (none->len, ==, session_get_n_actions (plain));
  for (guint i = 0; i < none->len; i++)
    g_assert_cmpuint (g_array_index (none, guint, i), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/round-trip", test_round_trip);
  g_test_add_func ("/session/save-load", test_save_load);
  g_test_add_func ("/session/wait-status", test_wait_status);
  g_test_add_func ("/session/modifiers", test_modifiers);
  g_test_add_func ("/session/outcome-words", test_outcome_words);
  g_test_add_func ("/session/header-outcome", test_header_outcome);
  g_test_add_func ("/session/outcome-lost", test_outcome_lost);
  g_test_add_func ("/session/glx-footer", test_glx_footer);
  g_test_add_func ("/session/written-shown-safely", test_written_shown_safely);
  g_test_add_func ("/session/writer", test_writer);
  g_test_add_func ("/session/writer-unwritable", test_writer_unwritable);
  g_test_add_func ("/session/actions", test_actions);
  g_test_add_func ("/session/gestures", test_gestures);
  g_test_add_func ("/session/random-subsets", test_random_subsets);
  g_test_add_func ("/session/subset-releases-at-end", test_subset_releases_at_end);
  g_test_add_func ("/session/subset-repress", test_subset_repress);
  g_test_add_func ("/session/crlf-and-footer", test_crlf_and_footer);
  g_test_add_func ("/session/signals", test_signals);
  g_test_add_func ("/session/export-json", test_export_json);
  g_test_add_func ("/session/export-json-added", test_export_json_added);
  g_test_add_func ("/session/export-xdotool", test_export_xdotool);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/session/bad-input/%s", bad_cases[i].name);
      g_test_add_data_func (path, &bad_cases[i], test_bad_input);
    }
  g_test_add_func ("/session/bad-input/long-line", test_long_line);
  g_test_add_func ("/session/bad-input/huge-file", test_huge_file);
  g_test_add_func ("/session/bad-input/max-size", test_max_size);
  g_test_add_func ("/session/bad-input/missing-file", test_missing_file);
  g_test_add_func ("/session/bad-input/not-regular", test_not_regular);
  g_test_add_func ("/verdict/json", test_verdict_json);
  g_test_add_func ("/session/cut-last-line", test_cut_last_line);
  g_test_add_func ("/session/windows-open", test_windows_open);
  g_test_add_func ("/session/grows-when-written", test_grows_when_written);
  g_test_add_func ("/session/save-scratch", test_save_scratch);
  g_test_add_func ("/verdict/bad-json", test_verdict_bad_json);
  return g_test_run ();
}
