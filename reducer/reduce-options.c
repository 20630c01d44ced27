/* reduce-options.c — the reducer's defaults and error domain (see
 * reduce-options.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-options.h"

#include <string.h>

#include "session.h"

G_DEFINE_QUARK (xreduce-reduce-error-quark, reduce_error)

void
reduce_options_init (ReduceOptions *options)
{
  memset (options, 0, sizeof *options);
  options->algorithm = DD_ALGORITHM_HDD;
  options->same_crash_frames = 3;
  options->verify_runs = 3;
  options->report = TRUE;
  options->max_screen_width = options->max_screen_height = SESSION_DEFAULT_MAX_SCREEN;
  options->max_session_size = SESSION_MAX_FILE_SIZE;
  options->max_actions = SESSION_MAX_ACTIONS;
}
