/* bench-symbolize.c — what naming launch stacks costs the collector, with libtorch_cpu's symbol table
 *
 * Debian's libtorch_cpu is loaded (its .dynsym: tens of thousands of C++ functions) and this
 * process's modules go into a capture as the job sends them. Each launch is a stack record of 24
 * return addresses (18 in libtorch_cpu's code, the rest in this program, GLib and libc) and its
 * kernel's record, decoded into a trace. Prints medians:
 *   - loading libtorch_cpu's table (mapped, its functions sorted), alone;
 *   - the first launch of a capture: its modules' tables loaded and every frame named;
 *   - each launch after, over stacks already seen (a training loop's steps repeat their stacks),
 *     and over stacks of addresses not seen before;
 *   - launches per second (stack and kernel records) with stacks on, and without.
 * Times are of a warm page cache: the first sample reads the files from disk.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdlib.h>

#include "suanli-bench.h"
#include "suanli-capture-decoder.h"
#include "suanli-symbolizer.h"
#include "suanli-test-capture.h"

#define TORCH        "libtorch_cpu.so.1.13"
#define DEPTH        24
#define TORCH_FRAMES 18
#define STACKS       64       /* distinct stacks in the loop */
#define LAUNCHES     100000   /* per sample of the warm rate */
#define FRESH        2000     /* stacks of new addresses per sample */

typedef struct
{
  guint64 start;   /* libtorch_cpu's executable segment */
  guint64 end;
  guint64 bias;
  char   *path;
} Text;

static int
find_torch (struct dl_phdr_info *info,
            size_t               size,
            void                *data)
{
  Text *text = data;

  (void) size;
  if (!g_str_has_suffix (info->dlpi_name, TORCH))
    return 0;
  for (int p = 0; p < info->dlpi_phnum; p++)
    if (info->dlpi_phdr[p].p_type == PT_LOAD && (info->dlpi_phdr[p].p_flags & PF_X))
      {
        text->start = info->dlpi_addr + info->dlpi_phdr[p].p_vaddr;
        text->end = text->start + info->dlpi_phdr[p].p_memsz;
        text->bias = info->dlpi_addr;
        text->path = g_strdup (info->dlpi_name);
      }
  return 1;
}

/* A stack as a launch from PyTorch has: libtorch_cpu's frames inside, the program's outside. */
static void
make_stack (guint64       *frames,
            const Text    *text,
            GRand         *random,
            const guint64 *outer)
{
  for (guint i = 0; i < TORCH_FRAMES; i++)
    frames[i] = text->start + (guint64) g_rand_double_range (random, 0, (double) (text->end - text->start));
  for (guint i = TORCH_FRAMES; i < DEPTH; i++)
    frames[i] = outer[i - TORCH_FRAMES];
}

/* A capture of this process's modules, and the kernel name; no launch yet. */
static void
begin (SuanliTestCapture *capture,
       guint32           *name)
{
  suanli_test_capture_init (capture, SUANLI_CAPTURE_FROM_LAUNCH);
  suanli_test_capture_own_modules (capture);
  *name = suanli_test_capture_string (capture, "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6"
                                               "detail5ArrayIPcLi1EEEEEviT0_T1_");
}

/* Seconds to decode @launches (stack and kernel records, in @bytes) into a decoder that has read
 * @head already. */
static double
decode_launches (const GByteArray *head,
                 const GByteArray *launches)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "bench.suanli-capture");
  gint64 start;

  if (!suanli_capture_decoder_feed (decoder, head->data, head->len, NULL))
    g_error ("the capture's head did not decode");
  start = g_get_monotonic_time ();
  if (!suanli_capture_decoder_feed (decoder, launches->data, launches->len, NULL))
    g_error ("the launches did not decode");
  return (double) (g_get_monotonic_time () - start) / 1e6;
}

/* Launch records for @count launches, each of stacks[i % n_stacks] (or none, without stacks). */
static GByteArray *
launches_of (const guint64 *stacks,
             guint          n_stacks,
             guint          count,
             guint32        name,
             guint32        first_correlation)
{
  SuanliTestCapture capture = { g_byte_array_new (), 0 };

  for (guint i = 0; i < count; i++)
    {
      guint32 correlation = first_correlation + i;

      if (stacks != NULL)
        suanli_test_capture_launch_stack (&capture, correlation, 0, stacks + (gsize) (i % n_stacks) * DEPTH, DEPTH);
      suanli_test_capture_kernel (&capture, correlation, name, (guint64) i * 10000, (guint64) i * 10000 + 5000);
    }
  return capture.bytes;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SuanliBench) table = suanli_bench_new ("libtorch_cpu's symbol table, loaded", "ms");
  g_autoptr(SuanliBench) cold = suanli_bench_new ("the first launch's stack (modules' tables loaded)", "ms");
  g_autoptr(SuanliBench) warm = suanli_bench_new ("each launch's stack after, stacks seen before", "us");
  g_autoptr(SuanliBench) fresh = suanli_bench_new ("each launch's stack after, addresses not seen before", "us");
  g_autoptr(SuanliBench) with_stacks = suanli_bench_new ("launches per second, stacks on", "launches/s");
  g_autoptr(SuanliBench) without = suanli_bench_new ("launches per second, stacks off", "launches/s");
  g_auto(SuanliTestCapture) head = { 0 };
  g_autoptr(GRand) random = g_rand_new_with_seed (16);
  g_autofree guint64 *stacks = g_new (guint64, (gsize) STACKS * DEPTH);
  g_autofree guint64 *fresh_stacks = g_new (guint64, (gsize) FRESH * DEPTH);
  guint64 outer[DEPTH - TORCH_FRAMES];
  Text text = { 0 };
  guint32 name;
  guint n_functions = 0;

  if (dlopen (TORCH, RTLD_LAZY | RTLD_LOCAL) == NULL)
    {
      g_print ("%s is not installed (python3-torch): nothing measured\n", TORCH);
      return EXIT_SUCCESS;
    }
  dl_iterate_phdr (find_torch, &text);
  g_assert_nonnull (text.path);
  {
    void *frames[DEPTH - TORCH_FRAMES];
    int depth = backtrace (frames, G_N_ELEMENTS (frames));

    for (guint i = 0; i < G_N_ELEMENTS (outer); i++)
      outer[i] = (guint64) (guintptr) frames[MIN ((int) i, depth - 1)];
  }
  for (guint s = 0; s < STACKS; s++)
    make_stack (stacks + (gsize) s * DEPTH, &text, random, outer);

  /* The table alone. */
  for (guint i = 0; i < 9; i++)
    {
      g_autoptr(SuanliSymbolizer) symbolizer = suanli_symbolizer_new ();
      SuanliFrame frame;
      gint64 start = g_get_monotonic_time ();

      suanli_symbolizer_add_module (symbolizer, text.bias, text.start, text.end, text.path, NULL, 0);
      suanli_symbolizer_lookup (symbolizer, stacks[0], &frame);
      suanli_bench_add (table, (double) (g_get_monotonic_time () - start) / 1e3);
      n_functions = suanli_symbolizer_get_n_symbols (symbolizer, text.path);
    }
  g_print ("%s: %u functions in its symbol table\n", text.path, n_functions);
  suanli_bench_report (table);

  begin (&head, &name);
  {
    g_autoptr(GByteArray) first = launches_of (stacks, 1, 1, name, 1);

    for (guint i = 0; i < 9; i++)
      suanli_bench_add (cold, decode_launches (head.bytes, first) * 1e3);
    suanli_bench_report (cold);
  }
  {
    g_autoptr(GByteArray) loop = launches_of (stacks, STACKS, LAUNCHES, name, 1);
    g_autoptr(GByteArray) bare = launches_of (NULL, 0, LAUNCHES, name, 1);

    /* Per launch: less the kernel record's own decoding, measured without stacks. */
    for (guint i = 0; i < 5; i++)
      {
        double seconds = decode_launches (head.bytes, loop);
        double bare_seconds = decode_launches (head.bytes, bare);

        suanli_bench_add (warm, (seconds - bare_seconds) / LAUNCHES * 1e6);
        suanli_bench_add (with_stacks, LAUNCHES / seconds);
        suanli_bench_add (without, LAUNCHES / bare_seconds);
      }
  }
  /* New addresses each launch: every frame named from the table (one launch first loads it). */
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(GByteArray) first = launches_of (stacks, 1, 1, name, 1);
      g_autoptr(GByteArray) launches = NULL;
      g_autoptr(GByteArray) both = g_byte_array_new ();
      double all, one;

      for (guint s = 0; s < FRESH; s++)
        make_stack (fresh_stacks + (gsize) s * DEPTH, &text, random, outer);
      launches = launches_of (fresh_stacks, FRESH, FRESH, name, 2);
      g_byte_array_append (both, first->data, first->len);
      g_byte_array_append (both, launches->data, launches->len);
      one = decode_launches (head.bytes, first);
      all = decode_launches (head.bytes, both);
      suanli_bench_add (fresh, (all - one) / FRESH * 1e6);
    }
  suanli_bench_report (warm);
  suanli_bench_report (fresh);
  suanli_bench_report (with_stacks);
  suanli_bench_report (without);
  g_free (text.path);
  return EXIT_SUCCESS;
}
