/* frame.h — a session sent through a pipe (xreplay's SESSION "-"), and
 * the pipe kept open afterwards as the sender's way to cancel the replay.
 *
 * xreduce --launcher runs every test as `LAUNCHER... xreplay --json ... -`
 * on whatever machine the launcher picks (srun, ssh): no shared
 * filesystem, the candidate goes on xreplay's stdin. So that closing
 * stdin can mean "stop now" (killing srun or ssh cannot: see
 * docs/scale.md), the sender frames the session:
 *
 *   xreduce-session-frame LEN\n
 *   LEN bytes: the session file
 *
 * and then keeps its end open, writing nothing more. xreplay reads the LEN
 * bytes, replays, and takes EOF on stdin from then on as a cancel (as
 * SIGHUP: the app, the bus, the sandbox folder and the Xvfb go). Anything
 * else on stdin (`xreplay - < crash.log`, `cat crash.log | ssh host xreplay
 * -`) is the session itself, read to EOF, with no cancel to watch for.
 * Either is bounded like a file (--max-session-size, checked before the
 * body of a frame is read); empty input is refused.
 *
 * X-free; unit-tested in tests/unit/test-frame.c.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FRAME_MAGIC "xreduce-session-frame"
/* The longest header line: the magic, a space, 20 digits, a newline. */
#define FRAME_HEADER_MAX 64

/* "xreduce-session-frame LEN\n". */
char *frame_header (gsize len);

/* Reads a session from @fd (blocking) to at most @max_bytes: a frame,
 * or else everything up to EOF. *@framed says which (then EOF on @fd
 * from now on means the sender cancelled). @name is for messages
 * ("stdin"). SESSION_ERROR_EMPTY for nothing at all, _TOO_LARGE over the
 * limit, _IO for a read error or a frame cut short or malformed. */
GBytes *frame_read (int fd, gsize max_bytes, const char *name, gboolean *framed,
                    GError **error);

G_END_DECLS
