/* suanli-analysis-memory.c — what a trace says about memory and arithmetic: each device's peak from
 * PyTorch's memory events, and the floating-point operations its profiler counted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "suanli-analysis-private.h"
#include "suanli-shape-flops.h"

#define ALLOCATED_SUFFIX " memory allocated"
#define RESERVED_SUFFIX  " memory reserved"

/**
 * suanli_memory_counter_name:
 * @device_type: c10's DeviceType of the "[memory]" event (0 CPU, 1 CUDA)
 * @device: its "Device Id"
 * @reserved: the reserved total rather than the allocated one
 *
 * Returns: (transfer full): the name of the counter the importer files a device's memory totals
 * under, "GPU 0 memory allocated" say; suanli_analysis_memory_peaks() reads it back.
 */
char *
suanli_memory_counter_name (gint64   device_type,
                            gint64   device,
                            gboolean reserved)
{
  g_autofree char *name = suanli_memory_device_name (device_type, device);

  return g_strconcat (name, reserved ? RESERVED_SUFFIX : ALLOCATED_SUFFIX, NULL);
}

/* Returns: (transfer full): how the counters name a device: "GPU 0", "CPU", "Device 13:0". */
char *
suanli_memory_device_name (gint64 device_type,
                           gint64 device)
{
  if (device_type == 0)
    return g_strdup ("CPU");
  if (device_type == 1)
    return g_strdup_printf ("GPU %" G_GINT64_FORMAT, device);
  return g_strdup_printf ("Device %" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, device_type, device);
}

/* The device a memory counter's name stands for; FALSE for every other counter. */
static gboolean
parse_counter_name (const char *name,
                    gint64     *device_type,
                    gint64     *device,
                    gboolean   *reserved)
{
  gsize length = strlen (name);
  g_autofree char *prefix = NULL;
  long long type, index;
  char end;

  if (g_str_has_suffix (name, ALLOCATED_SUFFIX))
    *reserved = FALSE, prefix = g_strndup (name, length - strlen (ALLOCATED_SUFFIX));
  else if (g_str_has_suffix (name, RESERVED_SUFFIX))
    *reserved = TRUE, prefix = g_strndup (name, length - strlen (RESERVED_SUFFIX));
  else
    return FALSE;
  if (g_str_equal (prefix, "CPU"))
    {
      *device_type = 0, *device = -1;
      return TRUE;
    }
  if (sscanf (prefix, "GPU %lld%c", &index, &end) == 1)
    {
      *device_type = 1, *device = index;
      return TRUE;
    }
  if (sscanf (prefix, "Device %lld:%lld%c", &type, &index, &end) == 2)
    {
      *device_type = type, *device = index;
      return TRUE;
    }
  return FALSE;
}

static SuanliMemoryPeak *
peak_entry (GArray      *peaks,
            SuanliTrack *track,
            gint64       device_type,
            gint64       device)
{
  SuanliMemoryPeak fresh = { track->pid, track->group, device_type, device, -1, -1, 0 };

  for (guint i = 0; i < peaks->len; i++)
    {
      SuanliMemoryPeak *peak = &g_array_index (peaks, SuanliMemoryPeak, i);

      if (peak->pid == track->pid && peak->group == track->group && peak->device_type == device_type &&
          peak->device == device)
        return peak;
    }
  g_array_append_val (peaks, fresh);
  return &g_array_index (peaks, SuanliMemoryPeak, peaks->len - 1);
}

/**
 * suanli_analysis_memory_peaks:
 *
 * Returns: (transfer full): a SuanliMemoryPeak per process and device whose memory the trace
 * recorded, in the order the counters come; empty when the trace has no memory events.
 */
GArray *
suanli_analysis_memory_peaks (SuanliTrace *trace)
{
  GArray *peaks = g_array_new (FALSE, TRUE, sizeof (SuanliMemoryPeak));

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      SuanliMemoryPeak *peak;
      gint64 device_type, device;
      gboolean reserved;

      if (track->kind != SUANLI_TRACK_COUNTER || track->samples->len == 0 ||
          !parse_counter_name (suanli_trace_get_string (trace, track->name), &device_type, &device, &reserved))
        continue;
      peak = peak_entry (peaks, track, device_type, device);
      for (guint s = 0; s < track->samples->len; s++)
        {
          const SuanliSample *sample = &g_array_index (track->samples, SuanliSample, s);

          if (reserved)
            peak->peak_reserved = MAX (peak->peak_reserved, sample->value);
          else if (sample->value > peak->peak_allocated)
            {
              peak->peak_allocated = sample->value;
              peak->peak_time = sample->time;
            }
        }
    }
  return peaks;
}

/* What an argument's key is, to slice_flops(). */
enum { KEY_UNKNOWN, KEY_FLOPS, KEY_INPUT_DIMS, KEY_OTHER };

/* The FLOPs @slice records: its "flops" argument (with_flops=True), else those its inputs' shapes
 * give ("Input Dims", record_shapes=True: suanli-shape-flops.c) for a matrix product, convolution
 * or attention; 0 when neither. @from_shapes says which. */
static double
slice_flops (SuanliTrace       *trace,
             const SuanliSlice *slice,
             GArray            *key_kinds,
             GArray            *shape_names,
             gboolean          *from_shapes)
{
  const SuanliArg *args = suanli_trace_get_args (trace, slice);
  const SuanliArg *dims = NULL;
  guint8 *shape_name;

  *from_shapes = FALSE;
  for (guint a = 0; a < slice->n_args; a++)
    {
      SuanliString key = args[a].key;
      guint8 *kind = suanli_analysis_string_byte (trace, key_kinds, key);

      if (*kind == KEY_UNKNOWN)
        {
          const char *text = suanli_trace_get_string (trace, key);

          *kind = g_str_equal (text, "flops") ? KEY_FLOPS : g_str_equal (text, "Input Dims") ? KEY_INPUT_DIMS : KEY_OTHER;
        }
      if (*kind == KEY_FLOPS && args[a].type != SUANLI_ARG_STRING)
        return args[a].type == SUANLI_ARG_INT ? (double) args[a].i : args[a].d;
      if (*kind == KEY_INPUT_DIMS && args[a].type == SUANLI_ARG_STRING)
        dims = &args[a];
    }
  if (dims == NULL)
    return 0;
  shape_name = suanli_analysis_string_byte (trace, shape_names, slice->name);
  if (*shape_name == 0)
    *shape_name = suanli_shape_flops_operator (suanli_trace_get_string (trace, slice->name)) ? 1 : 2;
  if (*shape_name != 1)
    return 0;
  *from_shapes = TRUE;
  return suanli_shape_flops (suanli_trace_get_string (trace, slice->name), suanli_trace_get_string (trace, dims->s));
}

/**
 * suanli_analysis_flops:
 * @count: (out caller-allocates): the operations counted
 *
 * Sums the FLOPs of the CPU operators that record them: their "flops" argument (PyTorch's profiler
 * with with_flops=True gives it for matrix products and convolutions), else, for matrix products,
 * convolutions and attention, those their inputs' shapes give (record_shapes=True). An operator
 * inside another that was counted is not counted again.
 */
void
suanli_analysis_flops (SuanliTrace     *trace,
                       SuanliFlopCount *count)
{
  g_autoptr(GArray) key_kinds = g_array_new (FALSE, TRUE, sizeof (guint8));     /* by key: KEY_* */
  g_autoptr(GArray) shape_names = g_array_new (FALSE, TRUE, sizeof (guint8));   /* by name: 1 counted by shapes, 2 not, 0 unknown */

  memset (count, 0, sizeof *count);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      gint64 counted_until = G_MININT64;   /* the end of the last counted operator: its children start before */

      if (track->kind != SUANLI_TRACK_THREAD)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gboolean from_shapes;
          double value;

          if (slice->n_args == 0 || slice->start < counted_until)
            continue;
          value = slice_flops (trace, slice, key_kinds, shape_names, &from_shapes);
          if (!(value > 0))
            continue;
          if (count->operators == 0 || slice->start < count->first_ns)
            count->first_ns = slice->start;
          count->last_ns = MAX (count->last_ns, slice->start + slice->duration);
          count->flops += value;
          count->operators++;
          count->from_shapes += from_shapes;
          counted_until = slice->start + slice->duration;
        }
    }
}
