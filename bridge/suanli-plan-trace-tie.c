/* suanli-plan-trace-tie.c — whether a trace is known to be of a plan's job: tied by the user, or named
 *
 * The same hardware does not make the same job: an AlexNet trace on eight H100s set against a plan
 * to train Llama 2 7B on them reads "GPU busy 0.3% vs plan 100%". So a trace is compared with a plan
 * only when something says it is of the plan's job: the user (This Trace Is of This Plan's Job,
 * kept in the plan's "traces"), or the trace itself, by carrying "suanli.plan=" and the plan's name
 * (an NVTX mark or range, a PyTorch record_function, or an argument's text).
 *
 * A trace is known to the plan by its fingerprint: a digest of its files' names (not their folders)
 * and what it holds (slices, tracks, time range, and every name and text in it), which reading the
 * same files again gives again, wherever they lie and in whatever order its files were read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-plan-trace-tie.h"

/* The plan's member listing the traces its user tied to it. */
#define TRACES_KEY "traces"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Returns: (transfer full): the files' names of @trace, sorted, ", " between them. */
static char *
file_names (SuanliTrace *trace)
{
  g_autoptr(GPtrArray) bases = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < suanli_trace_get_n_groups (trace); i++)
    g_ptr_array_add (bases, g_path_get_basename (suanli_trace_get_string (trace, suanli_trace_get_group (trace, i)->name)));
  g_ptr_array_sort (bases, compare_names);
  g_ptr_array_add (bases, NULL);
  return g_strjoinv (", ", (char **) bases->pdata);
}

/* Two sums over the trace's strings that do not depend on the order they were met in (several
 * files may be read at once): the same files give the same sums. The files' paths are left out:
 * the same file moved is the same trace. */
static void
sum_strings (SuanliTrace *trace,
             guint64     *plain,
             guint64     *mixed)
{
  g_autoptr(GHashTable) paths = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < suanli_trace_get_n_groups (trace); i++)
    g_hash_table_add (paths, GUINT_TO_POINTER (suanli_trace_get_group (trace, i)->name));
  *plain = *mixed = 0;
  for (guint i = 0; i < suanli_trace_get_n_strings (trace); i++)
    {
      guint64 hash;

      if (g_hash_table_contains (paths, GUINT_TO_POINTER (i)))
        continue;
      hash = g_str_hash (suanli_trace_get_string (trace, i));

      *plain += hash;
      *mixed += hash * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
    }
}

/**
 * suanli_plan_trace_fingerprint:
 *
 * Returns: (transfer full): 16 hexadecimal digits naming @trace as the plan's "traces" keep it.
 */
char *
suanli_plan_trace_fingerprint (SuanliTrace *trace)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *names = file_names (trace);
  g_autofree char *counts = NULL;
  gint64 from = 0, to = 0;
  guint64 plain, mixed;

  g_return_val_if_fail (SUANLI_IS_TRACE (trace), NULL);

  suanli_trace_get_time_range (trace, &from, &to);
  sum_strings (trace, &plain, &mixed);
  counts = g_strdup_printf ("\n%" G_GUINT64_FORMAT " %u %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT
                            " %" G_GUINT64_FORMAT,
                            suanli_trace_get_n_slices (trace), suanli_trace_get_n_tracks (trace),
                            suanli_trace_get_n_strings (trace), from, to, plain, mixed);
  g_checksum_update (checksum, (const guchar *) names, -1);
  g_checksum_update (checksum, (const guchar *) counts, -1);
  return g_strndup (g_checksum_get_string (checksum), 16);
}

/* The plan's "traces", or NULL when it has none (or not as an array). */
static JsonArray *
tied_traces (SuanliPlan *plan)
{
  JsonObject *root = suanli_plan_get_root (plan);
  JsonNode *node = json_object_get_member (root, TRACES_KEY);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static const char *
entry_fingerprint (JsonNode *entry)
{
  JsonNode *node;

  if (!JSON_NODE_HOLDS_OBJECT (entry))
    return NULL;
  node = json_object_get_member (json_node_get_object (entry), "fingerprint");
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

/**
 * suanli_plan_trace_tie:
 * @plan_name: the plan's name in effect (suanli_plan_name_dup()), which a mark names
 *
 * Returns: what says @trace is of @plan's job, if anything.
 */
SuanliPlanTie
suanli_plan_trace_tie (SuanliPlan  *plan,
                       const char  *plan_name,
                       SuanliTrace *trace)
{
  g_autofree char *mark = g_strconcat (SUANLI_PLAN_MARK_PREFIX, plan_name, NULL);
  g_autofree char *fingerprint = NULL;
  JsonArray *traces = tied_traces (plan);
  SuanliString unused;

  g_return_val_if_fail (SUANLI_IS_PLAN (plan), SUANLI_PLAN_TIE_UNKNOWN);
  g_return_val_if_fail (SUANLI_IS_TRACE (trace), SUANLI_PLAN_TIE_UNKNOWN);

  /* The trace's strings hold every name and argument text it has: the mark is among them or not. */
  if (suanli_trace_lookup_string (trace, mark, &unused))
    return SUANLI_PLAN_TIE_MARKED;
  if (traces == NULL)
    return SUANLI_PLAN_TIE_UNKNOWN;
  fingerprint = suanli_plan_trace_fingerprint (trace);
  for (guint i = 0; i < json_array_get_length (traces); i++)
    if (g_strcmp0 (entry_fingerprint (json_array_get_element (traces, i)), fingerprint) == 0)
      return SUANLI_PLAN_TIE_TIED;
  return SUANLI_PLAN_TIE_UNKNOWN;
}

/* Returns: (transfer full): why a trace on the plan's hardware is not compared with it, in a sentence. */
char *
suanli_plan_trace_unknown_job (const char *plan_name)
{
  return g_strdup_printf (_("This trace ran on the hardware of the plan “%s”, but it is not known to be of that plan's "
                            "job, so the two are not compared."), plan_name);
}

/**
 * suanli_plan_trace_set_tied:
 * @tied: whether @trace is of @plan's job
 *
 * Lists @trace in @plan's "traces" (its files' names, for people, and its fingerprint), or takes
 * it off, as an edit of the plan: the planner's Undo takes it back, its Save writes it.
 */
void
suanli_plan_trace_set_tied (SuanliPlan  *plan,
                            SuanliTrace *trace,
                            gboolean     tied)
{
  g_autofree char *fingerprint = suanli_plan_trace_fingerprint (trace);
  JsonArray *traces = tied_traces (plan);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) patch = NULL;
  guint kept = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, TRACES_KEY);
  json_builder_begin_array (builder);
  for (guint i = 0; traces != NULL && i < json_array_get_length (traces); i++)
    {
      JsonNode *entry = json_array_get_element (traces, i);

      if (g_strcmp0 (entry_fingerprint (entry), fingerprint) == 0)
        continue;
      json_builder_add_value (builder, json_node_copy (entry));
      kept++;
    }
  if (tied)
    {
      g_autofree char *names = file_names (trace);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, names);
      json_builder_set_member_name (builder, "fingerprint");
      json_builder_add_string_value (builder, fingerprint);
      json_builder_end_object (builder);
      kept++;
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  patch = json_builder_get_root (builder);
  /* An empty list is no list: the member goes, and a plan never tied reads as before. */
  if (kept == 0)
    json_object_set_null_member (json_node_get_object (patch), TRACES_KEY);
  suanli_plan_apply_merge_patch (plan, patch);
}
