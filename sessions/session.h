/* session.h — the session model: a recorded X11 session of one app.
 *
 * A Session is a header (format version, screen size, the recorded command,
 * keymap, recorded outcome) and a time-ordered list of SessionEvents: user
 * actions (keys, buttons, motion), server events delivered to the app (kept
 * for reading and synchronisation, never replayed) and comment/blank lines
 * (kept so that a file we wrote round-trips byte for byte).
 *
 * The text format is documented in docs/session-format.md. This module never
 * includes Xlib: keysym names are checked with libxkbcommon.
 *
 * Start reading at session_parse() in session-parse.c.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

#define SESSION_FORMAT_VERSION 1
/* Refuse files larger than this before reading them (a 1 GB log is a
 * mistake, not a session), unless the user raises it (--max-session-size,
 * in MiB, up to SESSION_MAX_FILE_SIZE_CEILING). */
#define SESSION_MAX_FILE_SIZE (64 * 1024 * 1024)
#define SESSION_MAX_FILE_SIZE_CEILING ((gsize) 1024 * 1024 * 1024)
#define SESSION_MAX_LINE 4096
/* User actions in a session: a day of recording is some 200,000 (8 h at
 * an action every 150 ms, motion included); --max-actions raises it. */
#define SESSION_MAX_ACTIONS 1000000
#define SESSION_MAX_ACTIONS_CEILING 100000000
/* Window-relative coordinates beyond this are not coordinates. */
#define SESSION_MAX_COORD 32767

#define SESSION_ERROR (session_error_quark ())
GQuark session_error_quark (void);

typedef enum
{
  SESSION_ERROR_IO,        /* cannot read or write the file */
  SESSION_ERROR_PARSE,     /* "file:line: what is wrong" */
  SESSION_ERROR_VERSION,   /* missing or newer format version */
  SESSION_ERROR_TOO_LARGE,
  SESSION_ERROR_EMPTY,
  SESSION_ERROR_INVALID,   /* a well-formed file describing something impossible */
} SessionError;

typedef enum
{
  SESSION_EVENT_KEY_PRESS,
  SESSION_EVENT_KEY_RELEASE,
  SESSION_EVENT_BUTTON_PRESS,
  SESSION_EVENT_BUTTON_RELEASE,
  SESSION_EVENT_MOTION,
  SESSION_EVENT_SERVER,    /* an event the server delivered to the app */
  SESSION_EVENT_COMMENT,   /* '#' comment or blank line, kept verbatim */
} SessionEventKind;

/* One line of a session. A plain value type: the strings are owned by the
 * Session that holds the event (or by the caller before it is appended;
 * session_append copies them). */
typedef struct
{
  SessionEventKind kind;
  guint64 time_ms;           /* since the start of the recording */

  /* KEY_*: */
  char *keysym;              /* keysym name, e.g. "Alt_L", "a", "Return" */
  guint keycode;             /* keycode on the recording server */
  /* KEY_*, BUTTON_*, MOTION: modifier and button state before the event */
  guint state;
  /* BUTTON_*: */
  guint button;
  /* BUTTON_*, MOTION (and optionally KEY_*): pointer position */
  gboolean has_pos;
  int root_x, root_y;        /* on the root window */
  int x, y;                  /* relative to the target top-level window */

  /* Target top-level window (under the pointer, or focused for keys):
   * index among the app's top-level windows, -1 if none (root). */
  int window;
  /* The target window's size when the action was made (the window manager
   * of the user's desktop chose it, a tiling one for one), 0x0 if not
   * recorded: the replay gives the window this size first. */
  int width, height;
  char *wm_class;            /* WM_CLASS class part, or NULL */
  char *wm_name;             /* WM_NAME, or NULL */
  /* KEY_RELEASE, BUTTON_RELEASE: not in the recording; session_subset()
   * added it to release what the kept actions leave held ("added=1"). */
  gboolean added;

  /* SERVER: the X event name ("Expose") and the rest of the line,
   * verbatim key=value fields. */
  char *name;
  char *args;

  /* COMMENT: the whole line, without the newline ("" for a blank line). */
  char *text;
} SessionEvent;

typedef enum
{
  SESSION_OUTCOME_UNKNOWN,   /* not recorded */
  SESSION_OUTCOME_NONE,      /* ran and ended without failure */
  SESSION_OUTCOME_CRASHED,   /* killed by a signal */
  SESSION_OUTCOME_EXITED,    /* exited with a status */
  SESSION_OUTCOME_HUNG,
} SessionOutcomeKind;

typedef struct
{
  SessionOutcomeKind kind;
  int signal;                /* CRASHED */
  int status;                /* EXITED */
} SessionOutcome;

typedef struct Session Session;

Session *session_new (void);
void session_free (Session *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

/* Loading and saving. @name is used in error messages ("name:12: ..."). */
Session *session_load (const char *path, GError **error);
/* session_load() refusing files over @max_bytes (instead of
 * SESSION_MAX_FILE_SIZE) before reading them, with a message naming
 * --max-session-size. */
Session *session_load_limited (const char *path, gsize max_bytes, GError **error);
/* The same refusing more than @max_actions user actions as soon as the
 * parser passes them (SESSION_MAX_ACTIONS by default): memory and time
 * follow the actions, and no work starts on a session over the limit. */
Session *session_load_bounded (const char *path, gsize max_bytes, guint max_actions,
                               GError **error);
/* Parses a --max-session-size value: a whole number of MiB, 1 to 4096.
 * FALSE for anything else. */
gboolean session_max_size_parse (const char *text, gsize *max_bytes);
Session *session_parse (const char *data, gsize len, const char *name,
                        GError **error);
Session *session_parse_bounded (const char *data, gsize len, const char *name,
                                guint max_actions, GError **error);
/* Parses a --max-actions value: 1 to SESSION_MAX_ACTIONS_CEILING. */
gboolean session_max_actions_parse (const char *text, guint *max_actions);
char *session_to_string (const Session *session);
/* Atomic and private: writes a new 0600 file beside @path and renames it
 * over @path (output.h), whatever was there (a link is not followed). */
gboolean session_save (const Session *session, const char *path,
                       GError **error);
/* The one line for @ev, without newline, as session_to_string writes it. */
char *session_event_to_line (const SessionEvent *ev);

/* What the parser dropped, for the user: "name:12: the last line does not
 * end with a newline (cut short?): ignored" (a last line without '\n' was
 * cut: it is not read, whatever it says); NULL if nothing. */
const char *session_get_warning (const Session *session);

/* Header. */
void session_get_screen (const Session *session, int *width, int *height);
/* "WxH" (each 1 to SESSION_MAX_COORD) into @width, @height. */
gboolean session_screen_size_parse (const char *text, int *width, int *height);
/* The default of --max-screen: every replay starts an Xvfb of the
 * session's screen size, about 4 bytes a pixel. */
#define SESSION_DEFAULT_MAX_SCREEN 8192
/* Whether the screen fits in @max_width x @max_height; else
 * SESSION_ERROR_INVALID with one line that says how to raise the limit. */
gboolean session_check_screen (const Session *session, const char *name, int max_width,
                               int max_height, GError **error);
void session_set_screen (Session *session, int width, int height);
/* NULL-terminated; NULL if no command was recorded. */
const char *const *session_get_command (const Session *session);
void session_set_command (Session *session, const char *const *argv);
/* Whether the recorded command may run without being asked for (-- APP
 * or --run-recorded-command): only a plain program name from PATH, with
 * no arguments, that does not act on the machine (the rule is in
 * session-command.c). FALSE with SESSION_ERROR_INVALID and one line that
 * shows the command (quoted for the terminal), says why and how to
 * proceed; @name is the session's name for the message. */
gboolean session_command_check (const Session *session, const char *name, GError **error);
const char *session_get_keymap (const Session *session);
void session_set_keymap (Session *session, const char *keymap);
SessionOutcome session_get_outcome (const Session *session);
/* @at_end: write the outcome as a footer after the events (the recorder
 * only knows it at the end) instead of in the header. */
void session_set_outcome (Session *session, SessionOutcome outcome,
                          gboolean at_end);
gboolean session_outcome_is_failure (SessionOutcome outcome);
/* The header line's words: "crashed SIGSEGV". */
char *session_outcome_to_string (SessionOutcome outcome);
gboolean session_outcome_parse (const char *text, SessionOutcome *outcome,
                                GError **error);
/* "SIGSEGV" for 11, NULL if unknown. */
const char *session_signal_name (int signum);
/* "SIGSEGV", "segv" or "11" to 11; -1 if unknown. */
int session_signal_from_name (const char *name);

/* Events, in file order. */
guint session_get_n_events (const Session *session);
const SessionEvent *session_get_event (const Session *session, guint index);
/* A comment line written at the top of the file, before the version line
 * ("# " is prepended unless @text starts with '#'). */
void session_add_header_comment (Session *session, const char *text);
/* Copies @ev (and its strings). */
void session_append (Session *session, const SessionEvent *ev);

gboolean session_event_is_action (const SessionEvent *ev);
/* A modifier held for a chord: Shift, Control, Alt, Meta, Super, Hyper,
 * AltGr (ISO_Level3_Shift), ISO_Level5_Shift, Mode_switch. */
gboolean session_keysym_is_modifier (const char *keysym);
/* A modifier that is locked or latched by a press, not held: Caps_Lock,
 * Shift_Lock, ISO_Level3_Lock and _Latch, ISO_Level5_Lock and _Latch. Not
 * a chord's modifier; its hold means nothing, as a modifier's. */
gboolean session_keysym_is_lock (const char *keysym);
/* The events of one button this close (ms) are one double (or triple)
 * click: a phrase of their own, and their gaps kept at replay. */
#define SESSION_MULTI_CLICK_MS 400
gboolean session_event_is_press (const SessionEvent *ev);
gboolean session_event_is_release (const SessionEvent *ev);

/* The user actions, as indices into the events, in order. */
GArray *session_get_actions (const Session *session);  /* of guint */
guint session_get_n_actions (const Session *session);

/* "press Alt_L", "release button 1 at 40,12 in "Print"",
 * "move to 300,200 in "Editor"". */
char *session_event_describe (const SessionEvent *ev);

/* Gestures: the units a person thinks in. Indices are *action* numbers
 * (positions in session_get_actions), not event indices. */
typedef enum
{
  SESSION_GESTURE_KEYSTROKE,   /* a key (with the modifiers held around it) */
  SESSION_GESTURE_CLICK,       /* button press + release, no motion between */
  SESSION_GESTURE_DRAG,        /* press, motion, release */
  SESSION_GESTURE_MOTION,      /* a run of motion with no button held */
  SESSION_GESTURE_OTHER,       /* an unpaired press or release */
} SessionGestureKind;

typedef struct
{
  SessionGestureKind kind;
  GArray *actions;             /* of guint: action numbers, ascending */
} SessionGesture;

/* Partition of all actions into gestures, ordered by first action. A
 * keystroke with modifiers (Alt+P = Alt_L press, p press, p release,
 * Alt_L release) is one gesture. Free with g_ptr_array_unref. */
GPtrArray *session_get_gestures (const Session *session);
const char *session_gesture_kind_to_string (SessionGestureKind kind);

/* Phrases: the steps a person would name: a run of typing (until Return, Tab or Escape, which belong to it, or a
 * click, another key, a focus change, a pause over a second), a key or
 * chord with its repeats, a click (double click, wheel notches) with the
 * pointer motion that led to it, a drag, motion. The top level of the
 * reducer's hierarchy and the steps of reports. */
typedef enum
{
  SESSION_PHRASE_TYPE,         /* typing, maybe ended by Return, Tab or Escape */
  SESSION_PHRASE_KEY,          /* a key or a chord, maybe pressed several times */
  SESSION_PHRASE_CLICK,        /* (motion and) a click, double click or scroll */
  SESSION_PHRASE_DRAG,         /* (motion and) a drag */
  SESSION_PHRASE_MOTION,       /* pointer motion that leads to no click */
  SESSION_PHRASE_OTHER,        /* unpaired presses or releases */
} SessionPhraseKind;

typedef struct
{
  SessionPhraseKind kind;
  GArray *actions;             /* of guint: action numbers, ascending */
} SessionPhrase;

/* Partition of all actions into phrases, ordered by first action. Free
 * with g_ptr_array_unref. */
GPtrArray *session_get_phrases (const Session *session);
const char *session_phrase_kind_to_string (SessionPhraseKind kind);

/* Where words go: each quotes the session's text (typed text, titles)
 * for its destination (quote.h). */
typedef enum
{
  SESSION_WORDS_TERMINAL,      /* one line, control characters escaped */
  SESSION_WORDS_MARKDOWN,      /* one line of Markdown, typed text in code spans */
} SessionWords;

/* "Type `kill -SEGV $PPID` and press Return in "bash"", "Press Alt+P",
 * "Double-click at 40,12 in "Files"", "Drag from 10,10 to 90,40 in
 * "Editor"": the phrase in words, without a final period. Releases that
 * xreduce added (SessionEvent.added) are not mentioned. */
char *session_phrase_describe (const Session *session, const SessionPhrase *phrase,
                               SessionWords words);
/* The same for each of @phrases (the session's, session_get_phrases()),
 * in time linear in the session: an array of strings. */
GPtrArray *session_describe_phrases (const Session *session, const GPtrArray *phrases,
                                     SessionWords words);

/* "action 5", "actions 2-11", "actions 2-4, 7": @actions (ascending,
 * 0-based action numbers) counted from 1. */
char *session_describe_actions (const GArray *actions);
/* Every phrase in words, numbered, one a line ("  1. Type ..."), with its
 * action numbers if @with_actions, and a last line for the releases
 * xreduce added. */
char *session_describe_steps (const Session *session, SessionWords words,
                              gboolean with_actions);

/* A copy of @session that keeps only the user actions whose action
 * numbers are in @keep (ascending), plus every server event and comment,
 * made well-formed: a release whose press was dropped is dropped; a press
 * of an input still held (its release dropped) comes after a release of
 * it, as a person presses a key twice; a press left open is released at
 * the end (after the last kept action), in reverse order of pressing. The
 * releases it adds are marked (SessionEvent.added). The outcome is reset
 * to UNKNOWN. */
Session *session_subset (const Session *session, const guint *keep,
                         guint n_keep);
/* The action numbers of @keep that session_subset() really keeps (the
 * releases it adds are not among them): two candidates with the same
 * answer replay the same. */
GArray *session_subset_actions (const Session *session, const guint *keep,
                                guint n_keep);

/* Exports. A standalone shell script that replays the user actions with
 * xdotool against the app already running on $DISPLAY, re-anchored to its
 * windows by class and title (@source_name is named in its comments). */
char *session_export_xdotool (const Session *session, const char *source_name);
/* The whole session as one JSON object, for other tools. */
char *session_export_json (const Session *session);
/* The same written to @file as they are made (never the whole export in
 * memory); FALSE if writing failed (errno says why). */
gboolean session_export_xdotool_to (const Session *session, const char *source_name,
                                    FILE *file);
gboolean session_export_json_to (const Session *session, FILE *file);

/* Writing as events arrive (the recorder): the file is a new one of mode
 * 0600 whatever was at @path (output.h), the header (everything but events
 * and a footer outcome) is written at once, and every appended record is one flushed line, so a writer
 * killed at any point leaves a loadable file. */
typedef struct SessionWriter SessionWriter;

SessionWriter *session_writer_open (const char *path, const Session *header,
                                    GError **error);
gboolean session_writer_append (SessionWriter *writer, const SessionEvent *ev,
                                GError **error);
/* Writes the outcome as a footer and closes the file. */
gboolean session_writer_finish (SessionWriter *writer, SessionOutcome outcome,
                                GError **error);
void session_writer_free (SessionWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SessionWriter, session_writer_free)

G_END_DECLS
