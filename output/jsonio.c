/* jsonio.c — JSON members, written and read (see jsonio.h). */
#define G_LOG_DOMAIN "xreduce-output"

#include "jsonio.h"

void
jsonio_add_string (JsonBuilder *builder, const char *member, const char *value)
{
  json_builder_set_member_name (builder, member);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
jsonio_add_int (JsonBuilder *builder, const char *member, gint64 value, gboolean known)
{
  json_builder_set_member_name (builder, member);
  if (known)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
jsonio_add_bool (JsonBuilder *builder, const char *member, gboolean value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_boolean_value (builder, value);
}

void
jsonio_add_strings (JsonBuilder *builder, const char *member, const char *const *values)
{
  json_builder_set_member_name (builder, member);
  if (values == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_array (builder);
  for (guint i = 0; values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

void
jsonio_add_counted (JsonBuilder *builder, const char *member, const GArray *indices)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < indices->len; i++)
    json_builder_add_int_value (builder, g_array_index (indices, guint, i) + 1);
  json_builder_end_array (builder);
}

char *
jsonio_to_text (JsonBuilder *builder, gboolean pretty)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (builder);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  return json_generator_to_data (generator, NULL);
}

/* The member's node if it holds a value of @type, else NULL. */
static JsonNode *
value_of (JsonObject *object, const char *member, GType type)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    return NULL;
  return node;
}

gint64
jsonio_get_int (JsonObject *object, const char *member)
{
  JsonNode *node = value_of (object, member, G_TYPE_INT64);

  return node != NULL ? json_node_get_int (node) : -1;
}

const char *
jsonio_get_string (JsonObject *object, const char *member)
{
  JsonNode *node = value_of (object, member, G_TYPE_STRING);

  return node != NULL ? json_node_get_string (node) : NULL;
}

JsonObject *
jsonio_get_object (JsonObject *object, const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

char **
jsonio_dup_strings (JsonObject *object, const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  g_autoptr (GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
    }
  return g_strv_builder_end (builder);
}
