/* crashgroups.c — results of many reductions grouped by crash (see
 * crashgroups.h). Start reading at crash_groups_add_json(). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "crashgroups.h"
#include "jsonio.h"
#include "quote.h"
#include "verdict.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#define CRASH_GROUPS_MAX_FILE (16 * 1024 * 1024)

typedef struct
{
  char *result;              /* the JSON file's name */
  char *session, *minimal_session;  /* or NULL */
  gint64 before, after;
  char *verdict, *error;     /* not reduced: why */
} Member;

typedef struct
{
  char *key;
  char *failure;
  char *signal;              /* or NULL */
  char **frames;
  GPtrArray *members;        /* of Member* */
} Group;

struct CrashGroups
{
  GPtrArray *groups;         /* of Group* */
  GHashTable *by_key;        /* key -> Group* (borrowed) */
  GPtrArray *not_reduced;    /* of Member* */
  guint n_results;
};

static void
member_free (Member *m)
{
  g_free (m->result);
  g_free (m->session);
  g_free (m->minimal_session);
  g_free (m->verdict);
  g_free (m->error);
  g_free (m);
}

static void
group_free (Group *g)
{
  g_free (g->key);
  g_free (g->failure);
  g_free (g->signal);
  g_strfreev (g->frames);
  g_ptr_array_unref (g->members);
  g_free (g);
}

CrashGroups *
crash_groups_new (void)
{
  CrashGroups *groups = g_new0 (CrashGroups, 1);

  groups->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  groups->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  groups->not_reduced = g_ptr_array_new_with_free_func ((GDestroyNotify) member_free);
  return groups;
}

void
crash_groups_free (CrashGroups *groups)
{
  if (groups == NULL)
    return;
  g_hash_table_unref (groups->by_key);
  g_ptr_array_unref (groups->groups);
  g_ptr_array_unref (groups->not_reduced);
  g_free (groups);
}

gboolean
crash_groups_add_json (CrashGroups *groups, const char *data, gsize len, const char *name,
                       GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  g_autoptr (GStrvBuilder) frames = g_strv_builder_new ();
  g_autofree char *shown = quote_terminal (name);
  g_autofree char *key = NULL;
  JsonObject *object, *crash, *files;
  JsonNode *root, *node;
  const char *verdict, *failure;
  XreduceVerdict kind;
  Member *member;
  Group *group;

  if (!json_parser_load_from_data (parser, data, (gssize) len, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not JSON: %s", shown,
                   local->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  object = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  verdict = jsonio_get_string (object, "verdict");
  if (verdict == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not an xreduce --json result (no \"verdict\")", shown);
      return FALSE;
    }
  files = jsonio_get_object (object, "files");
  member = g_new0 (Member, 1);
  member->result = g_strdup (name);
  member->session = g_strdup (jsonio_get_string (files, "session"));
  member->minimal_session = g_strdup (jsonio_get_string (files, "minimal_session"));
  member->before = jsonio_get_int (object, "actions_before");
  member->after = jsonio_get_int (object, "actions_after");
  groups->n_results++;
  failure = jsonio_get_string (object, "failure");
  if (!xreduce_verdict_from_string (verdict, &kind)
      || (kind != XREDUCE_VERDICT_REDUCED && kind != XREDUCE_VERDICT_STOPPED_EARLY)
      || failure == NULL)
    {
      member->verdict = g_strdup (verdict);
      member->error = g_strdup (jsonio_get_string (object, "error"));
      g_ptr_array_add (groups->not_reduced, member);
      return TRUE;
    }
  crash = jsonio_get_object (object, "crash");
  node = crash != NULL ? json_object_get_member (crash, "frames") : NULL;
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *frame = json_array_get_element (array, i);
          if (JSON_NODE_HOLDS_VALUE (frame) && json_node_get_value_type (frame) == G_TYPE_STRING)
            g_strv_builder_add (frames, json_node_get_string (frame));
        }
    }
  {
    g_auto (GStrv) list = g_strv_builder_end (frames);
    g_autofree char *joined = g_strjoinv ("\n", list);

    /* The failure and the frames, apart by a character neither holds
     * (a NUL cannot be in JSON text that json-glib hands back). */
    key = g_strconcat (failure, "\x01", joined, NULL);
    group = g_hash_table_lookup (groups->by_key, key);
    if (group == NULL)
      {
        group = g_new0 (Group, 1);
        group->key = g_steal_pointer (&key);
        group->failure = g_strdup (failure);
        group->signal = g_strdup (jsonio_get_string (crash, "signal"));
        group->frames = g_steal_pointer (&list);
        group->members = g_ptr_array_new_with_free_func ((GDestroyNotify) member_free);
        g_ptr_array_add (groups->groups, group);
        g_hash_table_insert (groups->by_key, group->key, group);
      }
  }
  g_ptr_array_add (group->members, member);
  return TRUE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
add_file (CrashGroups *groups, const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = NULL;
  g_autofree char *shown = quote_terminal (path);
  g_autoptr (GError) local = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a file or a folder of xreduce --json results", shown);
      return FALSE;
    }
  file = g_mapped_file_new (path, FALSE, &local);
  if (file == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", local->message);
      return FALSE;
    }
  if (g_mapped_file_get_length (file) > CRASH_GROUPS_MAX_FILE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: too large for an xreduce --json result", shown);
      return FALSE;
    }
  /* An empty file maps to no contents at all. */
  return crash_groups_add_json (groups, g_mapped_file_get_length (file) > 0
                                        ? g_mapped_file_get_contents (file) : "",
                                g_mapped_file_get_length (file), path, error);
}

gboolean
crash_groups_add_path (CrashGroups *groups, const char *path, GError **error)
{
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) names = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return add_file (groups, path, error);
  dir = g_dir_open (path, 0, error);
  if (dir == NULL)
    return FALSE;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    if (!add_file (groups, g_ptr_array_index (names, i), error))
      return FALSE;
  return TRUE;
}

guint
crash_groups_get_n_groups (const CrashGroups *groups)
{
  return groups->groups->len;
}

guint
crash_groups_get_n_results (const CrashGroups *groups)
{
  return groups->n_results;
}

/* The largest group first; among equals, as they came. */
static GPtrArray *
sorted_groups (const CrashGroups *groups)
{
  /* Borrowed pointers (g_ptr_array_copy would copy the free function). */
  GPtrArray *sorted = g_ptr_array_sized_new (groups->groups->len);

  for (guint i = 0; i < groups->groups->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (groups->groups, i));

  for (guint i = 1; i < sorted->len; i++)
    for (guint j = i; j > 0; j--)
      {
        Group *a = g_ptr_array_index (sorted, j - 1), *b = g_ptr_array_index (sorted, j);
        if (a->members->len >= b->members->len)
          break;
        sorted->pdata[j - 1] = b;
        sorted->pdata[j] = a;
      }
  return sorted;
}

/* The member with the fewest actions left. */
static const Member *
smallest (const Group *group)
{
  const Member *best = NULL;

  for (guint i = 0; i < group->members->len; i++)
    {
      const Member *m = g_ptr_array_index (group->members, i);
      if (best == NULL || (m->after >= 0 && (best->after < 0 || m->after < best->after)))
        best = m;
    }
  return best;
}

static void
append_text (GString *out, const char *text)
{
  g_autofree char *quoted = quote_markdown_text (text != NULL ? text : "");
  g_string_append (out, quoted);
}

char *
crash_groups_to_markdown (const CrashGroups *groups)
{
  g_autoptr (GPtrArray) sorted = sorted_groups (groups);
  GString *out = g_string_new ("# Crashes\n\n");

  g_string_append_printf (out, "%u result%s, %u distinct crash%s", groups->n_results,
                          groups->n_results == 1 ? "" : "s", sorted->len,
                          sorted->len == 1 ? "" : "es");
  if (groups->not_reduced->len > 0)
    g_string_append_printf (out, ", %u not reduced", groups->not_reduced->len);
  g_string_append (out, ".\n\n");
  if (sorted->len > 0)
    {
      g_string_append (out, "| # | crash | top frames | sessions | actions left | "
                            "smallest minimal session |\n"
                            "| --- | --- | --- | --- | --- | --- |\n");
      for (guint i = 0; i < sorted->len; i++)
        {
          const Group *g = g_ptr_array_index (sorted, i);
          const Member *best = smallest (g);
          g_autofree char *frames = g_strjoinv (" < ", g->frames);

          g_string_append_printf (out, "| %u | ", i + 1);
          append_text (out, g->failure);
          g_string_append (out, " | ");
          append_text (out, *frames != '\0' ? frames : "(not compared: no --same-crash)");
          g_string_append_printf (out, " | %u | %" G_GINT64_FORMAT " | ", g->members->len,
                                  best->after);
          append_text (out, best->minimal_session);
          g_string_append (out, " |\n");
        }
      for (guint i = 0; i < sorted->len; i++)
        {
          const Group *g = g_ptr_array_index (sorted, i);

          g_string_append_printf (out, "\n## Crash %u: ", i + 1);
          append_text (out, g->failure);
          g_string_append (out, "\n\n");
          for (guint j = 0; j < g->members->len; j++)
            {
              const Member *m = g_ptr_array_index (g->members, j);
              g_string_append (out, "- ");
              append_text (out, m->session != NULL ? m->session : m->result);
              g_string_append_printf (out, ": %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
                                      " actions, ", m->before, m->after);
              append_text (out, m->minimal_session);
              g_string_append (out, "\n");
            }
        }
    }
  if (groups->not_reduced->len > 0)
    {
      g_string_append (out, "\n## Not reduced\n\n");
      for (guint i = 0; i < groups->not_reduced->len; i++)
        {
          const Member *m = g_ptr_array_index (groups->not_reduced, i);
          g_string_append (out, "- ");
          /* By its session, as the reduced are (a job array names its
           * results by task number: task-4.json says nothing). */
          if (m->session != NULL)
            {
              append_text (out, m->session);
              g_string_append (out, " (");
              append_text (out, m->result);
              g_string_append (out, ")");
            }
          else
            append_text (out, m->result);
          g_string_append (out, ": ");
          append_text (out, m->verdict);
          if (m->error != NULL)
            {
              g_string_append (out, ": ");
              append_text (out, m->error);
            }
          g_string_append (out, "\n");
        }
    }
  return g_string_free (out, FALSE);
}

char *
crash_groups_to_json (const CrashGroups *groups)
{
  g_autoptr (GPtrArray) sorted = sorted_groups (groups);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  jsonio_add_int (b, "results", groups->n_results, TRUE);
  json_builder_set_member_name (b, "groups");
  json_builder_begin_array (b);
  for (guint i = 0; i < sorted->len; i++)
    {
      const Group *g = g_ptr_array_index (sorted, i);

      json_builder_begin_object (b);
      jsonio_add_string (b, "failure", g->failure);
      jsonio_add_string (b, "signal", g->signal);
      jsonio_add_strings (b, "frames", (const char *const *) g->frames);
      jsonio_add_int (b, "count", g->members->len, TRUE);
      json_builder_set_member_name (b, "sessions");
      json_builder_begin_array (b);
      for (guint j = 0; j < g->members->len; j++)
        {
          const Member *m = g_ptr_array_index (g->members, j);
          json_builder_begin_object (b);
          jsonio_add_string (b, "result", m->result);
          jsonio_add_string (b, "session", m->session);
          jsonio_add_string (b, "minimal_session", m->minimal_session);
          jsonio_add_int (b, "actions_before", m->before, TRUE);
          jsonio_add_int (b, "actions_after", m->after, TRUE);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "not_reduced");
  json_builder_begin_array (b);
  for (guint i = 0; i < groups->not_reduced->len; i++)
    {
      const Member *m = g_ptr_array_index (groups->not_reduced, i);
      json_builder_begin_object (b);
      jsonio_add_string (b, "result", m->result);
      jsonio_add_string (b, "session", m->session);
      jsonio_add_string (b, "verdict", m->verdict);
      jsonio_add_string (b, "error", m->error);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  text = jsonio_to_text (b, TRUE);
  /* Hidden characters as \u escapes, not raw (a frame, a path). */
  return quote_json_text (text);
}
