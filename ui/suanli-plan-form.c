/* suanli-plan-form.c — the planner's form: every field of a plan, edited in place
 *
 * The fields are a table: each names its dotted path in the plan document, how it is edited and
 * its range. An edit becomes a JSON Merge Patch of that one member; the plan then emits "changed"
 * and the page re-estimates and calls suanli_plan_form_sync(), which shows the values in effect
 * (defaults included) and marks the fields that have errors, with the engine's message.
 *
 * The form changes nothing the user did not mean to change: the mouse wheel over a number scrolls
 * the form, never the number; Ctrl+Z in a number is the plan's undo (the field keeps no undo of its
 * own); text that is no number, or one out of the field's range, is refused with a message under
 * the field's title instead of being silently reverted or clamped. A model field changed over a
 * preset makes the model a custom one, and the model menu says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-plan-form.h"

typedef enum {
  FIELD_NUMBER,
  FIELD_CHOICE,
  FIELD_SWITCH,
} FieldType;

typedef enum {
  CHOICES_FIXED,
  CHOICES_MODELS,
  CHOICES_ACCELERATORS,
  CHOICES_CLOUD,
  CHOICES_SCALE_UP,
  CHOICES_SCALE_OUT,
} ChoiceSource;

typedef struct
{
  const char         *group;
  const char         *path;
  FieldType           type;
  const char         *title;
  double              min, max, step;
  guint               digits;
  double              scale;          /* the document holds value × scale */
  gsize               offset;         /* the effective value in SuanliPlanInputs, or G_MAXSIZE */
  ChoiceSource        source;
  const char * const *values;         /* FIELD_CHOICE, fixed: document values, NULL-terminated */
  const char * const *titles;
  gboolean            training_only;
  gboolean            inference_only;
  gboolean            lora_only;
  gboolean            finetune_only;
  gboolean            pretrain_only;
  gboolean            zero_unsets;     /* 0 removes the member (the engine derives the value) */
} Field;

#define IN(member) G_STRUCT_OFFSET (SuanliPlanInputs, member)
#define NONE G_MAXSIZE

static const char * const modes[] = { "train", "finetune", "finetune-lora", "finetune-qlora", "inference", NULL };
static const char * const mode_titles[] = { N_("Pre-train"), N_("Fine-tune (all parameters)"), N_("Fine-tune (LoRA)"),
                                            N_("Fine-tune (QLoRA)"), N_("Inference"), NULL };
static const char * const lora_targets[] = { "attention", "all-linear", NULL };
static const char * const lora_target_titles[] = { N_("Attention projections"), N_("All linear layers"), NULL };
static const char * const memory_models[] = { "zero-paper", "deepspeed", "fsdp", NULL };
static const char * const memory_model_titles[] = { N_("ZeRO paper"), N_("DeepSpeed's estimators"), N_("PyTorch FSDP"),
                                                    NULL };
static const char * const precisions[] = { "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", NULL };
static const char * const precision_titles[] = { "FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "INT4", NULL };
static const char * const optimizers[] = { "adamw", "adamw-no-master", "adamw-bf16", "adamw-8bit", "adafactor", "sgd",
                                           NULL };
static const char * const optimizer_titles[] = { N_("AdamW (fp32, master weights)"), N_("AdamW (fp32, no master weights)"),
                                                 N_("AdamW (bf16 states)"), N_("8-bit AdamW"), N_("Adafactor"),
                                                 N_("SGD with momentum"), NULL };
static const char * const recomputes[] = { "none", "selective", "full", NULL };
static const char * const recompute_titles[] = { N_("None"), N_("Selective"), N_("Full"), NULL };
static const char * const zero_stages[] = { "0", "1", "2", "3", NULL };
static const char * const zero_titles[] = { N_("Off"), N_("Stage 1: optimizer"), N_("Stage 2: + gradients"),
                                            N_("Stage 3: + parameters"), NULL };
static const char * const offloads[] = { "none", "optimizer", "optimizer+parameters", "nvme", NULL };
static const char * const offload_titles[] = { N_("None"), N_("Optimizer to CPU"), N_("Optimizer and parameters to CPU"),
                                               N_("To NVMe"), NULL };
static const char * const schedules[] = { "1f1b", "dualpipe", NULL };
static const char * const schedule_titles[] = { N_("1F1B (Megatron)"), N_("DualPipe (DeepSeek-V3)"), NULL };

static const Field fields[] = {
  { N_("Model"), "model.preset", FIELD_CHOICE, N_("Model"), 0, 0, 0, 0, 1, NONE, CHOICES_MODELS },
  { N_("Model"), "workload.mode", FIELD_CHOICE, N_("Mode"), 0, 0, 0, 0, 1, NONE, CHOICES_FIXED, modes, mode_titles },
  { N_("Model"), "model.parameters", FIELD_NUMBER, N_("Parameters (billions)"), 0, 1e5, 1, 2, 1e9, IN (parameters),
    .zero_unsets = TRUE },
  { N_("Model"), "model.layers", FIELD_NUMBER, N_("Layers"), 0, 1e4, 1, 0, 1, IN (layers), .zero_unsets = TRUE },
  { N_("Model"), "model.hidden", FIELD_NUMBER, N_("Hidden size"), 0, 1e6, 128, 0, 1, IN (hidden), .zero_unsets = TRUE },
  { N_("Model"), "model.heads", FIELD_NUMBER, N_("Attention heads"), 0, 1e4, 1, 0, 1, IN (heads), .zero_unsets = TRUE },
  { N_("Model"), "model.kv_heads", FIELD_NUMBER, N_("KV heads"), 0, 1e4, 1, 0, 1, IN (kv_heads), .zero_unsets = TRUE },
  { N_("Model"), "model.ffn_hidden", FIELD_NUMBER, N_("Feed-forward size"), 0, 1e7, 128, 0, 1, IN (ffn_hidden),
    .zero_unsets = TRUE },
  { N_("Model"), "model.vocab", FIELD_NUMBER, N_("Vocabulary"), 0, 1e7, 1000, 0, 1, IN (vocab), .zero_unsets = TRUE },
  { N_("Model"), "model.experts", FIELD_NUMBER, N_("Experts"), 0, 1e4, 1, 0, 1, IN (experts), .zero_unsets = TRUE },
  { N_("Workload"), "workload.seq_len", FIELD_NUMBER, N_("Sequence length"), 1, 1 << 20, 256, 0, 1, IN (seq_len) },
  { N_("Workload"), "workload.global_batch", FIELD_NUMBER, N_("Global batch (sequences)"), 1, 1 << 24, 8, 0, 1,
    IN (global_batch), .training_only = TRUE },
  { N_("Workload"), "workload.micro_batch", FIELD_NUMBER, N_("Micro-batch"), 1, 4096, 1, 0, 1, IN (micro_batch),
    .training_only = TRUE },
  { N_("Workload"), "workload.tokens", FIELD_NUMBER, N_("Training tokens (billions)"), 0.001, 1e6, 10, 1, 1e9,
    IN (tokens), .pretrain_only = TRUE },
  { N_("Workload"), "workload.dataset_tokens", FIELD_NUMBER, N_("Dataset (million tokens)"), 0.001, 1e9, 10, 1, 1e6,
    IN (dataset_tokens), .finetune_only = TRUE },
  { N_("Workload"), "workload.epochs", FIELD_NUMBER, N_("Epochs"), 0.1, 1000, 1, 1, 1, IN (epochs),
    .finetune_only = TRUE },
  { N_("Workload"), "workload.lora_rank", FIELD_NUMBER, N_("LoRA rank"), 1, 4096, 8, 0, 1, IN (lora_rank),
    .lora_only = TRUE },
  { N_("Workload"), "workload.lora_targets", FIELD_CHOICE, N_("LoRA targets"), 0, 0, 0, 0, 1, NONE, CHOICES_FIXED,
    lora_targets, lora_target_titles, .lora_only = TRUE },
  { N_("Workload"), "workload.prompt_tokens", FIELD_NUMBER, N_("Prompt tokens"), 1, 1 << 22, 128, 0, 1,
    IN (prompt_tokens), .inference_only = TRUE },
  { N_("Workload"), "workload.output_tokens", FIELD_NUMBER, N_("Output tokens"), 1, 1 << 22, 64, 0, 1,
    IN (output_tokens), .inference_only = TRUE },
  { N_("Workload"), "workload.batch", FIELD_NUMBER, N_("Batch (sequences)"), 1, 1 << 16, 1, 0, 1, IN (batch),
    .inference_only = TRUE },
  { N_("Workload"), "workload.requests_per_s", FIELD_NUMBER, N_("Requests per second (0: not given)"), 0, 1e6, 1, 1, 1,
    IN (requests_per_s), .inference_only = TRUE, .zero_unsets = TRUE },
  { N_("Precision and Techniques"), "precision.compute", FIELD_CHOICE, N_("Compute precision"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, precisions, precision_titles },
  { N_("Precision and Techniques"), "precision.weights", FIELD_CHOICE, N_("Weights"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, precisions, precision_titles },
  { N_("Precision and Techniques"), "precision.kv_cache", FIELD_CHOICE, N_("KV cache"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, precisions, precision_titles, .inference_only = TRUE },
  { N_("Precision and Techniques"), "precision.optimizer", FIELD_CHOICE, N_("Optimizer"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, optimizers, optimizer_titles, .training_only = TRUE },
  { N_("Precision and Techniques"), "techniques.recompute", FIELD_CHOICE, N_("Activation recomputation"), 0, 0, 0, 0, 1,
    NONE, CHOICES_FIXED, recomputes, recompute_titles, .training_only = TRUE },
  { N_("Precision and Techniques"), "techniques.flash_attention", FIELD_SWITCH, N_("FlashAttention"), 0, 0, 0, 0, 1,
    IN (flash_attention), .training_only = TRUE },
  { N_("Precision and Techniques"), "techniques.fused_kernels", FIELD_SWITCH,
    N_("Fused kernels (torch.compile, Transformer Engine)"), 0, 0, 0, 0, 1, IN (fused_kernels) },
  { N_("Parallelism"), "parallelism.tensor", FIELD_NUMBER, N_("Tensor parallel"), 1, 1024, 1, 0, 1, IN (tensor) },
  { N_("Parallelism"), "parallelism.pipeline", FIELD_NUMBER, N_("Pipeline parallel"), 1, 1024, 1, 0, 1, IN (pipeline) },
  { N_("Parallelism"), "parallelism.data", FIELD_NUMBER, N_("Data parallel (0: the rest of the GPUs)"), 0, 1e6, 1, 0, 1,
    IN (data), .zero_unsets = TRUE },
  { N_("Parallelism"), "parallelism.expert", FIELD_NUMBER, N_("Expert parallel"), 1, 1024, 1, 0, 1, IN (expert) },
  { N_("Parallelism"), "parallelism.virtual_stages", FIELD_NUMBER, N_("Virtual stages (interleaving)"), 1, 64, 1, 0, 1,
    IN (virtual_stages), .training_only = TRUE },
  { N_("Parallelism"), "parallelism.sequence_parallel", FIELD_SWITCH, N_("Sequence parallel"), 0, 0, 0, 0, 1,
    IN (sequence_parallel), .training_only = TRUE },
  { N_("Parallelism"), "parallelism.zero_stage", FIELD_CHOICE, N_("ZeRO"), 0, 0, 0, 0, 1, NONE, CHOICES_FIXED,
    zero_stages, zero_titles, .training_only = TRUE },
  { N_("Parallelism"), "parallelism.offload", FIELD_CHOICE, N_("Offload"), 0, 0, 0, 0, 1, NONE, CHOICES_FIXED,
    offloads, offload_titles, .training_only = TRUE },
  { N_("Parallelism"), "parallelism.schedule", FIELD_CHOICE, N_("Pipeline schedule"), 0, 0, 0, 0, 1, NONE, CHOICES_FIXED,
    schedules, schedule_titles, .training_only = TRUE },
  { N_("System"), "system.accelerator", FIELD_CHOICE, N_("Accelerator"), 0, 0, 0, 0, 1, NONE, CHOICES_ACCELERATORS },
  { N_("System"), "system.gpus_per_node", FIELD_NUMBER, N_("Accelerators per node"), 1, 1024, 1, 0, 1,
    IN (gpus_per_node) },
  { N_("System"), "system.nodes", FIELD_NUMBER, N_("Nodes"), 1, 100000, 1, 0, 1, IN (nodes) },
  { N_("System"), "system.cloud_instance", FIELD_CHOICE, N_("Cloud instance"), 0, 0, 0, 0, 1, NONE, CHOICES_CLOUD },
  { N_("System"), "system.scale_up", FIELD_CHOICE, N_("Scale-up link"), 0, 0, 0, 0, 1, NONE, CHOICES_SCALE_UP },
  { N_("System"), "system.scale_out", FIELD_CHOICE, N_("Scale-out network"), 0, 0, 0, 0, 1, NONE, CHOICES_SCALE_OUT },
  { N_("System"), "system.cpu_memory_per_node_gib", FIELD_NUMBER, N_("CPU memory per node (GiB)"), 1, 1e6, 64, 0, 1, NONE },
  { N_("Assumptions"), "assumptions.mfu", FIELD_NUMBER, N_("MFU (0: from the parts)"), 0, 1, 0.01, 2, 1, IN (mfu),
    .zero_unsets = TRUE },
  { N_("Assumptions"), "assumptions.achieved_tflops", FIELD_NUMBER, N_("Achieved TFLOP/s per GPU (0: from the parts)"),
    0, 1e5, 10, 0, 1, NONE, .zero_unsets = TRUE },
  { N_("Assumptions"), "assumptions.compute_efficiency", FIELD_NUMBER, N_("Compute efficiency (0: modelled)"), 0, 1, 0.01,
    2, 1, IN (compute_efficiency), .zero_unsets = TRUE },
  { N_("Assumptions"), "assumptions.comm_efficiency", FIELD_NUMBER, N_("Communication efficiency"), 0.01, 1, 0.01, 2, 1,
    IN (comm_efficiency) },
  { N_("Assumptions"), "assumptions.memory_efficiency", FIELD_NUMBER, N_("Memory bandwidth efficiency"), 0.01, 1, 0.01,
    2, 1, IN (memory_efficiency), .inference_only = TRUE },
  { N_("Assumptions"), "assumptions.framework_overhead_gib", FIELD_NUMBER, N_("Framework overhead (GiB)"), 0, 64, 0.5,
    1, 1, NONE },
  { N_("Assumptions"), "assumptions.goodput", FIELD_NUMBER, N_("Goodput (share of time training)"), 0.01, 1, 0.01, 2, 1,
    IN (goodput), .training_only = TRUE },
  { N_("Assumptions"), "assumptions.mfu_reference", FIELD_CHOICE, N_("MFU stated against"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, precisions, precision_titles, .training_only = TRUE },
  { N_("Assumptions"), "assumptions.memory_model", FIELD_CHOICE, N_("Memory accounting"), 0, 0, 0, 0, 1, NONE,
    CHOICES_FIXED, memory_models, memory_model_titles, .training_only = TRUE },
  { N_("Assumptions"), "assumptions.pue", FIELD_NUMBER, N_("PUE"), 1, 3, 0.05, 2, 1, IN (pue) },
  { N_("Assumptions"), "assumptions.price_per_gpu_hour", FIELD_NUMBER, N_("Price per GPU-hour"), 0, 1000, 0.1, 2, 1,
    IN (price_per_gpu_hour) },
  { N_("Assumptions"), "assumptions.grid_tco2_per_mwh", FIELD_NUMBER, N_("Grid carbon (t CO₂/MWh)"), 0, 2, 0.01, 3, 1,
    IN (grid_tco2_per_mwh) },
};

typedef struct
{
  const Field *field;
  GtkWidget   *row;
  GtkWidget   *editor;      /* GtkSpinButton, GtkSwitch, or the AdwComboRow itself */
  GPtrArray   *values;      /* choice rows: document values (NULL: default) */
  double       synced;      /* numbers: the value the last sync showed */
} Editor;

struct _SuanliPlanForm
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  SuanliPlan    *plan;
  SuanliCatalog *catalog;
  GArray        *editors;   /* of Editor */
  gboolean       syncing;
};

G_DEFINE_FINAL_TYPE (SuanliPlanForm, suanli_plan_form, GTK_TYPE_WIDGET)

static void
clear_editor (gpointer data)
{
  Editor *editor = data;

  g_clear_pointer (&editor->values, g_ptr_array_unref);
}

/* {"SECTION": INNER}, one undo step. Takes @inner. */
static void
apply_section (SuanliPlanForm *self,
               const char     *section_name,
               JsonObject     *inner)
{
  g_autoptr(JsonNode) patch = json_node_new (JSON_NODE_OBJECT);
  JsonObject *outer = json_object_new ();

  json_object_set_object_member (outer, section_name, inner);
  json_node_take_object (patch, outer);
  suanli_plan_apply_merge_patch (self->plan, patch);
}

/* Choosing a preset gives its model whole: the plan's own model fields go. Choosing Custom keeps
 * the model shown: the preset's values are written out as the plan's own, for the user to edit. */
static void
apply_preset (SuanliPlanForm *self,
              const char     *preset)
{
  const char * const *keys = suanli_plan_inputs_model_keys ();
  JsonObject *inner = json_object_new ();
  JsonNode *current = NULL;
  JsonObject *model = NULL;
  SuanliItem *item = NULL;
  JsonNode *section_node = json_object_get_member (suanli_plan_get_root (self->plan), "model");

  if (section_node != NULL && JSON_NODE_HOLDS_OBJECT (section_node))
    model = json_node_get_object (section_node);
  current = model != NULL ? json_object_get_member (model, "preset") : NULL;
  if (preset == NULL && current != NULL && JSON_NODE_HOLDS_VALUE (current) &&
      json_node_get_value_type (current) == G_TYPE_STRING && self->catalog != NULL)
    item = suanli_catalog_lookup (self->catalog, json_node_get_string (current));

  for (guint i = 0; keys[i] != NULL; i++)
    {
      double value;

      if (g_str_equal (keys[i], "preset"))
        continue;
      if (preset != NULL)
        json_object_set_null_member (inner, keys[i]);
      else if (item != NULL && (model == NULL || !json_object_has_member (model, keys[i])) &&
               suanli_item_get_spec_value (item, keys[i], &value))
        {
          /* Counts as the user would write them: 80, not 80.0. */
          if (value == floor (value) && fabs (value) < 9007199254740992.0)
            json_object_set_int_member (inner, keys[i], (gint64) value);
          else
            json_object_set_double_member (inner, keys[i], value);
        }
    }
  if (preset != NULL)
    json_object_set_string_member (inner, "preset", preset);
  else
    json_object_set_null_member (inner, "preset");
  apply_section (self, "model", inner);
}

/* {"a": {"b": VALUE}} for the path "a.b". Takes @value. */
static void
apply_value (SuanliPlanForm *self,
             const char     *path,
             JsonNode       *value)
{
  g_auto(GStrv) parts = NULL;
  JsonObject *inner;

  if (self->plan == NULL || self->syncing)
    {
      json_node_unref (value);
      return;
    }
  if (g_str_equal (path, "model.preset"))
    {
      apply_preset (self, JSON_NODE_HOLDS_NULL (value) ? NULL : json_node_get_string (value));
      json_node_unref (value);
      return;
    }
  parts = g_strsplit (path, ".", 2);
  inner = json_object_new ();
  json_object_set_member (inner, parts[1], value);
  /* A pre-training budget is no fine-tune's data (a fine-tune reads its dataset for some epochs):
   * changing the mode lets the new mode's default in, in the same undo step. */
  if (g_str_equal (path, "workload.mode"))
    json_object_set_null_member (inner, "tokens");
  apply_section (self, parts[0], inner);
}

static void
on_number_changed (GtkSpinButton *spin,
                   gpointer       user_data)
{
  SuanliPlanForm *self = SUANLI_PLAN_FORM (user_data);
  const Field *field = g_object_get_data (G_OBJECT (spin), "field");
  Editor *editor = g_object_get_data (G_OBJECT (spin), "editor");
  double value = gtk_spin_button_get_value (spin) * field->scale;
  JsonNode *node;

  /* A value a sync showed is no edit. GtkAdjustment's "value-changed" does not recurse: a sync
   * nested in an edit's handler has its change announced again once the edit's handler returns,
   * when the sync is over (a parameter count set to 0 came back as the preset's, written out). */
  if (editor != NULL && gtk_spin_button_get_value (spin) == editor->synced)
    return;
  node = json_node_new (JSON_NODE_VALUE);

  /* 0 means "not set" for what the engine derives or assumes otherwise: the member goes. */
  if (field->zero_unsets && value == 0)
    json_node_init_null (node);
  else if (field->digits == 0 && field->scale == 1)
    json_node_set_int (node, (gint64) value);
  else
    json_node_set_double (node, value);
  apply_value (self, field->path, node);
}

/* Says under the field's title why what was typed was refused, or clears it (@message NULL). */
static void
show_input_message (GtkSpinButton *spin,
                    const char    *message)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_ACTION_ROW);

  if (row == NULL)
    return;
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), message != NULL ? message : "");
  /* The engine's own error on the field, in the tooltip, keeps the row marked. */
  if (message != NULL)
    gtk_widget_add_css_class (row, "error");
  else if (gtk_widget_get_tooltip_text (row) == NULL)
    gtk_widget_remove_css_class (row, "error");
}

/* What the user typed, read as a number of the field's range; anything else is refused with a
 * message and the value stays as it was (GtkSpinButton would clamp it, or silently drop letters). */
static int
on_number_input (GtkSpinButton *spin,
                 double        *new_value,
                 gpointer       user_data)
{
  const Field *field = g_object_get_data (G_OBJECT (spin), "field");
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);
  double current = gtk_adjustment_get_value (adjustment);
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))));
  g_autofree char *kept = g_strdup_printf ("%.*f", field->digits, current);
  g_autofree char *message = NULL;
  char *end = NULL;
  double typed;

  /* A minus sign as typed ("−") reads as the ASCII one. */
  if (g_str_has_prefix (text, "−"))
    {
      char *ascii = g_strconcat ("-", text + strlen ("−"), NULL);

      g_free (text);
      text = ascii;
    }
  typed = g_ascii_strtod (text, &end);
  if (*text == '\0' || end == text || *end != '\0' || !isfinite (typed))
    /* Translators: a number field refused what was typed: "“abc” is not a number; it stays 1.0". */
    message = g_strdup_printf (_("“%s” is not a number; it stays %s"), text, kept);
  else if (typed < field->min)
    {
      g_autofree char *least = g_strdup_printf ("%.*f", field->digits, field->min);

      /* Translators: "−3 is less than 0.1, the least this field takes; it stays 1.0". */
      message = g_strdup_printf (_("%s is less than %s, the least this field takes; it stays %s"), text, least, kept);
    }
  else if (typed > field->max)
    {
      g_autofree char *most = g_strdup_printf ("%.*f", field->digits, field->max);

      message = g_strdup_printf (_("%s is more than %s, the most this field takes; it stays %s"), text, most, kept);
    }
  show_input_message (spin, message);
  *new_value = message != NULL ? current : typed;
  return TRUE;
}

/* The mouse wheel over a number scrolls the form, as anywhere else in it: a number changes only when
 * the user types it or clicks its buttons. Claimed before the spin button's own handler sees it. */
static gboolean
on_number_scroll (GtkEventControllerScroll *controller,
                  double                    dx,
                  double                    dy,
                  gpointer                  user_data)
{
  GtkWidget *spin = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *scrolled = gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  double step = 1;

  if (scrolled == NULL)
    return TRUE;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  /* A wheel's click moves as far as GtkScrolledWindow moves it: the page's size to the power ⅔. */
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    step = pow (gtk_adjustment_get_page_size (adjustment), 2.0 / 3.0);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy * step);
  return TRUE;
}

static void
on_switch_changed (GtkSwitch  *widget,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  const Field *field = g_object_get_data (G_OBJECT (widget), "field");
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_boolean (node, gtk_switch_get_active (widget));
  apply_value (SUANLI_PLAN_FORM (user_data), field->path, node);
}

/* Ctrl+Z and Ctrl+Shift+Z for the plan's undo and redo, ahead of a text field's own. */
static GtkEventController *
plan_undo_keys (void)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>z"),
                                                          gtk_named_action_new ("plan.undo")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control><Shift>z"),
                                                          gtk_named_action_new ("plan.redo")));
  return keys;
}

/* Choices are an AdwComboRow (a few fixed ones) or a GtkDropDown with a search entry in an action
 * row (the catalog's, dozens of them); both have a "selected" position. */
static guint
choice_get_selected (GtkWidget *editor)
{
  return ADW_IS_COMBO_ROW (editor) ? adw_combo_row_get_selected (ADW_COMBO_ROW (editor))
                                   : gtk_drop_down_get_selected (GTK_DROP_DOWN (editor));
}

static void
choice_set_selected (GtkWidget *editor,
                     guint      position)
{
  if (ADW_IS_COMBO_ROW (editor))
    adw_combo_row_set_selected (ADW_COMBO_ROW (editor), position);
  else
    gtk_drop_down_set_selected (GTK_DROP_DOWN (editor), position);
}

static void
on_choice_changed (GtkWidget  *widget,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  Editor *editor = g_object_get_data (G_OBJECT (widget), "editor");
  guint selected = choice_get_selected (widget);
  const char *value;
  JsonNode *node;

  if (selected == GTK_INVALID_LIST_POSITION || selected >= editor->values->len)
    return;
  value = g_ptr_array_index (editor->values, selected);
  node = json_node_new (JSON_NODE_VALUE);
  if (value == NULL)
    json_node_init_null (node);
  else if (g_str_equal (editor->field->path, "parallelism.zero_stage"))
    json_node_set_int (node, g_ascii_strtoll (value, NULL, 10));
  else
    json_node_set_string (node, value);
  apply_value (SUANLI_PLAN_FORM (user_data), editor->field->path, node);
}

/* Choices from the catalog: its models with a parameter count, its accelerators, its cloud
 * instances, its scale-up or scale-out links. The first entry stands for "not set". */
static void
catalog_choices (SuanliPlanForm *self,
                 ChoiceSource    source,
                 GtkStringList  *titles,
                 GPtrArray      *values)
{
  guint n = self->catalog != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) : 0;

  g_ptr_array_add (values, NULL);
  gtk_string_list_append (titles, source == CHOICES_MODELS ? _("Custom (the fields below)")
                                  : source == CHOICES_ACCELERATORS ? _("From the cloud instance")
                                  : source == CHOICES_CLOUD ? _("None") : _("Default"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      const char * const *tags = suanli_item_get_tags (item);
      SuanliItemKind kind = suanli_item_get_kind (item);
      gboolean wanted;

      switch (source)
        {
        case CHOICES_MODELS:
          /* Without an architecture (ResNet-50) the engine counts 6·P FLOPs per token and no activations. */
          wanted = kind == SUANLI_ITEM_KIND_MODEL && suanli_item_get_spec_value (item, "parameters", NULL);
          break;
        case CHOICES_ACCELERATORS:
          wanted = kind == SUANLI_ITEM_KIND_ACCELERATOR && suanli_item_get_spec_value (item, "memory_bytes", NULL);
          break;
        case CHOICES_CLOUD:
          wanted = kind == SUANLI_ITEM_KIND_CLOUD_INSTANCE;
          break;
        case CHOICES_SCALE_UP:
          wanted = kind == SUANLI_ITEM_KIND_LINK && g_strv_contains (tags, "scale-up");
          break;
        case CHOICES_SCALE_OUT:
          wanted = kind == SUANLI_ITEM_KIND_LINK && g_strv_contains (tags, "scale-out");
          break;
        default:
          wanted = FALSE;
        }
      if (!wanted)
        continue;
      g_ptr_array_add (values, g_strdup (suanli_item_get_id (item)));
      gtk_string_list_append (titles, suanli_item_get_name (item));
    }
}

static void
setup_choice_label (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  in_list)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (GPOINTER_TO_INT (in_list))
    {
      /* In the open list every title is whole, wrapped where it is long. */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
    }
  else
    {
      /* The choice shown in the row: whole unless it is very long ("Custom (the fields below)"). */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 34);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_choice_label (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  in_list)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  const char *title = gtk_string_object_get_string (GTK_STRING_OBJECT (gtk_list_item_get_item (item)));

  gtk_label_set_text (GTK_LABEL (label), title);
  if (!GPOINTER_TO_INT (in_list))
    gtk_widget_set_tooltip_text (label, title);
}

static GtkListItemFactory *
choice_label_factory (gboolean in_list)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_choice_label), GINT_TO_POINTER (in_list));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_choice_label), GINT_TO_POINTER (in_list));
  return factory;
}

static void
set_choice_factories (GtkWidget *editor)
{
  g_autoptr(GtkListItemFactory) shown = choice_label_factory (FALSE);
  g_autoptr(GtkListItemFactory) listed = choice_label_factory (TRUE);

  if (ADW_IS_COMBO_ROW (editor))
    {
      adw_combo_row_set_factory (ADW_COMBO_ROW (editor), shown);
      adw_combo_row_set_list_factory (ADW_COMBO_ROW (editor), listed);
    }
  else
    {
      gtk_drop_down_set_factory (GTK_DROP_DOWN (editor), shown);
      gtk_drop_down_set_list_factory (GTK_DROP_DOWN (editor), listed);
    }
}

static GtkWidget *
make_row (SuanliPlanForm *self,
          const Field    *field,
          Editor         *editor)
{
  GtkWidget *row;

  switch (field->type)
    {
    case FIELD_NUMBER:
      {
        GtkAdjustment *adjustment = gtk_adjustment_new (field->min, field->min, field->max, field->step,
                                                        field->step * 10, 0);
        GtkWidget *spin = gtk_spin_button_new (adjustment, 1, field->digits);

        GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

        row = adw_action_row_new ();
        gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
        /* Not numeric: letters and signs are let in, to be refused with a message (on_number_input). */
        gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
        /* Ctrl+Z is the plan's undo (the page's plan.undo), which undoes the value: the text's own
         * undo would take the key and restore only the text. Caught before the text sees it. */
        gtk_editable_set_enable_undo (GTK_EDITABLE (spin), FALSE);
        gtk_widget_add_controller (spin, plan_undo_keys ());
        gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
        g_signal_connect (scroll, "scroll", G_CALLBACK (on_number_scroll), NULL);
        gtk_widget_add_controller (spin, scroll);
        g_object_set_data (G_OBJECT (spin), "field", (gpointer) field);
        g_signal_connect (spin, "input", G_CALLBACK (on_number_input), self);
        g_signal_connect (spin, "value-changed", G_CALLBACK (on_number_changed), self);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
        adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
        editor->editor = spin;
        break;
      }
    case FIELD_SWITCH:
      {
        GtkWidget *toggle = gtk_switch_new ();

        row = adw_action_row_new ();
        gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
        g_object_set_data (G_OBJECT (toggle), "field", (gpointer) field);
        g_signal_connect (toggle, "notify::active", G_CALLBACK (on_switch_changed), self);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
        adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
        editor->editor = toggle;
        break;
      }
    case FIELD_CHOICE:
    default:
      {
        g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

        editor->values = g_ptr_array_new_with_free_func (g_free);
        if (field->source == CHOICES_FIXED)
          {
            /* Weights and KV cache follow the compute precision unless set. */
            if (g_str_equal (field->path, "precision.weights") || g_str_equal (field->path, "precision.kv_cache"))
              {
                g_ptr_array_add (editor->values, NULL);
                gtk_string_list_append (titles, _("Default"));
              }
            for (guint i = 0; field->values[i] != NULL; i++)
              {
                g_ptr_array_add (editor->values, g_strdup (field->values[i]));
                gtk_string_list_append (titles, _(field->titles[i]));
              }
          }
        else
          catalog_choices (self, field->source, titles, editor->values);
        if (field->source == CHOICES_FIXED)
          {
            row = adw_combo_row_new ();
            adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (titles));
            editor->editor = row;
          }
        else
          {
            /* Dozens of models or accelerators: typing finds one ("h100", "910"). */
            GtkWidget *drop_down = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (titles)),
                                                      gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL,
                                                                                   "string"));
            row = adw_action_row_new ();
            gtk_drop_down_set_enable_search (GTK_DROP_DOWN (drop_down), TRUE);
            gtk_widget_set_valign (drop_down, GTK_ALIGN_CENTER);
            adw_action_row_add_suffix (ADW_ACTION_ROW (row), drop_down);
            adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), drop_down);
            editor->editor = drop_down;
          }
        set_choice_factories (editor->editor);
        break;
      }
    }
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(field->title));
  gtk_widget_set_name (editor->editor, field->path);
  return row;
}

static void
build (SuanliPlanForm *self)
{
  GtkWidget *child, *group = NULL;
  const char *group_title = NULL;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_array_set_size (self->editors, 0);

  self->syncing = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      Editor editor = { &fields[i], NULL, NULL, NULL };

      if (group_title == NULL || !g_str_equal (group_title, fields[i].group))
        {
          group_title = fields[i].group;
          group = adw_preferences_group_new ();
          adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _(group_title));
          gtk_box_append (GTK_BOX (self->box), group);
        }
      editor.row = make_row (self, &fields[i], &editor);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), editor.row);
      g_array_append_val (self->editors, editor);
    }
  /* Rows hold a pointer to their editor; the array no longer grows. */
  for (guint i = 0; i < self->editors->len; i++)
    {
      Editor *editor = &g_array_index (self->editors, Editor, i);

      g_object_set_data (G_OBJECT (editor->editor), "editor", editor);
      if (editor->field->type == FIELD_CHOICE)
        {
          g_signal_connect (editor->editor, "notify::selected", G_CALLBACK (on_choice_changed), self);
        }
    }
  self->syncing = FALSE;
}

static JsonNode *
document_value (SuanliPlan *plan,
                const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", 2);
  JsonObject *root = suanli_plan_get_root (plan);
  JsonNode *section = json_object_get_member (root, parts[0]);

  if (section == NULL || !JSON_NODE_HOLDS_OBJECT (section))
    return NULL;
  return json_object_get_member (json_node_get_object (section), parts[1]);
}

/* The choice in effect: the document's, else what the engine resolved. */
static char *
effective_choice (const Field            *field,
                  const SuanliPlanInputs *in,
                  JsonNode               *value)
{
  /* A preset whose fields the plan changes is a custom model: the engine names it so. */
  if (g_str_equal (field->path, "model.preset") && in != NULL && in->model_name[0] == '\0')
    return NULL;
  if (value != NULL && JSON_NODE_HOLDS_VALUE (value))
    {
      if (json_node_get_value_type (value) == G_TYPE_STRING)
        return g_strdup (json_node_get_string (value));
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (value));
    }
  if (in == NULL)
    return NULL;
  if (g_str_equal (field->path, "workload.mode"))
    return g_strdup (modes[in->mode]);
  if (g_str_equal (field->path, "precision.compute"))
    return g_strdup (precisions[in->compute]);
  if (g_str_equal (field->path, "precision.optimizer"))
    return g_strdup (optimizers[in->optimizer]);
  if (g_str_equal (field->path, "techniques.recompute"))
    return g_strdup (recomputes[in->recompute]);
  if (g_str_equal (field->path, "parallelism.zero_stage"))
    return g_strdup_printf ("%d", in->zero_stage);
  if (g_str_equal (field->path, "parallelism.offload"))
    return g_strdup (offloads[in->offload]);
  if (g_str_equal (field->path, "parallelism.schedule"))
    return g_strdup (schedules[in->schedule]);
  return NULL;
}

static void
sync_editor (Editor                 *editor,
             SuanliPlan             *plan,
             const SuanliPlanInputs *in)
{
  const Field *field = editor->field;
  JsonNode *value = document_value (plan, field->path);

  switch (field->type)
    {
    case FIELD_NUMBER:
      {
        double number = 0;

        if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) != G_TYPE_STRING)
          number = json_node_get_double (value);
        else if (in != NULL && field->offset != NONE)
          number = G_STRUCT_MEMBER (double, in, field->offset);
        else if (g_str_equal (field->path, "assumptions.framework_overhead_gib") && in != NULL)
          number = in->framework_overhead / 1073741824.0;
        else if (g_str_equal (field->path, "system.cpu_memory_per_node_gib") && in != NULL)
          number = in->cpu_memory_per_node / 1073741824.0;
        else if (g_str_equal (field->path, "assumptions.achieved_tflops") && in != NULL)
          number = in->achieved_flops / 1e12;
        /* Fractions are shown as they are; the MFU shows 0 when not assumed. */
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor->editor), number / field->scale);
        editor->synced = gtk_spin_button_get_value (GTK_SPIN_BUTTON (editor->editor));
        break;
      }
    case FIELD_SWITCH:
      {
        gboolean active = FALSE;

        if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_BOOLEAN)
          active = json_node_get_boolean (value);
        else if (in != NULL)
          active = G_STRUCT_MEMBER (gboolean, in, field->offset);
        gtk_switch_set_active (GTK_SWITCH (editor->editor), active);
        break;
      }
    case FIELD_CHOICE:
    default:
      {
        g_autofree char *choice = effective_choice (field, in, value);
        guint position = 0;

        for (guint i = 0; i < editor->values->len; i++)
          if (g_strcmp0 (g_ptr_array_index (editor->values, i), choice) == 0)
            position = i;
        choice_set_selected (editor->editor, position);
        break;
      }
    }
}

static void
suanli_plan_form_dispose (GObject *object)
{
  SuanliPlanForm *self = SUANLI_PLAN_FORM (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->plan);
  g_clear_object (&self->catalog);
  g_clear_pointer (&self->editors, g_array_unref);

  G_OBJECT_CLASS (suanli_plan_form_parent_class)->dispose (object);
}

static void
suanli_plan_form_class_init (SuanliPlanFormClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = suanli_plan_form_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
suanli_plan_form_init (SuanliPlanForm *self)
{
  self->editors = g_array_new (FALSE, TRUE, sizeof (Editor));
  g_array_set_clear_func (self->editors, clear_editor);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

GtkWidget *
suanli_plan_form_new (void)
{
  return g_object_new (SUANLI_TYPE_PLAN_FORM, NULL);
}

/* Edits go to @plan; the choices of models, accelerators and links come from @catalog. */
void
suanli_plan_form_set_plan (SuanliPlanForm *self,
                           SuanliPlan     *plan,
                           SuanliCatalog  *catalog)
{
  g_return_if_fail (SUANLI_IS_PLAN_FORM (self));

  g_set_object (&self->plan, plan);
  g_set_object (&self->catalog, catalog);
  build (self);
}

/* Shows the values in effect (@inputs, may be NULL when the plan did not resolve) and marks the
 * fields named in @errors (of SuanliPlanIssue). Emits no edits. */
void
suanli_plan_form_sync (SuanliPlanForm         *self,
                       const SuanliPlanInputs *inputs,
                       GPtrArray              *errors)
{
  gboolean inference = inputs != NULL && inputs->mode == SUANLI_MODE_INFERENCE;
  gboolean lora = inputs != NULL && suanli_plan_inputs_is_lora (inputs);
  gboolean finetune = inputs != NULL && suanli_plan_inputs_is_finetune (inputs);

  g_return_if_fail (SUANLI_IS_PLAN_FORM (self));

  if (self->plan == NULL)
    return;
  self->syncing = TRUE;
  for (guint i = 0; i < self->editors->len; i++)
    {
      Editor *editor = &g_array_index (self->editors, Editor, i);
      const char *message = NULL;

      sync_editor (editor, self->plan, inputs);
      /* A refused entry's message lasts until the plan next changes. */
      if (editor->field->type == FIELD_NUMBER)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (editor->row), "");
      gtk_widget_set_visible (editor->row, !(editor->field->training_only && inference) &&
                                           !(editor->field->inference_only && !inference) &&
                                           !(editor->field->lora_only && !lora) &&
                                           !(editor->field->finetune_only && !finetune) &&
                                           !(editor->field->pretrain_only && (finetune || inference)));
      for (guint j = 0; errors != NULL && j < errors->len && message == NULL; j++)
        {
          SuanliPlanIssue *issue = g_ptr_array_index (errors, j);

          if (g_str_equal (issue->field, editor->field->path))
            message = issue->message;
        }
      if (message != NULL)
        gtk_widget_add_css_class (editor->row, "error");
      else
        gtk_widget_remove_css_class (editor->row, "error");
      gtk_widget_set_tooltip_text (editor->row, message);
    }
  self->syncing = FALSE;
}

/* Returns: (transfer none) (nullable): the editor of @field ("parallelism.tensor"): a spin button,
 * a switch, or a combo row. */
GtkWidget *
suanli_plan_form_get_editor (SuanliPlanForm *self,
                             const char     *field)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_FORM (self), NULL);

  for (guint i = 0; i < self->editors->len; i++)
    {
      Editor *editor = &g_array_index (self->editors, Editor, i);

      if (g_str_equal (editor->field->path, field))
        return editor->editor;
    }
  return NULL;
}
