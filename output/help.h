/* help.h — one help style for xrecord, xreplay and xreduce: GOption's
 * --help text, wrapped to 80 columns (an option's description goes on
 * under itself), printed by the program itself. X-free.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HELP_WIDTH 80

/* @text with every line longer than @width columns wrapped at spaces: an
 * option line ("  -o, --output=OUT   Write ...") goes on under its
 * description, any other line under its own first word. */
char *help_wrap (const char *text, guint width);

/* If @argv (up to "--", @argc entries) asks for help (-h, --help,
 * --help-all), prints @context's help wrapped to HELP_WIDTH on stdout and
 * returns TRUE: the caller exits 0. */
gboolean help_maybe_print (GOptionContext *context, int argc, char **argv);

G_END_DECLS
