/* coredump.h — systemd-coredump's word on a process that vanished
 * (xrecord --all): the signal its journal entry gives, asked of
 * coredumpctl until the entry comes (it is written once the core is
 * stored), at most RECALL_COREDUMP_TRIES times, RECALL_COREDUMP_INTERVAL_MS
 * apart. X-free: the answer's parsing is unit-tested
 * (tests/unit/test-coredump.c).
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The lookup's end: the signal (0: no entry came). */
typedef void (*RecCoredumpFunc) (int signal, gpointer user_data);

typedef struct RecCoredump RecCoredump;

/* Asks @coredumpctl (its path) for @pid's entry dumped since @since_us
 * (real time, microseconds); @func is called once, from the main loop,
 * unless the lookup is freed first. */
RecCoredump *rec_coredump_lookup (const char *coredumpctl, pid_t pid, gint64 since_us,
                                  guint tries, guint interval_ms, RecCoredumpFunc func,
                                  gpointer user_data);
/* Stops the lookup (@func is not called). */
void rec_coredump_free (RecCoredump *lookup);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecCoredump, rec_coredump_free)

/* The signal of the newest entry for @pid, dumped since @since_us (less a
 * second), in coredumpctl's `--json=short list` answer @json (the signal
 * a number or a name, "SIGSEGV"); 0 if none, or not JSON. */
int rec_coredump_parse (const char *json, pid_t pid, gint64 since_us);

G_END_DECLS
