/* session.h — everything about a session, for code that uses several
 * parts of it: the model (session-model.h), the text format
 * (session-format.h), steps and words (session-steps.h), exports
 * (session-export.h). A file that needs one part includes that one.
 *
 * Start reading at session-model.h, then session_parse() in
 * session-parse.c.
 */
#pragma once

#include "session-model.h"
#include "session-format.h"
#include "session-steps.h"
#include "session-export.h"
#include "session-world.h"
