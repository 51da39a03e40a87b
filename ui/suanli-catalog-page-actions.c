/* suanli-catalog-page-actions.c — the catalog page's actions, the compare window and the save dialog
 *
 * Use in Plan, Add to Compare, Compare, the CSV and chart exports with their save dialog, and
 * Ctrl+F's search. The page calls this file (to install the actions, to let its windows go, to
 * update the Compare button); this file calls nothing of the page's, as no two files call each
 * other (docs/architecture.md): it reaches the page's fields through
 * suanli-catalog-page-private.h, and casts without SUANLI_CATALOG_PAGE (), whose type check would
 * call into suanli-catalog-page.c. The actions are the page's own, so the widget they get is
 * always a SuanliCatalogPage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-catalog-page-private.h"
#include "suanli-compare-view.h"
#include "suanli-compare-window.h"
#include "suanli-item-csv.h"
#include "suanli-plan.h"
#include "suanli-workspace.h"

#define PAGE(widget) ((SuanliCatalogPage *) (widget))

static void
show_toast (SuanliCatalogPage *self,
            const char        *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
}

/* ---- use in plan -------------------------------------------------------------------------- */

/* Returns: (transfer full) (nullable): the merge patch that puts @item into a plan, or NULL for
 * items a plan does not name. */
char *
_suanli_catalog_plan_patch (SuanliItem *item)
{
  const char * const *tags = suanli_item_get_tags (item);
  const char *id = suanli_item_get_id (item);

  switch (suanli_item_get_kind (item))
    {
    case SUANLI_ITEM_KIND_ACCELERATOR:
      return g_strdup_printf ("{\"system\": {\"accelerator\": \"%s\", \"cloud_instance\": null}}", id);
    case SUANLI_ITEM_KIND_CLOUD_INSTANCE:
      return g_strdup_printf ("{\"system\": {\"cloud_instance\": \"%s\", \"accelerator\": null}}", id);
    case SUANLI_ITEM_KIND_MODEL:
      /* A preset replaces the whole model description. */
      return g_strdup_printf ("{\"model\": {\"preset\": \"%s\", \"parameters\": null, \"active_parameters\": null, "
                              "\"layers\": null, \"hidden\": null, \"heads\": null, \"kv_heads\": null, "
                              "\"ffn_hidden\": null, \"vocab\": null, \"experts\": null, \"experts_per_token\": null}}",
                              id);
    case SUANLI_ITEM_KIND_LINK:
      if (g_strv_contains (tags, "scale-up"))
        return g_strdup_printf ("{\"system\": {\"scale_up\": \"%s\"}}", id);
      if (g_strv_contains (tags, "scale-out"))
        return g_strdup_printf ("{\"system\": {\"scale_out\": \"%s\"}}", id);
      return NULL;
    default:
      return NULL;
    }
}

/* Puts the selected item into the workspace's plan, where the planner picks it up. */
static void
use_in_plan_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SuanliCatalogPage *self = PAGE (widget);
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));
  SuanliItem *item = gtk_single_selection_get_selected_item (self->selection);
  SuanliPlan *plan;
  g_autoptr(GError) error = NULL;
  g_autofree char *patch = NULL;
  g_autofree char *message = NULL;
  if (item == NULL || workspace == NULL || (patch = _suanli_catalog_plan_patch (item)) == NULL)
    return;
  plan = suanli_workspace_get_plan (workspace);
  if (!suanli_plan_apply_merge_patch_data (plan, patch, &error))
    g_critical ("%s", error->message);
  /* Translators: "H200 SXM is in the plan now". */
  message = g_strdup_printf (_("“%s” is in the plan now"), suanli_item_get_name (item));
  show_toast (self, message);
}

/* ---- compare ------------------------------------------------------------------------------ */

void
_suanli_catalog_page_update_compare (SuanliCatalogPage *self)
{
  guint n = self->compare_items != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->compare_items)) : 0;
  g_autofree char *label = g_strdup_printf (_("Compare (%u)"), n);

  gtk_button_set_label (self->compare_button, label);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "catalog.compare", n > 0);
}

static void
add_to_compare_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SuanliCatalogPage *self = PAGE (widget);
  SuanliItem *item = gtk_single_selection_get_selected_item (self->selection);
  guint position;

  if (item == NULL || self->compare_items == NULL ||
      g_list_store_find (self->compare_items, item, &position))
    return;
  /* The oldest choice makes room when four are already there. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->compare_items)) >= SUANLI_COMPARE_MAX_ITEMS)
    g_list_store_remove (self->compare_items, 0);
  g_list_store_append (self->compare_items, item);
}

static void
clear_compare (GtkButton *button,
               gpointer   user_data)
{
  g_list_store_remove_all (G_LIST_STORE (user_data));
}

/* Opens (or presents) the compare window over the workspace's compare list. Returns: (transfer none) */
GtkWindow *
_suanli_catalog_page_present_compare (SuanliCatalogPage *self)
{
  GtkWidget *view, *clear;

  if (self->compare_window != NULL)
    {
      gtk_window_present (self->compare_window);
      return self->compare_window;
    }

  clear = gtk_button_new_with_mnemonic (_("C_lear"));
  gtk_widget_set_tooltip_text (clear, _("Remove every item from the comparison"));
  g_signal_connect (clear, "clicked", G_CALLBACK (clear_compare), self->compare_items);
  view = suanli_compare_view_new ();
  suanli_compare_view_set_memory_units (SUANLI_COMPARE_VIEW (view), self->memory_units);
  suanli_compare_view_set_items (SUANLI_COMPARE_VIEW (view), G_LIST_MODEL (self->compare_items));
  suanli_compare_window_new (GTK_WIDGET (self), &self->compare_window, _("Compare"), 820, 620, clear, view);

  gtk_window_present (self->compare_window);
  return self->compare_window;
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  _suanli_catalog_page_present_compare (PAGE (widget));
}

/* ---- export ------------------------------------------------------------------------------- */

static GPtrArray *
dup_visible_items (SuanliCatalogPage *self)
{
  GListModel *model = G_LIST_MODEL (self->sort_model);
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));
  return items;
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  SuanliCatalogPage *self = PAGE (user_data);
  const char *format = g_object_get_data (G_OBJECT (dialog), "format");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  gboolean ok;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  name = g_file_get_basename (file);
  if (g_str_equal (format, "csv"))
    {
      g_autoptr(GPtrArray) items = dup_visible_items (self);
      g_autofree char *csv = suanli_items_to_csv (items, self->kind);

      ok = g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                    NULL, NULL, &error);
    }
  else
    ok = suanli_chart_view_export (self->chart_view, file, &error);

  if (ok)
    {
      g_autofree char *message = g_strdup_printf (_("Saved “%s”"), name);
      show_toast (self, message);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("Cannot save “%s”: %s"), name, error->message);
      show_toast (self, message);
    }
}

static void
save_as (SuanliCatalogPage *self,
         const char        *format,
         const char        *title)
{
  g_autofree char *suggested = g_strdup_printf ("suanli-%s.%s", suanli_item_kind_to_nick (self->kind), format);
  GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));

  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);
  self->save_dialog = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                                   _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_dialog), suggested);
  g_object_set_data (G_OBJECT (self->save_dialog), "format", (gpointer) g_intern_string (format));
  g_signal_connect (self->save_dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_dialog));
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  save_as (PAGE (widget), "csv", _("Export Table as CSV"));
}

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const char *format = g_variant_get_string (parameter, NULL);

  save_as (PAGE (widget), g_str_equal (format, "svg") ? "svg" : "png", _("Export Chart"));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (PAGE (widget)->search_entry));
}

void
_suanli_catalog_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "catalog.add-to-compare", NULL, add_to_compare_action);
  gtk_widget_class_install_action (widget_class, "catalog.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "catalog.use-in-plan", NULL, use_in_plan_action);
  gtk_widget_class_install_action (widget_class, "catalog.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "catalog.export-chart", "s", export_chart_action);
  gtk_widget_class_install_action (widget_class, "catalog.search", NULL, search_action);
}

/* Lets the save dialog and the compare window go with the page. */
void
_suanli_catalog_page_actions_dispose (SuanliCatalogPage *self)
{
  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);
  if (self->compare_window != NULL)
    gtk_window_destroy (self->compare_window);
}
