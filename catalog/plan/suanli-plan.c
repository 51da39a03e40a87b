/* suanli-plan.c — a configuration: job, system and assumptions, as a `suanli-plan/1` document
 *
 * The plan is its JSON document, kept as written: keys it does not know are kept too, so that the
 * checks (suanli_plan_inputs_resolve) can name every one of them, and a file saved again loses
 * nothing. Every edit is a JSON Merge Patch (RFC 7386) — the same form advice carries — and emits
 * "changed" once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-plan.h"
#include "suanli-bounded-read.h"
#include "suanli-atomic-file.h"
#include "suanli-json-depth.h"
#include "suanli-json-writer.h"

struct _SuanliPlan
{
  GObject     parent_instance;

  JsonObject *root;
};

G_DEFINE_FINAL_TYPE (SuanliPlan, suanli_plan, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
suanli_plan_finalize (GObject *object)
{
  SuanliPlan *self = SUANLI_PLAN (object);

  json_object_unref (self->root);

  G_OBJECT_CLASS (suanli_plan_parent_class)->finalize (object);
}

static void
suanli_plan_class_init (SuanliPlanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_plan_finalize;

  /* After every edit; the estimate is recomputed then. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
suanli_plan_init (SuanliPlan *self)
{
  self->root = json_object_new ();
  json_object_set_string_member (self->root, "schema", SUANLI_PLAN_SCHEMA);
}

/* An empty plan: every value takes its default until set. */
SuanliPlan *
suanli_plan_new (void)
{
  return g_object_new (SUANLI_TYPE_PLAN, NULL);
}

/* Whether @node can be written as JSON (no infinity, no NaN); @error names the member that cannot. */
static gboolean
writable (JsonNode  *node,
          GError   **error)
{
  g_autofree char *text = suanli_json_write (node, FALSE, error);

  return text != NULL;
}

/* Parses a plan document. Only JSON syntax and the document's shape are checked here (an error
 * names FILE:LINE:COLUMN); the values are checked when the plan is resolved, so that every
 * problem is reported at once. */
SuanliPlan *
suanli_plan_new_from_data (const char  *data,
                           gssize       length,
                           const char  *file_name,
                           GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(SuanliPlan) plan = NULL;
  JsonNode *root;
  gsize size = length < 0 ? strlen (data) : (gsize) length;

  if (size > SUANLI_PLAN_MAX_FILE_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: the file is %lu bytes; a plan may have at "
                                                                 "most %d"),
                   file_name, (unsigned long) size, SUANLI_PLAN_MAX_FILE_SIZE);
      return NULL;
    }
  if (size == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s:1:1: the file is empty"), file_name);
      return NULL;
    }
  if (!g_utf8_validate_len (data, size, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: not UTF-8 text"), file_name);
      return NULL;
    }
  if (!suanli_json_check_depth (data, size, SUANLI_JSON_MAX_DEPTH, &parse_error) ||
      !json_parser_load_from_data (parser, data, (gssize) size, &parse_error))
    {
      const char *message = g_str_has_prefix (parse_error->message, "<data>:") ? parse_error->message + 7
                                                                                : parse_error->message;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%s", file_name, message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s:1:1: a plan is a JSON object"), file_name);
      return NULL;
    }
  /* json-glib reads 1e999 as infinity: such a plan could never be saved again. */
  if (!writable (root, &parse_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", file_name, parse_error->message);
      return NULL;
    }

  plan = suanli_plan_new ();
  json_object_unref (plan->root);
  plan->root = json_object_ref (json_node_get_object (root));
  return g_steal_pointer (&plan);
}

SuanliPlan *
suanli_plan_new_from_file (GFile   *file,
                           GError **error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) read_error = NULL;
  gsize length = 0;
  const char *data;

  /* Counted while read: a FIFO or /dev/zero has no size to check beforehand. */
  bytes = suanli_read_bounded (file, SUANLI_PLAN_MAX_FILE_SIZE, NULL, &read_error);
  if (g_error_matches (read_error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: the file is larger than %d bytes, the most a "
                                                                 "plan may have"),
                   name, SUANLI_PLAN_MAX_FILE_SIZE);
      return NULL;
    }
  if (bytes == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&read_error));
      return NULL;
    }
  data = g_bytes_get_data (bytes, &length);
  return suanli_plan_new_from_data (data != NULL ? data : "", (gssize) length, name, error);
}

/* Returns: (transfer none): the document; read it, and change it only through merge patches. */
JsonObject *
suanli_plan_get_root (SuanliPlan *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN (self), NULL);

  return self->root;
}

static char *
document_text (SuanliPlan  *self,
               GError     **error)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, self->root);
  text = suanli_json_write (node, TRUE, error);
  return text != NULL ? g_strconcat (text, "\n", NULL) : NULL;
}

/* Returns: (transfer full): the document, indented, with a newline at the end. Every way into the
 * document (a file, a merge patch) refuses what JSON cannot hold, so this always succeeds. */
char *
suanli_plan_to_data (SuanliPlan *self)
{
  g_autoptr(GError) error = NULL;
  char *text;

  g_return_val_if_fail (SUANLI_IS_PLAN (self), NULL);

  text = document_text (self, &error);
  if (text == NULL)
    g_critical ("%s", error->message);
  return text;
}

/* Writes the plan to @file atomically (a temporary file, then a rename), keeping the file's mode.
 * On any error the old file, if any, is left as it was. */
gboolean
suanli_plan_save (SuanliPlan  *self,
                  GFile       *file,
                  GError     **error)
{
  g_autofree char *data = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (SUANLI_IS_PLAN (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if ((data = document_text (self, error)) == NULL)
    return FALSE;
  path = g_file_get_path (file);
  if (path != NULL)
    return suanli_atomic_file_write_contents (path, data, strlen (data), error);
  /* Not a local file (a GVfs location): GIO replaces it, keeping what it can. */
  return g_file_replace_contents (file, data, strlen (data), NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, error);
}

/* RFC 7386: objects merge member by member, null removes, anything else replaces. */
static void
merge_object (JsonObject *target,
              JsonObject *patch)
{
  g_autoptr(GList) members = json_object_get_members (patch);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (patch, name);
      JsonNode *existing = json_object_get_member (target, name);

      if (JSON_NODE_HOLDS_NULL (value))
        json_object_remove_member (target, name);
      else if (JSON_NODE_HOLDS_OBJECT (value))
        {
          if (existing == NULL || !JSON_NODE_HOLDS_OBJECT (existing))
            {
              json_object_set_object_member (target, name, json_object_new ());
              existing = json_object_get_member (target, name);
            }
          merge_object (json_node_get_object (existing), json_node_get_object (value));
        }
      else
        json_object_set_member (target, name, json_node_copy (value));
    }
}

/* Applies a JSON Merge Patch (an object) and emits "changed". */
void
suanli_plan_apply_merge_patch (SuanliPlan *self,
                               JsonNode   *patch)
{
  g_return_if_fail (SUANLI_IS_PLAN (self));
  g_return_if_fail (patch != NULL && JSON_NODE_HOLDS_OBJECT (patch));
  g_return_if_fail (writable (patch, NULL));

  merge_object (self->root, json_node_get_object (patch));
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
suanli_plan_apply_merge_patch_data (SuanliPlan  *self,
                                    const char  *patch,
                                    GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  g_return_val_if_fail (SUANLI_IS_PLAN (self), FALSE);

  if (!suanli_json_check_depth (patch, strlen (patch), SUANLI_JSON_MAX_DEPTH, error) ||
      !json_parser_load_from_data (parser, patch, -1, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("a merge patch is a JSON object"));
      return FALSE;
    }
  if (!writable (root, error))
    return FALSE;
  suanli_plan_apply_merge_patch (self, root);
  return TRUE;
}

/* The plan's "name", or "" */
const char *
suanli_plan_get_name (SuanliPlan *self)
{
  JsonNode *node;

  g_return_val_if_fail (SUANLI_IS_PLAN (self), NULL);

  node = json_object_get_member (self->root, "name");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return "";
  return json_node_get_string (node);
}

/* A copy of @node that shares nothing with it (json-glib's node copies share their objects and
 * arrays). */
static JsonNode *
copy_deep (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (object);
        JsonObject *target = json_object_new ();

        for (GList *l = members; l != NULL; l = l->next)
          json_object_set_member (target, l->data, copy_deep (json_object_get_member (object, l->data)));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (copy, target);
        return copy;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        JsonArray *target = json_array_sized_new (json_array_get_length (array));

        for (guint i = 0; i < json_array_get_length (array); i++)
          json_array_add_element (target, copy_deep (json_array_get_element (array, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, target);
        return copy;
      }
    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

/* Makes this plan hold a copy of @source's document (undo, opening a file), emitting "changed" once.
 * The copy is made member by member, not through text, so that it cannot fail. */
void
suanli_plan_replace (SuanliPlan *self,
                     SuanliPlan *source)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  g_return_if_fail (SUANLI_IS_PLAN (self));
  g_return_if_fail (SUANLI_IS_PLAN (source));

  json_node_set_object (root, source->root);
  copy = copy_deep (root);
  json_object_unref (self->root);
  self->root = json_object_ref (json_node_get_object (copy));
  g_signal_emit (self, signals[CHANGED], 0);
}
