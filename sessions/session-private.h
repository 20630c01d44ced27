/* session-private.h — the Session struct, shared by the sessions/ files
 * only. Everyone else goes through session.h. */
#pragma once

#include "session.h"

struct Session
{
  int version;
  int screen_width, screen_height;
  char **command;            /* NULL-terminated, or NULL */
  char *keymap;              /* or NULL */
  SessionOutcome outcome;
  gboolean outcome_at_end;   /* written as a footer */
  guint n_preamble;          /* leading comment events before the version line */
  GArray *events;            /* of SessionEvent, owns their strings */
  char *warning;             /* or NULL: what the parser dropped (a cut last line) */
};

void session_event_clear (SessionEvent *ev);
void session_event_copy (SessionEvent *dest, const SessionEvent *src);
/* The header lines (version to outcome, unless at the end) as written. */
void session_write_header (const Session *session, GString *out);
/* @text as a quoted string of the format ("...", with escapes). */
void session_append_quoted (GString *out, const char *text);
/* @text as it is, but for the characters a terminal acts on, escaped
 * (\xHH); newlines too unless @lines (a run of comment lines). */
void session_append_unquoted (GString *out, const char *text, gboolean lines);
/* The records' names, by SessionEventKind (the actions' only). */
extern const char *const session_action_names[5];

/* ---- strokes (session-phrase.c), the pieces phrases are made of ----
 *
 * A stroke is one thing a hand does: a key pressed (with its auto-repeats
 * and release), a button pressed (with the motion while it is held and its
 * release), a run of motion with no button held, or a modifier pressed and
 * released on its own. The modifiers pressed just before it belong to it
 * (their releases to the stroke they are released after), and the
 * modifiers held at its press are its `mods`. */
typedef enum
{
  STROKE_TEXT,               /* a key that types a character, no chord modifier held */
  STROKE_END,                /* Return, Tab or Escape, no chord modifier held */
  STROKE_KEY,                /* any other key, a chord, a modifier alone */
  STROKE_CLICK,              /* a button pressed and released without motion */
  STROKE_SCROLL,             /* a wheel notch (buttons 4 to 7) */
  STROKE_DRAG,               /* a button held while the pointer moves */
  STROKE_MOTION,
  STROKE_OTHER,              /* a release whose press is not in the session */
} StrokeClass;

enum
{
  STROKE_MOD_CTRL = 1 << 0,
  STROKE_MOD_ALT = 1 << 1,
  STROKE_MOD_SHIFT = 1 << 2,
  STROKE_MOD_SUPER = 1 << 3,
  STROKE_MOD_META = 1 << 4,
  STROKE_MOD_HYPER = 1 << 5,
  STROKE_MOD_ALTGR = 1 << 6,
};

typedef struct
{
  StrokeClass class;
  GArray *actions;           /* of guint: action numbers, ascending; owned */
  const SessionEvent *main;  /* the key or button press; for motion, its last event */
  guint mods;                /* STROKE_MOD_* held at the press */
} Stroke;

/* The strokes of @session, ordered by first action. */
GPtrArray *session_get_strokes (const Session *session);
/* "Ctrl+Alt+" for @mods, "" for none. */
char *stroke_mods_name (guint mods);
/* The character @keysym types, as UTF-8 in @out; FALSE if none (or a
 * control character). */
gboolean session_keysym_text (const char *keysym, char out[8]);
gboolean session_keysym_is_terminator (const char *keysym);
