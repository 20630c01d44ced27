/* output.h — files and folders that hold what the user typed: xrecord's
 * log, xreduce's minimal session, the bug-report folders and everything
 * in them.
 *
 * Each is private to its owner whatever was at its path before: a file is
 * made new (mode 0600, or 0700 for a script) under a temporary name beside
 * the path (O_CREAT | O_EXCL: never an existing file, never through a
 * symbolic link) and renamed over the path, so an existing 0644 file
 * becomes a new 0600 one and a link at the path is replaced, not followed.
 * A folder is written under a temporary name beside its path (0700; see
 * proc_tempdir_new_at, which also removes it if its writer dies) and put
 * in place when complete (output_dir_install), so an interrupted writer
 * leaves no half folder at the path.
 *
 * X-free; unit-tested in tests/unit/test-output.c.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Mode of the files (scripts: 0700) and folders. */
#define OUTPUT_FILE_MODE 0600
#define OUTPUT_SCRIPT_MODE 0700
#define OUTPUT_DIR_MODE 0700

/* Writes all @len bytes of @data to @fd (again after EINTR and a short
 * write); 0, or the errno of the write that failed. */
int output_write_all (int fd, const char *data, gsize len);

/* A new file of @mode beside @path ("PATH.XXXXXX"), open for writing;
 * its name in *@tmp_path. -1 with @error (G_IO_ERROR) if it cannot be
 * made. */
int output_file_create_temp (const char *path, mode_t mode, char **tmp_path,
                             GError **error);
/* Renames @tmp_path over @path (a link at @path is replaced, a folder is
 * an error); on failure @tmp_path is removed. */
gboolean output_file_rename (const char *tmp_path, const char *path, GError **error);
/* @len bytes of @data (-1: a string) into a new file of @mode at @path,
 * written and synced under a temporary name, then renamed over @path. */
gboolean output_file_write (const char *path, const char *data, gssize len, mode_t mode,
                            GError **error);

/* Whether a folder may be written at @path and later replace what is
 * there: nothing, a symbolic link (the link is replaced, not followed), an
 * empty folder, or a folder holding @marker (one written before, e.g.
 * "report.md") and nothing but what its manifest lists. Anything else (a file, someone's folder) is an error that
 * says so: never removed. */
gboolean output_dir_check (const char *path, const char *marker, GError **error);
/* output_dir_install() lists what it installs in this file in the folder,
 * one name a line; output_dir_check() refuses a folder holding anything
 * else (a file someone put in an old report would go with it). */
#define OUTPUT_MANIFEST ".xreduce-files"
/* Puts the complete folder @fresh at @path, with its manifest: what was
 * there is moved aside and removed (without following links in it). */
gboolean output_dir_install (const char *fresh, const char *path, GError **error);
/* Removes a folder we wrote, with what is in it, without following links. */
void output_remove_tree (const char *path);

/* @path as seen from the folder @from_dir ("../demo.session"); both may
 * be relative to the current directory. What a report says of a file:
 * never an absolute path of this machine. */
char *output_relative_path (const char *from_dir, const char *path);

G_END_DECLS
