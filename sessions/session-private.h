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
  SessionDesktop desktop;    /* the `desktop` line (zeros: none) */
  char **replay_options;     /* the `replay` line's words, or NULL (session-options.c) */
  SessionOutcome outcome;
  gboolean outcome_at_end;   /* written as a footer */
  SessionGlx glx;            /* the `glx` footer (UNKNOWN: none) */
  guint n_preamble;          /* leading comment events before the version line */
  GArray *events;            /* of SessionEvent, owns their strings */
  guint n_actions;           /* of events: kept by every append (session_note_event) */
  char *warning;             /* or NULL: what the parser dropped (a cut last line) */
  char *digest;              /* SHA-256 of the file it was loaded from, or NULL */
  /* Version 2's header (session-world.h), each owned or NULL. */
  char *home, *cwd, *host, *date, *wm;
  GPtrArray *env;            /* "NAME=VALUE" (owned), NULL-terminated */
};

/* A record's NAME=VALUE field, as the parser tokenised it. */
typedef struct
{
  char *key;
  char *value;               /* unescaped */
  gboolean quoted;
} SessionField;

/* A quoted string of the format starting at *@p == '"' (unescaped,
 * valid UTF-8, no NUL); *@p is moved past it. NULL and a PARSE error
 * ("unterminated string", "bad escape in string", ...). */
char *session_read_quoted (const char **p, GError **error);

/* ---- version 2's lines (session-world.c) ---- */

/* Whether @key starts a header line of version 2: "env", "home", "cwd",
 * "host", "date", "wm". */
gboolean session_world_header_key (const char *key);
/* Such a line, its quoted value read (@value, unescaped; @name: the
 * variable's for "env", else NULL). FALSE with *@why (a phrase). */
gboolean session_world_parse_header (Session *session, const char *key, const char *name,
                                     const char *value, char **why);
/* The fields of a Selection or File record into @ev; FALSE with *@why. */
gboolean session_world_parse_record (SessionEvent *ev, GArray *fields, char **why);
/* A Drop's own fields (types=, action=; the rest are an action's). */
gboolean session_world_parse_drop_field (SessionEvent *ev, const SessionField *field,
                                         char **why);
/* After a record: the checks that span lines (a conversion's lines in
 * a row, offsets that follow, the total). @prev: the event before (or
 * NULL). FALSE with *@why. At the end of the file, @ev NULL. */
gboolean session_world_check_sequence (const SessionEvent *prev, const SessionEvent *ev,
                                       char **why);
/* The Selection lines session_subset() keeps, given the actions it keeps
 * (@kept_action[a] for action a): those whose paste's gesture keeps an
 * action. @keep_event[i] is set for the event indices to keep. */
void session_world_subset (const Session *session, const gboolean *kept_action,
                           gboolean *keep_event);

/* @ev was just added to @session's events: the counts follow it. */
void session_note_event (Session *session, const SessionEvent *ev);

/* The header lines (version to outcome, unless at the end) as written. */
void session_write_header (const Session *session, GString *out);
/* The `desktop` and `replay` lines (session-options.c): their rest of
 * line (after the word and a space) into @session, FALSE with a message
 * (no file:line: the parser adds it); and both as written, if any. */
gboolean session_desktop_parse (Session *session, const char *rest, GError **error);
gboolean session_replay_line_parse (Session *session, const char *rest, GError **error);
void session_write_options (const Session *session, GString *out);
/* @text as a quoted string of the format ("...", with escapes). */
void session_append_quoted (GString *out, const char *text);
/* @text as it is, but for the characters a terminal acts on, escaped
 * (\xHH); newlines too unless @lines (a run of comment lines). */
void session_append_unquoted (GString *out, const char *text, gboolean lines);
/* The records' names, by SessionEventKind (the actions' only). */
extern const char *const session_action_names[6];

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
  STROKE_DROP,               /* a drop from another app */
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

/* The groupings of actions (Stroke, SessionGesture, SessionPhrase)
 * begin alike: a kind, then their action numbers. One constructor and
 * one destructor serve them all (session.c); each grouping's type checks
 * that it begins so (SESSION_ACTION_GROUP_CHECK). */
typedef struct
{
  int kind;
  GArray *actions;           /* of guint: action numbers, ascending; owned */
} SessionActionGroup;

#define SESSION_ACTION_GROUP_CHECK(Type, kind_member)                                   \
  G_STATIC_ASSERT (G_STRUCT_OFFSET (Type, kind_member) == G_STRUCT_OFFSET (SessionActionGroup, kind) \
                   && sizeof (((Type *) NULL)->kind_member) == sizeof (int)                \
                   && G_STRUCT_OFFSET (Type, actions) == G_STRUCT_OFFSET (SessionActionGroup, actions))

/* A new grouping of @size bytes (its type's), of @kind, with no action
 * yet, appended to @list; its destructor (for @list's free function). */
gpointer session_action_group_new (GPtrArray *list, gsize size, int kind);
void session_action_group_free (gpointer group);

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
