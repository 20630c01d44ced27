/* test-phrase.c — phrases (session-phrase.c) and their words
 * (session-words.c): how actions group into the steps a person would name,
 * and how each is said, quoted for a terminal and for Markdown. No display.
 *
 * Sessions are written with a small builder (Script) that types text,
 * presses chords, clicks and drags at chosen times, as xrecord would log
 * them.
 */
#include <string.h>
#include <glib.h>

#include "session.h"

typedef struct
{
  GString *text;
  guint64 t;                 /* ms of the next action */
  int window;
  const char *title;
} Script;

static void
script_init (Script *s)
{
  s->text = g_string_new ("xreduce-session 1\nscreen 800x600\n");
  s->t = 1000;
  s->window = 0;
  s->title = "bash";
}

static void
script_window (Script *s, int window, const char *title)
{
  s->window = window;
  s->title = title;
}

static void
script_wait (Script *s, guint64 ms)
{
  s->t += ms;
}

static void
script_key (Script *s, gboolean press, const char *keysym, guint keycode)
{
  g_string_append_printf (s->text, "%" G_GUINT64_FORMAT " %s keysym=%s keycode=%u state=0x0 "
                          "window=%d class=\"T\" title=\"%s\"\n", s->t,
                          press ? "KeyPress" : "KeyRelease", keysym, keycode, s->window, s->title);
  s->t += 40;
}

/* The keysym and keycode of @c on a US keyboard, and whether it needs
 * Shift. */
static const char *
keysym_of (char c, guint *keycode, gboolean *shift)
{
  static const struct { char c; const char *name; guint code; gboolean shift; } table[] = {
    { ' ', "space", 65, FALSE }, { '/', "slash", 61, FALSE }, { '-', "minus", 20, FALSE },
    { '.', "period", 60, FALSE }, { '$', "dollar", 13, TRUE }, { '`', "grave", 49, FALSE },
    { '*', "asterisk", 17, TRUE }, { '_', "underscore", 20, TRUE },
  };
  static char letter[2];

  *shift = FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (table); i++)
    if (table[i].c == c)
      {
        *keycode = table[i].code;
        *shift = table[i].shift;
        return table[i].name;
      }
  g_assert_true (g_ascii_isalnum (c));
  letter[0] = c;
  *keycode = 24 + (guint) (g_ascii_tolower (c) % 32);
  *shift = g_ascii_isupper (c);
  return letter;
}

static void
script_type (Script *s, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      guint keycode;
      gboolean shift;
      const char *keysym = keysym_of (*p, &keycode, &shift);
      g_autofree char *name = g_strdup (keysym);

      if (shift)
        script_key (s, TRUE, "Shift_L", 50);
      script_key (s, TRUE, name, keycode);
      script_key (s, FALSE, name, keycode);
      if (shift)
        script_key (s, FALSE, "Shift_L", 50);
    }
}

/* A key with modifiers held around it: "Alt_L" "p". */
static void
script_chord (Script *s, const char *mod, guint mod_code, const char *key, guint code)
{
  script_key (s, TRUE, mod, mod_code);
  script_key (s, TRUE, key, code);
  script_key (s, FALSE, key, code);
  script_key (s, FALSE, mod, mod_code);
}

static void
script_pointer (Script *s, const char *what, guint button, int x, int y)
{
  g_string_append_printf (s->text, "%" G_GUINT64_FORMAT " %s", s->t, what);
  if (button > 0)
    g_string_append_printf (s->text, " button=%u", button);
  g_string_append_printf (s->text, " state=0x0 root=%d,%d pos=%d,%d window=%d class=\"T\" "
                          "title=\"%s\"\n", x + 100, y + 100, x, y, s->window, s->title);
  s->t += 30;
}

static void
script_click (Script *s, guint button, int x, int y)
{
  script_pointer (s, "ButtonPress", button, x, y);
  script_pointer (s, "ButtonRelease", button, x, y);
}

static Session *
script_end (Script *s)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = s->text;
  Session *session = session_parse (text->str, text->len, "script", &error);

  g_assert_no_error (error);
  return session;
}

/* Every phrase as "kind[first-last]: words", one a line. */
static char *
phrases_in_words (const Session *session, SessionWords words)
{
  g_autoptr (GPtrArray) phrases = session_get_phrases (session);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < phrases->len; i++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, i);
      g_autofree char *said = session_phrase_describe (session, phrase, words);

      g_string_append_printf (out, "%s[%u-%u]: %s\n", session_phrase_kind_to_string (phrase->kind),
                              g_array_index (phrase->actions, guint, 0),
                              g_array_index (phrase->actions, guint, phrase->actions->len - 1),
                              said);
    }
  return g_string_free (out, FALSE);
}

/* Every action is in exactly one phrase, and each phrase's actions ascend. */
static void
assert_partition (const Session *session)
{
  g_autoptr (GPtrArray) phrases = session_get_phrases (session);
  guint n = session_get_n_actions (session);
  g_autofree guint *seen = g_new0 (guint, MAX (n, 1));

  for (guint p = 0; p < phrases->len; p++)
    {
      GArray *actions = ((SessionPhrase *) g_ptr_array_index (phrases, p))->actions;

      g_assert_cmpuint (actions->len, >, 0);
      for (guint i = 0; i < actions->len; i++)
        {
          guint a = g_array_index (actions, guint, i);
          g_assert_cmpuint (a, <, n);
          if (i > 0)
            g_assert_cmpuint (a, >, g_array_index (actions, guint, i - 1));
          seen[a]++;
        }
    }
  for (guint a = 0; a < n; a++)
    g_assert_cmpuint (seen[a], ==, 1);
}

/* Commands typed into a terminal: each is one phrase with its Return; a
 * Shift for "$" and capitals stays inside the typing. */
static void
test_typing (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;

  script_init (&s);
  script_type (&s, "ls /");
  script_key (&s, TRUE, "Return", 36);
  script_key (&s, FALSE, "Return", 36);
  script_wait (&s, 300);
  script_type (&s, "kill -SEGV $PPID");
  script_key (&s, TRUE, "Return", 36);
  script_key (&s, FALSE, "Return", 36);
  session = script_end (&s);
  assert_partition (session);
  words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "type[0-9]: Type \"ls /\" and press Return in \"bash\"\n"
                   "type[10-61]: Type \"kill -SEGV $PPID\" and press Return in \"bash\"\n");
}

/* A pause of more than a second, or the focus moving to another window,
 * ends a run of typing; Tab ends it and belongs to it. */
static void
test_typing_breaks (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;

  script_init (&s);
  script_type (&s, "abc");
  script_wait (&s, 1500);
  script_type (&s, "de");
  script_window (&s, 1, "Find");
  script_type (&s, "fg");
  script_key (&s, TRUE, "Tab", 23);
  script_key (&s, FALSE, "Tab", 23);
  script_type (&s, "h");
  session = script_end (&s);
  assert_partition (session);
  words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "type[0-5]: Type \"abc\" in \"bash\"\n"
                   "type[6-9]: Type \"de\" in \"bash\"\n"
                   "type[10-15]: Type \"fg\" and press Tab in \"Find\"\n"
                   "type[16-17]: Type \"h\" in \"Find\"\n");
}

/* Chords and other keys stand alone; repeats of one key are one step; a
 * Return on its own is a key. */
static void
test_keys (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;

  script_init (&s);
  script_window (&s, 0, "Editor");
  script_chord (&s, "Alt_L", 64, "p", 33);
  script_chord (&s, "Control_L", 37, "s", 39);
  for (int i = 0; i < 3; i++)
    {
      script_key (&s, TRUE, "BackSpace", 22);
      script_key (&s, FALSE, "BackSpace", 22);
    }
  script_key (&s, TRUE, "F5", 71);
  script_key (&s, FALSE, "F5", 71);
  script_key (&s, TRUE, "Return", 36);
  script_key (&s, FALSE, "Return", 36);
  script_key (&s, TRUE, "Shift_L", 50);
  script_key (&s, FALSE, "Shift_L", 50);
  session = script_end (&s);
  assert_partition (session);
  words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "key[0-3]: Press Alt+P in \"Editor\"\n"
                   "key[4-7]: Press Ctrl+S in \"Editor\"\n"
                   "key[8-13]: Press BackSpace 3 times in \"Editor\"\n"
                   "key[14-15]: Press F5 in \"Editor\"\n"
                   "key[16-17]: Press Return in \"Editor\"\n"
                   "key[18-19]: Press Shift in \"Editor\"\n");
}

/* The motion that leads to a click joins it; clicks in quick succession
 * are a double click, wheel notches one scroll; a modifier held over a
 * click is said; a drag goes from its press to its release; motion that
 * leads nowhere is a step of its own. */
static void
test_pointer (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;

  script_init (&s);
  script_window (&s, 0, "Files");
  script_pointer (&s, "MotionNotify", 0, 10, 10);
  script_pointer (&s, "MotionNotify", 0, 20, 12);
  script_click (&s, 1, 20, 12);
  script_wait (&s, 500);
  script_click (&s, 1, 40, 50);
  script_click (&s, 1, 40, 50);
  script_wait (&s, 500);
  for (int i = 0; i < 3; i++)
    script_click (&s, 5, 40, 50);
  script_wait (&s, 500);
  script_click (&s, 3, 7, 8);
  script_wait (&s, 500);
  script_key (&s, TRUE, "Control_L", 37);
  script_click (&s, 1, 60, 70);
  script_key (&s, FALSE, "Control_L", 37);
  script_wait (&s, 500);
  script_pointer (&s, "ButtonPress", 1, 100, 100);
  script_pointer (&s, "MotionNotify", 0, 150, 120);
  script_pointer (&s, "MotionNotify", 0, 200, 140);
  script_pointer (&s, "ButtonRelease", 1, 200, 140);
  script_wait (&s, 500);
  script_pointer (&s, "MotionNotify", 0, 300, 300);
  session = script_end (&s);
  assert_partition (session);
  words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "click[0-3]: Click at 20,12 in \"Files\"\n"
                   "click[4-7]: Double-click at 40,50 in \"Files\"\n"
                   "click[8-13]: Scroll down 3 notches at 40,50 in \"Files\"\n"
                   "click[14-15]: Right-click at 7,8 in \"Files\"\n"
                   "click[16-19]: Ctrl+click at 60,70 in \"Files\"\n"
                   "drag[20-23]: Drag from 100,100 to 200,140 in \"Files\"\n"
                   "motion[24-24]: Move the pointer to 300,300 in \"Files\"\n");
}

/* The double click's boundary, in one place (session_within_multi_click):
 * two presses 399 ms apart are a double click, 400 ms apart two clicks
 * (GTK counts strictly less than its 400 ms). */
static void
test_double_click_boundary (void)
{
  for (guint gap = 399; gap <= 400; gap++)
    {
      Script s;
      g_autoptr (Session) session = NULL;
      g_autofree char *words = NULL;

      script_init (&s);
      script_window (&s, 0, "Files");
      script_click (&s, 1, 40, 50);
      /* A click is two events 30 ms apart, the next 30 ms later. */
      script_wait (&s, gap - 60);
      script_click (&s, 1, 40, 50);
      session = script_end (&s);
      assert_partition (session);
      words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
      g_assert_cmpstr (words, ==, gap < SESSION_MULTI_CLICK_MS
                       ? "click[0-3]: Double-click at 40,50 in \"Files\"\n"
                       : "click[0-1]: Click at 40,50 in \"Files\"\n"
                         "click[2-3]: Click at 40,50 in \"Files\"\n");
    }
  g_assert_true (session_within_multi_click (1000, 1399));
  g_assert_false (session_within_multi_click (1000, 1400));
  g_assert_false (session_within_multi_click (1400, 1000));
}

/* Toolkit menus in reduced sessions: a press on a menu's title and its
 * release on an item of the menu window (the motion between removed) is a
 * drag; quick clicks in other places are clicks, not a double click. */
static void
test_menus (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;

  script_init (&s);
  script_window (&s, 0, "Tk crash test");
  script_pointer (&s, "ButtonPress", 1, 15, 10);
  script_window (&s, 1, "");
  script_pointer (&s, "ButtonRelease", 1, 30, 42);
  script_window (&s, 0, "Tk crash test");
  script_click (&s, 1, 15, 10);
  script_window (&s, 2, "Settings");
  script_click (&s, 1, 60, 80);
  session = script_end (&s);
  assert_partition (session);
  words = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "drag[0-1]: Drag from 15,10 in \"Tk crash test\" to 30,42 in a window of class \"T\"\n"
                   "click[2-3]: Click at 15,10 in \"Tk crash test\"\n"
                   "click[4-5]: Click at 60,80 in \"Settings\"\n");
}

/* In a reduced session Alt may never be released (1-minimal without its
 * release): Alt+P and the click after it are still two steps, the click
 * said with the Alt it is made with; the releases xreduce added are
 * counted, not described. */
static void
test_reduced (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autoptr (Session) reduced = NULL;
  g_autofree char *words = NULL;
  g_autofree char *steps = NULL;
  const guint keep[] = { 0, 1, 5 };   /* Alt_L press, p press, the button press */

  script_init (&s);
  script_window (&s, 0, "Editor");
  script_chord (&s, "Alt_L", 64, "p", 33);
  script_window (&s, 1, "Print");
  script_pointer (&s, "MotionNotify", 0, 84, 129);
  script_click (&s, 1, 84, 129);
  session = script_end (&s);
  reduced = session_subset (session, keep, G_N_ELEMENTS (keep));
  assert_partition (reduced);
  words = phrases_in_words (reduced, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "key[0-5]: Press Alt+P in \"Editor\"\n"
                   "click[2-3]: Alt+click at 84,129 in \"Print\"\n");
  steps = session_describe_steps (reduced, SESSION_WORDS_TERMINAL, TRUE);
  g_assert_cmpstr (steps, ==,
                   "  1. Press Alt+P in \"Editor\" (actions 1-2, 5-6)\n"
                   "  2. Alt+click at 84,129 in \"Print\" (actions 3-4)\n"
                   "     (and 3 releases that xreduce added, so that nothing stays pressed)\n");
}

/* A wheel notch whose release the reduction dropped holds nothing: the
 * drag after it is a step of its own, in words (it was swallowed by the
 * scroll). */
static void
test_wheel_then_drag (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autoptr (Session) reduced = NULL;
  g_autofree char *words = NULL;
  const guint keep[] = { 0, 2, 3, 4, 5 };   /* the notch's press, the drag */

  script_init (&s);
  script_window (&s, 0, "Editor");
  script_click (&s, 4, 50, 50);
  script_wait (&s, 300);
  script_pointer (&s, "ButtonPress", 1, 50, 50);
  script_pointer (&s, "MotionNotify", 0, 80, 60);
  script_pointer (&s, "MotionNotify", 0, 120, 90);
  script_pointer (&s, "ButtonRelease", 1, 120, 90);
  session = script_end (&s);
  reduced = session_subset (session, keep, G_N_ELEMENTS (keep));
  assert_partition (reduced);
  words = phrases_in_words (reduced, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (words, ==,
                   "click[0-5]: Scroll up at 50,50 in \"Editor\"\n"
                   "drag[1-4]: Drag from 50,50 to 120,90 in \"Editor\"\n");
}

/* Typed text and titles are the session's, that is a stranger's: quoted
 * for Markdown (a code span longer than any run of backquotes, markup
 * escaped) and for a terminal (control characters shown). */
static void
test_quoting (void)
{
  Script s;
  g_autoptr (Session) session = NULL;
  g_autofree char *md = NULL, *term = NULL;

  script_init (&s);
  script_window (&s, 0, "*bold* [x](y) \x1b[2J");
  script_type (&s, "echo `id`");
  script_key (&s, TRUE, "Return", 36);
  script_key (&s, FALSE, "Return", 36);
  session = script_end (&s);
  md = phrases_in_words (session, SESSION_WORDS_MARKDOWN);
  /* CommonMark strips one space inside each fence of a padded span. */
  g_assert_cmpstr (md, ==, "type[0-19]: Type `` echo `id` `` and press Return in "
                           "\"\\*bold\\* \\[x\\](y) \\\\x1b\\[2J\"\n");
  term = phrases_in_words (session, SESSION_WORDS_TERMINAL);
  g_assert_cmpstr (term, ==, "type[0-19]: Type \"echo `id`\" and press Return in "
                             "\"*bold* [x](y) \\x1b[2J\"\n");
}

static void
test_action_ranges (void)
{
  const guint a[] = { 1, 2, 3, 4, 7, 9, 10 };
  g_autoptr (GArray) actions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *many = NULL, *one = NULL;

  g_array_append_vals (actions, a, G_N_ELEMENTS (a));
  many = session_describe_actions (actions);
  g_assert_cmpstr (many, ==, "actions 2-5, 8, 10-11");
  g_array_set_size (actions, 1);
  one = session_describe_actions (actions);
  g_assert_cmpstr (one, ==, "action 2");
}

/* Whatever a session holds, phrases partition its actions (the recorded
 * demo session, and every subset of it the reducer could make). */
static void
test_partition_subsets (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("XREDUCE_SRCDIR"), "tests", "data",
                                            "demo.session", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_load (path, &error);
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);

  g_assert_no_error (error);
  assert_partition (session);
  for (guint round = 0; round < 200; round++)
    {
      g_autoptr (GArray) keep = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (Session) subset = NULL;
      g_autoptr (GPtrArray) phrases = NULL;

      for (guint a = 0; a < session_get_n_actions (session); a++)
        if (g_rand_int_range (rand, 0, 4) == 0)
          g_array_append_val (keep, a);
      subset = session_subset (session, (const guint *) keep->data, keep->len);
      assert_partition (subset);
      phrases = session_get_phrases (subset);
      for (guint p = 0; p < phrases->len; p++)
        {
          g_autofree char *said = session_phrase_describe (subset, g_ptr_array_index (phrases, p),
                                                           SESSION_WORDS_MARKDOWN);
          g_assert_cmpuint (strlen (said), >, 0);
          g_assert_null (strchr (said, '\n'));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/phrase/typing", test_typing);
  g_test_add_func ("/phrase/typing-breaks", test_typing_breaks);
  g_test_add_func ("/phrase/keys", test_keys);
  g_test_add_func ("/phrase/pointer", test_pointer);
  g_test_add_func ("/phrase/double-click-boundary", test_double_click_boundary);
  g_test_add_func ("/phrase/menus", test_menus);
  g_test_add_func ("/phrase/reduced", test_reduced);
  g_test_add_func ("/phrase/wheel-then-drag", test_wheel_then_drag);
  g_test_add_func ("/phrase/quoting", test_quoting);
  g_test_add_func ("/phrase/action-ranges", test_action_ranges);
  g_test_add_func ("/phrase/partition-subsets", test_partition_subsets);
  return g_test_run ();
}
