/* plaintext.c — report.md as plain text (see plaintext.h). */
#define G_LOG_DOMAIN "xreduce-output"

#include "plaintext.h"

#include <string.h>

static void inline_text (GString *out, const char *p, const char *end);

/* The length of the run of @c at @p. */
static gsize
run_of (const char *p, const char *end, char c)
{
  gsize n = 0;

  while (p + n < end && p[n] == c)
    n++;
  return n;
}

/* [text](target) at @p ('['): the ends of text and target, or FALSE. */
static gboolean
find_link (const char *p, const char *end, const char **text_end, const char **target,
           const char **target_end)
{
  int depth = 0;

  for (const char *q = p; q < end; q++)
    {
      if (*q == '\\' && q + 1 < end)
        {
          q++;
          continue;
        }
      if (*q == '[')
        depth++;
      else if (*q == ']' && --depth == 0)
        {
          const char *close;

          if (q + 1 >= end || q[1] != '(')
            return FALSE;
          close = memchr (q + 2, ')', (gsize) (end - (q + 2)));
          if (close == NULL)
            return FALSE;
          *text_end = q;
          *target = q + 2;
          *target_end = close;
          return TRUE;
        }
    }
  return FALSE;
}

static void
inline_text (GString *out, const char *p, const char *end)
{
  while (p < end)
    {
      const char *text_end, *target, *target_end;

      if (*p == '\\' && p + 1 < end && g_ascii_ispunct (p[1]))
        {
          g_string_append_c (out, p[1]);
          p += 2;
        }
      else if (*p == '`')
        {
          gsize n = run_of (p, end, '`');
          const char *q = p + n, *close = NULL;

          /* The closing run of as many backquotes, no more, no fewer. */
          while (q < end && close == NULL)
            {
              gsize m = run_of (q, end, '`');

              if (m == n)
                close = q;
              q += MAX (m, 1);
            }
          if (close == NULL)
            {
              g_string_append_len (out, p, (gssize) n);
              p += n;
              continue;
            }
          {
            const char *a = p + n, *b = close;

            if (b - a >= 2 && *a == ' ' && b[-1] == ' ')
              a++, b--;
            g_string_append_len (out, a, b - a);
          }
          p = close + n;
        }
      else if ((*p == '[' || (*p == '!' && p + 1 < end && p[1] == '['))
               && find_link (*p == '!' ? p + 1 : p, end, &text_end, &target, &target_end))
        {
          const char *text = (*p == '!' ? p + 2 : p + 1);
          gsize len = out->len;

          inline_text (out, text, text_end);
          /* A link whose text is its target says it once. */
          if (out->len - len != (gsize) (target_end - target)
              || strncmp (out->str + len, target, (gsize) (target_end - target)) != 0)
            {
              g_string_append (out, " (");
              g_string_append_len (out, target, target_end - target);
              g_string_append_c (out, ')');
            }
          p = target_end + 1;
        }
      else if (*p == '*' && p + 1 < end && p[1] == '*')
        p += 2;
      else
        g_string_append_c (out, *p++);
    }
}

char *
plaintext_from_markdown (const char *markdown)
{
  g_auto (GStrv) lines = g_strsplit (markdown, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize hashes = run_of (line, line + strlen (line), '#');

      if (g_str_has_prefix (line, "    "))
        g_string_append (out, line);
      else if ((hashes == 1 || hashes == 2) && line[hashes] == ' ')
        {
          gsize start = out->len;
          glong width;

          inline_text (out, line + hashes + 1, line + strlen (line));
          width = g_utf8_strlen (out->str + start, -1);
          g_string_append_c (out, '\n');
          for (glong k = 0; k < MAX (width, 1); k++)
            g_string_append_c (out, hashes == 1 ? '=' : '-');
        }
      else
        inline_text (out, line, line + strlen (line));
      if (lines[i + 1] != NULL)
        g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
