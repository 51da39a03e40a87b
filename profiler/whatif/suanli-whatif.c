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

#include "suanli-analysis-private.h"
#include "suanli-replay-graph.h"
#include "suanli-whatif.h"
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
          if (suanli_classifier_work (classifier, &g_array_index (track->slices, SuanliSlice, s)) != SUANLI_WORK_NONE)
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

static char *
communication_reason (const Scaling                  *scaling,
                      const SuanliWorkClassification *c,
                      const char                     *name,
                      gboolean                        collective,
                      double                         *factor)
{
  const SuanliWhatifOptions *o = scaling->options;
  double link = ratio (o->measured.link_bandwidth, o->target.link_bandwidth);
  GString *reason = g_string_new (NULL);

  if (link > 0)
    g_string_printf (reason, _("%s (%s): link %.0f → %.0f GB/s"), suanli_work_class_name (c->work_class), c->why,
                     o->measured.link_bandwidth / 1e9, o->target.link_bandwidth / 1e9);
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

/* Maps a thread's or stream's measured times to replayed ones: exact at its nodes' starts and
 * ends, linear between them, shifted beyond them. */
typedef struct
{
  GArray *measured;   /* of gint64, non-decreasing */
  GArray *replayed;
} TimeMap;

static gint64
map_time (const TimeMap *map,
          gint64         time)
{
  guint low = 0, high;
  gint64 m0, r0, m1, r1;

  if (map->measured == NULL || map->measured->len == 0)
    return time;
  high = map->measured->len;
  while (low < high)
    {
      guint middle = (low + high) / 2;

      if (g_array_index (map->measured, gint64, middle) <= time)
        low = middle + 1;
      else
        high = middle;
    }
  if (low == 0)
    return g_array_index (map->replayed, gint64, 0) - (g_array_index (map->measured, gint64, 0) - time);
  m0 = g_array_index (map->measured, gint64, low - 1);
  r0 = g_array_index (map->replayed, gint64, low - 1);
  if (low == map->measured->len)
    return r0 + (time - m0);
  m1 = g_array_index (map->measured, gint64, low);
  r1 = g_array_index (map->replayed, gint64, low);
  if (m1 <= m0)
    return r0;
  if (r1 - r0 == m1 - m0)
    return r0 + (time - m0);
  return r0 + (gint64) llround ((double) (time - m0) * (double) (r1 - r0) / (double) (m1 - m0));
}

/* A slice at its projected time, and its index in the measured track. */
typedef struct
{
  SuanliSlice slice;
  guint32     original;
} Moved;

/* The trace's own order (at equal start the longer first), which GLib's stable sort keeps: the
 * projected track is appended in it, so that finishing the trace does not move its slices. */
static int
compare_moved (gconstpointer a,
               gconstpointer b)
{
  const Moved *x = a, *y = b;

  if (x->slice.start != y->slice.start)
    return x->slice.start < y->slice.start ? -1 : 1;
  return (x->slice.duration < y->slice.duration) - (x->slice.duration > y->slice.duration);
}

static SuanliString
copy_string (SuanliTrace  *from,
             SuanliTrace  *to,
             guint32      *map,
             SuanliString  string)
{
  if (string == 0)
    return 0;
  if (map[string] == 0)
    map[string] = suanli_trace_intern (to, suanli_trace_get_string (from, string), -1);
  return map[string];
}

/* The replayed timeline of @group: its processes and their thread and stream tracks, each slice
 * at its replayed time (through the track's time map where it is not a node), and the flows
 * between them. */
static SuanliTrace *
make_projected (SuanliTrace       *trace,
                guint              group,
                SuanliReplayGraph *graph,
                const gint64      *starts,
                const gint64      *ends)
{
  SuanliTrace *projected = suanli_trace_new ();
  SuanliGroup *source = suanli_trace_get_group (trace, group);
  g_autofree guint32 *strings = g_new0 (guint32, suanli_trace_get_n_strings (trace) + 1);
  guint n_tracks = suanli_trace_get_n_tracks (trace);
  g_autofree TimeMap *maps = g_new0 (TimeMap, MAX (n_tracks, 1));
  const SuanliReplayNode *nodes = suanli_replay_graph_get_nodes (graph);
  g_autoptr(GArray) args = g_array_new (FALSE, FALSE, sizeof (SuanliArg));
  g_autoptr(GArray) moved_slices = g_array_new (FALSE, FALSE, sizeof (Moved));
  g_autofree guint *new_tracks = g_new (guint, MAX (n_tracks, 1));
  g_autofree guint32 **new_slices = g_new0 (guint32 *, MAX (n_tracks, 1));
  GArray *flows = suanli_trace_get_flows (trace);
  guint new_group;

  new_group = suanli_trace_begin_group (projected, source != NULL ? suanli_trace_get_string (trace, source->name) : "");
  if (source != NULL)
    {
      SuanliGroup *copy = suanli_trace_get_group (projected, new_group);

      copy->rank = source->rank;
      copy->world_size = source->world_size;
      copy->device = copy_string (trace, projected, strings, source->device);
      copy->device_memory = source->device_memory;
      copy->capture = source->capture;
    }
  for (guint p = 0; p < suanli_trace_get_n_processes (trace); p++)
    {
      SuanliProcess *process = suanli_trace_get_process (trace, p);
      SuanliProcess *copy;

      if (process->group != group)
        continue;
      copy = suanli_trace_ensure_process (projected, process->pid);
      copy->name = copy_string (trace, projected, strings, process->name);
      copy->labels = copy_string (trace, projected, strings, process->labels);
      copy->sort_index = process->sort_index;
      copy->rank = process->rank;
    }
  for (guint n = 0; n < suanli_replay_graph_get_n_nodes (graph); n++)
    {
      TimeMap *map = &maps[nodes[n].track];
      gint64 last;

      if (map->measured == NULL)
        {
          map->measured = g_array_new (FALSE, FALSE, sizeof (gint64));
          map->replayed = g_array_new (FALSE, FALSE, sizeof (gint64));
        }
      last = map->measured->len > 0 ? g_array_index (map->measured, gint64, map->measured->len - 1) : G_MININT64;
      /* Kept non-decreasing, so that the map can be searched: work that overlaps on one stream adds only its end. */
      if (nodes[n].start >= last)
        {
          g_array_append_val (map->measured, nodes[n].start);
          g_array_append_val (map->replayed, starts[n]);
        }
      if (nodes[n].start + nodes[n].duration >= MAX (last, nodes[n].start))
        {
          gint64 end = nodes[n].start + nodes[n].duration;

          g_array_append_val (map->measured, end);
          g_array_append_val (map->replayed, ends[n]);
        }
    }
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      SuanliTrack *copy;

      if (track->group != group || (track->kind != SUANLI_TRACK_THREAD && track->kind != SUANLI_TRACK_GPU_STREAM))
        continue;
      copy = suanli_trace_ensure_track (projected, track->kind, track->pid, track->tid,
                                        copy_string (trace, projected, strings, track->name), &new_tracks[t]);
      copy->sort_index = track->sort_index;
      g_array_set_size (moved_slices, 0);
      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          guint32 n = suanli_replay_graph_find_node (graph, t, s);
          SuanliSlice moved = *slice;
          const SuanliArg *from = suanli_trace_get_args (trace, slice);
          gint64 end;

          if (n != NONE)
            {
              moved.start = starts[n];
              end = ends[n];
            }
          else
            {
              moved.start = map_time (&maps[t], slice->start);
              end = map_time (&maps[t], slice->start + slice->duration);
            }
          moved.duration = MAX (0, end - moved.start);
          moved.name = copy_string (trace, projected, strings, slice->name);
          moved.category = copy_string (trace, projected, strings, slice->category);
          moved.depth = 0;
          moved.args = G_MAXUINT32;
          if (from != NULL)
            {
              g_array_set_size (args, 0);
              for (guint a = 0; a < slice->n_args; a++)
                {
                  SuanliArg arg = from[a];

                  arg.key = copy_string (trace, projected, strings, arg.key);
                  if (arg.type == SUANLI_ARG_STRING)
                    arg.s = copy_string (trace, projected, strings, arg.s);
                  g_array_append_val (args, arg);
                }
              moved.args = suanli_trace_add_args (projected, (const SuanliArg *) args->data, args->len);
            }
          {
            Moved entry = { moved, s };
            g_array_append_val (moved_slices, entry);
          }
        }
      g_array_sort (moved_slices, compare_moved);
      new_slices[t] = g_new (guint32, MAX (track->slices->len, 1));
      for (guint i = 0; i < moved_slices->len; i++)
        {
          Moved *entry = &g_array_index (moved_slices, Moved, i);

          new_slices[t][entry->original] = copy->slices->len;
          g_array_append_val (copy->slices, entry->slice);
        }
    }
  for (guint t = 0; t < n_tracks; t++)
    if (maps[t].measured != NULL)
      {
        g_array_unref (maps[t].measured);
        g_array_unref (maps[t].replayed);
      }
  suanli_trace_finish (projected);
  for (guint f = 0; f < flows->len; f++)
    {
      const SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);

      if (flow->from_track < n_tracks && flow->to_track < n_tracks && new_slices[flow->from_track] != NULL &&
          new_slices[flow->to_track] != NULL &&
          flow->from_slice < suanli_trace_get_track (trace, flow->from_track)->slices->len &&
          flow->to_slice < suanli_trace_get_track (trace, flow->to_track)->slices->len)
        {
          SuanliFlow copy = { new_tracks[flow->from_track], new_slices[flow->from_track][flow->from_slice],
                              new_tracks[flow->to_track], new_slices[flow->to_track][flow->to_slice],
                              copy_string (trace, projected, strings, flow->category) };

          suanli_trace_add_flow (projected, &copy);
        }
    }
  for (guint t = 0; t < n_tracks; t++)
    g_free (new_slices[t]);
  return projected;
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
  SuanliWhatifOptions bounded = *given;
  const SuanliWhatifOptions *options = &bounded;
  g_autoptr(SuanliWhatif) self = NULL;
  g_autoptr(SuanliReplayGraph) graph = NULL;
  g_autoptr(SuanliWorkClassifier) classifier = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autofree ThreadMarks *marks = NULL;
  g_autofree gint64 *durations = NULL, *starts = NULL, *ends = NULL, *projected = NULL;
  g_autofree gint64 *projected_starts = NULL, *projected_ends = NULL;
  g_autofree guint8 *classes = NULL, *overlapped = NULL;
  g_autofree NameScale *scales = NULL;
  const SuanliReplayNode *nodes;
  const SuanliReplayEdge *edges;
  SuanliReplayChoices choices = { NULL, -1 };
  SuanliFlopCount flop_count = { 0 };
  Scaling scaling = { options };
  guint group = options->group, n_nodes, n_tracks = suanli_trace_get_n_tracks (trace), n_steps;
  guint64 faster_by_operator = 0, faster_by_name = 0;
  gint64 format_ns[SUANLI_NUMBER_N_FORMATS] = { 0 };
  gint64 unscaled_ns[SUANLI_NUMBER_N_FORMATS] = { 0 };   /* compute time in the steps left unscaled, by the missing rate */
  double measured_ridge;
  guint trace_count = 1;
  GArray *steps;

  if (bounded.faster_factor > 0)
    bounded.faster_factor = CLAMP (bounded.faster_factor, SUANLI_WHATIF_FASTER_MIN, SUANLI_WHATIF_FASTER_MAX);
  if (group == G_MAXUINT)
    group = default_group (trace);
  if (group == G_MAXUINT || group >= MAX (suanli_trace_get_n_groups (trace), 1))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   group == G_MAXUINT ? _("the trace has no events on CPU threads or GPU streams to replay")
                                      : _("the trace has no file %u to replay"),
                   group);
      return NULL;
    }
  graph = suanli_replay_graph_new (trace, group);
  n_nodes = suanli_replay_graph_get_n_nodes (graph);
  if (n_nodes == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("the trace has no events on CPU threads or GPU streams to replay"));
      return NULL;
    }
  self = g_new0 (SuanliWhatif, 1);
  self->trace = g_object_ref (trace);
  self->group = group;
  self->kernels = g_array_new (FALSE, TRUE, sizeof (SuanliWhatifKernel));
  g_array_set_clear_func (self->kernels, kernel_clear);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  nodes = suanli_replay_graph_get_nodes (graph);
  edges = suanli_replay_graph_get_edges (graph);
  steps = suanli_replay_graph_get_steps (graph);
  n_steps = MAX (steps->len, 1);

  /* The replay with the measured durations. */
  durations = suanli_replay_graph_own_durations (graph);
  starts = g_new (gint64, n_nodes);
  ends = g_new (gint64, n_nodes);
  suanli_replay_graph_run (graph, durations, NULL, starts, ends);
  {
    g_autofree gint64 *measured = g_new (gint64, n_steps);

    for (guint i = 0; i < steps->len; i++)
      measured[i] = g_array_index (steps, SuanliReplayStep, i).duration;
    qsort (measured, steps->len, sizeof (gint64), suanli_compare_int64);
    self->figures.measured_ns = steps->len > 0 ? measured[(steps->len - 1) / 2] : 0;
  }
  self->figures.replayed_ns = suanli_replay_graph_median_step (graph, starts, ends);
  self->figures.steps = steps->len > 0 && g_array_index (steps, SuanliReplayStep, 0).begin != NONE ? steps->len : 0;
  self->figures.mfu_format = SUANLI_WHATIF_MFU_FORMAT;

  /* Counts of GPUs: the job's, and the target's. */
  suanli_trace_get_accelerator (trace, NULL, &trace_count);
  scaling.measured_count = MIN (options->measured.count > 0 ? options->measured.count : trace_count,
                                SUANLI_WHATIF_MAX_GPUS);
  scaling.target_count = MIN (options->target.count > 0 ? options->target.count : scaling.measured_count,
                              SUANLI_WHATIF_MAX_GPUS);

  /* Each GPU node's class and factor. */
  measured_ridge = options->measured.memory_bandwidth > 0
                     ? options->measured.flops[SUANLI_WHATIF_MFU_FORMAT] / options->measured.memory_bandwidth
                     : 0;
  classifier = suanli_work_classifier_new (trace, measured_ridge);
  marks = g_new0 (ThreadMarks, MAX (n_tracks, 1));
  mark_threads (trace, group, options->faster != NULL && *options->faster != '\0' ? options->faster : NULL, marks);
  classes = g_new0 (guint8, n_nodes);
  scales = g_new0 (NameScale, n_nodes);
  names = g_hash_table_new (NULL, NULL);   /* name + 1 → index into scales + 1 */
  {
    /* First pass: classes, and the compute format with the most time (for memory work whose format
     * is unknown, under a precision change). */
    for (guint n = 0; n < n_nodes; n++)
      {
        const SuanliSlice *slice, *op = NULL;
        const SuanliWorkClassification *c;
        guint32 call;

        if (nodes[n].kind != SUANLI_REPLAY_GPU)
          {
            classes[n] = SUANLI_WORK_HOST;
            continue;
          }
        slice = &g_array_index (suanli_trace_get_track (trace, nodes[n].track)->slices, SuanliSlice, nodes[n].slice);
        call = launch_of (nodes, edges, n);
        if (call != NONE && nodes[call].slice != NONE && marks[nodes[call].track].op != NULL &&
            marks[nodes[call].track].op[nodes[call].slice] != NONE)
          op = &g_array_index (suanli_trace_get_track (trace, nodes[call].track)->slices, SuanliSlice,
                               marks[nodes[call].track].op[nodes[call].slice]);
        c = suanli_work_classifier_classify (classifier, slice, op);
        classes[n] = c->work_class;
        if (c->work_class == SUANLI_WORK_COMPUTE && c->format_known)
          format_ns[c->format] += nodes[n].duration;
      }
    scaling.step_format = SUANLI_NUMBER_FP32;
    for (guint f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
      if (format_ns[f] > format_ns[scaling.step_format])
        scaling.step_format = f;
    scaling.step_format_known = format_ns[scaling.step_format] > 0;
  }

  projected = g_memdup2 (durations, sizeof (gint64) * n_nodes);
  for (guint n = 0; n < n_nodes; n++)
    {
      const SuanliSlice *slice;
      const SuanliWorkClassification *c;
      SuanliWorkClassification assumed;
      gpointer found;
      NameScale *scale;
      SuanliWhatifKernel *kernel;
      double factor;
      guint32 call;

      if (nodes[n].kind != SUANLI_REPLAY_GPU)
        {
          /* With steps, only the host time inside them goes: a gap between steps moves the next
           * step's start earlier without moving the GPU work queued before it. */
          if (options->no_host_gaps && suanli_replay_graph_has_gpu (graph) &&
              (self->figures.steps == 0 || nodes[n].step >= 0) &&
              (nodes[n].kind == SUANLI_REPLAY_GAP ||
               (nodes[n].kind == SUANLI_REPLAY_CALL && (nodes[n].flags & SUANLI_REPLAY_LAUNCHES) &&
                !(nodes[n].flags & SUANLI_REPLAY_BLOCKS))))
            projected[n] = 0;
          continue;
        }
      slice = &g_array_index (suanli_trace_get_track (trace, nodes[n].track)->slices, SuanliSlice, nodes[n].slice);
      found = g_hash_table_lookup (names, GUINT_TO_POINTER (slice->name + 1));
      if (found == NULL)
        {
          const char *name = suanli_trace_get_string (trace, slice->name);
          SuanliWhatifKernel fresh = { slice->name };

          scale = &scales[g_hash_table_size (names)];
          c = suanli_work_classifier_classify (classifier, slice, NULL);
          if (c->work_class == SUANLI_WORK_COMPUTE && !c->format_known && scaling.step_format_known)
            {
              /* A compute kernel whose name and operator give no format: the step's main one. */
              assumed = *c;
              assumed.format = scaling.step_format;
              assumed.format_why = _("assumed: the step's main compute format, as neither the name nor the operator "
                                     "gives one");
              c = &assumed;
            }
          scale->work_class = c->work_class;
          scale->format = c->format;
          fresh.work_class = c->work_class;
          fresh.format = c->format;
          fresh.reason = scale_name (&scaling, c, name, suanli_analysis_is_communication (name), &scale->factor);
          scale->kernel = self->kernels->len;
          g_array_append_val (self->kernels, fresh);
          g_hash_table_insert (names, GUINT_TO_POINTER (slice->name + 1), GUINT_TO_POINTER (g_hash_table_size (names) + 1));
          if (options->faster != NULL && *options->faster != '\0' && strstr (name, options->faster) != NULL)
            faster_by_name++;
        }
      else
        scale = &scales[GPOINTER_TO_UINT (found) - 1];
      factor = scale->factor;
      call = launch_of (nodes, edges, n);
      if (options->faster != NULL && options->faster_factor > 0 &&
          strstr (suanli_trace_get_string (trace, slice->name), options->faster) == NULL && call != NONE &&
          nodes[call].slice != NONE && marks[nodes[call].track].faster != NULL &&
          marks[nodes[call].track].faster[nodes[call].slice])
        {
          factor /= options->faster_factor;
          faster_by_operator++;
        }
      projected[n] = scaled_ns (durations[n], factor);
      if (scale->work_class == SUANLI_WORK_COMPUTE && nodes[n].step >= 0)
        {
          int to = options->precision >= 0 && options->precision < SUANLI_NUMBER_N_FORMATS ? options->precision
                                                                                          : (int) scale->format;

          if (!(options->measured.flops[scale->format] > 0) || !(options->target.flops[to] > 0))
            unscaled_ns[options->measured.flops[scale->format] > 0 ? to : (int) scale->format] += nodes[n].duration;
        }
      kernel = &g_array_index (self->kernels, SuanliWhatifKernel, scale->kernel);
      kernel->count++;
      kernel->measured_ns += nodes[n].duration;
      kernel->projected_ns += scaled_ns (nodes[n].duration, factor);
    }
  for (guint k = 0; k < self->kernels->len; k++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (self->kernels, SuanliWhatifKernel, k);

      kernel->factor = kernel->measured_ns > 0 ? (double) kernel->projected_ns / (double) kernel->measured_ns : 1;
    }
  if (faster_by_operator > 0)
    for (guint k = 0; k < self->kernels->len; k++)
      {
        SuanliWhatifKernel *kernel = &g_array_index (self->kernels, SuanliWhatifKernel, k);
        NameScale *scale = &scales[GPOINTER_TO_UINT (g_hash_table_lookup (names, GUINT_TO_POINTER (kernel->name + 1))) - 1];

        if (kernel->factor < scale->factor * (1 - FACTOR_TOLERANCE))
          {
            g_autofree char *plain = kernel->reason;

            /* Translators: "…; launched under “aten::linear”, 2× faster". */
            kernel->reason = g_strdup_printf (_("%s; launched under “%s”, %g× faster"), plain, options->faster,
                                              options->faster_factor);
          }
      }

  /* The replay with the projected durations and choices. */
  if (options->overlap_comm)
    {
      overlapped = g_new0 (guint8, n_nodes);
      for (guint n = 0; n < n_nodes; n++)
        overlapped[n] = nodes[n].kind == SUANLI_REPLAY_GPU && classes[n] == SUANLI_WORK_COMMUNICATION;
      choices.overlapped = overlapped;
    }
  if (options->no_host_gaps && suanli_replay_graph_has_gpu (graph))
    choices.launch_delay = suanli_replay_graph_typical_delay (graph, SUANLI_REPLAY_EDGE_STREAM);
  projected_starts = g_new (gint64, n_nodes);
  projected_ends = g_new (gint64, n_nodes);
  suanli_replay_graph_run (graph, projected, &choices, projected_starts, projected_ends);
  self->figures.projected_ns = suanli_replay_graph_median_step (graph, projected_starts, projected_ends);

  /* Time in each class, per step. */
  for (guint n = 0; n < n_nodes; n++)
    if (nodes[n].step >= 0)
      {
        self->figures.measured_class_ns[classes[n]] += nodes[n].duration;
        self->figures.projected_class_ns[classes[n]] += projected_ends[n] - projected_starts[n];
      }
  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    {
      self->figures.measured_class_ns[k] /= n_steps;
      self->figures.projected_class_ns[k] /= n_steps;
    }

  /* MFU. */
  suanli_analysis_flops (trace, &flop_count);
  if (flop_count.flops > 0)
    {
      double files = MAX (suanli_trace_get_n_groups (trace), 1);
      double measured_peak = options->measured.flops[SUANLI_WHATIF_MFU_FORMAT];
      double target_peak = options->target.flops[SUANLI_WHATIF_MFU_FORMAT];

      self->figures.flops = flop_count.flops / files / n_steps;
      if (measured_peak > 0 && self->figures.measured_ns > 0)
        self->figures.measured_mfu = self->figures.flops / (self->figures.measured_ns * 1e-9 * measured_peak);
      if (target_peak > 0 && self->figures.projected_ns > 0)
        self->figures.projected_mfu = self->figures.flops / (self->figures.projected_ns * 1e-9 * target_peak);
      if (files > 1)
        note (self, g_strdup_printf (_("FLOPs are those of all %.0f files, divided evenly among them."), files));
      if (measured_peak <= 0 || target_peak <= 0)
        note (self, g_strdup_printf (_("No dense BF16 peak for %s: its MFU is not known."),
                                     measured_peak <= 0 ? options->measured.name : options->target.name));
      else
        note (self, g_strdup (_("MFU is stated against each system's dense BF16 peak.")));
    }
  else
    note (self, g_strdup (_("The trace records no FLOPs (PyTorch's with_flops=True): MFU is not known.")));

  g_array_sort (self->kernels, compare_kernels);
  self->projected = make_projected (trace, group, graph, projected_starts, projected_ends);

  /* Notes: what was replayed and assumed. */
  if (suanli_trace_get_n_groups (trace) > 1)
    {
      SuanliGroup *replayed = suanli_trace_get_group (trace, group);

      note (self, g_strdup_printf (_("File %s (rank %d) is replayed, of %u; other ranks are not, and waits on them "
                                     "inside collectives stay as measured."),
                                   suanli_trace_get_string (trace, replayed->name), replayed->rank,
                                   suanli_trace_get_n_groups (trace)));
    }
  if (self->figures.steps == 0)
    note (self, g_strdup (_("The trace marks no ProfilerStep#N: the whole trace is one step.")));
  else
    {
      gint64 shortest = G_MAXINT64, longest = 0;

      for (guint i = 0; i < steps->len; i++)
        {
          shortest = MIN (shortest, g_array_index (steps, SuanliReplayStep, i).duration);
          longest = MAX (longest, g_array_index (steps, SuanliReplayStep, i).duration);
        }
      if (longest > STEP_SPREAD_NOTED * shortest)
        {
          g_autofree char *low = delay_text (shortest), *high = delay_text (longest);

          note (self, g_strdup_printf (_("The measured steps differ by more than %d× (%s to %s): the median (the lower "
                                         "middle one of an even count) may not be a typical step."),
                                       STEP_SPREAD_NOTED, low, high));
        }
      note (self, g_strdup_printf (_("The step is the median of %u: each from its ProfilerStep#N's start until it and "
                                     "the GPU work launched in it have ended."),
                                   self->figures.steps));
    }
  if (!suanli_replay_graph_has_gpu (graph))
    note (self, g_strdup (_("No GPU work: the threads' host work is replayed as measured; nothing is projected.")));
  else
    {
      g_autofree char *launch = delay_text (suanli_replay_graph_typical_delay (graph, SUANLI_REPLAY_EDGE_LAUNCH));
      g_autofree char *gap = delay_text (suanli_replay_graph_typical_delay (graph, SUANLI_REPLAY_EDGE_STREAM));

      note (self, g_strdup_printf (_("Typical delays (medians of the binding ones): launch to start %s, between work "
                                     "on a stream %s; work queued behind other work starts no later than its launch "
                                     "plus these."),
                                   launch, gap));
    }
  if (suanli_replay_graph_get_unplaced_waits (graph) > 0)
    note (self, g_strdup_printf (_("%u stream waits on events have no cuda_sync record giving their streams: they are "
                                   "not modelled."),
                                 suanli_replay_graph_get_unplaced_waits (graph)));
  if (suanli_replay_graph_get_cycle (graph))
    note (self, g_strdup (_("The measured times make a cycle in the graph; it was broken and the replay is approximate.")));
  {
    g_autoptr(GString) formats = g_string_new (NULL);
    gint64 total = 0;

    for (guint f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
      if (unscaled_ns[f] > 0)
        {
          g_autofree char *title = format_title (f);

          if (formats->len > 0)
            /* Translators: between formats, "no FP32 or TF32 rate". */
            g_string_append (formats, _(" or "));
          g_string_append (formats, title);
          total += unscaled_ns[f];
        }
    if (total > 0)
      {
        g_autofree char *time = delay_text (total / n_steps);

        note (self, g_strdup_printf (_("%s of compute per step was left as measured: a system has no %s rate for it (see "
                                       "the kernels' reasons), so the projected step mixes measured and projected "
                                       "times."),
                                     time, formats->str));
      }
  }
  if (options->overlap_comm && suanli_replay_graph_has_gpu (graph))
    note (self, g_strdup (_("Communication fully overlapped: it no longer delays compute or synchronisation, but each "
                            "step still ends after it.")));
  if (options->no_host_gaps && suanli_replay_graph_has_gpu (graph))
    {
      g_autofree char *delay = delay_text (choices.launch_delay);

      note (self, g_strdup_printf (_("Host gaps and launch calls removed, as CUDA graphs would: each launch's delay is "
                                     "the typical stream gap, %s, or its measured one where that is smaller; blocking "
                                     "calls keep their own time. All the host's time between calls is removed, "
                                     "Python and compilation included, not only what CUDA graphs would save."),
                                   delay));
    }
  if (options->faster != NULL && *options->faster != '\0' && options->faster_factor > 0)
    note (self, faster_by_name + faster_by_operator > 0
                  ? g_strdup_printf (_("Work named “%s”, or launched under an operator so named, made %g× faster."),
                                     options->faster, options->faster_factor)
                  : g_strdup_printf (_("No kernel or operator is named “%s”: nothing was made faster."), options->faster));
  if (scaling.target_count != scaling.measured_count)
    note (self, g_strdup_printf (_("%u → %u GPUs under data parallelism: each GPU's work is unchanged and collectives are "
                                   "resized by their ring bus factor, 2(n−1)/n for all-reduce."),
                                 scaling.measured_count, scaling.target_count));
  if (options->precision >= 0 && options->precision < SUANLI_NUMBER_N_FORMATS)
    {
      g_autofree char *to = format_title (options->precision);

      note (self, g_strdup_printf (_("Compute work changed to %s at its rate; memory work scaled by the bytes per element; "
                                     "collectives keep their size."),
                                   to));
    }
  note (self, g_strdup (_("Kernels keep their measured efficiency: each is scaled by the ratio of the two systems' rates "
                          "for its class, which is wrong for kernels limited by latency or occupancy and where the other "
                          "GPU would run other kernels.")));
  for (guint t = 0; t < n_tracks; t++)
    {
      g_free (marks[t].op);
      g_free (marks[t].faster);
    }
  return g_steal_pointer (&self);
}

void
suanli_whatif_free (SuanliWhatif *self)
{
  g_clear_object (&self->trace);
  g_clear_object (&self->projected);
  g_clear_pointer (&self->kernels, g_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
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
