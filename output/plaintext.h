/* plaintext.h — the plain-text twin of a report.md: what a bug tracker
 * that does not render Markdown (Debian's BTS, mail) should show. Made
 * from the Markdown our own reports write (headings, lists, indented
 * code blocks, code spans, links and pictures, backslash escapes, bold),
 * not from any Markdown. X-free; unit-tested in tests/unit/test-quote.c.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "# Title" becomes the title underlined with '=' ("## Part": '-'),
 * "[text](link)" "text (link)", "![alt](picture)" "alt (picture)",
 * `code` and **bold** their text, "\*" a '*'; indented code blocks and
 * everything else stay as they are. */
char *plaintext_from_markdown (const char *markdown);

G_END_DECLS
