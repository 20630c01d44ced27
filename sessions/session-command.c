/* session-command.c — whether the command a session records may run
 * without being asked for (see session_command_check in session.h).
 *
 * A session file may come from anyone (attached to a bug report), and its
 * `command` line is whatever its author wrote: `command "sh" "-c" "..."`
 * would run anything. xreplay and xreduce run the recorded command
 * unasked only when it is a plain program name:
 *   - one word, no arguments;
 *   - made of letters, digits and . _ + - only, starting with a letter or
 *     a digit (no path, no shell metacharacter, not an option);
 *   - found in PATH, and not in an sbin folder;
 *   - none of the few programs that act on the machine without arguments
 *     (reboot, poweroff, halt, shutdown, init, telinit, zzz).
 * So the author can choose at most which of your own programs runs,
 * without arguments, in the replay's sandbox. Anything else needs
 * `-- APP` or --run-recorded-command.
 */
#define G_LOG_DOMAIN "xreduce-sessions"

#include "session-private.h"
#include "quote.h"

#include <stdlib.h>
#include <string.h>

static const char *const acts_on_machine[] = {
  "reboot", "poweroff", "halt", "shutdown", "init", "telinit", "zzz", NULL,
};

/* NULL if @argv may run unasked, else why not (static). */
static const char *
why_not_plain (const char *const *argv)
{
  const char *name = argv[0];
  g_autofree char *found = NULL;
  g_autofree char *real = NULL;

  if (argv[1] != NULL)
    return "it has arguments";
  if (!g_ascii_isalnum (name[0]))
    return "not a plain program name";
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("._+-", *p) == NULL)
      return "not a plain program name";
  if (g_strv_contains (acts_on_machine, name))
    return "it acts on the machine";
  found = g_find_program_in_path (name);
  if (found == NULL)
    return "no such program in PATH";
  real = realpath (found, NULL);
  if (strstr (found, "/sbin/") != NULL || (real != NULL && strstr (real, "/sbin/") != NULL))
    return "a system administration program";
  return NULL;
}

gboolean
session_command_check (const Session *session, const char *name, GError **error)
{
  g_autofree char *shown = NULL;
  const char *why;

  if (session->command == NULL)
    {
      g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID,
                   "%s records no command: give the app after '--'", name);
      return FALSE;
    }
  why = why_not_plain ((const char *const *) session->command);
  if (why == NULL)
    return TRUE;
  /* The command is whatever the file says: one line, no escapes. */
  shown = quote_command_line ((const char *const *) session->command);
  g_set_error (error, SESSION_ERROR, SESSION_ERROR_INVALID,
               "%s records the command %s (%s): a session may come from anyone, so it is "
               "not run unasked; give the app after '--', or --run-recorded-command to run "
               "this one", name, shown, why);
  return FALSE;
}
