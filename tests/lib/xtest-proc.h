/* xtest-proc.h — an X11 test's processes and files (tests/lib).
 *
 * env() and data_path() find the programs and data meson passes to every
 * X11 test in its environment (XREPLAY, XDEMO, ..., XREDUCE_SRCDIR).
 *
 * test_run_sync() runs a program to its end and collects what it said: its
 * outputs captured (a line of the program's on the test's stdout would
 * break the TAP stream) and logged, its exit status.
 *
 * test_spawn_talking() starts a program under test with its stderr on a
 * pipe; test_read_until() and test_wait_line() read what it says there
 * until a line of interest (its readiness) or its end, within a deadline;
 * test_wait_said() reads it to the end and reaps it.
 *
 * test_orphans_alive() answers "did anything outlive the program under
 * test?": the test makes itself a child subreaper
 * (test_become_subreaper), so whatever the program left running is
 * re-parented to the test, where it can be seen and reaped.
 *
 * test_remove_tree() removes a test's temporary folder with what is in it.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

/* $@name; the test fails when meson did not set it. */
const char *env (const char *name);
/* tests/data/@name in the source tree. */
char *data_path (const char *name);
/* tests/apps/@name in the source tree (the scripted apps). */
char *test_app_path (const char *name);

/* Runs @argv to its end in @envp (NULL: the test's environment) with
 * @flags (G_SPAWN_SEARCH_PATH, ...). Both outputs are captured (but one
 * that G_SPAWN_STDOUT_TO_DEV_NULL or G_SPAWN_STDERR_TO_DEV_NULL drops) and
 * logged; *@out and *@err (either may be NULL) get them. Returns the wait
 * status. */
int test_run_sync_status (const char *const *argv, const char *const *envp, GSpawnFlags flags,
                          char **out, char **err);
/* The same; returns the exit status, 128+N for a signal N. */
int test_run_sync (const char *const *argv, const char *const *envp, GSpawnFlags flags,
                   char **out, char **err);

/* Runs the shell script @script in a mount namespace of its own (unshare
 * -rm: no root needed), with @dir/disk (made for it, removed after) as $1
 * and @args after it, in @envp (NULL: the test's environment): the
 * script mounts its disk there (a tmpfs of the size the case needs) and
 * exits 99 when it cannot. Its exit status (128+N for a signal N) in
 * *@exit_status, its outputs in *@out and *@err (either may be NULL).
 * FALSE, the test skipped with the reason, where there is no such disk. */
gboolean test_run_on_own_disk (const char *dir, const char *script,
                               const char *const *args, const char *const *envp,
                               int *exit_status, char **out, char **err);

/* Kills *@pid (SIGKILL) and reaps it, if it is not 0; *@pid becomes 0. */
void test_kill_child (GPid *pid);

/* test_kill_child(), and the pipe it talked on (*@err_fd, if it is not -1)
 * closed; *@err_fd becomes -1. */
void test_kill_talking (GPid *pid, int *err_fd);

void test_become_subreaper (void);
/* Is @pid a process that still runs (not gone, not a zombie)? */
gboolean test_pid_alive (pid_t pid);
/* Reaps the test's exited children except @keep (e.g. its own Xvfb, or 0),
 * and returns the number of its children still running other than @keep
 * and the test's own keeper (proc.h): with test_become_subreaper(),
 * whatever a finished program left behind. */
guint test_orphans_alive (pid_t keep);
/* test_orphans_alive() until none is left or @timeout_ms have passed;
 * the number still running then. For what dies of its own accord once
 * the program under test is gone: a terminal's shell, in a session of
 * its own, ends on the SIGHUP of its terminal's closing, a moment after
 * the terminal. */
guint test_orphans_gone (pid_t keep, int timeout_ms);
/* Waits until @pid's processes idle (sleeping, none running or in a disk
 * wait) in two samples 20 ms apart: a window manager that has done
 * starting up (openbox takes SubstructureRedirect early, and loses a
 * MapRequest that comes before its event loop runs). Process state, not
 * a delay: it returns as soon as that is so. */
void test_wait_idle (pid_t pid, int timeout_ms);

/* Reads @fd into @said until it holds @what, or the end (@what "\xff":
 * everything); FALSE at the end or after @timeout_ms without it. */
gboolean test_read_until (int fd, GString *said, const char *what, int timeout_ms);
/* Reads what the child *@pid says on @fd to its end (within @timeout_ms),
 * reaps it, logs what it said and returns its wait status; *@pid becomes
 * 0, so that a teardown does not kill it again. */
int test_wait_said (GPid *pid, int fd, GString *said, int timeout_ms);

/* A new folder from @template ("test-NAME-XXXXXX") in the temporary
 * folder (g_dir_make_tmp); the test fails without one. */
char *test_make_tmp (const char *template);
/* Removes @path, a folder with files and folders in it. */
void test_remove_tree (const char *path);
/* Writes @text to @dir/@name; the path. */
char *test_write_file (const char *dir, const char *name, const char *text);

/* Starts @argv in @cwd (NULL: the test's) with @envp (NULL: the test's),
 * its stdout dropped, its stderr on a pipe: *@err_fd, to read with
 * test_read_until(). The test reaps it (test_wait_said, test_kill_child). */
GPid test_spawn_talking (const char *cwd, const char *const *argv, char **envp, int *err_fd);
/* Starts @argv as test_spawn_talking() does, both its outputs dropped;
 * @flags: G_SPAWN_SEARCH_PATH, or 0. */
GPid test_spawn_quiet (const char *cwd, const char *const *argv, char **envp, GSpawnFlags flags);
/* Reads @fd into @said until it holds @what (a program's readiness: "xrecord:
 * recording "); the test fails, with what was said, if the program ends or
 * @timeout_ms pass first. */
void test_wait_line (int fd, GString *said, const char *what, int timeout_ms);
