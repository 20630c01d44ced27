/* jsonio.h — JSON members written and read the one way the three
 * programs' JSON does it (json-glib): a value that is not known is null,
 * and a member that is missing, null or of another type reads as not
 * known (-1, NULL). What xreplay --json, xreduce --json, the session's
 * JSON export and xreduce --summarize share. X-free.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* "member": "value", or null for NULL. */
void jsonio_add_string (JsonBuilder *builder, const char *member, const char *value);
/* "member": value, or null when it is not @known. */
void jsonio_add_int (JsonBuilder *builder, const char *member, gint64 value, gboolean known);
void jsonio_add_bool (JsonBuilder *builder, const char *member, gboolean value);
/* "member": ["a", "b"], or null for NULL. */
void jsonio_add_strings (JsonBuilder *builder, const char *member, const char *const *values);
/* "member": [1, 2, 5] for @indices (an array of guint) 0, 1, 4: counted
 * from 1, as a person counts (a step's action numbers). */
void jsonio_add_counted (JsonBuilder *builder, const char *member, const GArray *indices);

/* What @builder built, as JSON text (newly allocated): on one line, or
 * indented when @pretty. */
char *jsonio_to_text (JsonBuilder *builder, gboolean pretty);

/* @object may be NULL (a member of a missing object is missing too). */
gint64 jsonio_get_int (JsonObject *object, const char *member);
const char *jsonio_get_string (JsonObject *object, const char *member);
JsonObject *jsonio_get_object (JsonObject *object, const char *member);
/* The strings of an array member (its other elements skipped), newly
 * allocated, or NULL when it is no array. */
char **jsonio_dup_strings (JsonObject *object, const char *member);

G_END_DECLS
