/* suanli-catalog.c — every catalog item, built in and the user's, as one list
 *
 * Sources are read in order and later ones win by id: the built-in catalog (resources compiled into
 * the program), then the JSON files in $XDG_DATA_HOME/suanli/catalog, then each extra folder from
 * Preferences.
 * Within a folder files are read in name order. A file that cannot be read, or an item with a
 * problem, is reported and left out; it never stops the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n.h>

#include "suanli-catalog-reader.h"
#include "suanli-catalog.h"

#define BUILTIN_PATH "/org/suanli/Suanli/catalog/"

struct _SuanliCatalog
{
  GObject     parent_instance;

  GPtrArray  *items;     /* of SuanliItem */
  GHashTable *by_id;     /* id → position in items */
  guint       n_overridden;
};

static void suanli_catalog_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SuanliCatalog, suanli_catalog, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, suanli_catalog_list_model_init))

static GType
suanli_catalog_get_item_type (GListModel *model)
{
  return SUANLI_TYPE_ITEM;
}

static guint
suanli_catalog_get_n_items (GListModel *model)
{
  return SUANLI_CATALOG (model)->items->len;
}

static gpointer
suanli_catalog_get_item (GListModel *model,
                         guint       position)
{
  SuanliCatalog *self = SUANLI_CATALOG (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
suanli_catalog_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = suanli_catalog_get_item_type;
  iface->get_n_items = suanli_catalog_get_n_items;
  iface->get_item = suanli_catalog_get_item;
}

static void
suanli_catalog_finalize (GObject *object)
{
  SuanliCatalog *self = SUANLI_CATALOG (object);

  g_hash_table_unref (self->by_id);
  g_ptr_array_unref (self->items);

  G_OBJECT_CLASS (suanli_catalog_parent_class)->finalize (object);
}

static void
suanli_catalog_class_init (SuanliCatalogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_catalog_finalize;
}

static void
suanli_catalog_init (SuanliCatalog *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
}

SuanliCatalog *
suanli_catalog_new (void)
{
  return g_object_new (SUANLI_TYPE_CATALOG, NULL);
}

/* Adds @items (of SuanliItem); an item whose id is already there replaces the earlier one in place. */
void
suanli_catalog_add_items (SuanliCatalog *self,
                          GPtrArray     *items)
{
  guint before, replaced_first = G_MAXUINT, replaced_last = 0;

  g_return_if_fail (SUANLI_IS_CATALOG (self));

  before = self->items->len;
  for (guint i = 0; i < items->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (items, i);
      gpointer position;

      if (g_hash_table_lookup_extended (self->by_id, suanli_item_get_id (item), NULL, &position))
        {
          guint at = GPOINTER_TO_UINT (position);

          g_hash_table_remove (self->by_id, suanli_item_get_id (g_ptr_array_index (self->items, at)));
          g_object_unref (g_ptr_array_index (self->items, at));
          self->items->pdata[at] = g_object_ref (item);
          g_hash_table_insert (self->by_id, (gpointer) suanli_item_get_id (item), position);
          self->n_overridden++;
          if (at < before)
            {
              replaced_first = MIN (replaced_first, at);
              replaced_last = MAX (replaced_last, at);
            }
          continue;
        }
      g_hash_table_insert (self->by_id, (gpointer) suanli_item_get_id (item),
                           GUINT_TO_POINTER (self->items->len));
      g_ptr_array_add (self->items, g_object_ref (item));
    }

  if (replaced_first != G_MAXUINT)
    g_list_model_items_changed (G_LIST_MODEL (self), replaced_first, replaced_last - replaced_first + 1,
                                replaced_last - replaced_first + 1);
  if (self->items->len > before)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, self->items->len - before);
}

/* Makes this catalog hold what @source holds (a reload done elsewhere), in one change. */
void
suanli_catalog_replace_all (SuanliCatalog *self,
                            SuanliCatalog *source)
{
  guint removed;

  g_return_if_fail (SUANLI_IS_CATALOG (self));
  g_return_if_fail (SUANLI_IS_CATALOG (source));

  removed = self->items->len;
  g_hash_table_remove_all (self->by_id);
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < source->items->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (source->items, i);

      g_hash_table_insert (self->by_id, (gpointer) suanli_item_get_id (item), GUINT_TO_POINTER (i));
      g_ptr_array_add (self->items, g_object_ref (item));
    }
  self->n_overridden = source->n_overridden;
  if (removed > 0 || self->items->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->items->len);
}

gboolean
suanli_catalog_load_file (SuanliCatalog *self,
                          GFile         *file,
                          GPtrArray     *problems,
                          GCancellable  *cancellable)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean ok;

  g_return_val_if_fail (SUANLI_IS_CATALOG (self), FALSE);

  ok = suanli_catalog_read_file (file, items, problems, cancellable);
  suanli_catalog_add_items (self, items);
  return ok;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Loads every *.json in @directory, in name order. A missing directory is not a problem. */
void
suanli_catalog_load_directory (SuanliCatalog *self,
                               GFile         *directory,
                               GPtrArray     *problems,
                               GCancellable  *cancellable)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  GFileInfo *info;

  g_return_if_fail (SUANLI_IS_CATALOG (self));

  enumerator = g_file_enumerate_children (directory, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (enumerator == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_autofree char *name = g_file_get_parse_name (directory);
          g_ptr_array_add (problems, g_strdup_printf ("%s: %s", name, error->message));
        }
      return;
    }
  while ((info = g_file_enumerator_next_file (enumerator, cancellable, NULL)) != NULL)
    {
      const char *name = g_file_info_get_name (info);

      if (g_str_has_suffix (name, ".json") && g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY)
        g_ptr_array_add (names, g_strdup (name));
      g_object_unref (info);
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(GFile) file = g_file_get_child (directory, g_ptr_array_index (names, i));
      suanli_catalog_load_file (self, file, problems, cancellable);
    }
}

/* Loads the catalog compiled into the program (the JSON files in resources/catalog). */
void
suanli_catalog_load_builtin (SuanliCatalog *self,
                             GPtrArray     *problems)
{
  g_auto(GStrv) names = g_resources_enumerate_children (BUILTIN_PATH, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (SUANLI_IS_CATALOG (self));

  if (names == NULL)
    return;
  qsort (names, g_strv_length (names), sizeof (char *), compare_names);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (BUILTIN_PATH, names[i], NULL);
      g_autofree char *display = g_strconcat ("resources/catalog/", names[i], NULL);
      g_autoptr(GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

      if (bytes != NULL && g_str_has_suffix (names[i], ".json"))
        suanli_catalog_read_bytes (display, bytes, items, problems);
    }
  suanli_catalog_add_items (self, items);
}

/* Reports parts that name no item in the catalog ("parts": {"accelerator": "no-such-gpu"}). */
void
suanli_catalog_check_references (SuanliCatalog *self,
                                 GPtrArray     *problems)
{
  g_return_if_fail (SUANLI_IS_CATALOG (self));

  for (guint i = 0; i < self->items->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (self->items, i);
      GHashTableIter iter;
      gpointer role, id;

      g_hash_table_iter_init (&iter, suanli_item_get_parts (item));
      while (g_hash_table_iter_next (&iter, &role, &id))
        if (!g_hash_table_contains (self->by_id, id))
          g_ptr_array_add (problems, g_strdup_printf (_("%s: %s: the part “%s” names “%s”, which is not in the catalog"),
                                                      suanli_item_get_origin (item), suanli_item_get_id (item),
                                                      (const char *) role, (const char *) id));
    }
}

/* Returns: (transfer none) (nullable): the item with @id. */
SuanliItem *
suanli_catalog_lookup (SuanliCatalog *self,
                       const char    *id)
{
  gpointer position;

  g_return_val_if_fail (SUANLI_IS_CATALOG (self), NULL);

  if (id == NULL || !g_hash_table_lookup_extended (self->by_id, id, NULL, &position))
    return NULL;
  return g_ptr_array_index (self->items, GPOINTER_TO_UINT (position));
}

guint
suanli_catalog_count_kind (SuanliCatalog  *self,
                           SuanliItemKind  kind)
{
  guint count = 0;

  g_return_val_if_fail (SUANLI_IS_CATALOG (self), 0);

  for (guint i = 0; i < self->items->len; i++)
    if (suanli_item_get_kind (g_ptr_array_index (self->items, i)) == kind)
      count++;
  return count;
}

/* How many items a later source replaced by id. */
guint
suanli_catalog_get_n_overridden (SuanliCatalog *self)
{
  g_return_val_if_fail (SUANLI_IS_CATALOG (self), 0);
  return self->n_overridden;
}

/* Returns: (transfer full): $XDG_DATA_HOME/suanli/catalog */
GFile *
suanli_catalog_dup_user_directory (void)
{
  return g_file_new_build_filename (g_get_user_data_dir (), "suanli", "catalog", NULL);
}

/* The catalog as the application shows it: built in, then the user's folder, then @extra_folders. */
SuanliCatalog *
suanli_catalog_load_standard (const char * const *extra_folders,
                              GPtrArray          *problems,
                              GCancellable       *cancellable)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GFile) user_directory = suanli_catalog_dup_user_directory ();

  suanli_catalog_load_builtin (catalog, problems);
  suanli_catalog_load_directory (catalog, user_directory, problems, cancellable);
  for (guint i = 0; extra_folders != NULL && extra_folders[i] != NULL; i++)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (extra_folders[i]);
      suanli_catalog_load_directory (catalog, folder, problems, cancellable);
    }
  suanli_catalog_check_references (catalog, problems);
  return g_steal_pointer (&catalog);
}

typedef struct
{
  char      **extra_folders;
  GPtrArray  *problems;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_strfreev (data->extra_folders);
  g_ptr_array_unref (data->problems);
  g_free (data);
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  LoadData *data = task_data;
  SuanliCatalog *catalog = suanli_catalog_load_standard ((const char * const *) data->extra_folders,
                                                         data->problems, cancellable);

  if (g_task_return_error_if_cancelled (task))
    g_object_unref (catalog);
  else
    g_task_return_pointer (task, catalog, g_object_unref);
}

/* Loads the standard catalog in a thread; the items are handed to the caller's thread whole. */
void
suanli_catalog_load_standard_async (const char * const  *extra_folders,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  LoadData *data = g_new0 (LoadData, 1);

  data->extra_folders = g_strdupv ((char **) extra_folders);
  data->problems = g_ptr_array_new_with_free_func (g_free);
  g_task_set_source_tag (task, suanli_catalog_load_standard_async);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_in_thread);
}

/* @problems: (out) (transfer full): what could not be loaded, as "FILE:LINE:COLUMN: …" strings. */
SuanliCatalog *
suanli_catalog_load_standard_finish (GAsyncResult  *result,
                                     GPtrArray    **problems,
                                     GError       **error)
{
  LoadData *data = g_task_get_task_data (G_TASK (result));

  if (problems != NULL)
    *problems = g_ptr_array_ref (data->problems);
  return g_task_propagate_pointer (G_TASK (result), error);
}
