/* note.c — what pacing, settling and the replay's state machine all use:
 * a note on stderr with --verbose, and the clock (replay-private.h).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include "quote.h"

void
note_verbose (Replay *r, const char *format, ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  if (!r->opts->verbose)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Notes hold the session's words and the windows' titles: whatever a
   * web page or another client chose, shown escaped, never sent raw. */
  line = quote_terminal (message);
  g_printerr ("xreplay: %s\n", line);
}

gint64
note_now_ms (void)
{
  return g_get_monotonic_time () / 1000;
}
