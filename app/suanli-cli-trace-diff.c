/* suanli-cli-trace-diff.c — `suanli-cli trace diff A B [--json] [--folded OUT]`: what changed
 * between two traces, per kernel and per CPU operator, with GPU time and step time overall; and
 * `trace diff FILE… --rank R --against-rank R [--gpu] [--folded OUT]`: the flame graph of one rank
 * of a merged trace against another's, as two-column folded stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-analysis.h"
#include "suanli-cli.h"
#include "suanli-cli-trace-io.h"
#include "suanli-flame.h"

#define SHOWN_ROWS   15
#define NAME_COLUMNS 80

/* One name's figures in each trace: [0] is A (the baseline), [1] is B. */
typedef struct
{
  const char *name;
  guint64     count[2];
  gint64      total_ns[2];
  gint64      self_ns[2];    /* operators only */
} DiffRow;

/* One side of the comparison, read and analysed. */
typedef struct
{
  const char  *file;
  SuanliTrace *trace;
  GArray      *gpus;
  GArray      *kernels;
  GArray      *operators;
  GArray      *steps;
  gint64       kernel_ns, busy_ns, idle_ns;
  gint64       step_median_ns;   /* -1 without steps */
} Side;

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->gpus, g_array_unref);
  g_clear_pointer (&side->kernels, g_array_unref);
  g_clear_pointer (&side->operators, g_array_unref);
  g_clear_pointer (&side->steps, g_array_unref);
  g_clear_object (&side->trace);
}

static int
side_read (Side       *side,
           const char *file)
{
  SuanliImportStats stats = { 0 };
  int status;

  side->file = file;
  side->trace = suanli_trace_new ();
  status = suanli_cli_trace_import (side->trace, &stats, &file, 1);
  suanli_import_stats_clear (&stats);
  if (status != SUANLI_EXIT_DONE)
    return status;
  side->gpus = suanli_analysis_gpu_time (side->trace);
  side->kernels = suanli_analysis_top_kernels (side->trace);
  side->operators = suanli_analysis_cpu_operators (side->trace);
  side->steps = suanli_analysis_steps (side->trace);
  for (guint i = 0; i < side->gpus->len; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (side->gpus, SuanliGpuTime, i);

      side->kernel_ns += gpu->kernel_ns;
      side->busy_ns += gpu->busy_ns;
      side->idle_ns += gpu->idle_ns;
    }
  side->step_median_ns = suanli_analysis_median_step (side->steps);
  return SUANLI_EXIT_DONE;
}

/* The row for @name in @rows, found through @index (name → position + 1). */
static DiffRow *
row_for (GArray     *rows,
         GHashTable *index,
         const char *name)
{
  gpointer found = g_hash_table_lookup (index, name);

  if (found == NULL)
    {
      DiffRow fresh = { name };

      g_array_append_val (rows, fresh);
      found = GUINT_TO_POINTER (rows->len);
      g_hash_table_insert (index, (gpointer) name, found);
    }
  return &g_array_index (rows, DiffRow, GPOINTER_TO_UINT (found) - 1);
}

static gint64
row_change (const DiffRow *row)
{
  /* Operators change by self time, kernels by total time. */
  return row->self_ns[0] != 0 || row->self_ns[1] != 0 ? row->self_ns[1] - row->self_ns[0]
                                                      : row->total_ns[1] - row->total_ns[0];
}

static int
compare_change (gconstpointer a,
                gconstpointer b)
{
  gint64 x = llabs (row_change (a)), y = llabs (row_change (b));

  return (x < y) - (x > y);
}

/* Kernels, or with @operators CPU operators, of both sides joined by name, by the size of their
 * change. */
static GArray *
join (Side     *sides,
      gboolean  operators)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (DiffRow));
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint s = 0; s < 2; s++)
    {
      GArray *items = operators ? sides[s].operators : sides[s].kernels;

      for (guint i = 0; i < items->len; i++)
        {
          SuanliOperatorStats *op = operators ? &g_array_index (items, SuanliOperatorStats, i) : NULL;
          SuanliKernelStats *kernel = operators ? NULL : &g_array_index (items, SuanliKernelStats, i);
          DiffRow *row = row_for (rows, index, suanli_trace_get_string (sides[s].trace, operators ? op->name : kernel->name));

          row->count[s] = operators ? op->count : kernel->count;
          row->total_ns[s] = operators ? op->total_ns : kernel->total_ns;
          row->self_ns[s] = operators ? op->self_ns : 0;
        }
    }
  g_array_sort (rows, compare_change);
  return rows;
}

static void
side_json (JsonBuilder *builder,
           const char  *member,
           Side        *side)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, side->file);
  suanli_cli_member_int (builder, "kernel_ns", side->kernel_ns);
  suanli_cli_member_int (builder, "busy_ns", side->busy_ns);
  suanli_cli_member_int (builder, "idle_ns", side->idle_ns);
  suanli_cli_member_int (builder, "steps", side->steps->len);
  if (side->step_median_ns >= 0)
    suanli_cli_member_int (builder, "step_median_ns", side->step_median_ns);
  json_builder_end_object (builder);
}

static void
rows_json (JsonBuilder *builder,
           const char  *member,
           GArray      *rows,
           gboolean     operators)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < rows->len; i++)
    {
      DiffRow *row = &g_array_index (rows, DiffRow, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, row->name);
      suanli_cli_member_int (builder, "a_count", (gint64) row->count[0]);
      suanli_cli_member_int (builder, "b_count", (gint64) row->count[1]);
      suanli_cli_member_int (builder, "a_total_ns", row->total_ns[0]);
      suanli_cli_member_int (builder, "b_total_ns", row->total_ns[1]);
      if (operators)
        {
          suanli_cli_member_int (builder, "a_self_ns", row->self_ns[0]);
          suanli_cli_member_int (builder, "b_self_ns", row->self_ns[1]);
        }
      suanli_cli_member_int (builder, "delta_ns", row_change (row));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static gboolean
print_json (Side   *sides,
            GArray *kernels,
            GArray *operators)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-trace-diff/1");
  side_json (builder, "a", &sides[0]);
  side_json (builder, "b", &sides[1]);
  rows_json (builder, "kernels", kernels, FALSE);
  rows_json (builder, "operators", operators, TRUE);
  json_builder_end_object (builder);
  return suanli_cli_print_json (builder, "suanli-cli trace diff");
}

static void
print_rows (const char *title,
            GArray     *rows)
{
  if (rows->len > 0)
    g_print ("%s\n", title);
  for (guint i = 0; i < rows->len && i < SHOWN_ROWS && row_change (&g_array_index (rows, DiffRow, i)) != 0; i++)
    {
      DiffRow *row = &g_array_index (rows, DiffRow, i);
      gboolean by_self = row->self_ns[0] != 0 || row->self_ns[1] != 0;
      g_autofree char *change = by_self ? suanli_cli_change_text (row->self_ns[0], row->self_ns[1])
                                        : suanli_cli_change_text (row->total_ns[0], row->total_ns[1]);
      g_autofree char *shown = g_utf8_strlen (row->name, -1) > NAME_COLUMNS ? g_utf8_substring (row->name, 0, NAME_COLUMNS - 1)
                                                                            : g_strdup (row->name);

      g_print ("  %-34s  %6llu → %-6llu  %s%s\n", change, (unsigned long long) row->count[0],
               (unsigned long long) row->count[1], shown, g_utf8_strlen (row->name, -1) > NAME_COLUMNS ? "…" : "");
    }
}

static void
print_text (Side   *sides,
            GArray *kernels,
            GArray *operators)
{
  g_autofree char *kernel = suanli_cli_change_text (sides[0].kernel_ns, sides[1].kernel_ns);
  g_autofree char *busy = suanli_cli_change_text (sides[0].busy_ns, sides[1].busy_ns);
  g_autofree char *idle = suanli_cli_change_text (sides[0].idle_ns, sides[1].idle_ns);

  g_print (_("A: %s\nB: %s\n"), sides[0].file, sides[1].file);
  g_print (_("GPU kernel time %s\nGPU busy time %s\nGPU idle time %s\n"), kernel, busy, idle);
  if (sides[0].step_median_ns >= 0 && sides[1].step_median_ns >= 0)
    {
      g_autofree char *step = suanli_cli_change_text (sides[0].step_median_ns, sides[1].step_median_ns);
      g_print (_("Median step time %s\n"), step);
    }
  print_rows (_("Kernels, largest change in total time first:"), kernels);
  print_rows (_("CPU operators, largest change in self time first:"), operators);
}

/* Writes @current's flame against @baseline's as one differential folded file (two count
 * columns, baseline first) to @out ("-" is standard output). */
static int
write_folded (SuanliFlame *baseline,
              SuanliFlame *current,
              const char  *out)
{
  g_autoptr(SuanliFlame) diff = suanli_flame_new_diff (baseline, current);
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) output = suanli_cli_trace_open_output (out, &error);

  if (output == NULL ||
      !suanli_cli_trace_close_output (output, suanli_flame_write_folded (diff, output, NULL, &error), &error))
    {
      g_printerr ("suanli-cli trace diff: %s: %s\n", out, error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  return SUANLI_EXIT_DONE;
}

/* The group of @trace for @rank: the file that gives that rank, or, where no file gives one, the
 * file at that position (from 0); G_MAXUINT when there is none. */
static guint
group_of_rank (SuanliTrace *trace,
               int          rank)
{
  SuanliGroup *group;

  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    if (suanli_trace_get_group (trace, g)->rank == rank)
      return g;
  group = suanli_trace_get_group (trace, (guint) rank);
  return group != NULL && group->rank < 0 ? (guint) rank : G_MAXUINT;
}

/* `diff FILE… --rank R --against-rank B`: the files as one trace, rank R's flame against rank B's. */
static int
diff_ranks (char            **files,
            int               n_files,
            int               rank,
            int               against,
            SuanliFlameKind   kind,
            SuanliFlameFlags  flags,
            const char       *out)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliFlame) baseline = NULL;
  g_autoptr(SuanliFlame) current = NULL;
  SuanliImportStats stats = { 0 };
  guint groups[2];
  int status;

  status = suanli_cli_trace_import (trace, &stats, (const char * const *) files, n_files);
  suanli_import_stats_clear (&stats);
  if (status != SUANLI_EXIT_DONE)
    return status;
  groups[0] = group_of_rank (trace, against);
  groups[1] = group_of_rank (trace, rank);
  for (guint i = 0; i < 2; i++)
    if (groups[i] == G_MAXUINT)
      {
        g_printerr (_("suanli-cli trace diff: no rank %d in these files\n"), i == 0 ? against : rank);
        return SUANLI_EXIT_USAGE_OR_IO;
      }
  baseline = suanli_flame_new_full (trace, kind, groups[0], G_MININT64, G_MAXINT64, flags);
  current = suanli_flame_new_full (trace, kind, groups[1], G_MININT64, G_MAXINT64, flags);
  return write_folded (baseline, current, out != NULL ? out : "-");
}

int
suanli_cli_trace_diff (int    argc,
                       char **argv)
{
  gboolean json = FALSE, gpu = FALSE, keep_steps = FALSE;
  int rank = -1, against = -1;
  g_autofree char *folded = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the comparison as suanli-trace-diff/1 JSON"), NULL },
    { "keep-step-numbers", 0, 0, G_OPTION_ARG_NONE, &keep_steps,
      N_("In the folded flames, keep frames that differ only by a step number (ProfilerStep#12) apart"), NULL },
    { "folded", 0, 0, G_OPTION_ARG_FILENAME, &folded, N_("Also write both flames (CPU, or GPU with --gpu) as one two-column folded file"),
      N_("OUT") },
    { "rank", 0, 0, G_OPTION_ARG_INT, &rank,
      N_("Read the files as one trace and write this rank's flame against another's (--against-rank) as two-column "
         "folded stacks, to --folded OUT or standard output"),
      N_("R") },
    { "against-rank", 0, 0, G_OPTION_ARG_INT, &against, N_("The rank compared with: the baseline column"), N_("R") },
    { "gpu", 0, 0, G_OPTION_ARG_NONE, &gpu, N_("Compare GPU time under the CPU stack that launched it, not CPU stacks"),
      NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("A B"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) kernels = NULL;
  g_autoptr(GArray) operators = NULL;
  Side sides[2] = { { 0 }, { 0 } };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("suanli-cli trace diff: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (rank >= 0 || against >= 0)
    {
      if (rank < 0 || against < 0 || json || argc < 2)
        {
          g_printerr ("suanli-cli trace diff: %s\n",
                      _("give the files of one trace, --rank and --against-rank (ranks from 0), and no --json"));
          return SUANLI_EXIT_USAGE_OR_IO;
        }
      return diff_ranks (argv + 1, argc - 1, rank, against, gpu ? SUANLI_FLAME_GPU : SUANLI_FLAME_CPU,
                         keep_steps ? SUANLI_FLAME_KEEP_STEP_NUMBERS : 0, folded);
    }
  if (argc != 3)
    {
      g_printerr ("suanli-cli trace diff: %s\n", _("give two traces: A (the baseline) and B"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  status = side_read (&sides[0], argv[1]);
  if (status == SUANLI_EXIT_DONE)
    status = side_read (&sides[1], argv[2]);
  if (status == SUANLI_EXIT_DONE)
    {
      kernels = join (sides, FALSE);
      operators = join (sides, TRUE);
      if (json && !print_json (sides, kernels, operators))
        status = SUANLI_EXIT_INVALID_INPUT;
      else if (!json)
        print_text (sides, kernels, operators);
      if (folded != NULL)
        {
          SuanliFlameKind kind = gpu ? SUANLI_FLAME_GPU : SUANLI_FLAME_CPU;
          SuanliFlameFlags flags = keep_steps ? SUANLI_FLAME_KEEP_STEP_NUMBERS : 0;
          g_autoptr(SuanliFlame) a = suanli_flame_new_full (sides[0].trace, kind, SUANLI_FLAME_ALL_GROUPS, G_MININT64,
                                                            G_MAXINT64, flags);
          g_autoptr(SuanliFlame) b = suanli_flame_new_full (sides[1].trace, kind, SUANLI_FLAME_ALL_GROUPS, G_MININT64,
                                                            G_MAXINT64, flags);

          status = write_folded (a, b, folded);
        }
    }
  side_clear (&sides[0]);
  side_clear (&sides[1]);
  return status;
}
