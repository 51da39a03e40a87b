/* suanli-whatif.h — a measured trace replayed on its dependency graph, with the durations changed:
 * other hardware (the catalog's rates, passed in as plain numbers) and other choices (overlapped
 * communication, no host gaps, a faster kernel, another GPU count, another precision)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* What bounds a piece of work, and so which rate its duration is scaled by. */
typedef enum {
  SUANLI_WORK_COMPUTE,        /* matrix products, convolutions, attention: the precision's FLOP/s */
  SUANLI_WORK_MEMORY,         /* elementwise, reductions, norms, device copies: memory bandwidth */
  SUANLI_WORK_COMMUNICATION,  /* collectives and peer copies: the scale-up link */
  SUANLI_WORK_HOST,           /* the CPU's work, and copies between host and device: not scaled */
  SUANLI_WORK_N_CLASSES
} SuanliWorkClass;

/* The number formats compute rates are given for. */
typedef enum {
  SUANLI_NUMBER_FP32,
  SUANLI_NUMBER_TF32,
  SUANLI_NUMBER_BF16,
  SUANLI_NUMBER_FP16,
  SUANLI_NUMBER_FP8,
  SUANLI_NUMBER_INT8,
  SUANLI_NUMBER_N_FORMATS
} SuanliNumberFormat;

/* One system's rates, as the catalog gives them (the caller fills this in; the profiler does not
 * read the catalog). A rate of 0 is unknown: work of that class is then left unscaled, and the
 * kernel's reason says so. */
typedef struct
{
  char    name[96];                               /* "A100 80GB SXM" */
  double  flops[SUANLI_NUMBER_N_FORMATS];         /* dense FLOP/s of one accelerator */
  double  memory_bandwidth;                       /* B/s */
  double  link_bandwidth;                         /* scale-up B/s per accelerator, one direction, all links */
  guint   scale_up_domain;                        /* accelerators that share the scale-up fabric; 0: unknown */
  double  host_link_bandwidth;                    /* B/s per direction between domains (PCIe); 0: unknown */
  guint   count;                                  /* accelerators in the job; 0: as the trace says */
  char    flops_note[SUANLI_NUMBER_N_FORMATS][160];   /* what the catalog says a rate counts ("Vector; …"), or "" */
  char    link_note[160];                         /* what the link figure counts ("One HCCS link, …"), or "" */
} SuanliWhatifHardware;

/* The range of --faster's factor: 1000× slower to a million times faster (suanli_whatif_new()
 * holds a factor outside it to the nearer end). */
#define SUANLI_WHATIF_FASTER_MIN 1e-3
#define SUANLI_WHATIF_FASTER_MAX 1e6

/* The most GPUs a job is projected onto (2²⁰, past any job run): --gpus above it is refused, and
 * suanli_whatif_new() holds a count above it to it, so that a count is never near the int that
 * the bus factors take. */
#define SUANLI_WHATIF_MAX_GPUS 1048576

typedef struct
{
  SuanliWhatifHardware measured;     /* what the trace ran on */
  SuanliWhatifHardware target;       /* what to project onto; the same as measured for what-ifs only */
  gboolean overlap_comm;             /* communication fully overlapped with compute */
  gboolean no_host_gaps;             /* the host's work between launches removed (CUDA graphs) */
  const char *faster;                /* a kernel or operator name (substring), or NULL */
  double   faster_factor;            /* how many times faster it is (SUANLI_WHATIF_FASTER_MIN … MAX); 1 when none */
  int      precision;                /* a SuanliNumberFormat compute work is changed to; -1: as measured */
  guint    group;                    /* the file (rank) to replay; G_MAXUINT: the first with GPU work */
} SuanliWhatifOptions;

/* One kernel name's work: how it was classed and scaled. */
typedef struct
{
  SuanliString       name;           /* in the measured trace */
  SuanliWorkClass    work_class;
  SuanliNumberFormat format;         /* for compute work */
  guint64            count;
  gint64             measured_ns;    /* summed durations */
  gint64             projected_ns;
  double             factor;         /* projected ÷ measured duration */
  char              *reason;         /* "compute-bound (cutlass gemm in the name), BF16: 312 → 989 TFLOP/s" */
} SuanliWhatifKernel;

typedef struct
{
  gint64  measured_ns;               /* the measured step: median over the trace's steps */
  gint64  replayed_ns;               /* the graph replayed with the measured durations */
  gint64  projected_ns;              /* replayed with the projected durations and choices */
  gint64  measured_class_ns[SUANLI_WORK_N_CLASSES];   /* time in each class, summed per step */
  gint64  projected_class_ns[SUANLI_WORK_N_CLASSES];
  guint   steps;                     /* ProfilerStep#N annotations; 0: the whole trace is one step */
  double  flops;                     /* per step, from PyTorch's flops arguments; 0: not recorded */
  double  measured_mfu;              /* flops ÷ (measured step × measured peak); 0 when unknown */
  double  projected_mfu;             /* flops' ÷ (projected step × target peak); 0 when unknown */
  SuanliNumberFormat mfu_format;     /* the peak MFU is stated against */
} SuanliWhatifFigures;

/* A projection reads its trace and never changes it, so it may be made on a worker thread while
 * the trace is shown; kernels' names are strings of that trace. */
typedef struct _SuanliWhatif SuanliWhatif;

void                       suanli_whatif_options_init (SuanliWhatifOptions       *options);

SuanliWhatif              *suanli_whatif_new          (SuanliTrace               *trace,
                                                       const SuanliWhatifOptions *options,
                                                       GError                   **error);
void                       suanli_whatif_free         (SuanliWhatif              *self);
const SuanliWhatifFigures *suanli_whatif_get_figures  (SuanliWhatif              *self);
GArray                    *suanli_whatif_get_kernels  (SuanliWhatif              *self);   /* of SuanliWhatifKernel, longest projected first */
SuanliTrace               *suanli_whatif_get_projected (SuanliWhatif             *self);   /* the replayed timeline: the same tracks, new times */
GPtrArray                 *suanli_whatif_get_notes    (SuanliWhatif              *self);   /* what was assumed or left out, in sentences */
guint                      suanli_whatif_get_group    (SuanliWhatif              *self);   /* the file (rank) replayed */
const char                *suanli_whatif_get_mfu_unknown (SuanliWhatif           *self);   /* why Plan with This is not offered */

const char *suanli_work_class_name    (SuanliWorkClass    work_class);   /* translated */
const char *suanli_number_format_nick (SuanliNumberFormat format);       /* "bf16" */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliWhatif, suanli_whatif_free)

G_END_DECLS
