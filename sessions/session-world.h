/* session-world.h — what the app got from outside, in a session (format
 * version 2; docs/session-format.md, "What the app got from outside").
 *
 * A recording holds what the user did; for a replay to crash the app as
 * the recording did, it needs what the app was given too:
 *
 * - the world it ran in: header lines for the environment variables that
 *   shape behaviour and are no secret (`env NAME "VALUE"`, by the rule
 *   of session_env_name_check()), the recording's HOME, working folder,
 *   host name, date and window manager;
 * - the files it read: `File` records (path, size, checksum; the bytes
 *   in a folder beside the session when xrecord --with-files copied
 *   them, named by their checksum);
 * - the selection data it pasted from other clients: `Selection`
 *   records, one conversion (a target and its answer) in one or more
 *   lines, that belong to the paste: the gesture of the last user action
 *   before them (session_get_pastes());
 * - drops from other apps: `Drop`, a user action of its own.
 *
 * Everything here is X-free; the recorder writes these lines, the
 * replayer gives the app what they say, the reducer keeps a paste's
 * data with the gesture that pasted it (session_subset()).
 */
#pragma once

#include <glib.h>

#include "session-model.h"
#include "session-steps.h"

G_BEGIN_DECLS

/* ---- the world it ran in (header lines) ---- */

/* Each NULL when not recorded. The recording's HOME and working folder
 * are absolute paths; the date is "YYYY-MM-DD"; the window manager is
 * the name it gives itself (_NET_WM_NAME of _NET_SUPPORTING_WM_CHECK). */
const char *session_get_home (const Session *session);
const char *session_get_cwd (const Session *session);
const char *session_get_host (const Session *session);
const char *session_get_date (const Session *session);
const char *session_get_wm (const Session *session);
void session_set_home (Session *session, const char *home);
void session_set_cwd (Session *session, const char *cwd);
void session_set_host (Session *session, const char *host);
void session_set_date (Session *session, const char *date);
void session_set_wm (Session *session, const char *wm);

/* The recorded environment: "NAME=VALUE", in the file's order,
 * NULL-terminated (never NULL: empty when none was recorded). */
const char *const *session_get_env (const Session *session);
/* Adds NAME=VALUE (a name given twice is an error); FALSE with
 * SESSION_ERROR_INVALID and why when session_env_name_check() refuses
 * @name or @value is not valid UTF-8. */
gboolean session_add_env (Session *session, const char *name, const char *value,
                          GError **error);

/* The names xrecord records without being asked: LANG, LANGUAGE, LC_*,
 * TZ, GDK_*, GTK_*, QT_*, XMODIFIERS, MOZ_*, unless refused. */
gboolean session_env_name_is_default (const char *name);
/* Whether @name may be recorded, and set by a replay: a name of letters,
 * digits and '_' (not starting with a digit, at most 128), that does not
 * look secret (*TOKEN*, *KEY*, *SECRET*, *PASS*, *AUTH*, *CREDENTIAL*,
 * *COOKIE*, *SESSION*, SSH_*, GPG_*, DBUS_*, XAUTHORITY), that the
 * replay owns (DISPLAY, WAYLAND_DISPLAY, HOME, PATH, TMPDIR, XDG_*, ...)
 * or that makes the app load code from a path (LD_*, GTK_MODULES,
 * GTK_PATH, QT_PLUGIN_PATH, PYTHON*, ...). FALSE and *@why (newly
 * allocated, a phrase) if not. */
gboolean session_env_name_check (const char *name, char **why);
/* The value a replay on the X server gives @name recorded with @value:
 * the same, or the X11 choice where the recording named Wayland
 * (GDK_BACKEND=x11, QT_QPA_PLATFORM=xcb, CLUTTER_BACKEND=x11,
 * SDL_VIDEODRIVER=x11, MOZ_ENABLE_WAYLAND left out: NULL). */
char *session_env_replay_value (const char *name, const char *value);

/* ---- titles that name the world ---- */

/* Where the replay runs: its app's HOME, working folder, host and date
 * (any may be NULL: not replaced). */
typedef struct
{
  const char *home, *cwd, *host, *date;
} SessionHere;

/* The title the app shows at replay for a @title it showed at
 * recording: the recording's working folder (absolute, or under HOME as
 * "~/..."), HOME, host and date replaced by @here's, longest first. A
 * new string (a copy of @title when nothing is replaced). */
char *session_title_here (const Session *session, const char *title, const SessionHere *here);

/* ---- files ---- */

/* The most a file's path may be long, in bytes. */
#define SESSION_MAX_PATH 1024
/* @path is a file's path as a session says it: absolute, or "~/" under
 * the recording's HOME; canonical (no "." or ".." parts, no "//", no
 * trailing "/"); not in a system folder (/usr, /etc, /proc, /sys, /dev,
 * /bin, /sbin, /lib*, /boot, /run except /run/user, /var/lib, /var/cache,
 * /snap, /nix); not in /tmp/.X11-unix. FALSE and *@why if not. */
gboolean session_file_path_check (const char *path, char **why);
/* "~/docs/a.txt" for a path under @home, else a copy of @path. */
char *session_file_path_from (const char *path, const char *home);
/* Where @path ("~/..." or absolute) is for a run whose HOME is @home. */
char *session_file_path_at (const char *path, const char *home);
/* Whether @text is 64 lowercase hex digits. */
gboolean session_sha256_check (const char *text);
/* The files of the session, each once (the first record of a path): the
 * FILE events, borrowed. */
GPtrArray *session_get_files (const Session *session);

/* ---- selections ---- */

/* A conversion's bytes beyond this are not recorded (its lines say
 * `omitted=1`); a file that says more is refused. */
#define SESSION_MAX_SELECTION_BYTES (1024 * 1024)
/* CLIPBOARD, PRIMARY, SECONDARY or XdndSelection: the only selections a
 * session records, and that a replay owns. */
gboolean session_selection_name_check (const char *name);
/* An atom's name as a session holds it: 1 to 200 printable ASCII
 * characters, no space, quote or backslash. */
gboolean session_atom_name_check (const char *name);

/* One conversion: the target the app asked for and what it got. */
typedef struct
{
  char *target;
  char *type;                /* "None": refused; NULL: not recorded (omitted) */
  int format;
  GBytes *data;              /* the bytes (for ATOM: the names, space-separated); or NULL */
  guint64 size;              /* what the recording saw, even when omitted */
} SessionConversion;

/* What the app got from one selection for one of its user actions: the
 * conversions of consecutive Selection lines of one selection. */
typedef struct
{
  char *selection;
  /* The action after which the app asked (the last before the lines), or
   * G_MAXUINT when it asked before any. */
  guint after_action;
  /* The first action of the gesture of after_action: the replay owns the
   * selection before it (0 when after_action is G_MAXUINT: from the
   * start). */
  guint own_before;
  guint first_event, last_event; /* the Selection lines, event indices */
  GPtrArray *conversions;    /* of SessionConversion, owned */
} SessionPaste;

/* The pastes of @session, in file order (a GPtrArray of SessionPaste,
 * owned). Lines of one conversion are joined (the parser checked them). */
GPtrArray *session_get_pastes (const Session *session);
/* The paste's text for people: the data of its first text target
 * (UTF8_STRING, text/plain;charset=utf-8, STRING as Latin-1,
 * text/plain, text/uri-list, ...) as UTF-8, cut at @max_chars characters
 * with "..." (0: whole), or NULL when it has no text (then see
 * session_paste_summary()). */
char *session_paste_text (const SessionPaste *paste, guint max_chars);
/* "12 bytes of image/png", "data not recorded", or "nothing" (the app
 * only asked the TARGETS) for a paste without text. */
char *session_paste_summary (const SessionPaste *paste);
/* Whether the app got (or asked for) data in it: not only TARGETS or
 * TIMESTAMP, nor only refusals. */
gboolean session_paste_has_data (const SessionPaste *paste);

/* Appends to @out the Selection lines of one conversion (time @time_ms),
 * each within the line limit (SessionEvent, strings owned by @out's
 * clear func: session_event_clear). @type NULL: omitted (only the size
 * said); "None": refused. */
void session_selection_to_events (GArray *out, guint64 time_ms, const char *selection,
                                  const char *target, const char *type, int format,
                                  const guint8 *data, gsize len);

/* ---- in words ---- */

/* What the recording says of the app's world and of what it was given,
 * one line each (without a newline), quoted for @words (typed text's
 * rules: pasted data and paths are the user's): where and when it was
 * recorded, its variables, the files it read, what it pasted and what
 * was dropped on it, with the step each came at (phrases counted from 1).
 * An empty array for a session with none of it. Of char*. */
GPtrArray *session_describe_world (const Session *session, SessionWords words);

/* ---- what a replay cannot give ---- */

/* What in @session's recording a replay cannot give the app, each a
 * phrase for the terminal (quoted), or an empty array: pastes whose
 * data was not recorded, files not in @files_dir (or whose bytes there
 * differ) nor, for a file under ~, in @home_dir (or NULL: the folder
 * the replay's HOME starts as a copy of, --home, or is, --share-home),
 * variables the replay sets otherwise, the window manager recorded when
 * none is used (@wm_used FALSE). A GPtrArray of char*. */
GPtrArray *session_world_missing (const Session *session, const char *files_dir,
                                  const char *home_dir, gboolean wm_used);

G_END_DECLS
