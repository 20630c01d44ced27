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
  options->glx_first = REDUCE_GLX_BY_SESSION;
  options->report = TRUE;
  replay_settings_init (&options->replay);
}
