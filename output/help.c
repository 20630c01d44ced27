/* help.c — --help wrapped to 80 columns (see help.h). */
#define G_LOG_DOMAIN "xreduce-output"

#include "help.h"

#include <stdio.h>
#include <string.h>

/* Where an option line's description starts: after "  -o, --output=OUT"
 * and its run of spaces; 0 if @line is no option line. */
static guint
description_column (const char *line)
{
  const char *p = line;

  while (*p == ' ')
    p++;
  if (p == line || *p != '-')
    return 0;
  while (*p != '\0' && *p != ' ')
    p++;
  if (p[0] == ',' || (p[0] == ' ' && p[1] == '-'))   /* "-o, --output" */
    {
      p++;
      while (*p == ' ')
        p++;
      while (*p != '\0' && *p != ' ')
        p++;
    }
  if (strncmp (p, "  ", 2) != 0)
    return 0;
  while (*p == ' ')
    p++;
  return *p != '\0' ? (guint) g_utf8_pointer_to_offset (line, p) : 0;
}

static void
wrap_line (GString *out, const char *line, guint width)
{
  guint indent = description_column (line);
  gboolean first = TRUE;
  const char *p = line;

  if (indent == 0)
    while (line[indent] == ' ')
      indent++;
  if (indent > width / 2)
    indent = 8;
  while (*p != '\0')
    {
      guint room = first ? width : width - indent;
      const char *end = p, *cut = NULL;
      guint col = 0;

      if (!first)
        for (guint i = 0; i < indent; i++)
          g_string_append_c (out, ' ');
      /* The longest run of words that fits, cut at a space. */
      while (*end != '\0' && col < room)
        {
          end = g_utf8_next_char (end);
          col++;
          if (*end == ' ' && (first ? (guint) (end - line) > indent : TRUE))
            cut = end;
        }
      if (*end == '\0')
        cut = end;
      else if (cut == NULL)
        {
          /* One word longer than the line: it stands alone. */
          cut = end;
          while (*cut != '\0' && *cut != ' ')
            cut++;
        }
      g_string_append_len (out, p, cut - p);
      g_string_append_c (out, '\n');
      p = cut;
      while (*p == ' ')
        p++;
      first = FALSE;
    }
}

char *
help_wrap (const char *text, guint width)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i + 1] == NULL && *lines[i] == '\0')
        break;   /* the text's own last newline */
      if (g_utf8_strlen (lines[i], -1) <= (glong) width)
        g_string_append_printf (out, "%s\n", lines[i]);
      else
        wrap_line (out, lines[i], width);
    }
  return g_string_free (out, FALSE);
}

gboolean
help_maybe_print (GOptionContext *context, int argc, char **argv)
{
  for (int i = 1; i < argc && argv[i] != NULL && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "-h") == 0 || strcmp (argv[i], "--help") == 0
        || strcmp (argv[i], "-?") == 0 || strcmp (argv[i], "--help-all") == 0)
      {
        g_autofree char *help = NULL;
        g_autofree char *wrapped = NULL;

        /* GOption names the program once it has parsed; not yet. */
        if (g_get_prgname () == NULL && argv[0] != NULL)
          {
            g_autofree char *name = g_path_get_basename (argv[0]);
            g_set_prgname (name);
          }
        help = g_option_context_get_help (context, FALSE, NULL);
        wrapped = help_wrap (help, HELP_WIDTH);
        fputs (wrapped, stdout);
        return TRUE;
      }
  return FALSE;
}
