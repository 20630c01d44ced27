/* fuzz-export.c — libFuzzer target for what a session becomes: its text,
 * the recorder's line-by-line writer, the JSON export and the xdotool
 * script. The parser's target (fuzz-session.c) never reaches them.
 *
 * Properties checked on every input the parser accepts:
 *   - session_to_string() parses back to the same text; session_save()
 *     and SessionWriter write files that load back to it (the writer with
 *     the outcome as a footer);
 *   - session_export_json() is JSON (json-glib parses it) holding the
 *     session's command, events, keysyms, classes and titles unchanged;
 *   - neither export holds a character a terminal acts on (C0 but
 *     newline, DEL, C1, bidi controls: quote_is_hidden()), so that `cat`
 *     of a report's script shows what it does;
 *   - session_export_xdotool() passes `sh -n`, and run by sh with stub
 *     xdotool, sleep and grep (shell functions that log their argv,
 *     NUL-separated) and an empty PATH in an empty folder, it ends with
 *     status 0, says nothing on stderr, creates no file, and runs exactly
 *     the commands the session's actions call for, with exactly their
 *     arguments (the class and title regexes, the keysyms, the positions):
 *     the injection oracle. A string of the session that broke out of its
 *     quotes would run a command of its own (not found: an empty PATH),
 *     change the commands or their arguments, or write a file.
 * Build and run: tests/fuzz/run-fuzz.sh export; the unit suite replays
 * corpus-export/ (replay-corpus.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "session-private.h"
#include "quote.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* What the stub commands answer: a window 42 at 10,20, a pointer nowhere
 * the script moves it to (so every move is a mousemove). */
#define WIN_X 10
#define WIN_Y 20
static const char prelude[] =
  "xdotool () {\n"
  "  printf '%s\\0' \"$#\" xdotool \"$@\" >> \"$STUB_LOG\"\n"
  "  case $1 in\n"
  "    search) echo 42 ;;\n"
  "    getwindowname) echo T ;;\n"
  "    getwindowgeometry) printf 'WINDOW=42\\nX=10\\nY=20\\nWIDTH=99\\nHEIGHT=99\\nSCREEN=0\\n' ;;\n"
  "    getmouselocation) printf 'X=-99999\\nY=-99999\\nSCREEN=0\\nWINDOW=42\\n' ;;\n"
  "  esac\n"
  "}\n"
  "sleep () { printf '%s\\0' \"$#\" sleep \"$@\" >> \"$STUB_LOG\"; }\n"
  /* At the end of a pipeline after `xdotool getwindowname`: its log
   * after that one's, which writes the title once it has logged. */
  "grep () { read -r _title || :; printf '%s\\0' \"$#\" grep \"$@\" >> \"$STUB_LOG\"; }\n";

typedef struct
{
  char *dir;                 /* a private folder for every run */
  char *run_dir;             /* the script's empty working folder */
  char *prelude, *script, *log, *err, *saved, *written;
  char *sh, *timeout;
} Harness;

static void
harness_cleanup (void);

static Harness *
harness (void)
{
  static Harness h;

  if (h.dir != NULL)
    return &h;
  h.dir = g_dir_make_tmp ("fuzz-export-XXXXXX", NULL);
  if (h.dir == NULL)
    abort ();
  h.run_dir = g_build_filename (h.dir, "run", NULL);
  h.prelude = g_build_filename (h.dir, "prelude.sh", NULL);
  h.script = g_build_filename (h.dir, "replay.sh", NULL);
  h.log = g_build_filename (h.dir, "stub.log", NULL);
  h.err = g_build_filename (h.dir, "stderr", NULL);
  h.saved = g_build_filename (h.dir, "saved.session", NULL);
  h.written = g_build_filename (h.dir, "written.session", NULL);
  h.sh = g_find_program_in_path ("sh");
  h.timeout = g_find_program_in_path ("timeout");
  if (g_mkdir (h.run_dir, 0700) != 0 || h.sh == NULL || h.timeout == NULL
      || !g_file_set_contents (h.prelude, prelude, -1, NULL))
    abort ();
  atexit (harness_cleanup);
  return &h;
}

static void
harness_cleanup (void)
{
  Harness *h = harness ();
  const char *files[] = { h->prelude, h->script, h->log, h->err, h->saved, h->written };

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    g_unlink (files[i]);
  g_rmdir (h->run_dir);
  g_rmdir (h->dir);
}

/* ---- the text, the saved file, the writer ---- */

static void
check_files (Session *session, const char *text)
{
  Harness *h = harness ();
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) saved = NULL, written = NULL;
  g_autoptr (SessionWriter) writer = NULL;
  g_autofree char *saved_text = NULL, *written_text = NULL, *expected = NULL;
  SessionOutcome outcome = session_get_outcome (session);
  guint n = session_get_n_events (session);

  if (!session_save (session, h->saved, &error))
    abort ();
  saved = session_load (h->saved, &error);
  if (saved == NULL)
    abort ();
  saved_text = session_to_string (saved);
  if (strcmp (saved_text, text) != 0)
    abort ();

  /* The writer: the header (with the comments before the version line),
   * then every event, then the outcome as a footer. */
  writer = session_writer_open (h->written, session, &error);
  if (writer == NULL)
    abort ();
  /* After the comments before the version line, which are the header's
   * (white box: the harness knows the struct). */
  for (guint i = session->n_preamble; i < n; i++)
    if (!session_writer_append (writer, session_get_event (session, i), &error))
      abort ();
  if (!session_writer_finish (writer, outcome, &error))
    abort ();
  written = session_load (h->written, &error);
  if (written == NULL)
    abort ();
  /* A footer before any record reads back as a header line: where the
   * outcome stands is no difference. */
  session_set_outcome (written, session_get_outcome (written), TRUE);
  written_text = session_to_string (written);
  session_set_outcome (session, outcome, TRUE);
  expected = session_to_string (session);
  if (strcmp (written_text, expected) != 0)
    abort ();
}

/* ---- the JSON export ---- */

static void
check_string (JsonObject *object, const char *member, const char *want)
{
  JsonNode *node = json_object_get_member (object, member);

  if (want == NULL)
    {
      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        abort ();
      return;
    }
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING
      || strcmp (json_node_get_string (node), want) != 0)
    abort ();
}

static void
check_json (const Session *session)
{
  g_autofree char *text = session_export_json (session);
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *const *command = session_get_command (session);
  JsonObject *root;
  JsonArray *events;
  guint e = 0;

  if (!json_parser_load_from_data (parser, text, -1, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    abort ();
  root = json_node_get_object (json_parser_get_root (parser));
  if (command != NULL)
    {
      JsonArray *words = json_object_get_array_member (root, "command");

      if (json_array_get_length (words) != g_strv_length ((char **) command))
        abort ();
      for (guint i = 0; command[i] != NULL; i++)
        if (strcmp (json_array_get_string_element (words, i), command[i]) != 0)
          abort ();
    }
  check_string (root, "keymap", session_get_keymap (session));
  events = json_object_get_array_member (root, "events");
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      JsonObject *object;

      if (ev->kind == SESSION_EVENT_COMMENT)
        continue;
      if (e >= json_array_get_length (events))
        abort ();
      object = json_array_get_object_element (events, e++);
      if ((guint64) json_object_get_int_member (object, "time_ms") != ev->time_ms)
        abort ();
      if (ev->kind == SESSION_EVENT_SERVER)
        {
          check_string (object, "name", ev->name);
          check_string (object, "fields", ev->args);
          continue;
        }
      check_string (object, "keysym", ev->keysym);
      object = json_object_get_object_member (object, "window");
      check_string (object, "class", ev->wm_class);
      check_string (object, "title", ev->wm_name);
    }
  if (e != json_array_get_length (events))
    abort ();
}

/* ---- the xdotool script ---- */

/* An anchored extended regex for @text, written independently of the
 * export's: a hidden character is any one character ('.'). */
static char *
exact_regex (const char *text)
{
  GString *out = g_string_new ("^");

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (quote_is_hidden (g_utf8_get_char (p)))
        {
          g_string_append_c (out, '.');
          continue;
        }
      if (strchr ("\\^$.|?*+()[]{}", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_string_append_c (out, '$');
  return g_string_free (out, FALSE);
}

/* One command as the stubs log it: "N\0name\0arg1\0...argN\0". */
static void G_GNUC_NULL_TERMINATED
expect (GString *log, const char *name, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, name);
  for (const char *a = va_arg (ap, const char *); a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_string_append_printf (log, "%u", args->len);
  g_string_append_len (log, "", 1);
  g_string_append (log, name);
  g_string_append_len (log, "", 1);
  for (guint i = 0; i < args->len; i++)
    {
      g_string_append (log, g_ptr_array_index (args, i));
      g_string_append_len (log, "", 1);
    }
}

static void
expect_move (GString *log, int x, int y)
{
  char sx[16], sy[16];

  g_snprintf (sx, sizeof sx, "%d", x);
  g_snprintf (sy, sizeof sy, "%d", y);
  expect (log, "xdotool", "getmouselocation", "--shell", NULL);
  expect (log, "xdotool", "mousemove", "--sync", sx, sy, NULL);
}

/* The class of the first action aimed at a window, as a regex, or NULL:
 * the script checks the app is there by it (the stub always finds it). */
static char *
first_class (const Session *session, GArray *actions)
{
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      if (ev->window >= 0 && ev->wm_class != NULL)
        return exact_regex (ev->wm_class);
    }
  return NULL;
}

/* The commands the script must run for @session's actions. */
static GString *
expected_commands (const Session *session)
{
  g_autoptr (GArray) actions = session_get_actions (session);
  g_autofree char *app_class = first_class (session, actions);
  GString *log = g_string_new (NULL);
  guint64 last = 0, max_gap = 5000;
  double speed = 1.0;

  /* The script keeps the recorded gaps as the session's replay line says
   * (docs/session-format.md): divided by its speed, at most its max-gap
   * (else 5 s), at least 50 ms. */
  for (const char *const *w = session_get_replay_options (session); w != NULL && *w != NULL; w++)
    if (g_str_has_prefix (*w, "speed="))
      speed = g_ascii_strtod (*w + 6, NULL);
    else if (g_str_has_prefix (*w, "max-gap="))
      max_gap = MAX (g_ascii_strtoull (*w + 8, NULL, 10), 50);
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      char number[16], gap[G_ASCII_DTOSTR_BUF_SIZE];

      if (i > 0)
        {
          guint64 scaled = (guint64) ((double) (ev->time_ms - last) / speed + 0.5);

          g_ascii_formatd (gap, sizeof gap, "%.2f", CLAMP (scaled, 50, max_gap) / 1000.0);
          expect (log, "sleep", gap, NULL);
        }
      last = ev->time_ms;
      /* Before each action: is the app still there? */
      if (app_class != NULL)
        expect (log, "xdotool", "search", "--onlyvisible", "--class", app_class, NULL);
      if (ev->has_pos && ev->window >= 0 && ev->wm_class != NULL)
        {
          g_autofree char *class_re = exact_regex (ev->wm_class);

          expect (log, "xdotool", "search", "--onlyvisible", "--class", class_re, NULL);
          if (ev->wm_name != NULL && *ev->wm_name != '\0')
            {
              g_autofree char *title_re = exact_regex (ev->wm_name);

              expect (log, "xdotool", "getwindowname", "42", NULL);
              expect (log, "grep", "-Eq", "-e", title_re, NULL);
            }
          expect (log, "xdotool", "getwindowgeometry", "--shell", "42", NULL);
          expect_move (log, WIN_X + ev->x, WIN_Y + ev->y);
        }
      else if (ev->has_pos)
        expect_move (log, ev->root_x, ev->root_y);
      g_snprintf (number, sizeof number, "%u", ev->button);
      switch (ev->kind)
        {
        case SESSION_EVENT_KEY_PRESS:
          expect (log, "xdotool", "keydown", ev->keysym, NULL);
          break;
        case SESSION_EVENT_KEY_RELEASE:
          expect (log, "xdotool", "keyup", ev->keysym, NULL);
          break;
        case SESSION_EVENT_BUTTON_PRESS:
          expect (log, "xdotool", "mousedown", number, NULL);
          break;
        case SESSION_EVENT_BUTTON_RELEASE:
          expect (log, "xdotool", "mouseup", number, NULL);
          break;
        default:
          break;
        }
    }
  /* A moment for the last action's effect, and the check again. */
  if (app_class != NULL && actions->len > 0)
    {
      expect (log, "sleep", "1", NULL);
      expect (log, "xdotool", "search", "--onlyvisible", "--class", app_class, NULL);
    }
  return log;
}

/* Runs @argv (in the run folder, with @envp) to its end; its wait status. */
static int
run (const char *const *argv, const char *const *envp, int err_fd)
{
  Harness *h = harness ();
  pid_t pid = fork ();
  int status = -1;

  if (pid < 0)
    abort ();
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);

      if (null < 0 || dup2 (null, 0) < 0 || dup2 (null, 1) < 0 || dup2 (err_fd, 2) < 0
          || chdir (h->run_dir) != 0)
        _exit (126);
      execve (argv[0], (char *const *) argv, (char *const *) envp);
      _exit (127);
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      abort ();
  return status;
}

static void
check_xdotool (const Session *session)
{
  Harness *h = harness ();
  g_autofree char *script = session_export_xdotool (session, "fuzz\n$(touch x)`id`.session");
  g_autofree char *logged = NULL, *said = NULL;
  g_autofree char *stub_log = g_strconcat ("STUB_LOG=", h->log, NULL);
  g_autoptr (GString) want = expected_commands (session);
  g_autoptr (GDir) left = NULL;
  const char *check[] = { h->sh, "-n", h->script, NULL };
  /* At most 60 s: an injected endless loop is a finding, not a hang. */
  const char *play[] = { h->timeout, "-s", "KILL", "60", h->sh, "-c", ". \"$0\"; . \"$1\"",
                         h->prelude, h->script, NULL };
  const char *envp[] = { "PATH=/nonexistent", "DISPLAY=:0", "LC_ALL=C", stub_log, NULL };
  gsize logged_len = 0;
  int err_fd, status;

  if (!g_file_set_contents (h->script, script, -1, NULL)
      || !g_file_set_contents (h->log, "", 0, NULL))
    abort ();
  err_fd = open (h->err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (err_fd < 0)
    abort ();
  status = run (check, envp, err_fd);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    abort ();
  status = run (play, envp, err_fd);
  close (err_fd);
  if (!g_file_get_contents (h->err, &said, NULL, NULL)
      || !g_file_get_contents (h->log, &logged, &logged_len, NULL))
    abort ();
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || *said != '\0')
    {
      fprintf (stderr, "the script ended with status 0x%x, said: %s\n", status, said);
      abort ();
    }
  if (logged_len != want->len || memcmp (logged, want->str, want->len) != 0)
    {
      g_autofree char *want_path = g_build_filename (h->dir, "expected.log", NULL);

      g_file_set_contents (want_path, want->str, (gssize) want->len, NULL);
      /* abort() leaves the files for a look. */
      fprintf (stderr, "the script ran other commands than its actions call for: compare %s "
               "and %s\n", h->log, want_path);
      abort ();
    }
  left = g_dir_open (h->run_dir, 0, NULL);
  if (left == NULL || g_dir_read_name (left) != NULL)
    {
      fprintf (stderr, "the script wrote a file\n");
      abort ();
    }
}

/* No character a terminal acts on, but newlines. */
static void
check_shown (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2 || (c != '\n' && quote_is_hidden (c)))
        {
          fprintf (stderr, "an export holds a hidden character at byte %td\n", p - text);
          abort ();
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Session) session = session_parse ((const char *) data, size, "fuzz", &error);
  g_autoptr (Session) again = NULL;
  g_autofree char *text = NULL, *text2 = NULL;

  if (session == NULL)
    return 0;
  text = session_to_string (session);
  again = session_parse (text, strlen (text), "fuzz-again", &error);
  if (again == NULL)
    abort ();
  text2 = session_to_string (again);
  if (strcmp (text, text2) != 0)
    abort ();
  check_json (session);
  check_xdotool (session);
  {
    g_autofree char *json = session_export_json (session);
    g_autofree char *script = session_export_xdotool (session, "fuzz\033]0;x\007.session");
    check_shown (json);
    check_shown (script);
  }
  /* Last: it moves the outcome to the end. */
  check_files (session, text);
  return 0;
}
