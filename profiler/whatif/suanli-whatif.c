/* suanli-whatif.c — a measured trace replayed on its dependency graph with changed durations:
 * options → each piece of work's scale factor and why → replay → figures, kernels, the projected
 * timeline and notes
 *
 * Every figure used is the caller's (the catalog's rates in SuanliWhatifHardware) or the trace's;
 * the only constants are the bytes per element of each number format and the format MFU is stated
 * against, both named below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-class-shares.h"
#include "suanli-classifier.h"
#include "suanli-interval.h"
#include "suanli-replay-graph.h"
#include "suanli-whatif.h"
#include "suanli-whatif-timeline.h"
#include "suanli-work-classifier.h"

/* MFU is stated against the dense BF16 peak: the format training runs in and catalogs quote. */
#define SUANLI_WHATIF_MFU_FORMAT SUANLI_NUMBER_BF16

#define NONE G_MAXUINT32

struct _SuanliWhatif
{
  SuanliTrace         *trace;
  guint                group;       /* the file replayed */
  SuanliWhatifFigures  figures;
  GArray              *kernels;     /* of SuanliWhatifKernel */
  SuanliTrace         *projected;
  GPtrArray           *notes;
  char                *mfu_unknown; /* why the projected MFU is not known (nor Plan with This offered), or NULL */
};

/* How far below its name's factor a kernel's must be to count as made faster under an operator
 * (the factors are ratios of rounded nanoseconds, so equal ones can differ by a rounding). */
#define FACTOR_TOLERANCE 1e-3

/* Steps further apart than this ratio get a note: their median may not be typical. */
#define STEP_SPREAD_NOTED 2

/* One kernel name's scaling, found once. */
typedef struct
{
  SuanliWorkClass    work_class;
  SuanliNumberFormat format;
  double             factor;      /* for hardware, precision, GPU count and a faster name */
  guint              kernel;      /* its row in the kernels array */
} NameScale;

const char *
suanli_work_class_name (SuanliWorkClass work_class)
{
  switch (work_class)
    {
    case SUANLI_WORK_COMPUTE:
      return _("compute-bound");
    case SUANLI_WORK_MEMORY:
      return _("memory-bound");
    case SUANLI_WORK_COMMUNICATION:
      return _("communication");
    case SUANLI_WORK_HOST:
      return _("host-bound");
    default:
      return "";
    }
}

const char *
suanli_number_format_nick (SuanliNumberFormat format)
{
  static const char * const nicks[] = { "fp32", "tf32", "bf16", "fp16", "fp8", "int8" };

  return format < SUANLI_NUMBER_N_FORMATS ? nicks[format] : "";
}

/* "BF16" */
static char *
format_title (SuanliNumberFormat format)
{
  return g_ascii_strup (suanli_number_format_nick (format), -1);
}

/**
 * suanli_whatif_options_init:
 *
 * Sets @options to a replay of the measured trace with no change: no target (the caller fills in
 * measured and target), no what-if, as measured precision, the first file with GPU work.
 */
void
suanli_whatif_options_init (SuanliWhatifOptions *options)
{
  memset (options, 0, sizeof *options);
  options->faster_factor = 1;
  options->precision = -1;
  options->group = G_MAXUINT;
}

/* The most a projected duration can be: 2⁵³ ns (104 days), which leaves sums of millions of them
 * room in 64 bits and doubles exact. */
#define MAX_PROJECTED_NS ((gint64) 1 << 53)

/* @duration × @factor in whole nanoseconds, held to 0 … MAX_PROJECTED_NS (a factor from rates
 * of 0 or of extreme options can be anything). */
static gint64
scaled_ns (gint64 duration,
           double factor)
{
  double ns = (double) duration * factor;

  if (!(ns > 0))
    return 0;
  return ns >= (double) MAX_PROJECTED_NS ? MAX_PROJECTED_NS : (gint64) llround (ns);
}

static void
kernel_clear (gpointer data)
{
  SuanliWhatifKernel *kernel = data;

  g_free (kernel->reason);
}

/* A delay in the notes, in the unit its size wants ("25.0 ms", "4.2 µs", "800 ns"). */
static char *
delay_text (gint64 ns)
{
  if (ns >= 1000000)
    return g_strdup_printf ("%.1f ms", ns / 1e6);
  if (ns >= 1000)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
}

static void
note (SuanliWhatif *self,
      char         *sentence)
{
  g_ptr_array_add (self->notes, sentence);
}

/* The first file with GPU work, else the first with anything on a CPU thread; G_MAXUINT when none. */
static guint
default_group (SuanliTrace *trace)
{
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  guint cpu = G_MAXUINT, gpu = G_MAXUINT;

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_THREAD && track->slices->len > 0)
        cpu = MIN (cpu, track->group);
      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->group < gpu)
        for (guint s = 0; s < track->slices->len; s++)
          if (suanli_classifier_work (classifier, &g_array_index (track->slices, SuanliSlice, s)) != SUANLI_GPU_WORK_NONE)
            {
              gpu = track->group;
              break;
            }
    }
  return gpu != G_MAXUINT ? gpu : cpu;
}

/* Per CPU slice of each thread: the innermost operator around it (or itself), and whether it or
 * a slice around it has @faster in its name. */
typedef struct
{
  guint32  *op;
  guint8   *faster;
} ThreadMarks;

static void
mark_threads (SuanliTrace *trace,
              guint        group,
              const char  *faster,
              ThreadMarks *marks)
{
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  g_autoptr(GHashTable) matches = g_hash_table_new (NULL, NULL);   /* name + 1 → 1 no, 2 yes */

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      guint32 stack[256];

      if (track->kind != SUANLI_TRACK_THREAD || track->group != group)
        continue;
      marks[t].op = g_new (guint32, MAX (track->slices->len, 1));
      marks[t].faster = faster != NULL ? g_new0 (guint8, MAX (track->slices->len, 1)) : NULL;
      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          guint32 parent = slice->depth > 0 ? stack[slice->depth - 1] : NONE;

          stack[slice->depth] = s;
          marks[t].op[s] = suanli_classifier_is_operator (classifier, slice) ? s : parent != NONE ? marks[t].op[parent] : NONE;
          if (marks[t].faster != NULL)
            {
              gpointer key = GUINT_TO_POINTER (slice->name + 1);
              guint match = GPOINTER_TO_UINT (g_hash_table_lookup (matches, key));

              if (match == 0)
                {
                  match = strstr (suanli_trace_get_string (trace, slice->name), faster) != NULL ? 2 : 1;
                  g_hash_table_insert (matches, key, GUINT_TO_POINTER (match));
                }
              marks[t].faster[s] = match == 2 || (parent != NONE && marks[t].faster[parent]);
            }
        }
    }
}

/* The call that launched GPU node @n, or NONE. */
static guint32
launch_of (const SuanliReplayNode *nodes,
           const SuanliReplayEdge *edges,
           guint32                 n)
{
  for (guint32 e = nodes[n].first_in; e < nodes[n].first_in + nodes[n].n_in; e++)
    if (edges[e].kind == SUANLI_REPLAY_EDGE_LAUNCH)
      return edges[e].from;
  return NONE;
}

/* Context for finding each name's factor and reason. */
typedef struct
{
  const SuanliWhatifOptions *options;
  guint                      measured_count;
  guint                      target_count;
  SuanliNumberFormat         step_format;     /* the known compute format with the most time, else FP32 */
  gboolean                   step_format_known;
} Scaling;

static double
ratio (double measured,
       double target)
{
  return measured > 0 && target > 0 ? measured / target : 0;
}

/* One system's note on a figure, without its final full stop, or that it has none. */
static void
append_note (GString    *reason,
             const char *name,
             const char *text)
{
  gsize length = strlen (text);

  if (length == 0)
    {
      /* Translators: "A100 80GB SXM: no note". */
      g_string_append_printf (reason, _("%s: no note"), name);
      return;
    }
  if (g_str_has_suffix (text, "."))
    length--;
  else if (g_str_has_suffix (text, "。"))
    length -= strlen ("。");
  g_string_append_printf (reason, "%s: “%.*s”", name, (int) length, text);
}

/* Appends what the two systems' figures count where the catalog notes it for either (FP32 is
 * vector on one part and matrix on another; a link is one link on one and all of them on another),
 * so that a ratio of figures defined differently is seen to be so. */
static void
append_notes (GString                   *reason,
              const SuanliWhatifOptions *o,
              const char                *measured_note,
              const char                *target_note)
{
  if (g_str_equal (o->measured.name, o->target.name) || (*measured_note == '\0' && *target_note == '\0'))
    return;
  /* Translators: "; the catalog's notes: A100 80GB SXM: “NVLink 3: …”, Ascend 910B: “One HCCS link …”". */
  g_string_append (reason, _("; the catalog's notes: "));
  append_note (reason, o->measured.name, measured_note);
  g_string_append (reason, ", ");
  append_note (reason, o->target.name, target_note);
}

static char *
compute_reason (const Scaling                  *scaling,
                const SuanliWorkClassification *c,
                double                         *factor)
{
  const SuanliWhatifOptions *o = scaling->options;
  SuanliNumberFormat to = o->precision >= 0 && o->precision < SUANLI_NUMBER_N_FORMATS ? (SuanliNumberFormat) o->precision
                                                                                       : c->format;
  double measured = o->measured.flops[c->format], target = o->target.flops[to];
  g_autofree char *from_title = format_title (c->format);
  g_autofree char *to_title = format_title (to);
  g_autofree char *format = to != c->format ? g_strdup_printf (_("%s changed to %s"), from_title, to_title)
                                            : g_strdup (from_title);

  GString *reason = g_string_new (NULL);

  *factor = ratio (measured, target);
  if (*factor > 0)
    /* Translators: "compute-bound (“gemm” in the name), BF16 (“bf16” in the name): 312 → 989 TFLOP/s". */
    g_string_printf (reason, _("%s (%s), %s (%s): %.0f → %.0f TFLOP/s"), suanli_work_class_name (c->work_class), c->why,
                     format, c->format_why, measured / 1e12, target / 1e12);
  else
    {
      *factor = 1;
      g_string_printf (reason, _("%s (%s), %s (%s): no %s rate for %s, so unscaled"), suanli_work_class_name (c->work_class),
                       c->why, format, c->format_why, measured > 0 ? to_title : from_title,
                       measured > 0 ? o->target.name : o->measured.name);
    }
  if (c->format < SUANLI_NUMBER_N_FORMATS && to < SUANLI_NUMBER_N_FORMATS)
    append_notes (reason, o, o->measured.flops_note[c->format], o->target.flops_note[to]);
  return g_string_free (reason, FALSE);
}

static char *
memory_reason (const Scaling                  *scaling,
               const SuanliWorkClassification *c,
               double                         *factor)
{
  const SuanliWhatifOptions *o = scaling->options;
  double bandwidth = ratio (o->measured.memory_bandwidth, o->target.memory_bandwidth);
  GString *reason = g_string_new (NULL);

  if (bandwidth > 0)
    g_string_printf (reason, _("%s (%s): %.2f → %.2f TB/s"), suanli_work_class_name (c->work_class), c->why,
                     o->measured.memory_bandwidth / 1e12, o->target.memory_bandwidth / 1e12);
  else
    g_string_printf (reason, _("%s (%s): no memory bandwidth for %s, so unscaled"), suanli_work_class_name (c->work_class),
                     c->why, o->measured.memory_bandwidth > 0 ? o->target.name : o->measured.name);
  *factor = bandwidth > 0 ? bandwidth : 1;
  if (o->precision >= 0 && o->precision < SUANLI_NUMBER_N_FORMATS)
    {
      SuanliNumberFormat from = c->format_known ? c->format : scaling->step_format;
      guint before = suanli_number_format_bytes (from), after = suanli_number_format_bytes (o->precision);
      g_autofree char *from_title = format_title (from);
      g_autofree char *to_title = format_title (o->precision);

      *factor *= (double) after / before;
      /* Translators: "; BF16 → FP8: 2 → 1 bytes per element". */
      g_string_append_printf (reason, _("; %s → %s: %u → %u bytes per element"), from_title, to_title, before, after);
      if (!c->format_known)
        g_string_append (reason, _(" (its format taken to be the step's compute format)"));
    }
  return g_string_free (reason, FALSE);
}

/* The link a job of @count GPUs on @hardware communicates over: the scale-up fabric while the job
 * fits in its domain, else the slower host link between domains (the job's collectives cross it,
 * and a ring runs at its slowest hop). Sets @beyond when the job spans more than the domain. */
static double
job_link (const SuanliWhatifHardware *hardware,
          guint                       count,
          gboolean                   *beyond)
{
  *beyond = hardware->scale_up_domain > 0 && count > hardware->scale_up_domain && hardware->host_link_bandwidth > 0;
  return *beyond ? MIN (hardware->host_link_bandwidth, hardware->link_bandwidth) : hardware->link_bandwidth;
}

/* "; 8 GPUs span more than H200 NVL's scale-up domain of 4: its host link" for each side that does. */
static void
append_beyond (GString                    *reason,
               const SuanliWhatifHardware *hardware,
               guint                       count,
               gboolean                    beyond)
{
  if (beyond)
    /* Translators: "; 8 GPUs span more than H200 NVL's scale-up domain of 4: its host link". */
    g_string_append_printf (reason, _("; %u GPUs span more than %s's scale-up domain of %u: its host link"), count,
                            hardware->name, hardware->scale_up_domain);
}

static char *
communication_reason (const Scaling                  *scaling,
                      const SuanliWorkClassification *c,
                      const char                     *name,
                      gboolean                        collective,
                      double                         *factor)
{
  const SuanliWhatifOptions *o = scaling->options;
  gboolean measured_beyond, target_beyond;
  double measured = job_link (&o->measured, scaling->measured_count, &measured_beyond);
  double target = job_link (&o->target, scaling->target_count, &target_beyond);
  double link = ratio (measured, target);
  GString *reason = g_string_new (NULL);

  if (link > 0)
    {
      g_string_printf (reason, _("%s (%s): link %.0f → %.0f GB/s"), suanli_work_class_name (c->work_class), c->why,
                       measured / 1e9, target / 1e9);
      append_beyond (reason, &o->measured, scaling->measured_count, measured_beyond);
      append_beyond (reason, &o->target, scaling->target_count, target_beyond);
    }
  else
    g_string_printf (reason, _("%s (%s): no link bandwidth for %s, so the link is not scaled"),
                     suanli_work_class_name (c->work_class), c->why,
                     o->measured.link_bandwidth > 0 ? o->target.name : o->measured.name);
  *factor = link > 0 ? link : 1;
  append_notes (reason, o, o->measured.link_note, o->target.link_note);
  if (collective && scaling->target_count == 1 && scaling->measured_count != 1)
    {
      /* One GPU has no one to exchange with: a collective over one rank moves nothing. */
      *factor = 0;
      g_string_append_printf (reason, _("; %u → 1 GPU: a collective over one GPU moves nothing, so 0"),
                              scaling->measured_count);
    }
  else if (collective && scaling->target_count != scaling->measured_count)
    {
      g_autofree char *kind = suanli_analysis_collective_name (name);
      double before = suanli_analysis_bus_factor (kind, (int) scaling->measured_count);
      double after = suanli_analysis_bus_factor (kind, (int) scaling->target_count);

      if (before > 0 && after > 0)
        {
          *factor *= after / before;
          /* Translators: "; 8 → 16 GPUs: AllReduce's bus factor 1.750 → 1.875". */
          g_string_append_printf (reason, _("; %u → %u GPUs: %s's bus factor %.3f → %.3f"), scaling->measured_count,
                                  scaling->target_count, kind, before, after);
        }
      else
        g_string_append_printf (reason, _("; %u → %u GPUs: %s's bus factor is not known for these counts, so not resized"),
                                scaling->measured_count, scaling->target_count, kind);
    }
  return g_string_free (reason, FALSE);
}

/* @c's factor for one name, and the reason. */
static char *
scale_name (const Scaling                  *scaling,
            const SuanliWorkClassification *c,
            const char                     *name,
            gboolean                        collective,
            double                         *factor)
{
  const SuanliWhatifOptions *o = scaling->options;
  char *reason;

  switch (c->work_class)
    {
    case SUANLI_WORK_COMPUTE:
      reason = compute_reason (scaling, c, factor);
      break;
    case SUANLI_WORK_MEMORY:
      reason = memory_reason (scaling, c, factor);
      break;
    case SUANLI_WORK_COMMUNICATION:
      reason = communication_reason (scaling, c, name, collective, factor);
      break;
    default:
      *factor = 1;
      reason = g_strdup_printf (_("%s (%s): not scaled"), suanli_work_class_name (c->work_class), c->why);
      break;
    }
  if (o->faster != NULL && *o->faster != '\0' && o->faster_factor > 0 && strstr (name, o->faster) != NULL)
    {
      g_autofree char *plain = reason;

      *factor /= o->faster_factor;
      /* Translators: "…; 2× faster (“gemm”)". */
      reason = g_strdup_printf (_("%s; %g× faster (“%s”)"), plain, o->faster_factor, o->faster);
    }
  return reason;
}

static int
compare_kernels (gconstpointer a,
                 gconstpointer b)
{
  const SuanliWhatifKernel *x = a, *y = b;

  if (x->projected_ns != y->projected_ns)
    return x->projected_ns > y->projected_ns ? -1 : 1;
  return (x->measured_ns < y->measured_ns) - (x->measured_ns > y->measured_ns);
}

/* What a projection's stages pass on to the next: the options held to their ranges, the graph,
 * each node's class and durations, each kernel name's scale, and what the notes will say. */
typedef struct
{
  SuanliWhatif           *self;
  SuanliTrace            *trace;
  SuanliWhatifOptions     options;           /* the caller's, the faster factor held to its range */
  guint                   group;
  SuanliReplayGraph      *graph;
  const SuanliReplayNode *nodes;
  const SuanliReplayEdge *edges;
  GArray                 *steps;             /* of SuanliReplayStep: the graph's */
  guint                   n_nodes;
  guint                   n_tracks;
  guint                   n_steps;           /* at least 1: what sums per step are divided by */
  Scaling                 scaling;
  SuanliWorkClassifier   *classifier;
  ThreadMarks            *marks;             /* per track */
  guint8                 *classes;           /* per node: its SuanliWorkClass */
  NameScale              *scales;            /* per kernel name, in the order first seen */
  GHashTable             *names;             /* name + 1 → index into scales + 1 */
  gint64                 *durations;         /* per node: its measured own time */
  gint64                 *projected;         /* per node: its projected own time */
  gint64                 *projected_starts;
  gint64                 *projected_ends;
  guint8                 *overlapped;        /* per node, under --overlap-comm */
  SuanliReplayChoices     choices;
  guint64                 faster_by_name;    /* kernel names with the faster name in them */
  guint64                 faster_by_operator;   /* kernels made faster by the operator they were launched under */
  gint64                  unscaled_ns[SUANLI_NUMBER_N_FORMATS];   /* compute time in the steps left unscaled,
                                                                   * by the missing rate */
} Projection;

static void
projection_clear (Projection *p)
{
  if (p->marks != NULL)
    for (guint t = 0; t < p->n_tracks; t++)
      {
        g_free (p->marks[t].op);
        g_free (p->marks[t].faster);
      }
  g_free (p->marks);
  g_clear_pointer (&p->self, suanli_whatif_free);
  g_clear_pointer (&p->graph, suanli_replay_graph_free);
  g_clear_pointer (&p->classifier, suanli_work_classifier_free);
  g_clear_pointer (&p->names, g_hash_table_unref);
  g_free (p->classes);
  g_free (p->scales);
  g_free (p->durations);
  g_free (p->projected);
  g_free (p->projected_starts);
  g_free (p->projected_ends);
  g_free (p->overlapped);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Projection, projection_clear)

static gboolean
faster_named (const SuanliWhatifOptions *options)
{
  return options->faster != NULL && *options->faster != '\0';
}

/* The file to replay, from the options or the trace; FALSE with @error set when there is none. */
static gboolean
choose_group (Projection *p,
              GError    **error)
{
  guint group = p->options.group;

  if (group == G_MAXUINT)
    group = default_group (p->trace);
  if (group == G_MAXUINT || group >= MAX (suanli_trace_get_n_groups (p->trace), 1))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   group == G_MAXUINT ? _("the trace has no events on CPU threads or GPU streams to replay")
                                      : _("the trace has no file %u to replay"),
                   group);
      return FALSE;
    }
  p->group = group;
  return TRUE;
}

/* The file's graph; FALSE with @error set when it has no node. */
static gboolean
build_graph (Projection *p,
             GError    **error)
{
  p->graph = suanli_replay_graph_new (p->trace, p->group);
  p->n_nodes = suanli_replay_graph_get_n_nodes (p->graph);
  if (p->n_nodes == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the trace has no events on CPU threads or GPU streams to replay"));
      return FALSE;
    }
  p->nodes = suanli_replay_graph_get_nodes (p->graph);
  p->edges = suanli_replay_graph_get_edges (p->graph);
  p->steps = suanli_replay_graph_get_steps (p->graph);
  p->n_steps = MAX (p->steps->len, 1);
  p->self = g_new0 (SuanliWhatif, 1);
  p->self->trace = g_object_ref (p->trace);
  p->self->group = p->group;
  p->self->kernels = g_array_new (FALSE, TRUE, sizeof (SuanliWhatifKernel));
  g_array_set_clear_func (p->self->kernels, kernel_clear);
  p->self->notes = g_ptr_array_new_with_free_func (g_free);
  return TRUE;
}

/* The measured step (the mean of the steps' periods: docs/trace-analysis.md, "The step") and the
 * replay with the measured durations, which must give it back. */
static void
replay_measured (Projection *p)
{
  SuanliWhatifFigures *figures = &p->self->figures;
  g_autofree gint64 *starts = g_new (gint64, p->n_nodes);
  g_autofree gint64 *ends = g_new (gint64, p->n_nodes);
  gint64 total = 0;

  p->durations = suanli_replay_graph_own_durations (p->graph);
  suanli_replay_graph_run (p->graph, p->durations, NULL, starts, ends);
  for (guint i = 0; i < p->steps->len; i++)
    total += g_array_index (p->steps, SuanliReplayStep, i).duration;
  figures->measured_ns = total / p->n_steps;
  figures->replayed_ns = suanli_replay_graph_step_time (p->graph, starts, ends);
  figures->steps = p->steps->len > 0 && g_array_index (p->steps, SuanliReplayStep, 0).begin != NONE ? p->steps->len : 0;
  figures->mfu_format = SUANLI_WHATIF_MFU_FORMAT;
}

/* Counts of GPUs: the job's, and the target's. */
static void
count_gpus (Projection *p)
{
  const SuanliWhatifOptions *options = &p->options;
  guint trace_count = 1;

  suanli_trace_get_accelerator (p->trace, NULL, &trace_count);
  p->scaling.measured_count = MIN (options->measured.count > 0 ? options->measured.count : trace_count,
                                   SUANLI_WHATIF_MAX_GPUS);
  p->scaling.target_count = MIN (options->target.count > 0 ? options->target.count : p->scaling.measured_count,
                                 SUANLI_WHATIF_MAX_GPUS);
}

/* The innermost operator around the call that launched GPU node @n, or NULL. */
static const SuanliSlice *
launching_operator (Projection *p,
                    guint       n)
{
  guint32 call = launch_of (p->nodes, p->edges, n);
  const ThreadMarks *marks;

  if (call == NONE || p->nodes[call].slice == NONE)
    return NULL;
  marks = &p->marks[p->nodes[call].track];
  if (marks->op == NULL || marks->op[p->nodes[call].slice] == NONE)
    return NULL;
  return &g_array_index (suanli_trace_get_track (p->trace, p->nodes[call].track)->slices, SuanliSlice,
                         marks->op[p->nodes[call].slice]);
}

static const SuanliSlice *
node_slice (Projection *p,
            guint       n)
{
  return &g_array_index (suanli_trace_get_track (p->trace, p->nodes[n].track)->slices, SuanliSlice, p->nodes[n].slice);
}

/* Each node's class (each kernel name told once, from its first launch's operator), and the
 * compute format with the most time, for memory work whose format is unknown under a precision
 * change. */
static void
class_nodes (Projection *p)
{
  const SuanliWhatifOptions *options = &p->options;
  gint64 format_ns[SUANLI_NUMBER_N_FORMATS] = { 0 };
  double measured_ridge = options->measured.memory_bandwidth > 0
                            ? options->measured.flops[SUANLI_WHATIF_MFU_FORMAT] / options->measured.memory_bandwidth
                            : 0;

  p->classifier = suanli_work_classifier_new (p->trace, measured_ridge);
  p->marks = g_new0 (ThreadMarks, MAX (p->n_tracks, 1));
  mark_threads (p->trace, p->group, faster_named (options) ? options->faster : NULL, p->marks);
  p->classes = g_new0 (guint8, p->n_nodes);
  for (guint n = 0; n < p->n_nodes; n++)
    {
      const SuanliWorkClassification *c;

      if (p->nodes[n].kind != SUANLI_REPLAY_GPU)
        {
          p->classes[n] = SUANLI_WORK_HOST;
          continue;
        }
      c = suanli_work_classifier_classify (p->classifier, node_slice (p, n), launching_operator (p, n));
      p->classes[n] = c->work_class;
      if (c->work_class == SUANLI_WORK_COMPUTE && c->format_known)
        format_ns[c->format] += p->nodes[n].duration;
    }
  p->scaling.step_format = SUANLI_NUMBER_FP32;
  for (guint f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
    if (format_ns[f] > format_ns[p->scaling.step_format])
      p->scaling.step_format = f;
  p->scaling.step_format_known = format_ns[p->scaling.step_format] > 0;
}

/* The scale of @slice's kernel name: found, and given its row in the kernels, the first time the
 * name is seen. */
static NameScale *
name_scale (Projection        *p,
            const SuanliSlice *slice)
{
  gpointer found = g_hash_table_lookup (p->names, GUINT_TO_POINTER (slice->name + 1));
  SuanliWhatifKernel fresh = { slice->name };
  const SuanliWorkClassification *c;
  SuanliWorkClassification assumed;
  const char *name;
  NameScale *scale;

  if (found != NULL)
    return &p->scales[GPOINTER_TO_UINT (found) - 1];
  name = suanli_trace_get_string (p->trace, slice->name);
  scale = &p->scales[g_hash_table_size (p->names)];
  c = suanli_work_classifier_classify (p->classifier, slice, NULL);
  if (c->work_class == SUANLI_WORK_COMPUTE && !c->format_known && p->scaling.step_format_known)
    {
      /* A compute kernel whose name and operator give no format: the step's main one. */
      assumed = *c;
      assumed.format = p->scaling.step_format;
      assumed.format_why = _("assumed: the step's main compute format, as neither the name nor the operator "
                             "gives one");
      c = &assumed;
    }
  scale->work_class = c->work_class;
  scale->format = c->format;
  fresh.work_class = c->work_class;
  fresh.format = c->format;
  fresh.reason = scale_name (&p->scaling, c, name, suanli_analysis_is_communication (name), &scale->factor);
  scale->kernel = p->self->kernels->len;
  g_array_append_val (p->self->kernels, fresh);
  g_hash_table_insert (p->names, GUINT_TO_POINTER (slice->name + 1), GUINT_TO_POINTER (g_hash_table_size (p->names) + 1));
  if (faster_named (&p->options) && strstr (name, p->options.faster) != NULL)
    p->faster_by_name++;
  return scale;
}

/* Whether GPU node @n, whose name does not have the faster name in it, was launched under an
 * operator (or a slice around one) that has. */
static gboolean
launched_under_faster (Projection        *p,
                       const SuanliSlice *slice,
                       guint              n)
{
  const SuanliWhatifOptions *options = &p->options;
  guint32 call = launch_of (p->nodes, p->edges, n);
  const ThreadMarks *marks;

  if (options->faster == NULL || !(options->faster_factor > 0) ||
      strstr (suanli_trace_get_string (p->trace, slice->name), options->faster) != NULL || call == NONE ||
      p->nodes[call].slice == NONE)
    return FALSE;
  marks = &p->marks[p->nodes[call].track];
  return marks->faster != NULL && marks->faster[p->nodes[call].slice];
}

/* Compute work that a system has no rate for stays as measured: its time, by the missing rate. */
static void
count_unscaled_compute (Projection      *p,
                        const NameScale *scale,
                        guint            n)
{
  const SuanliWhatifOptions *options = &p->options;
  int to;

  if (scale->work_class != SUANLI_WORK_COMPUTE || p->nodes[n].step < 0)
    return;
  to = options->precision >= 0 && options->precision < SUANLI_NUMBER_N_FORMATS ? options->precision : (int) scale->format;
  if (!(options->measured.flops[scale->format] > 0) || !(options->target.flops[to] > 0))
    p->unscaled_ns[options->measured.flops[scale->format] > 0 ? to : (int) scale->format] += p->nodes[n].duration;
}

/* GPU node @n's projected duration, summed into its kernel's row. */
static void
scale_gpu_node (Projection *p,
                guint       n)
{
  const SuanliSlice *slice = node_slice (p, n);
  NameScale *scale = name_scale (p, slice);
  double factor = scale->factor;
  SuanliWhatifKernel *kernel;

  if (launched_under_faster (p, slice, n))
    {
      factor /= p->options.faster_factor;
      p->faster_by_operator++;
    }
  p->projected[n] = scaled_ns (p->durations[n], factor);
  count_unscaled_compute (p, scale, n);
  kernel = &g_array_index (p->self->kernels, SuanliWhatifKernel, scale->kernel);
  kernel->count++;
  kernel->measured_ns += p->nodes[n].duration;
  kernel->projected_ns += scaled_ns (p->nodes[n].duration, factor);
}

/* Whether host node @n's time goes under --no-host-gaps. With steps, only the host time inside
 * them goes: a gap between steps moves the next step's start earlier without moving the GPU work
 * queued before it. */
static gboolean
host_time_removed (Projection *p,
                   guint       n)
{
  const SuanliReplayNode *node = &p->nodes[n];

  return p->options.no_host_gaps && suanli_replay_graph_has_gpu (p->graph) &&
         (p->self->figures.steps == 0 || node->step >= 0) &&
         (node->kind == SUANLI_REPLAY_GAP ||
          (node->kind == SUANLI_REPLAY_CALL && (node->flags & SUANLI_REPLAY_LAUNCHES) &&
           !(node->flags & SUANLI_REPLAY_BLOCKS)));
}

/* Every node's projected duration, and each kernel name's row. */
static void
scale_durations (Projection *p)
{
  p->scales = g_new0 (NameScale, p->n_nodes);
  p->names = g_hash_table_new (NULL, NULL);
  p->projected = g_memdup2 (p->durations, sizeof (gint64) * p->n_nodes);
  for (guint n = 0; n < p->n_nodes; n++)
    {
      if (p->nodes[n].kind == SUANLI_REPLAY_GPU)
        scale_gpu_node (p, n);
      else if (host_time_removed (p, n))
        p->projected[n] = 0;
    }
}

/* Each kernel's factor, and the reason of those made faster by the operator they were launched
 * under as well as by their name's scale. */
static void
finish_kernels (Projection *p)
{
  GArray *kernels = p->self->kernels;

  for (guint k = 0; k < kernels->len; k++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);

      kernel->factor = kernel->measured_ns > 0 ? (double) kernel->projected_ns / (double) kernel->measured_ns : 1;
    }
  if (p->faster_by_operator == 0)
    return;
  for (guint k = 0; k < kernels->len; k++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);
      gpointer found = g_hash_table_lookup (p->names, GUINT_TO_POINTER (kernel->name + 1));
      NameScale *scale = &p->scales[GPOINTER_TO_UINT (found) - 1];

      if (kernel->factor < scale->factor * (1 - FACTOR_TOLERANCE))
        {
          g_autofree char *plain = kernel->reason;

          /* Translators: "…; launched under “aten::linear”, 2× faster". */
          kernel->reason = g_strdup_printf (_("%s; launched under “%s”, %g× faster"), plain, p->options.faster,
                                            p->options.faster_factor);
        }
    }
}

/* The replay with the projected durations and choices. With steps, only the communication in them
 * is overlapped, as only the host time in them goes without host gaps: the first step then starts
 * when it did without the choice, and the choice cannot lengthen the steps. */
static void
replay_projected (Projection *p)
{
  if (p->options.overlap_comm)
    {
      p->overlapped = g_new0 (guint8, p->n_nodes);
      for (guint n = 0; n < p->n_nodes; n++)
        p->overlapped[n] = p->nodes[n].kind == SUANLI_REPLAY_GPU && p->classes[n] == SUANLI_WORK_COMMUNICATION &&
                           (p->self->figures.steps == 0 || p->nodes[n].step >= 0);
      p->choices.overlapped = p->overlapped;
    }
  if (p->options.no_host_gaps && suanli_replay_graph_has_gpu (p->graph))
    p->choices.launch_delay = suanli_replay_graph_typical_delay (p->graph, SUANLI_REPLAY_EDGE_STREAM);
  p->projected_starts = g_new (gint64, p->n_nodes);
  p->projected_ends = g_new (gint64, p->n_nodes);
  suanli_replay_graph_run (p->graph, p->projected, &p->choices, p->projected_starts, p->projected_ends);
  p->self->figures.projected_ns = suanli_replay_graph_step_time (p->graph, p->projected_starts, p->projected_ends);
}

/* Each class's share of the step, measured and projected (suanli-class-shares.c): they add up to
 * the step. */
static void
sum_class_times (Projection *p)
{
  SuanliWhatifFigures *figures = &p->self->figures;
  g_autofree gint64 *measured_starts = g_new (gint64, p->n_nodes);
  g_autofree gint64 *measured_ends = g_new (gint64, p->n_nodes);
  gint64 from, to;

  for (guint n = 0; n < p->n_nodes; n++)
    {
      measured_starts[n] = p->nodes[n].start;
      measured_ends[n] = p->nodes[n].start + p->nodes[n].duration;
    }
  suanli_replay_graph_step_window (p->graph, measured_starts, measured_ends, &from, &to);
  suanli_class_shares (p->nodes, p->n_nodes, p->classes, measured_starts, measured_ends, from, to,
                       figures->measured_class_ns);
  suanli_replay_graph_step_window (p->graph, p->projected_starts, p->projected_ends, &from, &to);
  suanli_class_shares (p->nodes, p->n_nodes, p->classes, p->projected_starts, p->projected_ends, from, to,
                       figures->projected_class_ns);
  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    {
      figures->measured_class_ns[k] /= p->n_steps;
      figures->projected_class_ns[k] /= p->n_steps;
    }
}

/* FLOPs per step and MFU, measured and projected, with their notes. */
static void
state_mfu (Projection *p)
{
  const SuanliWhatifOptions *options = &p->options;
  SuanliWhatifFigures *figures = &p->self->figures;
  SuanliFlopCount flop_count = { 0 };
  double files = MAX (suanli_trace_get_n_groups (p->trace), 1);
  double measured_peak = options->measured.flops[SUANLI_WHATIF_MFU_FORMAT];
  double target_peak = options->target.flops[SUANLI_WHATIF_MFU_FORMAT];

  suanli_analysis_flops (p->trace, &flop_count);
  if (!(flop_count.flops > 0))
    {
      p->self->mfu_unknown = g_strdup (_("The trace records no FLOPs (PyTorch's with_flops=True), nor the input shapes "
                                         "of matrix products, convolutions or attention to count them from "
                                         "(record_shapes=True): MFU is not known."));
      note (p->self, g_strdup (p->self->mfu_unknown));
      return;
    }
  if (flop_count.from_shapes > 0)
    note (p->self, g_strdup_printf (_("FLOPs of %llu operators counted from their input shapes (record_shapes=True): "
                                      "matrix products, convolutions (their output taken as large as their input) "
                                      "and attention."),
                                    (unsigned long long) flop_count.from_shapes));
  figures->flops = flop_count.flops / files / p->n_steps;
  if (measured_peak > 0 && figures->measured_ns > 0)
    figures->measured_mfu = figures->flops / (figures->measured_ns * 1e-9 * measured_peak);
  if (target_peak > 0 && figures->projected_ns > 0)
    figures->projected_mfu = figures->flops / (figures->projected_ns * 1e-9 * target_peak);
  if (figures->projected_mfu > 1)
    p->self->mfu_unknown = g_strdup (_("The projected MFU is above one: the trace's FLOPs or its step are not what "
                                       "they seem."));
  if (files > 1)
    note (p->self, g_strdup_printf (_("FLOPs are those of all %.0f files, divided evenly among them."), files));
  if (measured_peak <= 0 || target_peak <= 0)
    {
      g_autofree char *why = g_strdup_printf (_("No dense BF16 peak for %s: its MFU is not known."),
                                              measured_peak <= 0 ? options->measured.name : options->target.name);

      if (target_peak <= 0)
        p->self->mfu_unknown = g_strdup (why);
      note (p->self, g_steal_pointer (&why));
    }
  else
    note (p->self, g_strdup (_("MFU is stated against each system's dense BF16 peak.")));
}

/* Notes on the file replayed and its steps. */
static void
note_steps (Projection *p)
{
  gint64 shortest = G_MAXINT64, longest = 0;

  if (suanli_trace_get_n_groups (p->trace) > 1)
    {
      SuanliGroup *replayed = suanli_trace_get_group (p->trace, p->group);

      note (p->self, g_strdup_printf (_("File %s (rank %d) is replayed, of %u; other ranks are not, and waits on them "
                                        "inside collectives stay as measured."),
                                      suanli_trace_get_string (p->trace, replayed->name), replayed->rank,
                                      suanli_trace_get_n_groups (p->trace)));
    }
  if (p->self->figures.steps == 0)
    {
      note (p->self, g_strdup (_("The trace marks no ProfilerStep#N: the whole trace is one step.")));
      return;
    }
  for (guint i = 0; i < p->steps->len; i++)
    {
      shortest = MIN (shortest, g_array_index (p->steps, SuanliReplayStep, i).duration);
      longest = MAX (longest, g_array_index (p->steps, SuanliReplayStep, i).duration);
    }
  if (longest > STEP_SPREAD_NOTED * shortest)
    {
      g_autofree char *low = delay_text (shortest), *high = delay_text (longest);

      note (p->self, g_strdup_printf (_("The measured steps differ by more than %d× (%s to %s): their mean may not "
                                        "be a typical step."),
                                      STEP_SPREAD_NOTED, low, high));
    }
  note (p->self, g_strdup_printf (_("The step is the mean of %u: each from its ProfilerStep#N's start to the next "
                                    "one's, the last until every step and the GPU work launched in them have ended."),
                                  p->self->figures.steps));
}

/* Notes on the graph: its typical delays, and what it could not model. */
static void
note_graph (Projection *p)
{
  if (!suanli_replay_graph_has_gpu (p->graph))
    note (p->self, g_strdup (_("No GPU work: the threads' host work is replayed as measured; nothing is projected.")));
  else
    {
      g_autofree char *launch = delay_text (suanli_replay_graph_typical_delay (p->graph, SUANLI_REPLAY_EDGE_LAUNCH));
      g_autofree char *gap = delay_text (suanli_replay_graph_typical_delay (p->graph, SUANLI_REPLAY_EDGE_STREAM));

      note (p->self, g_strdup_printf (_("Typical delays (medians of the binding ones): launch to start %s, between work "
                                        "on a stream %s; work queued behind other work starts no later than its launch "
                                        "plus these."),
                                      launch, gap));
    }
  if (suanli_replay_graph_get_unplaced_waits (p->graph) > 0)
    note (p->self, g_strdup_printf (_("%u stream waits on events have no cuda_sync record giving their streams: they are "
                                      "not modelled."),
                                    suanli_replay_graph_get_unplaced_waits (p->graph)));
  if (suanli_replay_graph_get_cycle (p->graph))
    note (p->self, g_strdup (_("The measured times make a cycle in the graph; it was broken and the replay is approximate.")));
}

/* A note on the compute time left as measured for want of a rate, if any. */
static void
note_unscaled_compute (Projection *p)
{
  g_autoptr(GString) formats = g_string_new (NULL);
  g_autofree char *time = NULL;
  gint64 total = 0;

  for (guint f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
    if (p->unscaled_ns[f] > 0)
      {
        g_autofree char *title = format_title (f);

        if (formats->len > 0)
          /* Translators: between formats, "no FP32 or TF32 rate". */
          g_string_append (formats, _(" or "));
        g_string_append (formats, title);
        total += p->unscaled_ns[f];
      }
  if (total == 0)
    return;
  time = delay_text (total / p->n_steps);
  note (p->self, g_strdup_printf (_("%s of compute per step was left as measured: a system has no %s rate for it (see "
                                    "the kernels' reasons), so the projected step mixes measured and projected "
                                    "times."),
                                  time, formats->str));
}

/* Notes on the choices made, and on what every projection assumes. */
static void
note_choices (Projection *p)
{
  const SuanliWhatifOptions *options = &p->options;
  gboolean has_gpu = suanli_replay_graph_has_gpu (p->graph);

  if (options->overlap_comm && has_gpu)
    note (p->self, g_strdup (_("Communication fully overlapped: it no longer delays compute or synchronisation, but each "
                               "step still ends after it.")));
  if (options->no_host_gaps && has_gpu)
    {
      g_autofree char *delay = delay_text (p->choices.launch_delay);

      note (p->self, g_strdup_printf (_("Host gaps and launch calls removed, as CUDA graphs would: each launch's delay is "
                                        "the typical stream gap, %s, or its measured one where that is smaller; blocking "
                                        "calls keep their own time. All the host's time between calls is removed, "
                                        "Python and compilation included, not only what CUDA graphs would save."),
                                      delay));
    }
  if (faster_named (options) && options->faster_factor > 0)
    note (p->self, p->faster_by_name + p->faster_by_operator > 0
                     ? g_strdup_printf (_("Work named “%s”, or launched under an operator so named, made %g× faster."),
                                        options->faster, options->faster_factor)
                     : g_strdup_printf (_("No kernel or operator is named “%s”: nothing was made faster."), options->faster));
  if (p->scaling.target_count != p->scaling.measured_count)
    note (p->self, g_strdup_printf (_("%u → %u GPUs under data parallelism: each GPU's work is unchanged and collectives are "
                                      "resized by their ring bus factor, 2(n−1)/n for all-reduce."),
                                    p->scaling.measured_count, p->scaling.target_count));
  if (options->precision >= 0 && options->precision < SUANLI_NUMBER_N_FORMATS)
    {
      g_autofree char *to = format_title (options->precision);

      note (p->self, g_strdup_printf (_("Compute work changed to %s at its rate; memory work scaled by the bytes per element; "
                                        "collectives keep their size."),
                                      to));
    }
  note (p->self, g_strdup (_("Kernels keep their measured efficiency: each is scaled by the ratio of the two systems' rates "
                             "for its class, which is wrong for kernels limited by latency or occupancy and where the other "
                             "GPU would run other kernels.")));
}

/**
 * suanli_whatif_new:
 * @options: the hardware measured and projected onto, and the what-ifs
 *
 * Replays @trace's step on its dependency graph, with the measured durations and with those that
 * @options give.
 *
 * Returns: (transfer full) (nullable): the projection, or NULL with @error set when the trace has
 * nothing to replay or @options name a file it does not have.
 */
SuanliWhatif *
suanli_whatif_new (SuanliTrace               *trace,
                   const SuanliWhatifOptions *given,
                   GError                   **error)
{
  g_auto(Projection) p = { NULL, trace, *given };

  if (p.options.faster_factor > 0)
    p.options.faster_factor = CLAMP (p.options.faster_factor, SUANLI_WHATIF_FASTER_MIN, SUANLI_WHATIF_FASTER_MAX);
  p.n_tracks = suanli_trace_get_n_tracks (trace);
  p.scaling.options = &p.options;
  p.choices.launch_delay = -1;
  if (!choose_group (&p, error) || !build_graph (&p, error))
    return NULL;
  replay_measured (&p);
  count_gpus (&p);
  class_nodes (&p);
  scale_durations (&p);
  finish_kernels (&p);
  replay_projected (&p);
  sum_class_times (&p);
  state_mfu (&p);
  g_array_sort (p.self->kernels, compare_kernels);
  p.self->projected = suanli_whatif_timeline_new (trace, p.group, p.graph, p.projected_starts, p.projected_ends);
  note_steps (&p);
  note_graph (&p);
  note_unscaled_compute (&p);
  note_choices (&p);
  return g_steal_pointer (&p.self);
}

void
suanli_whatif_free (SuanliWhatif *self)
{
  g_clear_object (&self->trace);
  g_clear_object (&self->projected);
  g_clear_pointer (&self->kernels, g_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_free (self->mfu_unknown);
  g_free (self);
}

/* The file (rank) that was replayed: the projected timeline is of its threads and streams. */
guint
suanli_whatif_get_group (SuanliWhatif *self)
{
  return self->group;
}

const SuanliWhatifFigures *
suanli_whatif_get_figures (SuanliWhatif *self)
{
  return &self->figures;
}

/* Returns: (transfer none): SuanliWhatifKernel per kernel name, longest projected first. */
GArray *
suanli_whatif_get_kernels (SuanliWhatif *self)
{
  return self->kernels;
}

/* Returns: (transfer none): the replayed file's threads and streams at their projected times. */
SuanliTrace *
suanli_whatif_get_projected (SuanliWhatif *self)
{
  return self->projected;
}

/* Returns: (transfer none): sentences on what was assumed or left out. */
GPtrArray *
suanli_whatif_get_notes (SuanliWhatif *self)
{
  return self->notes;
}

/* Returns: (nullable): why the projected MFU is not known, and so a plan cannot start from it (for
 * the What If view's "Plan with This"); NULL when it is known. */
const char *
suanli_whatif_get_mfu_unknown (SuanliWhatif *self)
{
  return self->mfu_unknown;
}
