/* signame.c — signal names, the one table (see signame.h). */
#define G_LOG_DOMAIN "xreduce-proc"

#include "signame.h"

#include <signal.h>

static const struct
{
  const char *name;
  int number;
} signal_names[] = {
  { "SIGHUP", SIGHUP }, { "SIGINT", SIGINT }, { "SIGQUIT", SIGQUIT },
  { "SIGILL", SIGILL }, { "SIGTRAP", SIGTRAP }, { "SIGABRT", SIGABRT },
  { "SIGBUS", SIGBUS }, { "SIGFPE", SIGFPE }, { "SIGKILL", SIGKILL },
  { "SIGUSR1", SIGUSR1 }, { "SIGSEGV", SIGSEGV }, { "SIGUSR2", SIGUSR2 },
  { "SIGPIPE", SIGPIPE }, { "SIGALRM", SIGALRM }, { "SIGTERM", SIGTERM },
  { "SIGSTKFLT", SIGSTKFLT }, { "SIGCHLD", SIGCHLD }, { "SIGCONT", SIGCONT },
  { "SIGSTOP", SIGSTOP }, { "SIGTSTP", SIGTSTP }, { "SIGTTIN", SIGTTIN },
  { "SIGTTOU", SIGTTOU }, { "SIGURG", SIGURG }, { "SIGXCPU", SIGXCPU },
  { "SIGXFSZ", SIGXFSZ }, { "SIGVTALRM", SIGVTALRM }, { "SIGPROF", SIGPROF },
  { "SIGWINCH", SIGWINCH }, { "SIGIO", SIGIO }, { "SIGPWR", SIGPWR },
  { "SIGSYS", SIGSYS },
};

const char *
proc_signal_name (int signum)
{
  for (gsize i = 0; i < G_N_ELEMENTS (signal_names); i++)
    if (signal_names[i].number == signum)
      return signal_names[i].name;
  return NULL;
}

int
proc_signal_from_name (const char *name)
{
  g_autofree char *upper = NULL;
  char *end = NULL;
  guint64 number;

  if (name == NULL || *name == '\0')
    return -1;
  if (g_ascii_isdigit (*name))
    {
      number = g_ascii_strtoull (name, &end, 10);
      return (*end == '\0' && number > 0 && number < 65) ? (int) number : -1;
    }
  upper = g_ascii_strup (name, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (signal_names); i++)
    if (g_str_equal (upper, signal_names[i].name)
        || g_str_equal (upper, signal_names[i].name + 3))
      return signal_names[i].number;
  return -1;
}
