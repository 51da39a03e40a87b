/* test-plan-page.c — the planner in a real window: presets, edits, errors, advice and undo,
 * explanations, comparison, search, files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-advice.h"
#include "suanli-catalog.h"
#include "suanli-plan-inputs.h"
#include "suanli-plan-name-row.h"
#include "suanli-plan-page.h"
#include "suanli-search.h"
#include "suanli-search-window.h"
#include "suanli-import.h"
#include "suanli-test-planner.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef SuanliTestPlanner Fixture;

#define fixture_set_up suanli_test_planner_set_up
#define fixture_tear_down suanli_test_planner_tear_down

static JsonObject *
section (Fixture    *fixture,
         const char *name)
{
  JsonObject *root = suanli_plan_get_root (suanli_workspace_get_plan (fixture->workspace));

  return json_object_has_member (root, name) ? json_object_get_object_member (root, name) : NULL;
}

static void
test_preset_and_edits (Fixture       *fixture,
                       gconstpointer  data)
{
  GtkWidget *tensor = suanli_plan_page_get_editor (fixture->page, "parallelism.tensor");
  double weights_70b;
  GPtrArray *advice;

  /* The planner starts with a plan to look at. */
  g_assert_true (suanli_plan_page_is_valid (fixture->page));
  g_assert_true (suanli_plan_page_get_estimate (fixture->page)->total > 0);

  /* A preset chosen in the form goes into the document, and the results follow. */
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 70B");
  g_assert_cmpstr (json_object_get_string_member (section (fixture, "model"), "preset"), ==, "llama-2-70b");
  g_assert_false (suanli_plan_page_get_estimate (fixture->page)->fits);
  advice = suanli_plan_page_get_advice (fixture->page);
  g_assert_nonnull (advice);
  g_assert_cmpuint (advice->len, >, 0);
  weights_70b = suanli_plan_page_get_estimate (fixture->page)->weights;

  /* A value typed in: 8-way tensor parallelism divides the weights by 8. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tensor), 8);
  g_assert_cmpint (json_object_get_int_member (section (fixture, "parallelism"), "tensor"), ==, 8);
  g_assert_cmpfloat_with_epsilon (suanli_plan_page_get_estimate (fixture->page)->weights, weights_70b / 8, 1);

  /* A value the model cannot take marks its field with the engine's reason. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tensor), 3);
  g_assert_false (suanli_plan_page_is_valid (fixture->page));
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_ancestor (tensor, ADW_TYPE_ACTION_ROW), "error"));
  {
    g_autofree char *reason = g_strdup_printf (_("tensor × pipeline = %g does not divide the %g GPUs"), 3.0, 8.0);
    g_assert_cmpstr (gtk_widget_get_tooltip_text (gtk_widget_get_ancestor (tensor, ADW_TYPE_ACTION_ROW)), ==, reason);
  }
}

static void
test_advice_and_undo (Fixture       *fixture,
                      gconstpointer  data)
{
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;
  g_autofree char *redone = NULL;
  double total_before;

  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 70B");
  before = suanli_plan_to_data (plan);
  total_before = suanli_plan_page_get_estimate (fixture->page)->total;
  g_assert_cmpuint (suanli_plan_page_get_advice (fixture->page)->len, >, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.apply-advice", "u", 0));
  after = suanli_plan_to_data (plan);
  g_assert_cmpstr (before, !=, after);
  g_assert_cmpfloat (suanli_plan_page_get_estimate (fixture->page)->total, <, total_before);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.undo", NULL));
  undone = suanli_plan_to_data (plan);
  g_assert_cmpstr (undone, ==, before);
  g_assert_cmpfloat (suanli_plan_page_get_estimate (fixture->page)->total, ==, total_before);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.redo", NULL));
  redone = suanli_plan_to_data (plan);
  g_assert_cmpstr (redone, ==, after);
}

static void
test_explanation_popover (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *name = g_strdup_printf ("planner-popover-light-%s", suanli_test_language_tag ());
  GtkWidget *card = NULL;
  GtkPopover *popover;
  GtkWidget *text;

  for (GtkWidget *w = suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_FLOW_BOX); card == NULL && w != NULL;)
    {
      GtkWidget *found = suanli_test_find_widget (w, GTK_TYPE_MENU_BUTTON);

      if (found != NULL)
        card = found;
      w = NULL;
    }
  g_assert_nonnull (card);
  gtk_menu_button_popup (GTK_MENU_BUTTON (card));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (card));
  suanli_test_wait_for_frame (GTK_WIDGET (popover));
  text = gtk_popover_get_child (popover);
  /* The formula with the plan's values, and the result. */
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (text)), "="));
  /* The popover is a surface of its own. */
  g_free (suanli_test_screenshot (GTK_WIDGET (popover), name));
  gtk_popover_popdown (popover);
  suanli_test_await_unmapped (GTK_WIDGET (popover));
}

/* The label of an item of @model (or of a section or submenu in it) is @label. */
static gboolean
menu_has_label (GMenuModel *model,
                const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      GMenuModel *linked;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &text) && g_str_equal (text, label))
        return TRUE;
      while (g_menu_link_iter_get_next (links, NULL, &linked))
        {
          gboolean found = menu_has_label (linked, label);

          g_object_unref (linked);
          if (found)
            return TRUE;
        }
    }
  return FALSE;
}

static gboolean
lists_bobs_plan_menu (GtkWidget     *widget,
                      gconstpointer  data)
{
  GMenuModel *model = GTK_IS_MENU_BUTTON (widget) ? gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)) : NULL;

  return model != NULL && menu_has_label (model, "Bob's__plan.suanli-plan");
}

/* Returns: (nullable): the menu button under @root whose menu lists Bob's plan (its underscore
 * doubled: menus read one as a mnemonic). */
static GtkWidget *
button_listing_bobs_plan (GtkWidget *root)
{
  return suanli_test_find_matching (root, lists_bobs_plan_menu, NULL);
}

static gboolean
lists_bobs_plan (GtkWidget *root)
{
  return button_listing_bobs_plan (root) != NULL;
}

/* The recent-plans menu, rebuilt once GTK's recent files have the plan saved as "Bob's plan". */
static gboolean
recent_menu_lists_bobs_plan (gpointer page)
{
  return lists_bobs_plan (GTK_WIDGET (page));
}

static gboolean
has_named_widget (GtkWidget  *root,
                  const char *name)
{
  return suanli_test_find_named (root, name) != NULL;
}

static void
test_compare (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *name = g_strdup_printf ("planner-compare-light-%s", suanli_test_language_tag ());
  GtkWindow *compare;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL));
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "system.accelerator"), "H200 SXM");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (suanli_plan_page_get_editor (fixture->page, "system.nodes")), 2);

  compare = suanli_plan_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  /* Two pinned plans and the current one; the H100 column differs from the current H200 plan. */
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), "H100 SXM"));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Current")));
  g_assert_true (has_named_widget (GTK_WIDGET (compare), "different"));
  g_free (suanli_test_screenshot (GTK_WIDGET (compare), name));

  /* Escape closes it, as GNOME's secondary windows close; Ctrl+W closes the one opened again. */
  g_object_ref (compare);
  suanli_test_key (GTK_WIDGET (compare), "Escape");
  suanli_test_await_unmapped (GTK_WIDGET (compare));
  g_object_unref (compare);
  compare = suanli_plan_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  g_object_ref (compare);
  suanli_test_key (GTK_WIDGET (compare), "ctrl+w");
  suanli_test_await_unmapped (GTK_WIDGET (compare));
  g_object_unref (compare);
}

static gboolean
report_written (gpointer data)
{
  return !suanli_plan_page_is_exporting (data);
}

/* The PDF's text, through poppler's pdftotext. */
static char *
pdf_text (const char *path)
{
  g_autofree char *text = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char *[]) { (char *) "pdftotext", (char *) path, (char *) "-", NULL }, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &text, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&text);
}

/* Export Report… with a pinned plan and the workspace's trace: both are in the PDF. */
static void
test_export_report (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "report.pdf", NULL);
  g_autofree char *trace_path = suanli_test_write_kineto_trace (directory);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) trace_file = g_file_new_for_path (trace_path);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_file (trace, trace_file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  suanli_workspace_set_trace (fixture->workspace, trace);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL));
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "system.accelerator"), "H200 SXM");

  g_assert_true (suanli_plan_page_export_report (fixture->page, file, SUANLI_PAPER_LETTER));
  suanli_test_await (report_written, fixture->page);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  text = pdf_text (path);
  /* The plan as it is now (H200), the pinned one (H100) beside it, and the trace's pages. */
  g_assert_nonnull (strstr (text, "H200 SXM"));
  g_assert_nonnull (strstr (text, _("Compared with pinned plans")));
  g_assert_nonnull (strstr (text, "H100 SXM"));
  g_assert_nonnull (strstr (text, _("Top kernels")));
  g_assert_nonnull (strstr (text, "ampere_sgemm_128x64_tn"));

  g_unlink (trace_path);
  g_unlink (path);
  g_rmdir (directory);
}

/* ---- the plan's name ---------------------------------------------------------------------- */

static SuanliPlanNameRow *
name_row (GtkWidget *root)
{
  GtkWidget *row = suanli_test_find_widget (root, SUANLI_TYPE_PLAN_NAME_ROW);

  g_assert_nonnull (row);
  return SUANLI_PLAN_NAME_ROW (row);
}

/* Types @text into the name row and presses Enter, as a user does. */
static void
type_name (SuanliPlanNameRow *row,
           const char        *text)
{
  GtkEditable *entry = gtk_editable_get_delegate (GTK_EDITABLE (row));

  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (row)));
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (entry, "activate");
}

/* A derived name as the user's language writes it: @workload (taken) on @gpus × H100 SXM. */
static char *
derived_name (char   *workload,
              double  gpus)
{
  g_autofree char *owned = workload;

  return g_strdup_printf (_("%s on %.0f × %s"), owned, gpus, "H100 SXM");
}

/* The name, the page's title and the window's title all say @name. */
static void
assert_named (Fixture    *fixture,
              const char *name)
{
  g_autofree char *title = g_strdup_printf (_("%s — Suanli"), name);

  g_assert_cmpstr (suanli_plan_page_get_plan_name (fixture->page), ==, name);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name_row (GTK_WIDGET (fixture->page)))), ==, name);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, title);
}

static void
screenshot_planner (Fixture    *fixture,
                    const char *what)
{
  g_autofree char *prefix = g_strdup_printf ("planner-%s", what);

  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), prefix);
}

static gboolean
has_popover_up (gpointer area)
{
  GtkWidget *child = gtk_widget_get_first_child (area);

  return GTK_IS_POPOVER (child) && gtk_widget_get_visible (child);
}

static gboolean
plan_does_not_fit (gpointer page)
{
  return !suanli_plan_page_get_estimate (page)->fits;
}

/* Every part of the memory and step bars explains itself when clicked, not only the cards. */
static void
test_bar_parts_explained (Fixture       *fixture,
                          gconstpointer  data)
{
  const struct { const char *area; const char *figure; const char *formula; } parts[] = {
    /* What the formula says in either language. */
    { "memory-area", "memory.weights", "P ÷ (t·p)" },
    { "step-area", "training.compute_s", "FLOPs ÷" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      GtkWidget *area = suanli_test_find_named (GTK_WIDGET (fixture->page), parts[i].area);
      GtkWidget *popover;
      const char *text;

      g_assert_nonnull (area);
      /* The first segment, at the bar's left end, once the bar is drawn. */
      suanli_test_wait_for_frame (area);
      suanli_test_click (area, 4, 6);
      /* The click arrives through the X server: wait for the popover it opens. */
      suanli_test_wait_until (has_popover_up, area, suanli_test_patience_ms ());
      popover = gtk_widget_get_first_child (area);
      g_assert_true (GTK_IS_POPOVER (popover));
      g_assert_cmpstr (gtk_widget_get_name (popover), ==, parts[i].figure);
      g_assert_true (gtk_widget_get_visible (popover));
      text = gtk_label_get_text (GTK_LABEL (gtk_popover_get_child (GTK_POPOVER (popover))));
      g_assert_nonnull (strstr (text, parts[i].formula));
      gtk_popover_popdown (GTK_POPOVER (popover));
    }
}

/* The text a result card shows as its value. */
static const char *
card_value (Fixture    *fixture,
            const char *figure)
{
  GtkWidget *card = suanli_test_find_named (GTK_WIDGET (fixture->page), figure);
  GtkWidget *box;

  g_assert_nonnull (card);
  box = gtk_menu_button_get_child (GTK_MENU_BUTTON (card));
  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (box)));
}

/* The headline is a range from the published runs behind the efficiency model; the plan's own
 * efficiency gives one figure, and an MFU no published run reached is flagged on its card. */
static void
test_headline_range (Fixture       *fixture,
                     gconstpointer  data)
{
  const SuanliEstimate *e = suanli_plan_page_get_estimate (fixture->page);

  g_assert_true (e->efficiency.modelled);
  /* The form says the efficiency is modelled (0), not a made-up figure of its own. */
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (
                       suanli_plan_page_get_editor (fixture->page, "assumptions.compute_efficiency"))), ==, 0);
  g_assert_nonnull (strstr (card_value (fixture, "training.time_to_train_s"), "–"));
  g_assert_false (g_str_has_prefix (card_value (fixture, "training.mfu"), "⚠"));
  screenshot_planner (fixture, "ranges");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (suanli_plan_page_get_editor (fixture->page, "assumptions.compute_efficiency")),
                             0.95);
  e = suanli_plan_page_get_estimate (fixture->page);
  g_assert_false (e->efficiency.modelled);
  g_assert_null (strstr (card_value (fixture, "training.time_to_train_s"), "–"));
  g_assert_true (g_str_has_prefix (card_value (fixture, "training.mfu"), "⚠"));
}

/* The journey a user brings: Llama 2 70B fine-tuned with LoRA on 8 × H100 does not fit; the first
 * suggestion, clicked, makes it fit and says so; the toast's Undo takes it back. */
static void
test_lora_70b_journey (Fixture       *fixture,
                       gconstpointer  data)
{
  GPtrArray *advice;
  SuanliAdvice *first;
  GtkWidget *title, *row, *apply, *undo;
  g_autofree char *applied = NULL;

  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 70B");
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "workload.mode"), _("Fine-tune (LoRA)"));
  g_assert_false (suanli_plan_page_get_estimate (fixture->page)->fits);
  /* No pre-training token budget: hours, not years. */
  g_assert_cmpfloat (suanli_plan_page_get_estimate (fixture->page)->time_to_train_s, <, 2 * 86400);
  advice = suanli_plan_page_get_advice (fixture->page);
  g_assert_cmpuint (advice->len, >, 0);
  first = g_ptr_array_index (advice, 0);
  g_assert_true (first->fits_after);
  for (guint i = 0; i < advice->len; i++)
    g_assert_cmpstr (((SuanliAdvice *) g_ptr_array_index (advice, i))->id, !=, "chinchilla-tokens");

  /* The first row shows what the change does; bring it into view as a user scrolls to it. */
  title = suanli_test_find_label (GTK_WIDGET (fixture->page), first->text);
  g_assert_nonnull (title);
  row = gtk_widget_get_ancestor (title, ADW_TYPE_ACTION_ROW);
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), first->effect));
  apply = suanli_test_find_widget (row, GTK_TYPE_BUTTON);
  gtk_widget_grab_focus (apply);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  screenshot_planner (fixture, "lora-70b-advice");

  applied = g_strdup_printf (_("Applied: %s"), first->text);
  suanli_test_click (apply, gtk_widget_get_width (apply) / 2.0, gtk_widget_get_height (apply) / 2.0);
  suanli_test_await_label (GTK_WIDGET (fixture->window), applied);
  g_assert_true (suanli_plan_page_get_estimate (fixture->page)->fits);
  screenshot_planner (fixture, "lora-70b-applied");

  undo = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->window), _("Undo")), GTK_TYPE_BUTTON);
  g_assert_nonnull (undo);
  suanli_test_click (undo, gtk_widget_get_width (undo) / 2.0, gtk_widget_get_height (undo) / 2.0);
  suanli_test_wait_until (plan_does_not_fit, fixture->page, suanli_test_patience_ms ());
  g_assert_false (suanli_plan_page_get_estimate (fixture->page)->fits);

  /* Applied again, then off to the profiler: the toast stays with the planner. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.apply-advice", "u", 0));
  suanli_test_await_label (GTK_WIDGET (fixture->window), applied);
  suanli_window_show_page (fixture->window, SUANLI_PAGE_PROFILER);
  suanli_test_await_no_label (GTK_WIDGET (fixture->window), applied);
  suanli_window_show_page (fixture->window, SUANLI_PAGE_PLANNER);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_null (suanli_test_find_label (GTK_WIDGET (fixture->window), applied));

  /* And once the plan changes again, its Undo would take back another change: it goes too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.undo", NULL));
  suanli_test_wait_until (plan_does_not_fit, fixture->page, suanli_test_patience_ms ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.apply-advice", "u", 0));
  suanli_test_await_label (GTK_WIDGET (fixture->window), applied);
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 7B");
  suanli_test_await_no_label (GTK_WIDGET (fixture->window), applied);
}

/* A plan is named after its model and hardware until the user names it; the name is one step of
 * undo, and clearing it makes the plan follow again. */
static void
test_name_follows (Fixture       *fixture,
                   gconstpointer  data)
{
  SuanliPlanNameRow *row = name_row (GTK_WIDGET (fixture->page));
  JsonObject *root = suanli_plan_get_root (suanli_workspace_get_plan (fixture->workspace));
  g_autofree char *lora = derived_name (g_strdup_printf (_("%s LoRA"), "Llama 2 70B"), 8);
  g_autofree char *first = derived_name (g_strdup_printf (_("%s training"), "Llama 2 7B"), 8);
  g_autofree char *named = NULL;

  /* The first plan has no name of its own. */
  g_assert_false (json_object_has_member (root, "name"));
  assert_named (fixture, first);
  g_assert_false (gtk_widget_get_visible (suanli_plan_name_row_get_follow_button (row)));

  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 70B");
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "workload.mode"), _("Fine-tune (LoRA)"));
  assert_named (fixture, lora);
  screenshot_planner (fixture, "name-derived");

  /* A name typed in sticks when the model changes. */
  type_name (row, "Fine-tune for Ann ");
  g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, "Fine-tune for Ann");
  assert_named (fixture, "Fine-tune for Ann");
  g_assert_true (gtk_widget_get_visible (suanli_plan_name_row_get_follow_button (row)));
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 13B");
  assert_named (fixture, "Fine-tune for Ann");
  screenshot_planner (fixture, "name-edited");

  /* Undo: the model back, then the name gone and following again; redo brings both back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.undo", NULL));
  assert_named (fixture, "Fine-tune for Ann");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.undo", NULL));
  assert_named (fixture, lora);
  g_assert_false (json_object_has_member (suanli_plan_get_root (suanli_workspace_get_plan (fixture->workspace)),
                                          "name"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.redo", NULL));
  assert_named (fixture, "Fine-tune for Ann");

  /* Leaving the row keeps what was typed; an empty name follows again (not an empty name). */
  gtk_widget_grab_focus (GTK_WIDGET (row));
  gtk_editable_set_text (GTK_EDITABLE (row), "Ann, second try");
  gtk_widget_grab_focus (suanli_plan_page_get_editor (fixture->page, "system.nodes"));
  assert_named (fixture, "Ann, second try");
  type_name (row, "");
  root = suanli_plan_get_root (suanli_workspace_get_plan (fixture->workspace));
  g_assert_false (json_object_has_member (root, "name"));
  assert_named (fixture, lora);

  /* The button beside an edited name does the same. */
  type_name (row, "Fine-tune for Ann");
  g_signal_emit_by_name (suanli_plan_name_row_get_follow_button (row), "clicked");
  assert_named (fixture, lora);
  g_assert_false (gtk_widget_get_visible (suanli_plan_name_row_get_follow_button (row)));
  named = suanli_plan_to_data (suanli_workspace_get_plan (fixture->workspace));
  g_assert_null (strstr (named, "\"name\""));
}

/* Compare and the PDF say the plan's name: the derived one, and the one the user typed. */
static void
test_name_in_compare_and_report (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-name-XXXXXX", NULL);
  g_autofree char *derived_path = g_build_filename (directory, "derived.pdf", NULL);
  g_autofree char *edited_path = g_build_filename (directory, "edited.pdf", NULL);
  g_autoptr(GFile) derived_file = g_file_new_for_path (derived_path);
  g_autoptr(GFile) edited_file = g_file_new_for_path (edited_path);
  g_autofree char *lora = derived_name (g_strdup_printf (_("%s LoRA"), "Llama 2 70B"), 8);
  g_autofree char *derived_text = NULL;
  g_autofree char *edited_text = NULL;
  GtkWindow *compare;

  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "model.preset"), "Llama 2 70B");
  suanli_test_select_choice (suanli_plan_page_get_editor (fixture->page, "workload.mode"), _("Fine-tune (LoRA)"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL));
  type_name (name_row (GTK_WIDGET (fixture->page)), "Fine-tune for Ann");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL));

  /* Pinned columns are headed by the names; an edited one with its system. */
  compare = suanli_plan_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), lora));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), "Fine-tune for Ann\n8 × H100 SXM"));
  gtk_window_destroy (compare);

  g_assert_true (suanli_plan_page_export_report (fixture->page, edited_file, SUANLI_PAPER_A4));
  suanli_test_await (report_written, fixture->page);
  edited_text = pdf_text (edited_path);
  g_assert_nonnull (strstr (edited_text, "Fine-tune for Ann"));

  g_signal_emit_by_name (suanli_plan_name_row_get_follow_button (name_row (GTK_WIDGET (fixture->page))), "clicked");
  g_assert_true (suanli_plan_page_export_report (fixture->page, derived_file, SUANLI_PAPER_A4));
  suanli_test_await (report_written, fixture->page);
  derived_text = pdf_text (derived_path);
  g_assert_nonnull (strstr (derived_text, lora));
  g_assert_null (strstr (derived_text, "Llama 2 7B"));

  g_unlink (edited_path);
  g_unlink (derived_path);
  g_rmdir (directory);
}

/* The suggested file names are the plan's name. */
static void
test_name_suggests_file_names (Fixture       *fixture,
                               gconstpointer  data)
{
  const char *actions[] = { "plan.save-as", "plan.export-report" };
  const char *expected[] = { "Fine-tune for Ann-Bob.suanli-plan", "Fine-tune for Ann-Bob.pdf" };

  type_name (name_row (GTK_WIDGET (fixture->page)), "Fine-tune for Ann/Bob");
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      GListModel *toplevels = gtk_window_get_toplevels ();
      GtkFileChooser *chooser = NULL;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), actions[i], NULL));
      for (guint j = 0; j < g_list_model_get_n_items (toplevels) && chooser == NULL; j++)
        {
          g_autoptr(GObject) window = g_list_model_get_item (toplevels, j);

          if (GTK_IS_FILE_CHOOSER (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
            chooser = GTK_FILE_CHOOSER (window);
        }
      g_assert_nonnull (chooser);
      {
        g_autofree char *name = gtk_file_chooser_get_current_name (chooser);

        g_assert_cmpstr (name, ==, expected[i]);
      }
      gtk_window_close (GTK_WINDOW (chooser));
    }
}

/* Autosave keeps the name, or that the plan follows, exactly: a new window gets both back. */
static void
test_name_autosaved (void)
{
  const char *names[] = { "Fine-tune for Ann", NULL };

  suanli_test_remove_autosave ();
  for (guint round = 0; round < G_N_ELEMENTS (names); round++)
    for (guint open = 0; open < 2; open++)
      {
        g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
        SuanliCatalog *catalog = suanli_catalog_new ();
        SuanliWorkspace *workspace;
        SuanliWindow *window;
        SuanliPlanPage *page;
        SuanliPlanNameRow *row;

        suanli_catalog_load_builtin (catalog, problems);
        workspace = suanli_workspace_new (catalog);
        window = g_object_ref (suanli_window_new (NULL, workspace));
        suanli_window_show_page (window, SUANLI_PAGE_PLANNER);
        gtk_window_present (GTK_WINDOW (window));
        suanli_test_wait_for_frame (GTK_WIDGET (window));
        page = SUANLI_PLAN_PAGE (suanli_window_get_page (window, SUANLI_PAGE_PLANNER));
        row = name_row (GTK_WIDGET (page));
        if (open == 0)
          {
            /* Name it, or make it follow; then the window goes, and its plan is saved. */
            suanli_test_select_choice (suanli_plan_page_get_editor (page, "model.preset"), "Llama 2 70B");
            if (names[round] != NULL)
              type_name (row, names[round]);
            else
              g_signal_emit_by_name (suanli_plan_name_row_get_follow_button (row), "clicked");
          }
        else
          {
            JsonObject *root = suanli_plan_get_root (suanli_workspace_get_plan (workspace));
            g_autofree char *derived = derived_name (g_strdup_printf (_("%s training"), "Llama 2 70B"), 8);

            g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "model"), "preset"),
                             ==, "llama-2-70b");
            g_assert_cmpstr (suanli_plan_page_get_plan_name (page), ==, names[round] != NULL ? names[round] : derived);
            g_assert_true (json_object_has_member (root, "name") == (names[round] != NULL));
            g_assert_true (gtk_widget_get_visible (suanli_plan_name_row_get_follow_button (row)) ==
                           (names[round] != NULL));
          }
        suanli_test_destroy_window (GTK_WINDOW (window));
        g_assert_finalize_object (workspace);
        g_object_unref (catalog);
      }
  suanli_test_remove_autosave ();
}

/* An autosave that cannot be read (json-glib 1.6 wrote 2e17 as "2e+17.0") is put aside whole, not
 * overwritten by the next autosave; the planner starts from its first plan. */
static void
test_unreadable_autosave_kept (void)
{
  static const char old_text[] = "{\n  \"workload\" : {\n    \"tokens\" : 2e+17.0\n  }\n}\n";
  g_autofree char *folder = g_build_filename (g_get_user_state_dir (), "suanli", NULL);
  g_autofree char *path = g_build_filename (folder, "autosave.suanli-plan", NULL);
  g_autofree char *aside = g_strconcat (path, ".unreadable", NULL);
  g_autofree char *kept = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_unlink (aside);
  g_assert_true (g_file_set_contents (path, old_text, -1, NULL));
  suanli_plan_page_start_plan (plan);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, old_text);
  g_assert_true (json_object_has_member (suanli_plan_get_root (plan), "model"));
  g_unlink (aside);
}

/* The rows of Find Configurations' results, in order. */
static GPtrArray *
search_rows (GtkWindow *search)
{
  GtkWidget *list = suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "results");
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_ACTION_ROW (row))
      g_ptr_array_add (rows, row);
  return rows;
}

/* Screenshots of @search, light and dark; with @prices, its list of prices open and scrolled to. */
static void
search_screenshot (GtkWindow  *search,
                   const char *name,
                   gboolean    prices)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkWidget *row = suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "prices");

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), prices);
  for (int dark = 0; dark <= 1; dark++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s-%s", name, dark ? "dark" : "light", suanli_test_language_tag ());
      GtkAdjustment *scroll = gtk_scrolled_window_get_vadjustment (
        GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW)));
      graphene_point_t top = GRAPHENE_POINT_INIT (0, 0);

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      gtk_adjustment_set_value (scroll, 0);
      suanli_test_wait_for_frame (GTK_WIDGET (search));
      /* Scrolled to the prices' group, its title in sight. */
      if (prices && gtk_widget_compute_point (row, gtk_widget_get_ancestor (row, GTK_TYPE_VIEWPORT),
                                              &GRAPHENE_POINT_INIT (0, 0), &top))
        {
          gtk_adjustment_set_value (scroll, top.y - 120);
          suanli_test_wait_for_frame (GTK_WIDGET (search));
        }
      g_free (suanli_test_screenshot (GTK_WIDGET (search), file));
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), FALSE);
}

/* Find Configurations as a user meets it: every accelerator at its own price (none at the plan's
 * 2.5), the hardware named, the accelerator fixed, a price set, a result applied. */
static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  const char *ids[] = { "nvidia-", "aws-", "azure-", "gcp-" };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GPtrArray) rows = NULL;
  GtkWindow *search;
  GArray *results;
  SuanliSearchResult *best = NULL;
  GtkWidget *apply;
  GtkWidget *mi325x_price;

  g_settings_reset (settings, "accelerator-prices");
  search = suanli_plan_page_open_search (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (search));
  results = suanli_search_window_get_results (SUANLI_SEARCH_WINDOW (search));
  g_assert_nonnull (results);
  g_assert_cmpuint (results->len, >, 0);
  /* The front is non-dominated, and nothing is priced at the plan's own price. */
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *a = &g_array_index (results, SuanliSearchResult, i);

      g_assert_cmpfloat (a->price_per_gpu_hour, !=, 2.5);
      if (a->dominated)
        continue;
      for (guint j = 0; j < results->len; j++)
        {
          SuanliSearchResult *b = &g_array_index (results, SuanliSearchResult, j);

          g_assert_false (b->time_to_train_s <= a->time_to_train_s && b->cost <= a->cost &&
                          (b->time_to_train_s < a->time_to_train_s || b->cost < a->cost));
        }
    }
  /* Accelerators without an offer are left out, and the window says so. */
  {
    SuanliSearchConstraints constraints = { 0, 0, 1024, FALSE };
    SuanliPlanInputs in;
    g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    g_autoptr(GPtrArray) left_out = NULL;
    g_autofree char *note = NULL;
    GtkWidget *label;

    g_assert_true (suanli_plan_inputs_resolve (suanli_workspace_get_plan (fixture->workspace), fixture->catalog, &in,
                                               errors, warnings));
    left_out = suanli_search_left_out (&in, fixture->catalog, &constraints);
    g_assert_cmpuint (left_out->len, >, 0);
    note = g_strdup_printf (ngettext ("%u accelerator without a price in %s was left out: set a price for it under "
                                      "Prices to compare it.",
                                      "%u accelerators without a price in %s were left out: set a price for them "
                                      "under Prices to compare them.", left_out->len),
                            left_out->len, "USD");
    label = suanli_test_find_label (GTK_WIDGET (search), note);
    g_assert_nonnull (label);
    g_assert_true (gtk_widget_get_mapped (label));
  }

  /* Fix the accelerator: every row names it, none shows an id. */
  suanli_test_select_choice (suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "accelerator"), "A100 80GB SXM");
  rows = search_rows (search);
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const char *title = adw_preferences_row_get_title (g_ptr_array_index (rows, i));
      const char *subtitle = adw_action_row_get_subtitle (g_ptr_array_index (rows, i));

      g_assert_nonnull (strstr (title, "A100 80GB SXM"));
      /* Priced from its cheapest offer, the Azure ND96amsr A100 v4, and named so. */
      g_assert_nonnull (strstr (subtitle, "4.10"));
      for (guint j = 0; j < G_N_ELEMENTS (ids); j++)
        {
          g_assert_null (strstr (title, ids[j]));
          g_assert_null (strstr (subtitle, ids[j]));
        }
    }
  results = suanli_search_window_get_results (SUANLI_SEARCH_WINDOW (search));
  for (guint i = 0; i < results->len; i++)
    g_assert_cmpstr (g_array_index (results, SuanliSearchResult, i).accelerator_id, ==, "nvidia-a100-80gb-sxm");

  /* A price typed for the MI325X, which has no offer, is kept in settings and brings it in. */
  suanli_test_select_choice (suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "accelerator"), "Instinct MI325X");
  g_assert_cmpuint (suanli_search_window_get_results (SUANLI_SEARCH_WINDOW (search))->len, ==, 0);
  mi325x_price = suanli_search_window_get_price_field (SUANLI_SEARCH_WINDOW (search), "amd-mi325x");
  g_assert_nonnull (mi325x_price);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (mi325x_price), 3.2);
  {
    g_autoptr(GVariant) prices = g_settings_get_value (settings, "accelerator-prices");
    double price = 0;
    const char *currency = NULL;

    g_assert_true (g_variant_lookup (prices, "amd-mi325x", "(d&s)", &price, &currency));
    g_assert_cmpfloat (price, ==, 3.2);
    g_assert_cmpstr (currency, ==, "USD");
  }
  results = suanli_search_window_get_results (SUANLI_SEARCH_WINDOW (search));
  g_assert_cmpuint (results->len, >, 0);
  for (guint i = 0; i < results->len; i++)
    {
      g_assert_cmpfloat (g_array_index (results, SuanliSearchResult, i).price_per_gpu_hour, ==, 3.2);
      g_assert_cmpint (g_array_index (results, SuanliSearchResult, i).price_source, ==, SUANLI_SEARCH_PRICE_USER);
    }
  /* Applying the first row (the fastest of the front) sets the plan's system and its price. */
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = search_rows (search);
  g_assert_cmpuint (rows->len, >, 0);
  best = &g_array_index (results, SuanliSearchResult, 0);
  g_assert_false (best->dominated);
  apply = suanli_test_find_widget (g_ptr_array_index (rows, 0), GTK_TYPE_BUTTON);
  g_assert_nonnull (apply);
  g_signal_emit_by_name (apply, "clicked");
  g_assert_cmpstr (json_object_get_string_member (section (fixture, "system"), "accelerator"), ==, "amd-mi325x");
  g_assert_cmpfloat (json_object_get_double_member (section (fixture, "assumptions"), "price_per_gpu_hour"), ==, 3.2);
  g_assert_cmpfloat_with_epsilon (suanli_plan_page_get_estimate (fixture->page)->time_to_train_s,
                                  best->time_to_train_s, best->time_to_train_s * 1e-9);
  /* …and can be undone like any other change. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.undo", NULL));
  g_assert_cmpstr (json_object_get_string_member (section (fixture, "system"), "accelerator"), ==, "nvidia-h100-sxm");

  /* Any accelerator again: the MI325X at its new price among those priced from their offers. */
  suanli_test_select_choice (suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "accelerator"), _("Any"));
  search_screenshot (search, "planner-search", FALSE);
  search_screenshot (search, "planner-search-prices", TRUE);

  gtk_window_destroy (search);
  g_settings_reset (settings, "accelerator-prices");
}

static void
test_files (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plans-XXXXXX", NULL);
  g_autoptr(GFile) file = g_file_new_build_filename (directory, "mine.suanli-plan", NULL);
  g_autoptr(GFile) bad = g_file_new_build_filename (directory, "bad.suanli-plan", NULL);
  g_autoptr(GError) error = NULL;
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  g_autofree char *saved = NULL;
  g_autofree char *after_bad = NULL;

  g_assert_true (suanli_plan_page_save_file (fixture->page, file, &error));
  g_assert_no_error (error);
  saved = suanli_plan_to_data (plan);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (suanli_plan_page_get_editor (fixture->page, "system.nodes")), 4);

  /* A broken file is refused with its position, and the plan stays as it was. */
  g_assert_true (g_file_replace_contents (bad, "{\"model\": ", 10, NULL, FALSE, 0, NULL, NULL, NULL));
  g_assert_false (suanli_plan_page_load_file (fixture->page, bad, &error));
  g_assert_nonnull (strstr (error->message, "bad.suanli-plan:1:"));
  g_clear_error (&error);
  after_bad = suanli_plan_to_data (plan);
  g_assert_nonnull (strstr (after_bad, "\"nodes\" : 4"));

  g_assert_true (suanli_plan_page_load_file (fixture->page, file, &error));
  g_assert_no_error (error);
  {
    g_autofree char *reloaded = suanli_plan_to_data (plan);
    g_assert_cmpstr (reloaded, ==, saved);
  }
  /* A name with an apostrophe and an underscore goes into the recent plans without breaking their
   * menu, and the menu shows it as it is written. */
  {
    g_autoptr(GFile) quoted = g_file_new_build_filename (directory, "Bob's_plan.suanli-plan", NULL);
    GtkWidget *button;

    g_assert_true (suanli_plan_page_save_file (fixture->page, quoted, &error));
    suanli_test_await (recent_menu_lists_bobs_plan, fixture->page);
    button = button_listing_bobs_plan (GTK_WIDGET (fixture->page));
    gtk_menu_button_popup (GTK_MENU_BUTTON (button));
    suanli_test_settle (GTK_WIDGET (fixture->window));
    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))),
                                              "Bob's_plan.suanli-plan"));
    gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
    g_file_delete (quoted, NULL, NULL);
  }
  g_file_delete (file, NULL, NULL);
  g_file_delete (bad, NULL, NULL);
  g_rmdir (directory);
}

/* A plan that fails to open (1e999 tokens reads as infinity) leaves the plan shown and the file Save
 * writes as they were, and Save then writes nothing to it; a plan at the edge of the ranges (2e17
 * tokens, which json-glib 1.6 wrote as "2e+17.0") opens, saves and reads back; a save keeps the
 * file's mode. */
static void
test_open_failure_keeps_save (Fixture       *fixture,
                              gconstpointer  data)
{
  static const char bad_text[] = "{\"workload\": {\"tokens\": 1e999}}";
  static const char big_text[] = "{\"schema\": \"suanli-plan/1\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                 " \"workload\": {\"tokens\": 2e17}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}";
  g_autofree char *directory = g_dir_make_tmp ("suanli-plans-XXXXXX", NULL);
  g_autofree char *mine_path = g_build_filename (directory, "mine.suanli-plan", NULL);
  g_autofree char *bad_path = g_build_filename (directory, "bad.suanli-plan", NULL);
  g_autofree char *big_path = g_build_filename (directory, "big.suanli-plan", NULL);
  g_autoptr(GFile) mine = g_file_new_for_path (mine_path);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  g_autoptr(GFile) big = g_file_new_for_path (big_path);
  g_autoptr(GError) error = NULL;
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  g_autofree char *shown = NULL;
  g_autofree char *after = NULL;
  g_autofree char *mine_name = g_file_get_parse_name (mine);
  struct stat info;

  g_assert_true (suanli_plan_page_save_file (fixture->page, mine, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (mine_path, 0600), ==, 0);
  shown = suanli_plan_to_data (plan);

  g_assert_true (g_file_set_contents (bad_path, bad_text, -1, NULL));
  g_assert_false (suanli_plan_page_load_file (fixture->page, bad, &error));
  g_assert_nonnull (strstr (error->message, "bad.suanli-plan"));
  g_assert_nonnull (strstr (error->message, "workload.tokens"));
  g_clear_error (&error);
  after = suanli_plan_to_data (plan);
  g_assert_cmpstr (after, ==, shown);
  g_assert_true (g_file_equal (suanli_plan_page_get_file (fixture->page), mine));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), mine_name));

  /* Save writes the plan shown to the file shown, nothing to the one that failed, and keeps the
   * mode of the file it replaces. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (suanli_plan_page_get_editor (fixture->page, "system.nodes")), 4);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.save", NULL));
  {
    g_autofree char *bad_now = NULL;
    g_autofree char *mine_now = NULL;
    g_autofree char *expected = suanli_plan_to_data (plan);

    g_assert_true (g_file_get_contents (bad_path, &bad_now, NULL, NULL));
    g_assert_cmpstr (bad_now, ==, bad_text);
    g_assert_true (g_file_get_contents (mine_path, &mine_now, NULL, NULL));
    g_assert_cmpstr (mine_now, ==, expected);
    g_assert_nonnull (strstr (mine_now, "\"nodes\" : 4"));
  }
  g_assert_cmpint (g_stat (mine_path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);

  /* 2e17 tokens is inside the range: the plan opens, is shown, and saves as JSON that reads back. */
  g_assert_true (g_file_set_contents (big_path, big_text, -1, NULL));
  g_assert_true (suanli_plan_page_load_file (fixture->page, big, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_equal (suanli_plan_page_get_file (fixture->page), big));
  g_assert_cmpfloat (json_object_get_double_member (section (fixture, "workload"), "tokens"), ==, 2e17);
  g_assert_true (suanli_plan_page_is_valid (fixture->page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.save", NULL));
  {
    g_autofree char *saved = NULL;
    g_autofree char *expected = suanli_plan_to_data (plan);
    g_autoptr(SuanliPlan) reread = NULL;
    g_autofree char *reread_text = NULL;

    g_assert_true (g_file_get_contents (big_path, &saved, NULL, NULL));
    g_assert_cmpstr (saved, ==, expected);
    g_assert_nonnull (strstr (saved, "\"tokens\" : 2e+17\n"));
    reread = suanli_plan_new_from_file (big, &error);
    g_assert_no_error (error);
    reread_text = suanli_plan_to_data (reread);
    g_assert_cmpstr (reread_text, ==, saved);
  }

  g_unlink (mine_path);
  g_unlink (bad_path);
  g_unlink (big_path);
  g_rmdir (directory);
}

/* The application loads its catalog in a thread: a page made before it arrives, and the catalog
 * replaced twice after (a reload), still edits the plan and offers the catalog's choices. */
static void
test_catalog_arrives_later (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SuanliCatalog) loaded = suanli_catalog_new ();
  SuanliCatalog *catalog = suanli_catalog_new ();
  SuanliWorkspace *workspace = suanli_workspace_new (catalog);
  SuanliWindow *window = g_object_ref (suanli_window_new (NULL, workspace));
  SuanliPlanPage *page;
  GtkWidget *nodes;

  suanli_test_remove_autosave ();
  gtk_window_present (GTK_WINDOW (window));
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  page = SUANLI_PLAN_PAGE (suanli_window_get_page (window, SUANLI_PAGE_PLANNER));

  suanli_catalog_load_builtin (loaded, problems);
  suanli_catalog_replace_all (catalog, loaded);
  suanli_catalog_replace_all (catalog, loaded);
  g_assert_true (suanli_plan_page_is_valid (page));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (
                      GTK_DROP_DOWN (suanli_plan_page_get_editor (page, "model.preset")))), >, 10);
  nodes = suanli_plan_page_get_editor (page, "system.nodes");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (nodes), 3);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                     suanli_plan_get_root (suanli_workspace_get_plan (workspace)), "system"), "nodes"), ==, 3);

  suanli_test_destroy_window (GTK_WINDOW (window));
  g_assert_finalize_object (workspace);
  g_object_unref (catalog);
  suanli_test_remove_autosave ();
}

int
main (int   argc,
      char *argv[])
{
  suanli_test_init_gtk (&argc, &argv);

  g_test_add ("/plan-page/preset-and-edits", Fixture, NULL, fixture_set_up, test_preset_and_edits, fixture_tear_down);
  g_test_add ("/plan-page/advice-and-undo", Fixture, NULL, fixture_set_up, test_advice_and_undo, fixture_tear_down);
  g_test_add ("/plan-page/explanation-popover", Fixture, NULL, fixture_set_up, test_explanation_popover,
              fixture_tear_down);
  g_test_add ("/plan-page/compare", Fixture, NULL, fixture_set_up, test_compare, fixture_tear_down);
  g_test_add ("/plan-page/search", Fixture, NULL, fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/plan-page/files", Fixture, NULL, fixture_set_up, test_files, fixture_tear_down);
  g_test_add ("/plan-page/open-failure-keeps-save", Fixture, NULL, fixture_set_up, test_open_failure_keeps_save,
              fixture_tear_down);
  g_test_add ("/plan-page/export-report", Fixture, NULL, fixture_set_up, test_export_report, fixture_tear_down);
  g_test_add_func ("/plan-page/catalog-arrives-later", test_catalog_arrives_later);
  g_test_add ("/plan-page/bar-parts-explained", Fixture, NULL, fixture_set_up, test_bar_parts_explained, fixture_tear_down);
  g_test_add ("/plan-page/headline-range", Fixture, NULL, fixture_set_up, test_headline_range, fixture_tear_down);
  g_test_add ("/plan-page/lora-70b-journey", Fixture, NULL, fixture_set_up, test_lora_70b_journey, fixture_tear_down);
  g_test_add ("/plan-page/name-follows", Fixture, NULL, fixture_set_up, test_name_follows, fixture_tear_down);
  g_test_add ("/plan-page/name-in-compare-and-report", Fixture, NULL, fixture_set_up, test_name_in_compare_and_report,
              fixture_tear_down);
  g_test_add ("/plan-page/name-suggests-file-names", Fixture, NULL, fixture_set_up, test_name_suggests_file_names,
              fixture_tear_down);
  g_test_add_func ("/plan-page/name-autosaved", test_name_autosaved);
  g_test_add_func ("/plan-page/unreadable-autosave-kept", test_unreadable_autosave_kept);

  return g_test_run ();
}
