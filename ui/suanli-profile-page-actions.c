/* suanli-profile-page-actions.c — the profiler page's actions and the file dialogs they open
 *
 * Everything the page's own buttons and keys do, apart from opening traces (the page's loading,
 * in suanli-profile-page.c): search, zoom, the linked slice, export, Live…, and What If…'s Plan
 * with This. The views hold their own actions (the flame view's Compare With…, the ranks' Show
 * Difference, the plan comparison's).
 *
 * The page calls this file (to install the actions, to let its dialogs go); this file calls
 * nothing of the page's, as no two files call each other (docs/architecture.md): it reaches the
 * page's fields through suanli-profile-page-private.h, and casts without SUANLI_PROFILE_PAGE (),
 * whose type check would call into suanli-profile-page.c. The actions are the page's own, so the
 * widget they get is always a SuanliProfilePage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-flame-graph.h"
#include "suanli-flame-view.h"
#include "suanli-live-dialog.h"
#include "suanli-profile-common.h"
#include "suanli-profile-page-private.h"
#include "suanli-timeline.h"

#define PAGE(widget) ((SuanliProfilePage *) (widget))

/* Plan with This (What If…): the plan takes the projection's accelerator and GPU count, and its
 * projected MFU as the plan's, so that its estimate starts from a measured step. */
static void
on_use_projection (SuanliProfilePage *self,
                   const char        *accelerator,
                   guint              gpus,
                   double             mfu)
{
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));
  guint per_node = gpus > 8 && gpus % 8 == 0 ? 8 : gpus;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *data = NULL;

  if (workspace == NULL || gpus == 0 || mfu <= 0 || mfu > 1)
    return;
  data = g_strdup_printf ("{\"system\": {\"accelerator\": \"%s\", \"gpus_per_node\": %u, \"nodes\": %u, "
                          "\"cloud_instance\": null}, \"assumptions\": {\"mfu\": %s, \"mfu_reference\": \"bf16\"}}",
                          accelerator, per_node, gpus / per_node,
                          g_ascii_formatd (number, sizeof number, "%.4f", mfu));
  if (suanli_plan_apply_merge_patch_data (suanli_workspace_get_plan (workspace), data, NULL))
    suanli_profile_toast (GTK_WIDGET (self), _("The plan now uses the projected hardware and MFU"));
}

static void
previous_match_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (PAGE (widget)->timeline), "timeline.previous-match", NULL);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SuanliProfilePage *self = PAGE (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_search));
}

/* The header's zoom buttons act on the view in front. */
static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliProfilePage *self = PAGE (widget);
  gboolean flame = g_str_equal (gtk_stack_get_visible_child_name (self->views), "flame");
  GtkWidget *graph = suanli_flame_view_get_graph (self->flame_view);

  if (g_str_equal (action_name, "profile.zoom-in"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom-in", NULL);
  else if (g_str_equal (action_name, "profile.zoom-out"))
    gtk_widget_activate_action (flame ? graph : GTK_WIDGET (self->timeline), flame ? "flame-graph.zoom-out" : "timeline.zoom-out",
                                NULL);
  else
    gtk_widget_activate_action (flame ? graph : GTK_WIDGET (self->timeline), flame ? "flame-graph.reset" : "timeline.reset",
                                NULL);
}

/**
 * suanli_profile_page_export_view:
 *
 * Writes the timeline or the flame graph, whichever is in front, as it is shown (in the light
 * style) to @file: SVG when its name ends in .svg, else PNG. The file is replaced whole or not
 * at all.
 */
gboolean
suanli_profile_page_export_view (SuanliProfilePage  *self,
                                 GFile              *file,
                                 GError            **error)
{
  if (g_str_equal (gtk_stack_get_visible_child_name (self->views), "flame"))
    return suanli_flame_graph_export (SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (self->flame_view)), file, error);
  return suanli_timeline_export (self->timeline, file, error);
}

static void
on_export_response (GtkNativeDialog   *dialog,
                    int                response,
                    SuanliProfilePage *self)
{
  suanli_profile_use_chosen_file (dialog, response, GTK_WIDGET (self),
                                  (SuanliProfileFileUse) suanli_profile_page_export_view);
}

static void
export_view_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SuanliProfilePage *self = PAGE (widget);
  gboolean flame = g_str_equal (gtk_stack_get_visible_child_name (self->views), "flame");

  if (self->export_dialog == NULL)
    self->export_dialog = suanli_profile_file_dialog_new (widget, _("Export the View"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                          _("_Export"), FALSE, G_CALLBACK (on_export_response), self);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->export_dialog), flame ? "flame-graph.svg" : "timeline.svg");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_dialog));
}

static void
jump_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (PAGE (widget)->timeline), "timeline.jump-to-linked", NULL);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SuanliProfilePage *self = PAGE (widget);

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
}

/**
 * suanli_profile_page_open_live:
 *
 * Live…: the window listing this machine's profilable jobs, one capture of which the page shows
 * growing. Returns: (transfer none): the window, presented.
 */
GtkWindow *
suanli_profile_page_open_live (SuanliProfilePage *self)
{
  if (self->live_dialog == NULL)
    {
      self->live_dialog = GTK_WINDOW (suanli_live_dialog_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                                              suanli_page_get_workspace (SUANLI_PAGE (self))));
      g_object_add_weak_pointer (G_OBJECT (self->live_dialog), (gpointer *) &self->live_dialog);
      gtk_window_set_hide_on_close (self->live_dialog, TRUE);
    }
  else
    suanli_live_dialog_refresh (SUANLI_LIVE_DIALOG (self->live_dialog));
  gtk_window_present (self->live_dialog);
  return self->live_dialog;
}

static void
live_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  suanli_profile_page_open_live (PAGE (widget));
}

/* Installs the page's actions (but Open and Open Recent, which stay by the loading they start) and
 * binds the template's callbacks that belong to them. */
void
_suanli_profile_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "profile.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "profile.previous-match", NULL, previous_match_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "profile.search", NULL);
  gtk_widget_class_install_action (widget_class, "profile.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "profile.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "profile.reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "profile.jump", NULL, jump_action);
  gtk_widget_class_install_action (widget_class, "profile.export-view", NULL, export_view_action);
  gtk_widget_class_install_action (widget_class, "profile.live", NULL, live_action);
  gtk_widget_class_install_action (widget_class, "profile.cancel", NULL, cancel_action);
  gtk_widget_class_bind_template_callback (widget_class, on_use_projection);
}

/* The dialogs the actions opened go with the page. */
void
_suanli_profile_page_actions_dispose (SuanliProfilePage *self)
{
  suanli_profile_file_dialog_destroy (&self->export_dialog);
  if (self->live_dialog != NULL)
    gtk_window_destroy (self->live_dialog);
}
