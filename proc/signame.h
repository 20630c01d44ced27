/* signame.h — signal names, the one table: "SIGSEGV" for 11 and back.
 * Every program's words for a signal come from here: the session file's
 * `outcome crashed SIGSEGV`, the verdict's JSON and words, a child's
 * "was killed by signal 11 (SIGSEGV)", "interrupted by SIGINT". X-free;
 * in proc/, the ground floor, so that proc/ itself and sessions/ above it
 * both call it. Without the libc's sigabbrev_np, whose table would be a
 * second one (and is glibc >= 2.32 only).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "SIGSEGV" for 11, NULL if unknown (a real-time signal, 0). */
const char *proc_signal_name (int signum);
/* "SIGSEGV", "segv" or "11" to 11; -1 if unknown. */
int proc_signal_from_name (const char *name);

G_END_DECLS
