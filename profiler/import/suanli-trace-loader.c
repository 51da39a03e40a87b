/* suanli-trace-loader.c — reading trace files into one SuanliTrace on a worker thread, with
 * progress and cancellation
 *
 * The files are read one after another on a GTask thread, each through a stream that counts the
 * bytes taken from the file (before any gzip inflation), so the fraction done is bytes read over
 * the files' sizes; an Nsight Systems export, which SQLite reads itself, counts its rows read as
 * that share of its size. The main loop samples that count ten times a second and publishes it as the
 * "fraction" property; nothing else crosses threads until the finished trace is handed over. A
 * file that cannot be read fails the whole load with its error, so that a view keeps what it
 * showed before; cancelling fails it with G_IO_ERROR_CANCELLED.
 *
 * Once read, the trace's figures (every analysis `trace summary` prints) and the timeline's indexes
 * are worked out on the same thread, so that the page shows the trace with its summary in one go:
 * no second trip through the main loop, no frame painted twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-trace-figures.h"
#include "suanli-trace-loader.h"

#define PROGRESS_INTERVAL_MS 100

struct _SuanliTraceLoader
{
  GObject            parent_instance;

  GPtrArray         *files;        /* of GFile */
  gsize              bytes_read;   /* added to by the worker, atomically */
  guint64            bytes_total;  /* the files' sizes, 0 when unknown */
  double             fraction;
  guint              progress_source;
  gboolean           loading;
  SuanliImportStats  stats;
  SuanliTraceFigures *figures;     /* set by the worker, taken by the main thread after it returned */
};

G_DEFINE_FINAL_TYPE (SuanliTraceLoader, suanli_trace_loader, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
suanli_trace_loader_finalize (GObject *object)
{
  SuanliTraceLoader *self = SUANLI_TRACE_LOADER (object);

  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_ptr_array_unref (self->files);
  suanli_import_stats_clear (&self->stats);
  g_clear_pointer (&self->figures, suanli_trace_figures_free);
  G_OBJECT_CLASS (suanli_trace_loader_parent_class)->finalize (object);
}

static void
suanli_trace_loader_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SuanliTraceLoader *self = SUANLI_TRACE_LOADER (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_trace_loader_class_init (SuanliTraceLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = suanli_trace_loader_finalize;
  object_class->get_property = suanli_trace_loader_get_property;
  /* How much of the files has been read, 0 to 1; updated on the main context while loading. */
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
suanli_trace_loader_init (SuanliTraceLoader *self)
{
  self->files = g_ptr_array_new_with_free_func (g_object_unref);
}

SuanliTraceLoader *
suanli_trace_loader_new (GFile * const *files,
                         guint          n_files)
{
  SuanliTraceLoader *self = g_object_new (SUANLI_TYPE_TRACE_LOADER, NULL);

  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));
  return self;
}

double
suanli_trace_loader_get_fraction (SuanliTraceLoader *self)
{
  return self->fraction;
}

/* What the imports counted; complete once the load has finished. */
const SuanliImportStats *
suanli_trace_loader_get_stats (SuanliTraceLoader *self)
{
  return &self->stats;
}

static void
set_fraction (SuanliTraceLoader *self,
              double             fraction)
{
  fraction = CLAMP (fraction, 0, 1);
  if (fraction == self->fraction)
    return;
  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

static gboolean
sample_progress (gpointer data)
{
  SuanliTraceLoader *self = data;
  gsize read = (gsize) g_atomic_pointer_get (&self->bytes_read);

  if (self->bytes_total > 0)
    set_fraction (self, (double) read / (double) self->bytes_total);
  return G_SOURCE_CONTINUE;
}

/* On the worker thread: every file into one trace. */
static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SuanliTraceLoader *self = source_object;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();

  for (guint i = 0; i < self->files->len; i++)
    {
      GFile *file = g_ptr_array_index (self->files, i);
      g_autoptr(GError) error = NULL;

      if (!suanli_import_file_counted (trace, file, &self->stats, &self->bytes_read, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  /* The figures, then the timeline's indexes, both here: their passing arrays reuse the memory the
   * import left free in this thread's malloc arena, as on the command line. On a thread of its own
   * the indexing took an arena of its own, and the peak grew by 3 MB on a 100 MB trace (bench-trace)
   * for no time saved: it takes a few per cent of the opening. */
  self->figures = suanli_trace_figures_new (trace);
  suanli_trace_index_tracks (trace);
  g_task_return_pointer (task, g_steal_pointer (&trace), g_object_unref);
}

/**
 * suanli_trace_loader_load_async:
 *
 * Reads the loader's files into a new trace, one group per file, on a worker thread. Call once.
 */
void
suanli_trace_loader_load_async (SuanliTraceLoader  *self,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_return_if_fail (!self->loading);
  self->loading = TRUE;
  g_task_set_source_tag (task, suanli_trace_loader_load_async);
  /* The sizes, for the fraction; a file whose size cannot be had (a pipe) leaves it at 0. */
  for (guint i = 0; i < self->files->len; i++)
    {
      g_autoptr(GFileInfo) info = g_file_query_info (g_ptr_array_index (self->files, i), G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                     G_FILE_QUERY_INFO_NONE, cancellable, NULL);
      if (info != NULL)
        self->bytes_total += (guint64) g_file_info_get_size (info);
    }
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, sample_progress, self);
  g_task_run_in_thread (task, load_in_thread);
}

/**
 * suanli_trace_loader_steal_figures:
 *
 * After a load that succeeded: the figures of the trace it returned, worked out while it was read.
 *
 * Returns: (transfer full) (nullable): the figures, or NULL when taken already or the load failed.
 */
SuanliTraceFigures *
suanli_trace_loader_steal_figures (SuanliTraceLoader *self)
{
  return g_steal_pointer (&self->figures);
}

/* Returns: (transfer full): the trace, finished and read only, or NULL with @error. */
SuanliTrace *
suanli_trace_loader_load_finish (SuanliTraceLoader  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  SuanliTrace *trace;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  trace = g_task_propagate_pointer (G_TASK (result), error);
  if (trace != NULL)
    set_fraction (self, 1);
  return trace;
}
