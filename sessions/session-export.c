/* session-export.c — a session in other people's formats: a standalone
 * xdotool shell script (for bug readers without xreduce) and JSON (for other
 * tools). No X here: the script talks to X through xdotool when it runs.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "jsonio.h"
#include "quote.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* Where an export goes: a string kept whole, or a file written in
 * chunks of some 64 KiB (an export of a million actions is never held in
 * memory). */
typedef struct
{
  GString *out;
  FILE *file;                /* NULL: out keeps everything */
} Emit;

static void
emit_flush (Emit *e, gboolean all)
{
  if (e->file == NULL || (!all && e->out->len < 65536))
    return;
  fwrite (e->out->str, 1, e->out->len, e->file);
  g_string_truncate (e->out, 0);
}

/* Single-quoted for sh. */
static char *
sh_quote (const char *text)
{
  return quote_shell (text);
}

/* An anchored POSIX extended regex matching @text exactly, but for the
 * characters a terminal would act on (an escape, a bidi override), which
 * are '.': the script holds none of them, so that showing it (cat, an
 * editor, a diff in a terminal) shows what it does. */
static char *
regex_exact (const char *text)
{
  GString *out = g_string_new ("^");

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (quote_is_hidden (c))
        g_string_append_c (out, '.');
      else if (strchr ("\\^$.|?*+()[]{}", *p) != NULL)
        g_string_append_printf (out, "\\%c", *p);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_string_append_c (out, '$');
  return g_string_free (out, FALSE);
}

static const char xdotool_prelude[] =
  "set -eu\n"
  "command -v xdotool >/dev/null 2>&1 || {\n"
  "  echo \"$0: needs xdotool (Debian/Ubuntu: apt-get install xdotool)\" >&2; exit 2; }\n"
  "[ -n \"${DISPLAY:-}\" ] || { echo \"$0: DISPLAY is not set\" >&2; exit 2; }\n"
  "\n"
  "# win CLASS TITLE: the app's visible window with this WM_CLASS and title\n"
  "# (extended regexes; the title may be empty), waiting up to 5 s for it to\n"
  "# appear. xdotool search takes a single pattern for all its --class,\n"
  "# --name options: search by class, then compare each window's title.\n"
  "win () {\n"
  "  tries=0\n"
  "  while :; do\n"
  "    for w in $(xdotool search --onlyvisible --class \"$1\" 2>/dev/null); do\n"
  "      if [ -z \"$2\" ] || xdotool getwindowname \"$w\" 2>/dev/null | grep -Eq -e \"$2\"; then\n"
  "        echo \"$w\"; return 0\n"
  "      fi\n"
  "    done\n"
  "    tries=$((tries + 1))\n"
  "    [ $tries -lt 50 ] || { echo \"$0: no window of class $1 titled $2\" >&2; return 1; }\n"
  "    sleep 0.1\n"
  "  done\n"
  "}\n"
  "\n"
  "# move X Y: the pointer to screen position X,Y, waiting until it is there.\n"
  "# Not when it is there already: \"mousemove --sync\" then waits for a move\n"
  "# that never comes (15 s in xdotool 3.20160805; forever with --window).\n"
  "move () {\n"
  "  eval \"$(xdotool getmouselocation --shell)\"\n"
  "  if [ \"$X\" != \"$1\" ] || [ \"$Y\" != \"$2\" ]; then xdotool mousemove --sync \"$1\" \"$2\"; fi\n"
  "}\n"
  "\n"
  "# at CLASS TITLE X Y: move the pointer to X,Y in that window, or to the\n"
  "# recorded screen position ($5,$6) when the window is not there.\n"
  "at () {\n"
  "  if w=$(win \"$1\" \"$2\") && g=$(xdotool getwindowgeometry --shell \"$w\"); then\n"
  "    eval \"$g\"; move $((X + $3)) $((Y + $4))\n"
  "  else move \"$5\" \"$6\"; fi\n"
  "}\n"
  "\n";

/* The app's classes (of the windows the actions aim at), in the order
 * they first appear, as anchored regexes; NULL if none is known. */
static GPtrArray *
app_classes (const Session *session, GArray *actions)
{
  GPtrArray *classes = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      g_autofree char *re = NULL;
      gboolean seen = FALSE;

      if (ev->window < 0 || ev->wm_class == NULL)
        continue;
      re = regex_exact (ev->wm_class);
      for (guint c = 0; c < classes->len && !seen; c++)
        seen = g_str_equal (g_ptr_array_index (classes, c), re);
      if (!seen)
        g_ptr_array_add (classes, g_steal_pointer (&re));
    }
  if (classes->len == 0)
    g_clear_pointer (&classes, g_ptr_array_unref);
  return classes;
}

/* Action number -> its step (phrase, from 0), when the script can tell
 * whether the app is there (it knows a class of its windows); else NULL. */
static guint *
liveness_steps (const Session *session, GArray *actions)
{
  g_autoptr (GPtrArray) classes = app_classes (session, actions);
  g_autoptr (GPtrArray) phrases = NULL;
  guint *step_of;

  if (classes == NULL)
    return NULL;
  phrases = session_get_phrases (session);
  step_of = g_new0 (guint, MAX (actions->len, 1));
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
      for (guint i = 0; i < phrase->actions->len; i++)
        step_of[g_array_index (phrase->actions, guint, i)] = p;
    }
  return step_of;
}

/* alive N S: whether the app still shows a window of one of its classes
 * before action N+1; if not, say it went after action N (step S) and exit
 * 1, as xreplay does for a crash (2 before the first action: the app is
 * not running). */
static void
append_liveness (GString *out, const Session *session, GArray *actions)
{
  g_autoptr (GPtrArray) classes = app_classes (session, actions);
  g_autoptr (GPtrArray) phrases = NULL;

  if (classes == NULL)
    return;
  phrases = session_get_phrases (session);
  g_string_append (out, "# app_windows: whether the app shows a window of one of its classes.\n"
                        "app_windows () {\n");
  for (guint c = 0; c < classes->len; c++)
    {
      g_autofree char *q = sh_quote (g_ptr_array_index (classes, c));
      g_string_append_printf (out, "  [ -z \"$(xdotool search --onlyvisible --class %s "
                                   "2>/dev/null)\" ] || return 0\n", q);
    }
  g_string_append_printf (out,
    "  return 1\n"
    "}\n"
    "\n"
    "# alive N S: the app is still there after action N (step S), or this\n"
    "# script says so and stops: exit 1, as xreplay does for a crash.\n"
    "alive () {\n"
    "  app_windows && return 0\n"
    "  if [ \"$1\" -eq 0 ]; then\n"
    "    echo \"$0: the app shows no window on $DISPLAY: start it first\" >&2; exit 2\n"
    "  fi\n"
    "  echo \"$0: the app's windows are gone after action $1 of %u (step $2 of %u):\" \\\n"
    "    \"it crashed or exited\" >&2\n"
    "  exit 1\n"
    "}\n"
    "\n", actions->len, phrases->len);
}

/* The script's gaps: what the session's `replay` line says of them. */
typedef struct
{
  double speed;
  guint64 max_gap_ms;
} ExportTiming;

static void
export_timing (const Session *session, ExportTiming *timing)
{
  const char *const *words = session_get_replay_options (session);

  timing->speed = 1.0;
  timing->max_gap_ms = 5000;
  /* (Checked when the session was read: bounded numbers.) */
  for (const char *const *w = words; w != NULL && *w != NULL; w++)
    if (g_str_has_prefix (*w, "speed="))
      timing->speed = MAX (g_ascii_strtod (*w + strlen ("speed="), NULL), 0.1);
    else if (g_str_has_prefix (*w, "max-gap="))
      timing->max_gap_ms = MAX (g_ascii_strtoull (*w + strlen ("max-gap="), NULL, 10), 50);
}

/* The xdotool command of the action @ev, after the pointer is where it
 * was (a motion's is that move alone). */
static void
xdotool_command (GString *out, const SessionEvent *ev)
{
  switch (ev->kind)
    {
    case SESSION_EVENT_KEY_PRESS:
    case SESSION_EVENT_KEY_RELEASE:
      {
        g_autofree char *qkey = sh_quote (ev->keysym);
        g_string_append_printf (out, "xdotool %s %s\n",
                                ev->kind == SESSION_EVENT_KEY_PRESS ? "keydown" : "keyup",
                                qkey);
      }
      break;
    case SESSION_EVENT_BUTTON_PRESS:
      g_string_append_printf (out, "xdotool mousedown %u\n", ev->button);
      break;
    case SESSION_EVENT_BUTTON_RELEASE:
      g_string_append_printf (out, "xdotool mouseup %u\n", ev->button);
      break;
    case SESSION_EVENT_DROP:
      g_string_append (out, "# a drop from another app (XDND): xdotool cannot make one; "
                            "drop the data there by hand\n");
      break;
    case SESSION_EVENT_MOTION:
    case SESSION_EVENT_SERVER:
    case SESSION_EVENT_COMMENT:
    default:
      break;
    }
}

static void
export_xdotool (Emit *e, const Session *session, const char *source_name)
{
  GString *out = e->out;
  g_autoptr (GArray) actions = session_get_actions (session);
  g_autofree char *source = quote_terminal (source_name != NULL ? source_name : "a session");
  guint64 last_time = 0;
  gboolean first = TRUE;
  g_autofree guint *step_of = liveness_steps (session, actions);
  ExportTiming timing;

  export_timing (session, &timing);

  g_string_append (out, "#!/bin/sh\n");
  /* Whatever the session says goes into comments on one line each
   * (quote_terminal: no newline can end a comment) or into single-quoted
   * words (quote_shell): the script runs nothing the session wrote. */
  g_string_append_printf (out,
    "# Replays the %u user actions of %s with xdotool, against the app\n"
    "# already running on $DISPLAY. Made by xreplay --export xdotool.\n",
    actions->len, source);
  if (session->command != NULL)
    {
      g_autofree char *joined = g_strjoinv (" ", session->command);
      g_autofree char *line = quote_terminal (joined);
      g_string_append_printf (out, "# Recorded command: %s\n", line);
    }
  g_string_append_printf (out, "# Recorded on a %dx%d screen.\n"
                          "# Usage: start the app, then: DISPLAY=:0 sh %s\n",
                          session->screen_width, session->screen_height,
                          "THIS-SCRIPT");
  g_string_append (out, xdotool_prelude);
  append_liveness (out, session, actions);

  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      g_autofree char *said = session_event_describe (ev);
      g_autofree char *words = quote_terminal (said);

      emit_flush (e, FALSE);
      g_autofree char *class_re = regex_exact (ev->wm_class != NULL ? ev->wm_class : "");
      g_autofree char *title_re = ev->wm_name != NULL && *ev->wm_name ? regex_exact (ev->wm_name)
                                                                      : g_strdup ("");
      g_autofree char *qclass = sh_quote (class_re);
      g_autofree char *qtitle = sh_quote (title_re);
      gboolean in_window = ev->window >= 0 && ev->wm_class != NULL;
      guint64 gap = first ? 0 : ev->time_ms - last_time;

      /* Recorded gaps (divided by the session's speed), at least 50 ms so
       * that the app keeps up, at most the session's max-gap, else 5 s:
       * a gap the app waits on (a dialog that arms after two seconds)
       * is kept as xreplay keeps it. */
      if (!first)
        g_string_append_printf (out, "sleep %.2f\n",
                                CLAMP ((guint64) ((double) gap / timing.speed + 0.5), 50,
                                       timing.max_gap_ms) / 1000.0);
      first = FALSE;
      last_time = ev->time_ms;
      g_string_append_printf (out, "# %u. %s\n", i + 1, words);
      /* Nothing is typed or clicked once the app is gone: the keys would
       * go to whatever has the focus then. */
      if (step_of != NULL)
        g_string_append_printf (out, "alive %u %u\n", i, i > 0 ? step_of[i - 1] + 1 : 0);

      if (ev->has_pos && in_window)
        g_string_append_printf (out, "at %s %s %d %d %d %d\n", qclass, qtitle,
                                ev->x, ev->y, ev->root_x, ev->root_y);
      else if (ev->has_pos)
        g_string_append_printf (out, "move %d %d\n", ev->root_x, ev->root_y);

      xdotool_command (out, ev);
    }
  /* The last action may be the one that makes it go: a moment for it. */
  if (step_of != NULL && actions->len > 0)
    g_string_append_printf (out, "sleep 1\nalive %u %u\n", actions->len,
                            step_of[actions->len - 1] + 1);
  g_string_append (out, "echo \"$0: every step replayed; the app is still there\"\n"
                        "exit 0\n");
  emit_flush (e, TRUE);
}

char *
session_export_xdotool (const Session *session, const char *source_name)
{
  Emit e = { .out = g_string_new (NULL) };

  export_xdotool (&e, session, source_name);
  return g_string_free (e.out, FALSE);
}

gboolean
session_export_xdotool_to (const Session *session, const char *source_name, FILE *file)
{
  Emit e = { .out = g_string_new (NULL), .file = file };

  export_xdotool (&e, session, source_name);
  g_string_free (e.out, TRUE);
  return !ferror (file);
}

static const char *
kind_name (SessionEventKind kind)
{
  switch (kind)
    {
    case SESSION_EVENT_KEY_PRESS: return "key-press";
    case SESSION_EVENT_KEY_RELEASE: return "key-release";
    case SESSION_EVENT_BUTTON_PRESS: return "button-press";
    case SESSION_EVENT_BUTTON_RELEASE: return "button-release";
    case SESSION_EVENT_MOTION: return "motion";
    case SESSION_EVENT_DROP: return "drop";
    case SESSION_EVENT_SERVER: return "server";
    case SESSION_EVENT_SELECTION: return "selection";
    case SESSION_EVENT_FILE: return "file";
    case SESSION_EVENT_COMMENT: default: return "comment";
    }
}

static void
add_pair (JsonBuilder *b, const char *member, int x, int y)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  json_builder_add_int_value (b, x);
  json_builder_add_int_value (b, y);
  json_builder_end_array (b);
}

/* @action: the event's number among the user actions, from 1; 0 for a
 * server event. */
static void
add_event (JsonBuilder *b, const SessionEvent *ev, guint action)
{
  g_autofree char *words = NULL;

  json_builder_begin_object (b);
  if (action > 0)
    {
      json_builder_set_member_name (b, "action");
      json_builder_add_int_value (b, action);
    }
  json_builder_set_member_name (b, "time_ms");
  json_builder_add_int_value (b, (gint64) ev->time_ms);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, kind_name (ev->kind));
  if (ev->kind == SESSION_EVENT_SERVER)
    {
      jsonio_add_string (b, "name", ev->name);
      jsonio_add_string (b, "fields", ev->args);
      json_builder_end_object (b);
      return;
    }
  if (ev->kind == SESSION_EVENT_FILE)
    {
      jsonio_add_string (b, "path", ev->path);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) ev->size);
      jsonio_add_string (b, "sha256", ev->sha256);
      json_builder_set_member_name (b, "copied");
      json_builder_add_boolean_value (b, ev->copied);
      json_builder_end_object (b);
      return;
    }
  if (ev->kind == SESSION_EVENT_SELECTION)
    {
      /* The line as the file has it: its bytes are the user's, as they
       * are there. */
      g_autofree char *line = session_event_to_line (ev);

      jsonio_add_string (b, "selection", ev->selection);
      jsonio_add_string (b, "target", ev->target);
      jsonio_add_string (b, "line", line);
      json_builder_end_object (b);
      return;
    }
  if (ev->kind == SESSION_EVENT_DROP)
    {
      jsonio_add_string (b, "types", ev->types);
      jsonio_add_string (b, "dnd_action", ev->action);
    }
  words = session_event_describe (ev);
  jsonio_add_string (b, "words", words);
  if (ev->keysym != NULL)
    {
      jsonio_add_string (b, "keysym", ev->keysym);
      json_builder_set_member_name (b, "keycode");
      json_builder_add_int_value (b, ev->keycode);
    }
  if (ev->button != 0)
    {
      json_builder_set_member_name (b, "button");
      json_builder_add_int_value (b, ev->button);
    }
  json_builder_set_member_name (b, "state");
  json_builder_add_int_value (b, ev->state);
  if (ev->has_pos)
    add_pair (b, "root", ev->root_x, ev->root_y);
  if (ev->has_pos && ev->window >= 0)
    add_pair (b, "pos", ev->x, ev->y);
  if (ev->window >= 0 && ev->width > 0)
    add_pair (b, "size", ev->width, ev->height);
  if (ev->added)
    {
      /* A release that xreduce added, not one the user made. */
      json_builder_set_member_name (b, "added");
      json_builder_add_boolean_value (b, TRUE);
    }
  json_builder_set_member_name (b, "window");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, ev->window);
  jsonio_add_string (b, "class", ev->wm_class);
  jsonio_add_string (b, "title", ev->wm_name);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

/* @node as json-glib prints it inside the document, @depth levels deep:
 * the same bytes as one generator for the whole document would give, C1
 * controls and bidi overrides escaped (quote_json_text). */
static void
append_node (GString *out, JsonGenerator *gen, JsonNode *node, guint depth)
{
  g_autofree char *text = NULL, *shown = NULL;
  g_autofree char *indent = g_strnfill (depth * 2, ' ');

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  shown = quote_json_text (text);
  g_string_append (out, indent);
  for (const char *p = shown; *p != '\0'; p++)
    {
      g_string_append_c (out, *p);
      if (*p == '\n')
        g_string_append (out, indent);
    }
}

static JsonNode *
build_done (JsonBuilder *b)
{
  return json_builder_get_root (b);
}

/* The phrases: what a person did, in words, with the actions each
 * covers, numbered from 1 as `xreplay --list` and `xreduce --json` number
 * them (the n-th user action: "action" in the events); then the
 * events. One element at a time: the whole document is never a tree in
 * memory (a million actions made one of 2.9 GB). */
static void
export_json (Emit *e, const Session *session)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) head = NULL;
  g_autoptr (GPtrArray) phrases = session_get_phrases (session);
  g_autoptr (GPtrArray) words = session_describe_phrases (session, phrases, SESSION_WORDS_TERMINAL);
  g_autofree char *outcome = session_outcome_to_string (session->outcome);
  gboolean first = TRUE;
  guint action = 0;

  /* Every string in a loaded session is valid UTF-8 (the parser checks),
   * so json-glib's output is valid JSON whatever the titles hold. */
  json_builder_begin_object (b);
  jsonio_add_string (b, "format", "xreduce-session");
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, session->version);
  json_builder_set_member_name (b, "screen");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "width");
  json_builder_add_int_value (b, session->screen_width);
  json_builder_set_member_name (b, "height");
  json_builder_add_int_value (b, session->screen_height);
  json_builder_end_object (b);
  jsonio_add_strings (b, "command", (const char *const *) session->command);
  jsonio_add_string (b, "keymap", session->keymap);
  jsonio_add_string (b, "outcome",
                      session->outcome.kind == SESSION_OUTCOME_UNKNOWN ? NULL : outcome);
  json_builder_end_object (b);
  head = build_done (b);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  /* The head's members, then the two arrays written element by element. */
  {
    GString *h = g_string_new (NULL);

    append_node (h, gen, head, 0);
    /* "{\n  ...\n}": the closing brace goes, the arrays follow. */
    g_assert (h->len >= 2 && h->str[h->len - 1] == '}');
    g_string_truncate (h, h->len - 1);
    while (h->len > 0 && h->str[h->len - 1] == '\n')
      g_string_truncate (h, h->len - 1);
    g_string_append (e->out, h->str);
    g_string_free (h, TRUE);
  }
  g_string_append (e->out, ",\n  \"steps\" : [");
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
      g_autoptr (JsonBuilder) sb = json_builder_new ();
      g_autoptr (JsonNode) node = NULL;

      json_builder_begin_object (sb);
      json_builder_set_member_name (sb, "kind");
      json_builder_add_string_value (sb, session_phrase_kind_to_string (phrase->kind));
      jsonio_add_string (sb, "words", g_ptr_array_index (words, p));
      jsonio_add_counted (sb, "actions", phrase->actions);
      json_builder_end_object (sb);
      node = build_done (sb);
      g_string_append (e->out, p > 0 ? ",\n" : "\n");
      append_node (e->out, gen, node, 2);
      emit_flush (e, FALSE);
    }
  g_string_append (e->out, phrases->len > 0 ? "\n  ],\n  \"events\" : [" : "],\n  \"events\" : [");
  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      g_autoptr (JsonBuilder) eb = NULL;
      g_autoptr (JsonNode) node = NULL;

      if (ev->kind == SESSION_EVENT_COMMENT)
        continue;
      eb = json_builder_new ();
      add_event (eb, ev, session_event_is_action (ev) ? ++action : 0);
      node = build_done (eb);
      g_string_append (e->out, first ? "\n" : ",\n");
      first = FALSE;
      append_node (e->out, gen, node, 2);
      emit_flush (e, FALSE);
    }
  g_string_append (e->out, first ? "]\n}\n" : "\n  ]\n}\n");
  emit_flush (e, TRUE);
}

char *
session_export_json (const Session *session)
{
  Emit e = { .out = g_string_new (NULL) };

  export_json (&e, session);
  return g_string_free (e.out, FALSE);
}

gboolean
session_export_json_to (const Session *session, FILE *file)
{
  Emit e = { .out = g_string_new (NULL), .file = file };

  export_json (&e, session);
  g_string_free (e.out, TRUE);
  return !ferror (file);
}
