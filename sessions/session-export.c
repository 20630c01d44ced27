/* session-export.c — a session in other people's formats: a standalone
 * xdotool shell script (for bug readers without xreduce) and JSON (for other
 * tools). No X here: the script talks to X through xdotool when it runs.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <string.h>

/* Single-quoted for sh. */
static char *
sh_quote (const char *text)
{
  return quote_shell (text);
}

/* An anchored POSIX extended regex matching @text exactly. */
static char *
regex_exact (const char *text)
{
  GString *out = g_string_new ("^");

  for (const char *p = text; *p != '\0'; p++)
    {
      if (strchr ("\\^$.|?*+()[]{}", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
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

char *
session_export_xdotool (const Session *session, const char *source_name)
{
  GString *out = g_string_new ("#!/bin/sh\n");
  g_autoptr (GArray) actions = session_get_actions (session);
  g_autofree char *source = quote_terminal (source_name != NULL ? source_name : "a session");
  guint64 last_time = 0;
  gboolean first = TRUE;

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

  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));
      g_autofree char *said = session_event_describe (ev);
      g_autofree char *words = quote_terminal (said);
      g_autofree char *class_re = regex_exact (ev->wm_class != NULL ? ev->wm_class : "");
      g_autofree char *title_re = ev->wm_name != NULL && *ev->wm_name ? regex_exact (ev->wm_name)
                                                                      : g_strdup ("");
      g_autofree char *qclass = sh_quote (class_re);
      g_autofree char *qtitle = sh_quote (title_re);
      gboolean in_window = ev->window >= 0 && ev->wm_class != NULL;
      guint64 gap = first ? 0 : ev->time_ms - last_time;

      /* Recorded gaps, capped at a second, at least 50 ms so that the app
       * keeps up. */
      if (!first)
        g_string_append_printf (out, "sleep %.2f\n", CLAMP (gap, 50, 1000) / 1000.0);
      first = FALSE;
      last_time = ev->time_ms;
      g_string_append_printf (out, "# %u. %s\n", i + 1, words);

      if (ev->has_pos && in_window)
        g_string_append_printf (out, "at %s %s %d %d %d %d\n", qclass, qtitle,
                                ev->x, ev->y, ev->root_x, ev->root_y);
      else if (ev->has_pos)
        g_string_append_printf (out, "move %d %d\n", ev->root_x, ev->root_y);

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
        case SESSION_EVENT_MOTION:
        case SESSION_EVENT_SERVER:
        case SESSION_EVENT_COMMENT:
        default:
          break;
        }
    }
  g_string_append (out, "exit 0\n");
  return g_string_free (out, FALSE);
}

static void
json_string (GString *out, const char *text)
{
  if (text == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
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
    case SESSION_EVENT_SERVER: return "server";
    case SESSION_EVENT_COMMENT: default: return "comment";
    }
}

char *
session_export_json (const Session *session)
{
  GString *out = g_string_new ("{\n  \"format\": \"xreduce-session\",\n");
  g_autofree char *outcome = session_outcome_to_string (session->outcome);
  gboolean first = TRUE;

  g_string_append_printf (out, "  \"version\": %d,\n  \"screen\": {\"width\": %d, \"height\": %d},\n",
                          session->version, session->screen_width, session->screen_height);
  g_string_append (out, "  \"command\": ");
  if (session->command == NULL)
    g_string_append (out, "null");
  else
    {
      g_string_append_c (out, '[');
      for (char **a = session->command; *a != NULL; a++)
        {
          if (a != session->command)
            g_string_append (out, ", ");
          json_string (out, *a);
        }
      g_string_append_c (out, ']');
    }
  g_string_append (out, ",\n  \"keymap\": ");
  json_string (out, session->keymap);
  g_string_append (out, ",\n  \"outcome\": ");
  json_string (out, session->outcome.kind == SESSION_OUTCOME_UNKNOWN ? NULL : outcome);
  g_string_append (out, ",\n  \"events\": [");
  for (guint i = 0; i < session->events->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      g_autofree char *words = NULL;

      if (ev->kind == SESSION_EVENT_COMMENT)
        continue;
      g_string_append_printf (out, "%s\n    {\"time_ms\": %" G_GUINT64_FORMAT ", \"type\": \"%s\"",
                              first ? "" : ",", ev->time_ms, kind_name (ev->kind));
      first = FALSE;
      if (ev->kind == SESSION_EVENT_SERVER)
        {
          g_string_append (out, ", \"name\": ");
          json_string (out, ev->name);
          g_string_append (out, ", \"fields\": ");
          json_string (out, ev->args);
          g_string_append_c (out, '}');
          continue;
        }
      words = session_event_describe (ev);
      g_string_append (out, ", \"words\": ");
      json_string (out, words);
      if (ev->keysym != NULL)
        {
          g_string_append (out, ", \"keysym\": ");
          json_string (out, ev->keysym);
          g_string_append_printf (out, ", \"keycode\": %u", ev->keycode);
        }
      if (ev->button != 0)
        g_string_append_printf (out, ", \"button\": %u", ev->button);
      g_string_append_printf (out, ", \"state\": %u", ev->state);
      if (ev->has_pos)
        g_string_append_printf (out, ", \"root\": [%d, %d]", ev->root_x, ev->root_y);
      if (ev->has_pos && ev->window >= 0)
        g_string_append_printf (out, ", \"pos\": [%d, %d]", ev->x, ev->y);
      g_string_append_printf (out, ", \"window\": {\"index\": %d, \"class\": ", ev->window);
      json_string (out, ev->wm_class);
      g_string_append (out, ", \"title\": ");
      json_string (out, ev->wm_name);
      g_string_append (out, "}}");
    }
  g_string_append (out, "\n  ]\n}\n");
  return g_string_free (out, FALSE);
}
