/* input.h — what can be wrong with the user's input to xreduce beyond
 * the options' values (main.c): the app to run, the outputs, the screen
 * size. Checked
 * before anything starts; every error is REDUCE_ERROR_USAGE (exit 2) with
 * one line. X-free.
 */
#pragma once

#include <glib.h>
#include "reduce-options.h"
#include "session.h"

G_BEGIN_DECLS

/* The app's command line: after "--", else the one @session records if
 * it may run unasked (session_command_check) or
 * options->run_recorded_command. *@recorded says which. */
gboolean input_choose_app (const ReduceOptions *options, const Session *session,
                           char ***app_argv, gboolean *recorded, GError **error);

/* The output file (OUT, default SESSION.min) into *@output_path, if it
 * can be written: not a folder, its folder writable, and OUT.report (with
 * options->report) free for a report (output_dir_check). */
gboolean input_check_output (const ReduceOptions *options, char **output_path,
                             GError **error);

/* The session's screen within --max-screen: every worker starts an Xvfb
 * of that size. */
gboolean input_check_screen (const ReduceOptions *options, const Session *session,
                             GError **error);

/* Whether the app's windows (the classes a replay saw, @app_classes) are
 * those @session was recorded with: a class in common with those its
 * actions aim at (case aside, or one the other's beginning: "firefox" and
 * "firefox-esr"). Else an error that names both; TRUE too when the
 * session names none. */
gboolean input_check_app_classes (const Session *session, const char *session_path,
                                  const char *const *app_classes, GError **error);

G_END_DECLS
