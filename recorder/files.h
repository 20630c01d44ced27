/* files.h — the files the app read while it was recorded.
 *
 * The app's processes open files: what the user chose in a file chooser,
 * its configuration, a document named on its command line. A replay in a
 * fresh HOME has none of them. RecFiles notes the regular files the app's
 * process tree opens, outside the system's folders (session-world.h's
 * rule) and what is no input of the user's (the app's program and the
 * files on its command line, executables and libraries, compiled Python,
 * caches, the runtime folder, the session itself, files changed during
 * the recording: the app's output), and never anything that looks like a
 * secret (a key, a password store, a cookie jar, X authority). Each is
 * handed on once, as a File record (path under HOME as "~/...", size,
 * sha256); with --with-files its bytes are copied, at first sight, into
 * a folder beside the session (0700, each file 0600, named by its
 * checksum), within REC_FILES_MAX_COPY bytes in all.
 *
 * How files are seen: fanotify (FAN_OPEN on every mount, filtered by the
 * app's pids) where it is allowed (root, CAP_SYS_ADMIN): every open; else
 * a look at /proc/PID/fd of the app's tree at every action and every
 * REC_FILES_LOOK_MS: a file opened and closed between two looks is
 * missed (rec_files_is_complete says which).
 *
 * Start reading at rec_files_new().
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "session.h"

G_BEGIN_DECLS

/* The bytes copied for one recording at most (--with-files). */
#define REC_FILES_MAX_COPY ((guint64) 256 * 1024 * 1024)
/* Files larger than this are not listed (their checksum would take long). */
#define REC_FILES_MAX_FILE ((guint64) 256 * 1024 * 1024)
#define REC_FILES_LOOK_MS 50

typedef struct RecFiles RecFiles;

/* A File record to write (its strings are the RecFiles's until the
 * function returns). */
typedef void (*RecFilesFunc) (const SessionEvent *file, gpointer user_data);

typedef struct
{
  const char *session_path;  /* the session being written: never listed */
  const char *copy_dir;      /* where copies go (--with-files), or NULL: only listed */
  const char *const *argv;   /* the app's command line: its program and files not listed */
  RecFilesFunc func;
  gpointer user_data;
} RecFilesOptions;

RecFiles *rec_files_new (const RecFilesOptions *options);
void rec_files_free (RecFiles *files);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecFiles, rec_files_free)

/* The app's process (it leads its tree) and when it starts: files
 * modified since then are its output. Starts watching. */
void rec_files_start (RecFiles *files, pid_t app_pid);
/* A look now (at an action): with fanotify, reads what it reported. */
void rec_files_look (RecFiles *files, guint64 time_ms);
/* Stops watching (the app is gone). */
void rec_files_stop (RecFiles *files);

/* What was seen: files listed, copied, bytes copied, files not copied
 * for the limit; whether every open was seen (fanotify). */
typedef struct
{
  guint n_listed, n_copied, n_over_limit, n_secret;
  guint64 bytes_copied;
  gboolean every_open;
  char *copy_error;          /* the first copy that failed, or NULL (owned by @files) */
} RecFilesStats;

void rec_files_get_stats (RecFiles *files, RecFilesStats *stats);

G_END_DECLS
