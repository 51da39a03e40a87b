/* suanli-plan-name-row.c — the plan's name, edited in place: derived until the user types one
 *
 * The row shows the name in effect (suanli_plan_name_dup). A name typed in becomes the plan's own
 * when it is applied (Enter, the apply button, or leaving the row): one merge patch of "name", so
 * one step of the page's undo. An empty name, or the button beside it, removes the member, and the
 * plan is named after its model and hardware again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-plan-name.h"
#include "suanli-plan-name-row.h"

struct _SuanliPlanNameRow
{
  AdwEntryRow  parent_instance;

  SuanliPlan  *plan;
  char        *shown;          /* the name in effect, as last synced */
  GtkWidget   *follow_button;
};

G_DEFINE_FINAL_TYPE (SuanliPlanNameRow, suanli_plan_name_row, ADW_TYPE_ENTRY_ROW)

/* {"name": NAME}, or {"name": null} for NULL. */
static void
apply_name (SuanliPlanNameRow *self,
            const char        *name)
{
  g_autoptr(JsonNode) patch = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  if (name != NULL)
    json_object_set_string_member (object, "name", name);
  else
    json_object_set_null_member (object, "name");
  json_node_take_object (patch, object);
  suanli_plan_apply_merge_patch (self->plan, patch);
}

/* Shows @text without it counting as typed (no apply button for it). */
static void
show_text (SuanliPlanNameRow *self,
           const char        *text)
{
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self), FALSE);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self), text);
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self), TRUE);
}

/* What was typed becomes the plan's name; nothing typed, or only spaces, makes it follow. */
static void
commit (SuanliPlanNameRow *self)
{
  g_autofree char *typed = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self))));

  if (self->plan == NULL || g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self)), self->shown) == 0)
    return;
  if (*typed == '\0')
    {
      if (suanli_plan_name_is_edited (self->plan))
        apply_name (self, NULL);
    }
  else if (g_strcmp0 (typed, suanli_plan_get_name (self->plan)) != 0)
    apply_name (self, typed);
  /* The plan's change synced the row; without one, it still shows what is in effect. */
  show_text (self, self->shown);
}

static void
on_apply (AdwEntryRow *row,
          gpointer     user_data)
{
  commit (SUANLI_PLAN_NAME_ROW (row));
}

/* Leaving the row keeps what was typed, as if applied. */
static void
on_focus_leave (GtkEventControllerFocus *controller,
                gpointer                 user_data)
{
  SuanliPlanNameRow *self = SUANLI_PLAN_NAME_ROW (user_data);

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    commit (self);
}

static void
on_follow_clicked (GtkButton *button,
                   gpointer   user_data)
{
  SuanliPlanNameRow *self = SUANLI_PLAN_NAME_ROW (user_data);

  if (self->plan != NULL)
    apply_name (self, NULL);
}

static void
suanli_plan_name_row_dispose (GObject *object)
{
  SuanliPlanNameRow *self = SUANLI_PLAN_NAME_ROW (object);

  g_clear_object (&self->plan);

  G_OBJECT_CLASS (suanli_plan_name_row_parent_class)->dispose (object);
}

static void
suanli_plan_name_row_finalize (GObject *object)
{
  SuanliPlanNameRow *self = SUANLI_PLAN_NAME_ROW (object);

  g_free (self->shown);

  G_OBJECT_CLASS (suanli_plan_name_row_parent_class)->finalize (object);
}

static void
suanli_plan_name_row_class_init (SuanliPlanNameRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = suanli_plan_name_row_dispose;
  object_class->finalize = suanli_plan_name_row_finalize;
}

static void
suanli_plan_name_row_init (SuanliPlanNameRow *self)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  self->shown = g_strdup ("");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Name"));
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self), TRUE);
  /* The entry inside is what a screen reader lands on. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (self))),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Plan name"), -1);
  /* Enter applies; it comes as "entry-activated" when the row has not counted the text as typed. */
  g_signal_connect (self, "apply", G_CALLBACK (on_apply), NULL);
  g_signal_connect (self, "entry-activated", G_CALLBACK (on_apply), NULL);
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  self->follow_button = gtk_button_new_from_icon_name ("edit-clear-symbolic");
  gtk_widget_set_valign (self->follow_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->follow_button, "flat");
  gtk_widget_set_tooltip_text (self->follow_button, _("Name the plan after its model and hardware"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->follow_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Name the plan after its model and hardware"), -1);
  gtk_widget_set_visible (self->follow_button, FALSE);
  g_signal_connect (self->follow_button, "clicked", G_CALLBACK (on_follow_clicked), self);
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (self), self->follow_button);
}

GtkWidget *
suanli_plan_name_row_new (void)
{
  return g_object_new (SUANLI_TYPE_PLAN_NAME_ROW, NULL);
}

/* Edits go to @plan (held until disposed). */
void
suanli_plan_name_row_set_plan (SuanliPlanNameRow *self,
                               SuanliPlan        *plan)
{
  g_return_if_fail (SUANLI_IS_PLAN_NAME_ROW (self));
  g_return_if_fail (plan == NULL || SUANLI_IS_PLAN (plan));

  g_set_object (&self->plan, plan);
}

/* Shows @name, the name in effect; @edited: whether it is the plan's own, else derived. What the
 * user is typing is left alone. Emits no edits. */
void
suanli_plan_name_row_sync (SuanliPlanNameRow *self,
                           const char        *name,
                           gboolean           edited)
{
  gboolean typing;

  g_return_if_fail (SUANLI_IS_PLAN_NAME_ROW (self));
  g_return_if_fail (name != NULL);

  typing = gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (self)))) &&
           g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self)), self->shown) != 0;
  g_free (self->shown);
  self->shown = g_strdup (name);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), edited ? _("Name")
                                                                    : _("Name, from the model and hardware"));
  gtk_widget_set_visible (self->follow_button, edited);
  if (!typing)
    show_text (self, name);
}

/* Returns: (transfer none): the button that makes the name follow the model and hardware again. */
GtkWidget *
suanli_plan_name_row_get_follow_button (SuanliPlanNameRow *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_NAME_ROW (self), NULL);

  return self->follow_button;
}
