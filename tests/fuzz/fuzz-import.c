/* fuzz-import.c — libFuzzer target: any bytes through one importer (IMPORTER, set by meson:
 * suanli_import_chrome, suanli_import_folded, suanli_import_capture or import_nsys_bytes), then the analysis, both flame graphs and a round
 * trip through Chrome JSON
 *
 * The importer must never crash, leak or read out of bounds: it returns a trace (perhaps with a
 * warning) or an error. The analysis runs on whatever was kept. Built as a fuzzer with
 * -Dfuzzing=true under clang; otherwise tests/fuzz/replay.c runs the saved corpus through it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "suanli-analysis.h"
#include "suanli-export-chrome.h"
#include "suanli-flame.h"
#include "suanli-import-capture.h"
#include "suanli-import-chrome.h"
#include "suanli-import-folded.h"
#include "suanli-import-nsys.h"

#ifndef IMPORTER
#error "build with -DIMPORTER=suanli_import_chrome (or another importer)"
#endif

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* SQLite reads files: the bytes go to one, which the Nsight Systems importer opens read-only. */
G_GNUC_UNUSED static gboolean
import_nsys_bytes (SuanliTrace       *trace,
                   GInputStream      *stream,
                   const char        *name,
                   SuanliImportStats *stats,
                   GCancellable      *cancellable,
                   GError           **error)
{
  g_autoptr(GOutputStream) bytes = g_memory_output_stream_new_resizable ();
  g_autofree char *path = NULL;
  gboolean read;
  int fd = g_file_open_tmp ("fuzz-nsys-XXXXXX.sqlite", &path, NULL);

  g_assert (fd >= 0 && g_output_stream_splice (bytes, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL) >= 0);
  close (fd);
  g_assert (g_file_set_contents (path, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (bytes)),
                                 (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (bytes)), NULL));
  read = suanli_import_nsys (trace, path, name, stats, NULL, cancellable, error);
  g_unlink (path);
  return read;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, (gssize) size, NULL);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  if (IMPORTER (trace, stream, "fuzz", &stats, NULL, &error))
    {
      g_autoptr(GArray) gpus = suanli_analysis_gpu_time (trace);
      g_autoptr(GArray) kernels = suanli_analysis_top_kernels (trace);
      g_autoptr(GArray) operators = suanli_analysis_cpu_operators (trace);
      g_autoptr(GArray) delays = suanli_analysis_launch_delays (trace);
      g_autoptr(GArray) steps = suanli_analysis_steps (trace);
      g_autoptr(GArray) collectives = suanli_analysis_collectives (trace);
      gint64 first, last;

      suanli_trace_get_time_range (trace, &first, &last);
      g_assert (first <= last);
      g_assert (error == NULL);
      /* Unions of intervals: no part can exceed the whole, whatever the input. */
      for (guint i = 0; i < gpus->len; i++)
        {
          SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

          g_assert (gpu->kernel_ns <= gpu->busy_ns && gpu->memcpy_ns <= gpu->busy_ns);
          g_assert (gpu->comm_ns <= gpu->kernel_ns);
          g_assert (gpu->busy_ns <= gpu->span_ns && gpu->idle_ns >= 0);
          g_assert (gpu->compute_ns + gpu->comm_ns >= gpu->kernel_ns);
          g_assert (gpu->host_wait_ns + gpu->short_gap_ns + gpu->other_idle_ns == gpu->idle_ns);
        }
      for (guint i = 0; i < steps->len; i++)
        {
          SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);

          g_assert (step->kernel_ns <= step->busy_ns && step->busy_ns <= step->duration_ns);
        }
      for (guint i = 0; i < delays->len; i++)
        {
          SuanliLaunchDelays *delay = &g_array_index (delays, SuanliLaunchDelays, i);

          g_assert (delay->min_ns <= delay->median_ns && delay->median_ns <= delay->p95_ns && delay->p95_ns <= delay->max_ns);
        }
      for (guint i = 0; i < operators->len + collectives->len; i++)
        g_assert (i < operators->len ? g_array_index (operators, SuanliOperatorStats, i).count > 0
                                     : g_array_index (collectives, SuanliCollectiveStats, i - operators->len).count > 0);
      for (guint i = 0; i < kernels->len; i++)
        g_assert (g_array_index (kernels, SuanliKernelStats, i).count > 0);
      /* What was kept writes back as Chrome JSON that reads again. */
      {
        g_autoptr(GOutputStream) json = g_memory_output_stream_new_resizable ();
        g_autoptr(SuanliTrace) again = suanli_trace_new ();
        g_autoptr(GInputStream) back = NULL;
        g_autoptr(GError) again_error = NULL;
        SuanliImportStats again_stats = { 0 };

        g_assert (suanli_export_chrome (trace, json, NULL, NULL));
        g_assert (g_output_stream_close (json, NULL, NULL));
        back = g_memory_input_stream_new_from_data (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (json)),
                                                    (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (json)),
                                                    NULL);
        /* A trace with no slice may export no event with a time, which is refused as no trace. */
        if (!suanli_import_chrome (again, back, "again", &again_stats, NULL, &again_error) &&
            !(suanli_trace_get_n_slices (trace) == 0 && g_error_matches (again_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA)))
          g_error ("the export does not read back: %s", again_error->message);
        g_assert (again_error != NULL || suanli_trace_get_n_slices (again) == suanli_trace_get_n_slices (trace));
        suanli_import_stats_clear (&again_stats);
      }
      /* Both flames build and write, whatever was kept. */
      for (guint kind = SUANLI_FLAME_CPU; kind <= SUANLI_FLAME_GPU; kind++)
        {
          g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, kind, G_MININT64, G_MAXINT64);
          g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();

          g_assert (suanli_flame_get_node (flame, 0)->total >= 0);
          g_assert (suanli_flame_write_folded (flame, output, NULL, NULL));
        }
    }
  else
    g_assert (error != NULL);
  suanli_import_stats_clear (&stats);
  return 0;
}
