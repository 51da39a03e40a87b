/* suanli-test-capture.c — capture streams written record by record, for the decoder's tests and
 * benchmarks, with this process's own modules and stacks
 *
 * The module records are made as the injection library makes them: from dl_iterate_phdr, each
 * loaded object's bias, the span of its loaded segments and the GNU build id in its notes, read
 * from memory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "suanli-capture-decoder.h"
#include "suanli-test-capture.h"

#define PID 4242

/* A header (no devices) whose clock offset is 0: times read as they are written. */
void
suanli_test_capture_init (SuanliTestCapture *capture,
                          guint32            flags)
{
  SuanliCaptureHeader header;

  capture->bytes = g_byte_array_new ();
  capture->next_string = 0;
  suanli_capture_init_header (&header, 0);
  header.pid = PID;
  header.rank = -1;
  header.local_rank = -1;
  header.world_size = -1;
  header.flags = flags;
  g_strlcpy (header.host, "test-host", sizeof header.host);
  g_byte_array_append (capture->bytes, (const guint8 *) &header, sizeof header);
}

void
suanli_test_capture_clear (SuanliTestCapture *capture)
{
  g_clear_pointer (&capture->bytes, g_byte_array_unref);
}

/* Returns: the id of @text, sent as a string record. */
guint32
suanli_test_capture_string (SuanliTestCapture *capture,
                            const char        *text)
{
  gsize length = strlen (text);
  gsize size = suanli_capture_string_size ((guint32) length);
  guint at = capture->bytes->len;

  g_byte_array_set_size (capture->bytes, at + (guint) size);
  g_assert_cmpuint (suanli_capture_write_string (capture->bytes->data + at, size, ++capture->next_string, text,
                                                 (guint32) length),
                    ==, size);
  return capture->next_string;
}

/* A kernel on device 0's stream 7, whose launch was @correlation. */
void
suanli_test_capture_kernel (SuanliTestCapture *capture,
                            guint32            correlation,
                            guint32            name,
                            guint64            start,
                            guint64            end)
{
  SuanliCaptureKernel kernel = { { 0 } };

  suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
  kernel.start = start;
  kernel.end = end;
  kernel.correlation = correlation;
  kernel.stream = 7;
  kernel.name = name;
  kernel.grid[0] = kernel.grid[1] = kernel.grid[2] = 1;
  kernel.block[0] = 128, kernel.block[1] = kernel.block[2] = 1;
  g_byte_array_append (capture->bytes, (const guint8 *) &kernel, sizeof kernel);
}

void
suanli_test_capture_module (SuanliTestCapture *capture,
                            guint64            bias,
                            guint64            start,
                            guint64            end,
                            const char        *path,
                            const guint8      *build_id,
                            guint              build_id_length)
{
  SuanliCaptureModule module = { { 0 } };

  module.path = suanli_test_capture_string (capture, path);
  suanli_capture_init_record (&module.record, SUANLI_CAPTURE_MODULE, sizeof module);
  module.bias = bias;
  module.start = start;
  module.end = end;
  module.build_id_length = (guint8) MIN (build_id_length, sizeof module.build_id);
  memcpy (module.build_id, build_id, module.build_id_length);
  g_byte_array_append (capture->bytes, (const guint8 *) &module, sizeof module);
}

/* The GNU build id among a loaded object's notes, read from memory: its length, 0 for none. */
static guint
loaded_build_id (const struct dl_phdr_info *info,
                 guint8                    *build_id,
                 guint                      size)
{
  for (int p = 0; p < info->dlpi_phnum; p++)
    {
      const ElfW(Phdr) *header = &info->dlpi_phdr[p];
      const guint8 *at, *end;

      if (header->p_type != PT_NOTE)
        continue;
      at = (const guint8 *) (info->dlpi_addr + header->p_vaddr);
      end = at + header->p_memsz;
      while (at + sizeof (ElfW(Nhdr)) <= end)
        {
          ElfW(Nhdr) note;
          const guint8 *name, *desc;

          memcpy (&note, at, sizeof note);
          name = at + sizeof note;
          desc = name + ((note.n_namesz + 3) & ~3u);
          if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && memcmp (name, "GNU", 4) == 0 &&
              note.n_descsz <= size)
            {
              memcpy (build_id, desc, note.n_descsz);
              return note.n_descsz;
            }
          at = desc + ((note.n_descsz + 3) & ~3u);
        }
    }
  return 0;
}

static int
add_loaded (struct dl_phdr_info *info,
            size_t               size,
            void                *data)
{
  SuanliTestCapture *capture = ((gpointer *) data)[0];
  guint *count = ((gpointer *) data)[1];
  guint64 start = G_MAXUINT64, end = 0;
  g_autofree char *executable = NULL;
  const char *path = info->dlpi_name;
  guint8 build_id[20];
  guint length;

  (void) size;
  for (int p = 0; p < info->dlpi_phnum; p++)
    if (info->dlpi_phdr[p].p_type == PT_LOAD)
      {
        start = MIN (start, info->dlpi_addr + info->dlpi_phdr[p].p_vaddr);
        end = MAX (end, info->dlpi_addr + info->dlpi_phdr[p].p_vaddr + info->dlpi_phdr[p].p_memsz);
      }
  if (end <= start)
    return 0;
  /* The executable is the object without a name: its file is /proc/self/exe's. */
  if (path == NULL || *path == '\0')
    path = executable = g_file_read_link ("/proc/self/exe", NULL);
  if (path == NULL)
    return 0;
  length = loaded_build_id (info, build_id, sizeof build_id);
  suanli_test_capture_module (capture, info->dlpi_addr, start, end, path, build_id, length);
  (*count)++;
  return 0;
}

/* Returns: how many module records were sent, one for each object loaded in this process. */
guint
suanli_test_capture_own_modules (SuanliTestCapture *capture)
{
  guint count = 0;
  gpointer data[] = { capture, &count };

  dl_iterate_phdr (add_loaded, data);
  return count;
}

void
suanli_test_capture_launch_stack (SuanliTestCapture *capture,
                                  guint32            correlation,
                                  guint32            python,
                                  const guint64     *frames,
                                  guint              depth)
{
  SuanliCaptureLaunchStack stack = { { 0 } };

  suanli_capture_init_record (&stack.record, SUANLI_CAPTURE_LAUNCH_STACK, (guint32) (sizeof stack + depth * sizeof (guint64)));
  stack.correlation = correlation;
  stack.thread = PID;
  stack.python = python;
  stack.depth = (guint16) depth;
  g_byte_array_append (capture->bytes, (const guint8 *) &stack, sizeof stack);
  g_byte_array_append (capture->bytes, (const guint8 *) frames, (guint) (depth * sizeof (guint64)));
}

void
suanli_test_capture_dropped (SuanliTestCapture *capture,
                             guint64            count,
                             SuanliDropReason   reason)
{
  SuanliCaptureDropped dropped = { { 0 } };

  suanli_capture_init_record (&dropped.record, SUANLI_CAPTURE_DROPPED, sizeof dropped);
  dropped.count = count;
  dropped.reason = reason;
  g_byte_array_append (capture->bytes, (const guint8 *) &dropped, sizeof dropped);
}

void
suanli_test_capture_end (SuanliTestCapture *capture,
                         SuanliEndReason    reason,
                         guint32            detail,
                         guint64            dropped)
{
  SuanliCaptureEnd end = { { 0 } };

  suanli_capture_init_record (&end.record, SUANLI_CAPTURE_END, sizeof end);
  end.dropped = dropped;
  end.reason = reason;
  end.detail = detail;
  g_byte_array_append (capture->bytes, (const guint8 *) &end, sizeof end);
}

/* Returns: (transfer full): the stream read into a trace, all at once. */
SuanliTrace *
suanli_test_capture_decode (SuanliTestCapture *capture)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "test.suanli-capture");
  g_autoptr(GError) error = NULL;

  g_assert_true (suanli_capture_decoder_feed (decoder, capture->bytes->data, capture->bytes->len, &error));
  g_assert_no_error (error);
  g_assert_true (suanli_capture_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

/* Returns: (transfer none): the trace's first GPU stream (the test captures' kernels are on one). */
SuanliTrack *
suanli_test_find_gpu_stream (SuanliTrace *trace)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    if (suanli_trace_get_track (trace, t)->kind == SUANLI_TRACK_GPU_STREAM)
      return suanli_trace_get_track (trace, t);
  g_error ("the trace has no GPU stream");
}

/* The text of @slice's argument @key, or NULL. */
const char *
suanli_test_find_string_arg (SuanliTrace       *trace,
                             const SuanliSlice *slice,
                             const char        *key)
{
  const SuanliArg *args = suanli_trace_get_args (trace, slice);

  for (guint a = 0; args != NULL && a < slice->n_args; a++)
    if (args[a].type == SUANLI_ARG_STRING && g_str_equal (suanli_trace_get_string (trace, args[a].key), key))
      return suanli_trace_get_string (trace, args[a].s);
  return NULL;
}
