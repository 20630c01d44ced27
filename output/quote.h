/* quote.h — every string that leaves a program, quoted for where it goes.
 *
 * Session files come from strangers: a window title is whatever a web page
 * or another client chose, and may hold newlines, quotes, `$(...)`,
 * backquotes or escape sequences. One function per destination:
 *   - quote_shell(): a single-quoted shell word ('\'' for a quote);
 *   - quote_terminal(): one line for a terminal or a shell comment:
 *     control characters (C0, DEL, C1), backslashes and invalid UTF-8
 *     shown as \n, \t, \\ or \xNN;
 *   - quote_markdown_code(): a Markdown code span, fenced with more
 *     backquotes than any run in the text, on one line;
 *   - quote_markdown_text(): running Markdown text on one line, with every
 *     character that could start markup (links, HTML, code, emphasis,
 *     tables) escaped by a backslash;
 *   - quote_markdown_title(): a title line of Markdown that also reads
 *     as plain text (a bug tracker that does not render Markdown shows it
 *     as it is): only what would be markup there is escaped;
 *   - quote_command_line(): a command line shown on a terminal;
 *   - quote_message(): a message for the terminal whose parts were
 *     quoted already: hidden characters escaped, backslashes kept (the
 *     last line of defence in error messages);
 *   - quote_json_text(): json-glib's output with every hidden character
 *     but its own newlines as a \u escape.
 * "Hidden" characters (quote_is_hidden()) are those a terminal or a
 * reader acts on without showing: C0, DEL, C1, bidi controls (U+202E),
 * line separators. Bare URLs in Markdown text are broken up.
 * X-free; unit-tested in tests/unit/test-session.c.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *quote_shell (const char *text);
char *quote_terminal (const char *text);
char *quote_markdown_code (const char *text);
char *quote_markdown_text (const char *text);
char *quote_markdown_title (const char *text);
/* A command line to show: each word quote_shell()'d, joined by spaces,
 * the whole quote_terminal()'d (one line, no escape reaches a terminal). */
char *quote_command_line (const char *const *argv);
char *quote_message (const char *text);
char *quote_json_text (const char *json);
gboolean quote_is_hidden (gunichar c);

G_END_DECLS
