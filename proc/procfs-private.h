/* procfs-private.h — reading /proc cheaply, for proctree.c. Not a
 * module's interface: proctree.h is.
 *
 * The replayer glances at an app's tree every few milliseconds, a few
 * dozen files a glance. GLib's g_file_get_contents() and GDir cost a
 * stat and a stdio set-up (fstat, fcntl) for each file, a third of the
 * system calls of a replay; these make only the calls the kernel needs:
 * open, read to the end (getdents64 for a folder), close.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The whole text of the /proc file @path in *@text (NUL-terminated);
 * FALSE, with *@text unset, if it cannot be opened or read (the process
 * is gone). */
gboolean proc_read (const char *path, char **text);

/* A /proc folder's names, "." and ".." left out: procdir_open() (NULL if
 * it cannot be opened), procdir_next() until NULL, procdir_close(). */
typedef struct ProcDir ProcDir;

ProcDir *procdir_open (const char *path);
const char *procdir_next (ProcDir *dir);
void procdir_close (ProcDir *dir);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProcDir, procdir_close)

G_END_DECLS
