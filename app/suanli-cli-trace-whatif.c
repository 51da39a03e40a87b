/* suanli-cli-trace-whatif.c — `suanli-cli trace whatif TRACE --accelerator ID [--from ID] [--gpus N]
 * [--overlap-comm] [--no-host-gaps] [--faster NAME=N] [--precision FORMAT] [--json]`: the trace's
 * step replayed on its dependency graph and projected onto another accelerator and other choices
 * (docs/what-if.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-cli.h"
#include "suanli-cli-trace-io.h"
#include "suanli-device-match.h"
#include "suanli-units.h"
#include "suanli-whatif-hardware.h"

#define COMMAND      "suanli-cli trace whatif"
#define SHOWN_ROWS   15
#define NAME_COLUMNS 80

/* The classes' names in the JSON, untranslated. */
static const char * const class_keys[SUANLI_WORK_N_CLASSES] = { "compute", "memory", "communication", "host" };

/* What the command was asked, and what it found the trace ran on. */
typedef struct
{
  const char *file;
  SuanliItem *measured;
  SuanliItem *target;
  const char *device;      /* the trace's device, when the measured accelerator came from it */
  gboolean    cpu_only;    /* no GPU work: nothing is projected, the host's work is replayed */
} Subject;

/* Whether any GPU stream of @trace has slices (a trace without them needs no --from). */
static gboolean
has_gpu_work (SuanliTrace *trace)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->slices->len > 0)
        return TRUE;
    }
  return FALSE;
}

/* Reads --faster NAME=N; FALSE with a message naming the option when it is not that. */
static gboolean
parse_faster (const char           *text,
              SuanliWhatifOptions  *options,
              char                **name)
{
  const char *equals = text != NULL ? strrchr (text, '=') : NULL;
  char *end = NULL;
  double factor;

  if (equals == NULL || equals == text)
    return FALSE;
  factor = g_ascii_strtod (equals + 1, &end);
  if (end == equals + 1 || *end != '\0' || !(factor >= SUANLI_WHATIF_FASTER_MIN) || !(factor <= SUANLI_WHATIF_FASTER_MAX))
    return FALSE;
  *name = g_strndup (text, (gsize) (equals - text));
  options->faster = *name;
  options->faster_factor = factor;
  return TRUE;
}

static gboolean
parse_precision (const char          *text,
                 SuanliWhatifOptions *options)
{
  for (int f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
    if (g_ascii_strcasecmp (text, suanli_number_format_nick (f)) == 0 && f != SUANLI_NUMBER_INT8)
      {
        options->precision = f;
        return TRUE;
      }
  return FALSE;
}

/* The catalog's accelerator @id, or NULL with a message naming @option. */
static SuanliItem *
accelerator (SuanliCatalog *catalog,
             const char    *option,
             const char    *id)
{
  SuanliItem *item = suanli_catalog_lookup (catalog, id);

  if (item == NULL || suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR)
    {
      g_printerr (_("%s: %s: the catalog has no accelerator “%s” (suanli-cli catalog list accelerators lists them)\n"),
                  COMMAND, option, id);
      return NULL;
    }
  return item;
}

static void
system_json (JsonBuilder *builder,
             const char  *member,
             SuanliItem  *item,
             const char  *device)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  suanli_cli_member_string (builder, "id", suanli_item_get_id (item));
  suanli_cli_member_string (builder, "name", suanli_item_get_name (item));
  if (g_str_equal (member, "measured_on"))
    {
      suanli_cli_member_string (builder, "from", device != NULL ? "trace" : "option");
      suanli_cli_member_string (builder, "device", device);
    }
  json_builder_end_object (builder);
}

static gboolean
print_json (const Subject             *subject,
            const SuanliWhatifOptions *options,
            SuanliTrace               *trace,
            SuanliWhatif              *whatif)
{
  const SuanliWhatifFigures *figures = suanli_whatif_get_figures (whatif);
  GArray *kernels = suanli_whatif_get_kernels (whatif);
  GPtrArray *notes = suanli_whatif_get_notes (whatif);
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  suanli_cli_member_string (builder, "schema", "suanli-whatif/1");
  suanli_cli_member_string (builder, "file", subject->file);
  if (subject->cpu_only)
    {
      json_builder_set_member_name (builder, "measured_on");
      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "id", NULL);
      suanli_cli_member_string (builder, "name", NULL);
      suanli_cli_member_string (builder, "from", "none");
      suanli_cli_member_string (builder, "device", NULL);
      json_builder_end_object (builder);
    }
  else
    system_json (builder, "measured_on", subject->measured, subject->device);
  system_json (builder, "target", subject->target, NULL);

  json_builder_set_member_name (builder, "options");
  json_builder_begin_object (builder);
  suanli_cli_member_int (builder, "gpus", options->target.count);
  json_builder_set_member_name (builder, "overlap_comm");
  json_builder_add_boolean_value (builder, options->overlap_comm);
  json_builder_set_member_name (builder, "no_host_gaps");
  json_builder_add_boolean_value (builder, options->no_host_gaps);
  json_builder_set_member_name (builder, "faster");
  if (options->faster != NULL)
    {
      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "name", options->faster);
      suanli_cli_member_double (builder, "factor", options->faster_factor);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  suanli_cli_member_string (builder, "precision", options->precision >= 0 ? suanli_number_format_nick (options->precision) : NULL);
  json_builder_end_object (builder);

  suanli_cli_member_int (builder, "steps", figures->steps);
  suanli_cli_member_int (builder, "measured_ns", figures->measured_ns);
  suanli_cli_member_int (builder, "replayed_ns", figures->replayed_ns);
  suanli_cli_member_int (builder, "projected_ns", figures->projected_ns);
  json_builder_set_member_name (builder, "classes");
  json_builder_begin_array (builder);
  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    {
      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "class", class_keys[k]);
      suanli_cli_member_int (builder, "measured_ns", figures->measured_class_ns[k]);
      suanli_cli_member_int (builder, "projected_ns", figures->projected_class_ns[k]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  suanli_cli_member_double (builder, "flops_per_step", figures->flops);
  suanli_cli_member_string (builder, "mfu_format", suanli_number_format_nick (figures->mfu_format));
  suanli_cli_member_double (builder, "measured_mfu", figures->measured_mfu);
  suanli_cli_member_double (builder, "projected_mfu", figures->projected_mfu);

  json_builder_set_member_name (builder, "kernels");
  json_builder_begin_array (builder);
  for (guint i = 0; i < kernels->len; i++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, i);

      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "name", suanli_trace_get_string (trace, kernel->name));
      suanli_cli_member_string (builder, "class", class_keys[kernel->work_class]);
      suanli_cli_member_string (builder, "format", suanli_number_format_nick (kernel->format));
      suanli_cli_member_int (builder, "count", (gint64) kernel->count);
      suanli_cli_member_int (builder, "measured_ns", kernel->measured_ns);
      suanli_cli_member_int (builder, "projected_ns", kernel->projected_ns);
      suanli_cli_member_double (builder, "factor", kernel->factor);
      suanli_cli_member_string (builder, "reason", kernel->reason);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (notes, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return suanli_cli_print_json (builder, COMMAND);
}

static void
print_text (const Subject *subject,
            SuanliTrace   *trace,
            SuanliWhatif  *whatif)
{
  const SuanliWhatifFigures *figures = suanli_whatif_get_figures (whatif);
  GArray *kernels = suanli_whatif_get_kernels (whatif);
  GPtrArray *notes = suanli_whatif_get_notes (whatif);
  g_autofree char *measured = suanli_format_duration_ns (figures->measured_ns);
  g_autofree char *replayed = suanli_format_duration_ns (figures->replayed_ns);
  g_autofree char *step = suanli_cli_change_text (figures->measured_ns, figures->projected_ns);

  if (subject->cpu_only)
    g_print (_("Measured on the CPU only: no GPU work, so nothing is projected; the host's work is replayed\n"));
  else if (subject->device != NULL)
    g_print (_("Measured on %s (the trace's device, “%s”)\n"), suanli_item_get_name (subject->measured), subject->device);
  else
    g_print (_("Measured on %s (--from)\n"), suanli_item_get_name (subject->measured));
  g_print (_("Projected onto %s\n"), suanli_item_get_name (subject->target));
  if (figures->steps > 0)
    g_print (_("Step (mean of %u): measured %s, replayed %s; projected %s\n"), figures->steps, measured, replayed, step);
  else
    g_print (_("Step (the whole trace): measured %s, replayed %s; projected %s\n"), measured, replayed, step);
  g_print (_("Time per step by class:\n"));
  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    {
      g_autofree char *change = suanli_cli_change_text (figures->measured_class_ns[k], figures->projected_class_ns[k]);

      g_print ("  %-16s %s\n", suanli_work_class_name (k), change);
    }
  if (figures->measured_mfu > 0 || figures->projected_mfu > 0)
    {
      g_autofree char *format = g_ascii_strup (suanli_number_format_nick (figures->mfu_format), -1);

      g_print (_("MFU (against the dense %s peak): %.1f%% → %.1f%%\n"), format, 100 * figures->measured_mfu,
               100 * figures->projected_mfu);
    }
  if (kernels->len > 0)
    g_print (_("Kernels, longest projected first (factor, measured → projected, name, and why):\n"));
  for (guint i = 0; i < kernels->len && i < SHOWN_ROWS; i++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, i);
      const char *name = suanli_trace_get_string (trace, kernel->name);
      g_autofree char *before = suanli_format_duration_ns (kernel->measured_ns);
      g_autofree char *after = suanli_format_duration_ns (kernel->projected_ns);
      glong length = g_utf8_strlen (name, -1);
      g_autofree char *shown = length > NAME_COLUMNS ? g_utf8_substring (name, 0, NAME_COLUMNS - 1) : g_strdup (name);

      g_print ("  ×%-6.3f %10s → %-10s %s%s\n           %s\n", kernel->factor, before, after, shown,
               length > NAME_COLUMNS ? "…" : "", kernel->reason);
    }
  if (notes->len > 0)
    g_print (_("Notes:\n"));
  for (guint i = 0; i < notes->len; i++)
    g_print ("  - %s\n", (const char *) g_ptr_array_index (notes, i));
}

int
suanli_cli_trace_whatif (int    argc,
                         char **argv)
{
  gboolean json = FALSE, overlap = FALSE, no_gaps = FALSE;
  g_autofree char *target_id = NULL, *from_id = NULL, *faster = NULL, *precision = NULL, *faster_name = NULL;
  int gpus = G_MININT;   /* not given */
  const GOptionEntry entries[] = {
    { "accelerator", 0, 0, G_OPTION_ARG_STRING, &target_id, N_("The catalog's accelerator to project onto"), N_("ID") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_id,
      N_("The catalog's accelerator the trace ran on, where the trace does not say or the catalog does not know its device"),
      N_("ID") },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, N_("Another GPU count under data parallelism: collectives resized"), N_("N") },
    { "overlap-comm", 0, 0, G_OPTION_ARG_NONE, &overlap, N_("Communication fully overlapped with compute"), NULL },
    { "no-host-gaps", 0, 0, G_OPTION_ARG_NONE, &no_gaps, N_("The host's gaps and launch calls removed, as CUDA graphs would"),
      NULL },
    { "faster", 0, 0, G_OPTION_ARG_STRING, &faster, N_("Work of a kernel or operator (a part of its name) N times faster"),
      N_("NAME=N") },
    { "precision", 0, 0, G_OPTION_ARG_STRING, &precision, N_("Compute work in another number format: bf16, fp16, fp8, tf32 or fp32"),
      N_("FORMAT") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the projection as suanli-whatif/1 JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("TRACE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  SuanliImportStats stats = { 0 };
  SuanliWhatifOptions options;
  Subject subject = { NULL };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", COMMAND, error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (argc != 2 || target_id == NULL)
    {
      g_printerr ("%s: %s\n", COMMAND, _("give one trace and --accelerator ID (the catalog's accelerator to project onto)"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  suanli_whatif_options_init (&options);
  if (faster != NULL && !parse_faster (faster, &options, &faster_name))
    {
      g_printerr (_("%s: --faster: “%s” is not NAME=N (a part of a kernel's or operator's name, and how many times faster, "
                    "from %g to %g)\n"),
                  COMMAND, faster, SUANLI_WHATIF_FASTER_MIN, SUANLI_WHATIF_FASTER_MAX);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (precision != NULL && !parse_precision (precision, &options))
    {
      g_printerr (_("%s: --precision: “%s” is not one of bf16, fp16, fp8, tf32, fp32\n"), COMMAND, precision);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (gpus != G_MININT && (gpus < 1 || gpus > SUANLI_WHATIF_MAX_GPUS))
    {
      g_printerr (_("%s: --gpus: %d is not a GPU count (1 to %d)\n"), COMMAND, gpus, SUANLI_WHATIF_MAX_GPUS);
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  catalog = suanli_cli_load_catalog ();
  subject.file = argv[1];
  subject.target = accelerator (catalog, "--accelerator", target_id);
  if (subject.target == NULL)
    return SUANLI_EXIT_INVALID_INPUT;
  if (from_id != NULL && (subject.measured = accelerator (catalog, "--from", from_id)) == NULL)
    return SUANLI_EXIT_INVALID_INPUT;

  trace = suanli_trace_new ();
  status = suanli_cli_trace_import (trace, &stats, (const char * const *) &argv[1], 1);
  suanli_import_stats_clear (&stats);
  if (status != SUANLI_EXIT_DONE)
    return status;
  if (subject.measured == NULL)
    {
      guint64 memory = 0;
      const char *device = suanli_trace_get_accelerator (trace, &memory, NULL);

      if (device == NULL && !has_gpu_work (trace))
        subject.cpu_only = TRUE;
      else if (device == NULL)
        {
          g_printerr (_("%s: %s does not say what it ran on: give --from ID (the catalog's accelerator it ran on)\n"), COMMAND,
                      argv[1]);
          return SUANLI_EXIT_INVALID_INPUT;
        }
      else if ((subject.measured = suanli_device_match (catalog, device, memory)) == NULL)
        {
          g_printerr (_("%s: %s ran on “%s”, which the catalog does not have: give --from ID (the catalog's accelerator it "
                        "ran on)\n"),
                      COMMAND, argv[1], device);
          return SUANLI_EXIT_INVALID_INPUT;
        }
      subject.device = device;
    }
  if (subject.cpu_only)
    subject.measured = subject.target;
  suanli_whatif_hardware_from_item (catalog, subject.measured, &options.measured);
  suanli_whatif_hardware_from_item (catalog, subject.target, &options.target);
  options.target.count = gpus != G_MININT ? (guint) gpus : 0;
  options.overlap_comm = overlap;
  options.no_host_gaps = no_gaps;

  whatif = suanli_whatif_new (trace, &options, &error);
  if (whatif == NULL)
    {
      g_printerr ("%s: %s: %s\n", COMMAND, argv[1], error->message);
      return SUANLI_EXIT_INVALID_INPUT;
    }
  if (json)
    return print_json (&subject, &options, trace, whatif) ? SUANLI_EXIT_DONE : SUANLI_EXIT_INVALID_INPUT;
  print_text (&subject, trace, whatif);
  return SUANLI_EXIT_DONE;
}
