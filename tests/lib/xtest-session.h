/* xtest-session.h — what an X11 test reads: sessions and the programs'
 * JSON (tests/lib). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "session.h"

/* The user actions in the bundled tests/data/demo.session, which
 * tests/data/record-demo-session.sh recorded (its motion over the bare
 * desktop is not recorded: 91 of the script's 95). */
#define DEMO_ACTIONS 91

/* The user actions of the session at @path, in words, one a line. */
char *test_actions_in_words (const char *path);
/* The JSON object a program printed in @text (xreplay --json, xreduce
 * --json), loaded into @parser, which owns it; the test fails if @text is
 * not one. */
JsonObject *test_json_object (JsonParser *parser, const char *text);
/* tests/data/demo.session saved as @dir/glx.session with its `glx` line
 * set to @glx; its path. */
char *test_demo_with_glx (const char *dir, SessionGlx glx);
