/* session-model.h — the session model: a recorded X11 session of one app.
 *
 * A Session is a header (format version, screen size, the recorded command,
 * keymap, recorded outcome) and a time-ordered list of SessionEvents: user
 * actions (keys, buttons, motion), server events delivered to the app (kept
 * for reading and synchronisation, never replayed) and comment/blank lines
 * (kept so that a file we wrote round-trips byte for byte). Its user
 * actions, and a subset of them made well-formed (session_subset(), the
 * reducer's candidates).
 *
 * This module never includes Xlib: keysym names are checked with
 * libxkbcommon. The file format is in session-format.h, steps and words
 * in session-steps.h, exports in session-export.h.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* The newest version this code reads and writes. Version 2 adds what the
 * app got from outside (session-world.h): its environment, its HOME,
 * folder, host, date and window manager, the files it read, the selection
 * data it pasted and drops from other apps. A file that uses none of them
 * is written as version 1. */
#define SESSION_FORMAT_VERSION 2
/* Refuse files larger than this before reading them (a 1 GB log is a
 * mistake, not a session), unless the user raises it (--max-session-size,
 * in MiB, up to SESSION_MAX_FILE_SIZE_CEILING). */
#define SESSION_MAX_FILE_SIZE_MIB 64
#define SESSION_MAX_FILE_SIZE (SESSION_MAX_FILE_SIZE_MIB * 1024 * 1024)
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
  SESSION_ERROR_NO_SPACE,  /* cannot write the file: no room left on its disk */
} SessionError;

typedef enum
{
  SESSION_EVENT_KEY_PRESS,
  SESSION_EVENT_KEY_RELEASE,
  SESSION_EVENT_BUTTON_PRESS,
  SESSION_EVENT_BUTTON_RELEASE,
  SESSION_EVENT_MOTION,
  SESSION_EVENT_DROP,      /* a drop from another app (XDND): a user action (version 2) */
  SESSION_EVENT_SERVER,    /* an event the server delivered to the app */
  SESSION_EVENT_COMMENT,   /* '#' comment or blank line, kept verbatim */
  SESSION_EVENT_SELECTION, /* data the app got from another client's selection (version 2) */
  SESSION_EVENT_FILE,      /* a file the app read (version 2) */
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

  /* SELECTION (one line of one conversion: see session-world.h): */
  char *selection;           /* "CLIPBOARD", "PRIMARY", "SECONDARY" or "XdndSelection" */
  char *target;              /* the target the app asked for ("UTF8_STRING") */
  char *type;                /* the type of the answer; "None": the owner refused;
                              * NULL: the data was not recorded (omitted) */
  int format;                /* 8, 16 or 32 */
  guint64 size;              /* SELECTION: the conversion's bytes; FILE: the file's */
  guint64 offset;            /* SELECTION: where this line's bytes start */
  char *data;                /* this line's bytes (NUL-terminated for convenience;
                              * for type ATOM, the atoms' names, space-separated) */
  gsize data_len;
  /* FILE: */
  char *path;                /* "~/docs/a.txt" (under the recording's HOME) or absolute */
  char *sha256;              /* 64 lowercase hex digits */
  gboolean copied;           /* xrecord --with-files copied it beside the session */
  /* DROP (with the pointer fields and the window identity above): */
  char *types;               /* the types offered, space-separated atom names */
  char *action;              /* the XDND action, e.g. "XdndActionCopy" */
} SessionEvent;

typedef enum
{
  SESSION_OUTCOME_UNKNOWN,   /* not recorded */
  SESSION_OUTCOME_NONE,      /* ran and ended without failure */
  SESSION_OUTCOME_CRASHED,   /* killed by a signal */
  SESSION_OUTCOME_EXITED,    /* exited with a status */
  SESSION_OUTCOME_HUNG,
  SESSION_OUTCOME_LOST,      /* `outcome unknown`: the app vanished with its windows
                              * up (xrecord --all), how is not known: a failure of a
                              * kind its replays show */
} SessionOutcomeKind;

typedef struct
{
  SessionOutcomeKind kind;
  int signal;                /* CRASHED */
  int status;                /* EXITED */
} SessionOutcome;

typedef struct Session Session;

Session *session_new (void);
/* A session of SESSION_FREE_ASIDE_EVENTS events or more is freed by a
 * thread of its own, after session_free() has returned: freeing a
 * million actions takes seconds, which a stopped xreduce would spend
 * before it exits (it need not wait for that thread). */
#define SESSION_FREE_ASIDE_EVENTS 20000
void session_free (Session *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

/* What the parser dropped, for the user: "name:12: the last line does not
 * end with a newline (cut short?): ignored" (a last line without '\n' was
 * cut: it is not read, whatever it says); NULL if nothing. */
const char *session_get_warning (const Session *session);
/* The SHA-256 (hex) of the bytes session_load_*() read it from, summed as
 * they were read; NULL for a session parsed from memory or built. */
const char *session_get_digest (const Session *session);

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
/* The recording desktop's input timing, as xrecord read it (the
 * `desktop` header line; 0: not known): what a double click and a held
 * key were for the user, which the replay keeps (replayer/pace-rules.h). */
typedef struct
{
  guint double_click_ms;     /* XSETTINGS Net/DoubleClickTime */
  guint double_click_distance; /* XSETTINGS Net/DoubleClickDistance, in pixels */
  guint repeat_delay_ms;     /* the X server's key auto-repeat delay */
  guint repeat_interval_ms;  /* ... and the time between repeats */
} SessionDesktop;
/* Each figure is 0 (unknown) or 1 to SESSION_DESKTOP_MAX. */
#define SESSION_DESKTOP_MAX 10000
const SessionDesktop *session_get_desktop (const Session *session);
void session_set_desktop (Session *session, const SessionDesktop *desktop);

/* The replay options a reduction needed to make the session fail (the
 * `replay` header line): "NAME=VALUE" words, each an xreplay option (its
 * long name without the dashes) that is safe to take from a stranger's
 * file, with a bounded value (session-options.c), in a fixed order; NULL
 * for none. xreplay and xreduce take them unless their command line
 * gives the option. */
const char *const *session_get_replay_options (const Session *session);
/* Checks each word (SESSION_ERROR_PARSE, saying which and why) and keeps
 * them in the fixed order; NULL or empty for none. */
gboolean session_set_replay_options (Session *session, const char *const *options,
                                     GError **error);
/* Checks one option for the replay line: is @name one a file may say,
 * and @value within its bounds? */
gboolean session_replay_option_check (const char *name, const char *value, GError **error);
SessionOutcome session_get_outcome (const Session *session);
/* @at_end: write the outcome as a footer after the events (the recorder
 * only knows it at the end) instead of in the header. */
void session_set_outcome (Session *session, SessionOutcome outcome,
                          gboolean at_end);
gboolean session_outcome_is_failure (SessionOutcome outcome);
/* A recorded outcome in words: "crashed with SIGSEGV", "exited with
 * status 3", "hung" (verdict_describe() says a verdict's so too),
 * "none", "not recorded". */
char *session_outcome_describe (SessionOutcome outcome);

/* Whether the app asked the X server for GLX while it was recorded (the
 * `glx` footer line): a QueryExtension of GLX, or ListExtensions. A replay
 * of an app that did not starts its X server without GLX, which starts in
 * a third of the time (and runs again with GLX if the app asks after
 * all); UNKNOWN (no line: an older session, xrecord --all, a recording
 * cut short) starts it with GLX, as before. */
typedef enum
{
  SESSION_GLX_UNKNOWN,
  SESSION_GLX_NOT_ASKED,     /* `glx not-asked` */
  SESSION_GLX_ASKED,         /* `glx asked` */
} SessionGlx;

SessionGlx session_get_glx (const Session *session);
void session_set_glx (Session *session, SessionGlx glx);
/* The line's word for @glx ("asked", "not-asked"; NULL for UNKNOWN), and
 * back (FALSE for any other word). */
const char *session_glx_to_string (SessionGlx glx);
gboolean session_glx_parse (const char *word, SessionGlx *glx);

/* Events, in file order. */
guint session_get_n_events (const Session *session);
const SessionEvent *session_get_event (const Session *session, guint index);
/* A comment line written at the top of the file, before the version line
 * ("# " is prepended unless @text starts with '#'). */
void session_add_header_comment (Session *session, const char *text);
/* Copies @ev (and its strings). */
void session_append (Session *session, const SessionEvent *ev);
/* Frees the strings of an event the caller owns (not one of a session). */
void session_event_clear (SessionEvent *ev);
/* A deep copy of @src into @dest (cleared with session_event_clear). */
void session_event_copy (SessionEvent *dest, const SessionEvent *src);

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
/* @later_ms - @earlier_ms is less than SESSION_MULTI_CLICK_MS (as GTK
 * counts a double click: strictly less). The one test of the boundary. */
gboolean session_within_multi_click (guint64 earlier_ms, guint64 later_ms);
gboolean session_event_is_press (const SessionEvent *ev);
gboolean session_event_is_release (const SessionEvent *ev);

/* The user actions, as indices into the events, in order. */
GArray *session_get_actions (const Session *session);  /* of guint */
guint session_get_n_actions (const Session *session);
/* For each user action (in session_get_actions' order), how many of the
 * app's top-level windows the recording had mapped just before it, not
 * counting override-redirect ones (menus, tooltips): from the recorded
 * CreateNotify (xrecord writes one for each top-level the app creates),
 * MapNotify, UnmapNotify and DestroyNotify. A session without them
 * counts 0 throughout. */
GArray *session_get_windows_open (const Session *session);  /* of guint */

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
/* The same, NULL once @cancellable is cancelled (a million actions are
 * seconds to copy). */
Session *session_subset_cancellable (const Session *session, const guint *keep,
                                     guint n_keep, GCancellable *cancellable);
/* The action numbers of @keep that session_subset() really keeps (the
 * releases it adds are not among them): two candidates with the same
 * answer replay the same. */
GArray *session_subset_actions (const Session *session, const guint *keep,
                                guint n_keep);

G_END_DECLS
