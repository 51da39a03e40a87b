/* test-plan-form.c — the planner's form in a real window, driven through the X server: the model
 * fields feed every figure, the wheel scrolls, Ctrl+Z undoes the plan, refused input says why,
 * pins, the comparison of training and serving plans, the choices and the advice's words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-advice.h"
#include "suanli-catalog.h"
#include "suanli-plan-page.h"
#include "suanli-search.h"
#include "suanli-search-window.h"
#include "suanli-test-planner.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef SuanliTestPlanner Fixture;

#define fixture_set_up suanli_test_planner_set_up
#define fixture_tear_down suanli_test_planner_tear_down

static SuanliPlan *
plan (Fixture *fixture)
{
  return suanli_workspace_get_plan (fixture->workspace);
}

static JsonObject *
section (Fixture    *fixture,
         const char *name)
{
  JsonObject *root = suanli_plan_get_root (plan (fixture));

  return json_object_has_member (root, name) ? json_object_get_object_member (root, name) : NULL;
}

static GtkWidget *
editor (Fixture    *fixture,
        const char *field)
{
  GtkWidget *widget = suanli_plan_page_get_editor (fixture->page, field);

  g_assert_nonnull (widget);
  return widget;
}

static const SuanliEstimate *
estimate (Fixture *fixture)
{
  return suanli_plan_page_get_estimate (fixture->page);
}

/* A member of the plan's model section to wait for: its value, or its absence (value < 0). */
typedef struct
{
  Fixture    *fixture;
  const char *key;
  double      value;
} ModelMember;

static gboolean
model_member_is (gpointer data)
{
  ModelMember *member = data;
  JsonObject *model = section (member->fixture, "model");
  gboolean has = model != NULL && json_object_has_member (model, member->key);

  if (member->value < 0)
    return !has;
  return has && json_object_get_double_member (model, member->key) == member->value;
}

typedef struct
{
  GtkWidget  *row;
  const char *text;
} Subtitle;

static gboolean
subtitle_says (gpointer data)
{
  Subtitle *subtitle = data;
  const char *shown = adw_action_row_get_subtitle (ADW_ACTION_ROW (subtitle->row));

  return shown != NULL && strstr (shown, subtitle->text) != NULL;
}

/* Clicks into the text of the number @field, selects it all and types @keys (xdotool key names),
 * then Return: as a person edits a field. */
static void
type_into (Fixture            *fixture,
           const char         *field,
           const char * const *keys)
{
  GtkWidget *text = suanli_test_find_widget (editor (fixture, field), GTK_TYPE_TEXT);

  g_assert_nonnull (text);
  suanli_test_click (text, 8, gtk_widget_get_height (text) / 2.0);
  suanli_test_press ((const char *[]) { "ctrl+a", NULL });
  suanli_test_press (keys);
  suanli_test_press ((const char *[]) { "Return", NULL });
}

/* Item 4: every model field feeds every figure; a preset changed is a custom model, and choosing
 * the preset again gives it whole. */
static void
test_model_fields (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *preset = editor (fixture, "model.preset");
  double step_70b, weights_70b;

  suanli_test_select_choice (preset, "Llama 2 70B");
  step_70b = estimate (fixture)->step_time_s;
  weights_70b = estimate (fixture)->weights;
  g_assert_nonnull (strstr (suanli_plan_page_get_plan_name (fixture->page), "Llama 2 70B"));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor (fixture, "model.parameters")), 13);
  g_assert_cmpfloat (estimate (fixture)->weights, <, weights_70b / 4);
  g_assert_cmpfloat (estimate (fixture)->step_time_s, <, step_70b / 3);
  g_assert_null (strstr (suanli_plan_page_get_plan_name (fixture->page), "Llama 2 70B"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (preset)), ==, 0);

  /* Half the layers: the count follows the architecture, and so does the step. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor (fixture, "model.parameters")), 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor (fixture, "model.layers")), 40);
  g_assert_cmpfloat (estimate (fixture)->weights, <, weights_70b * 0.55);
  g_assert_cmpfloat (estimate (fixture)->step_time_s, <, step_70b * 0.6);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (preset)), ==, 0);

  /* The preset chosen again is the preset, whole. */
  suanli_test_select_choice (preset, "Llama 2 70B");
  g_assert_false (json_object_has_member (section (fixture, "model"), "layers"));
  g_assert_cmpfloat (estimate (fixture)->step_time_s, ==, step_70b);

  /* Custom keeps the model shown, its values now the plan's own to edit. */
  suanli_test_select_choice (preset, _("Custom (the fields below)"));
  g_assert_false (json_object_has_member (section (fixture, "model"), "preset"));
  g_assert_cmpfloat (json_object_get_double_member (section (fixture, "model"), "layers"), ==, 80);
  g_assert_cmpfloat_with_epsilon (estimate (fixture)->step_time_s, step_70b, step_70b * 1e-9);
}

/* Item 6: the mouse wheel over a number scrolls the form and changes no value. */
static void
test_wheel_scrolls (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *spin = editor (fixture, "model.layers");
  GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled);
  g_autofree char *before = suanli_plan_to_data (plan (fixture));
  g_autofree char *after = NULL;
  double top = gtk_adjustment_get_value (adjustment);

  suanli_test_scroll (spin, 8, gtk_widget_get_height (spin) / 2.0, 1);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  after = suanli_plan_to_data (plan (fixture));
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, top);
}

/* Item 6: Ctrl+Z in the number just typed undoes the plan's value, not only its text. */
static void
test_undo_in_field (Fixture       *fixture,
                    gconstpointer  data)
{
  ModelMember forty = { fixture, "layers", 40 }, gone = { fixture, "layers", -1 };
  GtkWidget *text;

  g_assert_true (model_member_is (&gone));
  type_into (fixture, "model.layers", (const char *[]) { "4", "0", NULL });
  suanli_test_await (model_member_is, &forty);

  text = suanli_test_find_widget (editor (fixture, "model.layers"), GTK_TYPE_TEXT);
  g_assert_true (gtk_widget_has_focus (text));
  suanli_test_press ((const char *[]) { "ctrl+z", NULL });
  g_assert_true (suanli_test_wait_until (model_member_is, &gone, suanli_test_patience_ms ()));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (editor (fixture, "model.layers"))), ==, 32);
}

/* Item 6: letters and a negative number are refused with a message; the plan keeps its value. */
static void
test_refused_input (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *row = gtk_widget_get_ancestor (editor (fixture, "workload.seq_len"), ADW_TYPE_ACTION_ROW);
  Subtitle letters = { row, "abc" }, negative = { row, "-5" };
  g_autofree char *before = suanli_plan_to_data (plan (fixture));
  g_autofree char *after = NULL;
  GtkWidget *spin = editor (fixture, "workload.seq_len");

  /* The field must be on screen to be typed in. */
  gtk_widget_grab_focus (spin);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  type_into (fixture, "workload.seq_len", (const char *[]) { "a", "b", "c", NULL });
  suanli_test_await (subtitle_says, &letters);
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  type_into (fixture, "workload.seq_len", (const char *[]) { "minus", "5", NULL });
  suanli_test_await (subtitle_says, &negative);
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "planner-form-refused");
  after = suanli_plan_to_data (plan (fixture));
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 4096);
}

/* Item 6: a pin past Compare's room says which pin goes. */
static void
test_fifth_pin (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *first = g_strdup (suanli_plan_page_get_plan_name (fixture->page));
  g_autofree char *expected = NULL;

  /* Four plans, on 1, 2, 4 and 8 nodes. */
  for (int nodes = 1; nodes <= 8; nodes *= 2)
    {
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor (fixture, "system.nodes")), nodes);
      g_assert_true (suanli_plan_page_is_valid (fixture->page));
      gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL);
    }
  expected = g_strdup_printf (ngettext ("Pinned. Compare keeps %d pin: “%s” was unpinned",
                                        "Pinned. Compare keeps %d pins: the oldest, “%s”, was unpinned", 3), 3, first);
  suanli_test_await_label (GTK_WIDGET (fixture->window), expected);
}

static gboolean
shows_zero (GtkWidget     *widget,
            gconstpointer  data)
{
  const char *text = GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget)) : "";

  return g_str_equal (text, "0%") || g_str_has_prefix (text, "0 USD") || g_str_has_prefix (text, "0 kWh") ||
         g_str_has_prefix (text, "0 Wh");
}

/* Item 5: a serving plan beside a training one: tables of their own, serving's own figures, no
 * "MFU 0%", "0 USD" or "0 kWh". */
static void
test_compare_serving (Fixture       *fixture,
                      gconstpointer  data)
{
  GtkWindow *compare;

  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL);
  suanli_test_select_choice (editor (fixture, "workload.mode"), _("Inference"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "plan.pin", NULL);
  suanli_test_select_choice (editor (fixture, "system.accelerator"), "H200 SXM");
  compare = suanli_plan_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));

  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Training and fine-tuning")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Serving")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Requests per second")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Cost per million tokens")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (compare), _("Energy per million tokens")));
  g_assert_null (suanli_test_find_matching (GTK_WIDGET (compare), shows_zero, NULL));
  suanli_test_screenshot_styles (GTK_WIDGET (compare), "planner-compare-serving");
  gtk_window_destroy (compare);
}

static gboolean
runs_action (GtkWidget     *widget,
             gconstpointer  action)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* Find Configurations on the page's serving plan: every result serves, the front is one of requests
 * per second against cost an hour, the rows say so, and the deadline does not apply. */
static void
assert_serving_search (Fixture *fixture)
{
  GtkWindow *search = suanli_plan_page_open_search (fixture->page);
  GArray *results;
  GtkWidget *list;
  guint rows = 0;

  suanli_test_wait_for_frame (GTK_WIDGET (search));
  results = suanli_search_window_get_results (SUANLI_SEARCH_WINDOW (search));
  g_assert_cmpuint (results->len, >, 0);
  for (guint i = 0; i < results->len; i++)
    {
      const SuanliSearchResult *a = &g_array_index (results, SuanliSearchResult, i);

      g_assert_true (a->serving);
      g_assert_cmpfloat (a->requests_per_s, >, 0);
      g_assert_cmpfloat (a->cost_per_hour, ==, a->gpus_per_node * a->nodes * a->price_per_gpu_hour);
      for (guint j = 0; j < results->len && !a->dominated; j++)
        {
          const SuanliSearchResult *b = &g_array_index (results, SuanliSearchResult, j);

          g_assert_false (b->cost_per_hour <= a->cost_per_hour && b->requests_per_s >= a->requests_per_s &&
                          (b->cost_per_hour < a->cost_per_hour || b->requests_per_s > a->requests_per_s));
        }
    }
  /* The rows are the front's, in order, each with its requests per second and cost per million tokens. */
  list = suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "results");
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_ACTION_ROW (row))
      {
        const SuanliSearchResult *r = NULL;
        g_autofree char *rate = NULL;
        g_autofree char *per_million = NULL;

        for (guint i = 0, front = 0; i < results->len && r == NULL; i++)
          if (!g_array_index (results, SuanliSearchResult, i).dominated && front++ == rows)
            r = &g_array_index (results, SuanliSearchResult, i);
        g_assert_nonnull (r);
        rate = g_strdup_printf ("%.3g", r->requests_per_s);
        per_million = g_strdup_printf ("%.3g", r->cost_per_million_tokens);
        g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), rate));
        g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), per_million));
        rows++;
      }
  g_assert_cmpuint (rows, >, 0);
  g_assert_false (gtk_widget_is_sensitive (gtk_widget_get_ancestor (
    suanli_search_window_get_control (SUANLI_SEARCH_WINDOW (search), "deadline"), ADW_TYPE_ACTION_ROW)));
  suanli_test_screenshot_styles (GTK_WIDGET (search), "planner-search-serving");
  gtk_window_destroy (search);
}

/* Item 8: choices uncut and searchable; Find Configurations says why it is greyed out; advice names
 * its techniques in the user's language. */
static void
test_choices_and_words (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *preset = editor (fixture, "model.preset");
  GtkWidget *accelerator = editor (fixture, "system.accelerator");
  GtkWidget *custom, *find;

  suanli_test_select_choice (preset, _("Custom (the fields below)"));
  suanli_test_settle (GTK_WIDGET (fixture->window));
  custom = suanli_test_find_label (gtk_widget_get_ancestor (preset, ADW_TYPE_ACTION_ROW), _("Custom (the fields below)"));
  g_assert_nonnull (custom);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (custom))));
  g_assert_true (GTK_IS_DROP_DOWN (accelerator));
  g_assert_true (gtk_drop_down_get_enable_search (GTK_DROP_DOWN (accelerator)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (accelerator))), >, 30);

  /* A serving plan is searched too (issue 33): configurations that serve it, with their requests per
   * second and cost an hour, the front of one against the other. */
  suanli_test_select_choice (editor (fixture, "workload.mode"), _("Inference"));
  suanli_test_settle (GTK_WIDGET (fixture->window));
  find = suanli_test_find_matching (GTK_WIDGET (fixture->page), runs_action, "plan.find");
  g_assert_nonnull (find);
  g_assert_true (gtk_widget_is_sensitive (find));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (find), ==,
                   _("Search accelerators, GPU counts and tensor parallelism that serve this plan's requests per second, "
                     "cheapest an hour first"));
  assert_serving_search (fixture);

  /* The 70B LoRA journey on 8 × H100: its advice, with the techniques named in the user's words. */
  suanli_test_select_choice (preset, "Llama 2 70B");
  suanli_test_select_choice (editor (fixture, "workload.mode"), _("Fine-tune (LoRA)"));
  suanli_test_settle (GTK_WIDGET (fixture->window));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page),
                                            suanli_advice_technique_title ("tensor-parallelism")));
  if (g_str_equal (suanli_test_language_tag (), "zh_CN"))
    {
      g_assert_null (suanli_test_find_label (GTK_WIDGET (fixture->page), "Tensor parallelism"));
      g_assert_null (suanli_test_find_label (GTK_WIDGET (fixture->page), "ZeRO-Offload)"));
    }
}

int
main (int   argc,
      char *argv[])
{
  suanli_test_init_gtk (&argc, &argv);

  g_test_add ("/plan-form/model-fields", Fixture, NULL, fixture_set_up, test_model_fields, fixture_tear_down);
  g_test_add ("/plan-form/wheel-scrolls", Fixture, NULL, fixture_set_up, test_wheel_scrolls, fixture_tear_down);
  g_test_add ("/plan-form/undo-in-field", Fixture, NULL, fixture_set_up, test_undo_in_field, fixture_tear_down);
  g_test_add ("/plan-form/refused-input", Fixture, NULL, fixture_set_up, test_refused_input, fixture_tear_down);
  g_test_add ("/plan-form/fifth-pin", Fixture, NULL, fixture_set_up, test_fifth_pin, fixture_tear_down);
  g_test_add ("/plan-form/compare-serving", Fixture, NULL, fixture_set_up, test_compare_serving, fixture_tear_down);
  g_test_add ("/plan-form/choices-and-words", Fixture, NULL, fixture_set_up, test_choices_and_words,
              fixture_tear_down);
  return g_test_run ();
}
