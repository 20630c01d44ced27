/* unwind.h — the stack of a thread we hold in a ptrace stop, read with
 * elfutils' libdwfl (as eu-stack reads one): function names from the
 * DWARF debugging information where there is some (inlined functions as
 * frames of their own, as gdb shows them; C++ names demangled, without
 * their parameters), else from the ELF symbol tables; file:line where the
 * debugging information says it. For xreduce-crashtrace only.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *function;            /* "print_document", "??" if unknown */
  char *at;                  /* "xdemo.c:209", the library ("libc.so.6") or "" */
  gboolean signal_frame;     /* the kernel's signal trampoline (__restore_rt): the
                              * frames above it are a signal handler's */
} UnwindFrame;

void unwind_frame_clear (UnwindFrame *frame);

/* Up to @max frames of thread @tid of process @pid, innermost first (an
 * array of UnwindFrame), or NULL with why. The thread must be in a
 * ptrace stop of ours. */
GArray *unwind_thread (pid_t pid, pid_t tid, guint max, GError **error);

G_END_DECLS
