/* suanli-flame.c — aggregation trees for flame graphs
 *
 * A CPU flame merges every thread's nested slices by call path (thread first, then the stack),
 * weighted by the time each slice spends inside the chosen range. A GPU flame puts each kernel,
 * copy or memset under the CPU stack that launched it (found through the trace's flows), so the
 * question "which Python code costs GPU time" has a picture; GPU work no flow reaches sits under
 * "(launch not recorded)". Weights are the trace's unit: nanoseconds, or samples for folded stacks.
 *
 * Frames whose names differ only by a step or iteration number are one frame ("ProfilerStep#12"
 * and "ProfilerStep#13" are "ProfilerStep#*"), unless SUANLI_FLAME_KEEP_STEP_NUMBERS: a step is
 * each time the same code, and as separate roots they would each be a sliver, and two runs' steps
 * would never meet in a difference flame graph. The profiler's own spans ("PyTorch Profiler (0)")
 * cover the whole capture and are left out: they are not the program's time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-analysis.h"
#include "suanli-flame.h"

#define MAX_DEPTH 256

struct _SuanliFlame
{
  GObject      parent_instance;

  SuanliTrace *trace;
  GArray      *nodes;      /* of SuanliFlameNode; 0 is the root */
  GHashTable  *children;   /* (parent << 32 | name) → node index */
  gint64       from, to;
  guint        group;      /* the only group (file, rank) counted, or SUANLI_FLAME_ALL_GROUPS */
  gboolean     differential;
  GPtrArray   *labels;     /* names the flame makes (thread and rank labels), by index */
  GHashTable  *label_ids;  /* label → index + 1 */
  SuanliFlameFlags flags;
  GHashTable  *merged;     /* trace name + 1 → the name its frame has + 1 (step numbers merged) */
};

/* Names of the flame's own (not the trace's) carry this bit: a flame only reads its trace, so it
 * can be built on a worker thread while the trace is shown. */
#define LABEL_BIT 0x80000000u

G_DEFINE_FINAL_TYPE (SuanliFlame, suanli_flame, G_TYPE_OBJECT)

/* GLib's int64 hash folds the two halves together, so (parent, name) pairs made in step collide
 * by the thousand; a multiplicative mix spreads them. */
static guint
pair_hash (gconstpointer key)
{
  guint64 mixed = (guint64) *(const gint64 *) key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  return (guint) (mixed >> 32);
}

static void
suanli_flame_finalize (GObject *object)
{
  SuanliFlame *self = SUANLI_FLAME (object);

  g_clear_object (&self->trace);
  g_array_unref (self->nodes);
  g_hash_table_unref (self->children);
  g_ptr_array_unref (self->labels);
  g_hash_table_unref (self->label_ids);
  g_hash_table_unref (self->merged);
  G_OBJECT_CLASS (suanli_flame_parent_class)->finalize (object);
}

static void
suanli_flame_class_init (SuanliFlameClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_flame_finalize;
}

static void
suanli_flame_init (SuanliFlame *self)
{
  SuanliFlameNode root = { 0 };

  root.first = G_MAXINT64;
  self->nodes = g_array_new (FALSE, TRUE, sizeof (SuanliFlameNode));
  g_array_append_val (self->nodes, root);
  self->children = g_hash_table_new_full (pair_hash, g_int64_equal, g_free, NULL);
  self->labels = g_ptr_array_new_with_free_func (g_free);
  self->label_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->merged = g_hash_table_new (NULL, NULL);
  self->group = SUANLI_FLAME_ALL_GROUPS;
}

static SuanliFlameNode *
node_at (SuanliFlame *self,
         guint32      index)
{
  return &g_array_index (self->nodes, SuanliFlameNode, index);
}

/* The child of @parent named @name, made on first use. */
static guint32
child (SuanliFlame  *self,
       guint32       parent,
       SuanliString  name)
{
  gint64 key = (gint64) (((guint64) parent << 32) | name);
  gpointer found = g_hash_table_lookup (self->children, &key);
  SuanliFlameNode node = { .name = name, .parent = parent, .first = G_MAXINT64 };
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found);
  index = self->nodes->len;
  node.next_sibling = node_at (self, parent)->first_child;
  g_array_append_val (self->nodes, node);
  node_at (self, parent)->first_child = index;
  g_hash_table_insert (self->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (index));
  return index;
}

/* How much of @slice lies inside the flame's range. */
static gint64
overlap (SuanliFlame       *self,
         const SuanliSlice *slice)
{
  gint64 start = MAX (slice->start, self->from);
  gint64 end = MIN (slice->start + slice->duration, self->to);

  return MAX (0, end - start);
}

/* The name for @text among the flame's own. */
static SuanliString
label (SuanliFlame *self,
       const char  *text)
{
  gpointer found = g_hash_table_lookup (self->label_ids, text);
  char *copy;

  if (found != NULL)
    return LABEL_BIT | (GPOINTER_TO_UINT (found) - 1);
  copy = g_strdup (text);
  g_ptr_array_add (self->labels, copy);
  g_hash_table_insert (self->label_ids, copy, GUINT_TO_POINTER (self->labels->len));
  return LABEL_BIT | (self->labels->len - 1);
}

/* Whether @c is one of the characters that may stand between a step's word and its number. */
static gboolean
is_separator (char c)
{
  return c == ' ' || c == '_' || c == '-' || c == ':' || c == '=';
}

/**
 * suanli_flame_merged_name:
 * @name: a frame's name
 *
 * The name of the frame @name is merged into: a number at the end that follows "#"
 * ("ProfilerStep#12", "Iteration#3"), or follows a word step, iteration, iter, epoch or batch
 * ("step 12", "Iteration_3", "epoch: 2"), is replaced by "*". Other numbers are part of the
 * name ("aten::conv2d", "layer 3" stay as they are).
 *
 * Returns: (transfer full) (nullable): the merged name, or NULL when @name has no such number.
 */
char *
suanli_flame_merged_name (const char *name)
{
  static const char *const words[] = { "step", "iteration", "iter", "epoch", "batch" };
  gsize length = strlen (name), digits = length, before;

  while (digits > 0 && g_ascii_isdigit (name[digits - 1]))
    digits--;
  if (digits == length || digits == 0)
    return NULL;
  if (name[digits - 1] == '#')
    return g_strdup_printf ("%.*s*", (int) digits, name);
  before = digits;
  while (before > 0 && is_separator (name[before - 1]))
    before--;
  for (guint w = 0; w < G_N_ELEMENTS (words); w++)
    {
      gsize word = strlen (words[w]);

      if (before >= word && g_ascii_strncasecmp (name + before - word, words[w], word) == 0 &&
          (before == word || !g_ascii_isalpha (name[before - word - 1])))
        return g_strdup_printf ("%.*s*", (int) digits, name);
    }
  return NULL;
}

/* Whether a top-level slice is one of the profiler's own spans: Kineto's "PyTorch Profiler (0)"
 * of category "Trace", which covers the whole capture. */
gboolean
suanli_flame_is_profiler_span (const char *name,
                               const char *category)
{
  return g_str_equal (category, "Trace") || g_str_has_prefix (name, "PyTorch Profiler (");
}

/* The name @name's frame has: itself, or with its step number merged. */
static SuanliString
frame_name (SuanliFlame  *self,
            SuanliString  name)
{
  gpointer found;
  g_autofree char *merged = NULL;
  SuanliString result = name;

  if (self->flags & SUANLI_FLAME_KEEP_STEP_NUMBERS)
    return name;
  found = g_hash_table_lookup (self->merged, GUINT_TO_POINTER (name + 1));
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  merged = suanli_flame_merged_name (suanli_trace_get_string (self->trace, name));
  if (merged != NULL)
    result = label (self, merged);
  g_hash_table_insert (self->merged, GUINT_TO_POINTER (name + 1), GUINT_TO_POINTER (result + 1));
  return result;
}

/* Whether @slice, at the top of its thread, is a profiler span to leave out. */
static gboolean
is_left_out (SuanliFlame       *self,
             const SuanliSlice *slice)
{
  return slice->depth == 0 &&
         suanli_flame_is_profiler_span (suanli_trace_get_string (self->trace, slice->name),
                                        suanli_trace_get_string (self->trace, slice->category));
}

/* Notes that work starting at @start was merged into @node and its ancestors. */
static void
note_start (SuanliFlame *self,
            guint32      node,
            gint64       start)
{
  for (guint32 at = node;; at = node_at (self, at)->parent)
    {
      if (node_at (self, at)->first <= start)
        break;   /* its ancestors started no later */
      node_at (self, at)->first = start;
      if (at == 0)
        break;
    }
}

static SuanliString
thread_label (SuanliFlame *self,
              SuanliTrack *track)
{
  g_autofree char *text = NULL;

  if (track->name != 0)
    return track->name;
  /* Unnamed threads of different processes must not merge. */
  if (track->tid == track->pid)
    text = g_strdup_printf (_("thread %lld"), (long long) track->tid);
  else
    text = g_strdup_printf (_("thread %lld of process %lld"), (long long) track->tid, (long long) track->pid);
  return label (self, text);
}

/* Whether the flame counts @track's work: every track's, or only its group's. */
static gboolean
counts_track (SuanliFlame *self,
              SuanliTrack *track)
{
  return self->group == SUANLI_FLAME_ALL_GROUPS || track->group == self->group;
}

/* When the trace holds several files (ranks), each has a node of its own at the top, so that
 * threads of the same name or id in different ranks stay apart; otherwise the root. A flame of
 * one group has none: its paths are then those of another rank's flame, for comparing the two. */
static guint32
group_node (SuanliFlame *self,
            SuanliTrack *track)
{
  SuanliGroup *group = suanli_trace_get_group (self->trace, track->group);
  g_autofree char *text = NULL;

  if (suanli_trace_get_n_groups (self->trace) <= 1 || group == NULL || self->group != SUANLI_FLAME_ALL_GROUPS)
    return 0;
  if (group->rank >= 0)
    text = g_strdup_printf (_("rank %d"), group->rank);
  else
    text = g_path_get_basename (suanli_trace_get_string (self->trace, group->name));
  return child (self, 0, label (self, text));
}

/* GPU work is a leaf under a CPU stack: @weight goes to @node's self time and to the totals of
 * it and all its ancestors. */
static void
add_weight (SuanliFlame *self,
            guint32      node,
            gint64       weight)
{
  node_at (self, node)->self += weight;
  node_at (self, node)->count++;
  for (guint32 at = node;; at = node_at (self, at)->parent)
    {
      node_at (self, at)->total += weight;
      if (at == 0)
        break;
    }
}

static void
build_cpu (SuanliFlame *self)
{
  gboolean sampled = g_strcmp0 (suanli_trace_get_metadata (self->trace, "unit"), "samples") == 0;

  for (guint t = 0; t < suanli_trace_get_n_tracks (self->trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (self->trace, t);
      guint32 path[MAX_DEPTH];
      guint32 thread;
      gboolean lifted = FALSE;   /* the top-level slice now open is left out */

      if (track->kind != SUANLI_TRACK_THREAD || track->slices->len == 0 || !counts_track (self, track))
        continue;
      /* Folded stacks have no threads: their stacks start at the root, or under their group's
       * name when there are several (the two columns of a differential file stay apart). */
      thread = G_MAXUINT32;   /* made with the first slice that counts: a row of profiler spans has none */
      for (guint i = 0; i < track->slices->len; i++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);
          gint64 weight = overlap (self, slice);
          guint32 parent;
          gboolean top;

          /* A profiler span is left out; what it holds moves up to the thread in its place. */
          if (slice->depth == 0)
            lifted = is_left_out (self, slice);
          if (weight == 0 || (slice->depth == 0 && lifted))
            continue;
          if (thread == G_MAXUINT32)
            {
              if (sampled)
                thread = self->group == SUANLI_FLAME_ALL_GROUPS && suanli_trace_get_n_groups (self->trace) > 1 &&
                             suanli_trace_get_group (self->trace, track->group) != NULL
                           ? child (self, 0, suanli_trace_get_group (self->trace, track->group)->name)
                           : 0;
              else
                thread = child (self, group_node (self, track), thread_label (self, track));
              for (guint d = 0; d < MAX_DEPTH; d++)
                path[d] = thread;
            }
          top = slice->depth == 0 || (lifted && slice->depth == 1);
          parent = top ? thread : path[slice->depth - 1];
          path[slice->depth] = child (self, parent, frame_name (self, slice->name));
          note_start (self, path[slice->depth], sampled ? (gint64) i : MAX (slice->start, self->from));
          /* A slice's time already holds its children's: it is added to its own node only, and
           * is its own (self) until its children claim theirs. */
          node_at (self, path[slice->depth])->total += weight;
          node_at (self, path[slice->depth])->self += weight;
          node_at (self, path[slice->depth])->count++;
          if (!top)
            node_at (self, parent)->self -= weight;
          else
            {
              /* A top-level slice: its time also counts for its thread, rank and the root. */
              for (guint32 at = thread; at != 0; at = node_at (self, at)->parent)
                node_at (self, at)->total += weight;
              node_at (self, 0)->total += weight;
            }
        }
    }
}

/* parent[i]: the index of slice i's enclosing slice in its track, or G_MAXUINT32. */
static GArray *
parents_of (SuanliTrack *track)
{
  GArray *parents = g_array_sized_new (FALSE, FALSE, sizeof (guint32), track->slices->len);
  guint32 last_at_depth[MAX_DEPTH];

  for (guint d = 0; d < MAX_DEPTH; d++)
    last_at_depth[d] = G_MAXUINT32;
  for (guint i = 0; i < track->slices->len; i++)
    {
      SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);
      guint32 parent = slice->depth == 0 ? G_MAXUINT32 : last_at_depth[slice->depth - 1];

      g_array_append_val (parents, parent);
      last_at_depth[slice->depth] = i;
    }
  return parents;
}

/* The node for @slice's whole CPU stack (thread, then outermost to innermost). */
static guint32
stack_node (SuanliFlame *self,
            guint        track_index,
            guint32      slice_index,
            GHashTable  *parents_by_track)
{
  SuanliTrack *track = suanli_trace_get_track (self->trace, track_index);
  GArray *parents = g_hash_table_lookup (parents_by_track, GUINT_TO_POINTER (track_index + 1));
  SuanliString names[MAX_DEPTH];
  guint depth = 0;
  guint32 node;

  if (parents == NULL)
    {
      parents = parents_of (track);
      g_hash_table_insert (parents_by_track, GUINT_TO_POINTER (track_index + 1), parents);
    }
  for (guint32 at = slice_index; at != G_MAXUINT32 && depth < MAX_DEPTH; at = g_array_index (parents, guint32, at))
    if (!is_left_out (self, &g_array_index (track->slices, SuanliSlice, at)))
      names[depth++] = frame_name (self, g_array_index (track->slices, SuanliSlice, at).name);
  node = child (self, group_node (self, track), thread_label (self, track));
  while (depth > 0)
    node = child (self, node, names[--depth]);
  return node;
}

/* The node a kernel goes under: its launch's CPU stack. A kernel that carries the native stack it
 * was launched from (a live capture's "Call stack") goes under the launch's enclosing slices, then
 * those frames, outermost first, in place of the launch call itself. */
static guint32
launch_node (SuanliFlame *self,
             SuanliFlow  *flow,
             SuanliSlice *work,
             GHashTable  *parents_by_track)
{
  const SuanliArg *args = suanli_trace_get_args (self->trace, work);
  const char *frames = NULL;
  guint32 node;

  for (guint a = 0; args != NULL && a < work->n_args; a++)
    if (args[a].type == SUANLI_ARG_STRING && g_str_equal (suanli_trace_get_string (self->trace, args[a].key), "Call stack"))
      frames = suanli_trace_get_string (self->trace, args[a].s);
  if (frames == NULL || *frames == '\0')
    return stack_node (self, flow->from_track, flow->from_slice, parents_by_track);
  {
    SuanliTrack *track = suanli_trace_get_track (self->trace, flow->from_track);
    GArray *parents;
    guint32 enclosing;
    g_auto(GStrv) lines = g_strsplit (frames, "\n", MAX_DEPTH);

    stack_node (self, flow->from_track, flow->from_slice, parents_by_track);   /* makes the parents */
    parents = g_hash_table_lookup (parents_by_track, GUINT_TO_POINTER (flow->from_track + 1));
    enclosing = g_array_index (parents, guint32, flow->from_slice);
    node = enclosing != G_MAXUINT32 ? stack_node (self, flow->from_track, enclosing, parents_by_track)
                                    : child (self, group_node (self, track), thread_label (self, track));
    for (guint i = 0; lines[i] != NULL; i++)
      node = child (self, node, label (self, lines[i]));
  }
  return node;
}

static void
build_gpu (SuanliFlame *self)
{
  g_autoptr(GHashTable) parents_by_track = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) launched = g_hash_table_new (pair_hash, g_int64_equal);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *flows = suanli_trace_get_flows (self->trace);
  SuanliString unlaunched = label (self, _("(launch not recorded)"));

  g_array_set_size (keys, flows->len);
  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      SuanliTrack *to = suanli_trace_get_track (self->trace, flow->to_track);
      SuanliTrack *from = suanli_trace_get_track (self->trace, flow->from_track);
      SuanliSlice *work;
      gint64 *key = &g_array_index (keys, gint64, f);
      gint64 weight;

      if (to->kind != SUANLI_TRACK_GPU_STREAM || from->kind != SUANLI_TRACK_THREAD || !counts_track (self, to))
        continue;
      *key = (gint64) (((guint64) flow->to_track << 32) | flow->to_slice);
      if (g_hash_table_contains (launched, key))
        continue;
      g_hash_table_add (launched, key);
      work = &g_array_index (to->slices, SuanliSlice, flow->to_slice);
      if (!suanli_analysis_is_gpu_work (self->trace, work))
        continue;
      weight = overlap (self, work);
      if (weight > 0)
        {
          guint32 node = child (self, launch_node (self, flow, work, parents_by_track), work->name);

          add_weight (self, node, weight);
          note_start (self, node, MAX (work->start, self->from));
        }
    }

  for (guint t = 0; t < suanli_trace_get_n_tracks (self->trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (self->trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM || !counts_track (self, track))
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *work = &g_array_index (track->slices, SuanliSlice, s);
          gint64 key = (gint64) (((guint64) t << 32) | s);
          gint64 weight = overlap (self, work);

          if (weight == 0 || !suanli_analysis_is_gpu_work (self->trace, work) || g_hash_table_contains (launched, &key))
            continue;
          {
            guint32 node = child (self, child (self, group_node (self, track), unlaunched), work->name);

            add_weight (self, node, weight);
            note_start (self, node, MAX (work->start, self->from));
          }
        }
    }
}

/**
 * suanli_flame_new:
 * @from, @to: the range, in the trace's unit; G_MININT64 and G_MAXINT64 for all of it
 *
 * Returns: (transfer full): the aggregation of @trace's @kind of work inside the range.
 */
SuanliFlame *
suanli_flame_new (SuanliTrace     *trace,
                  SuanliFlameKind  kind,
                  gint64           from,
                  gint64           to)
{
  return suanli_flame_new_for_group (trace, kind, SUANLI_FLAME_ALL_GROUPS, from, to);
}

/**
 * suanli_flame_new_for_group:
 * @group: the group (file, rank) whose work counts, or SUANLI_FLAME_ALL_GROUPS
 * @from, @to: the range, in the trace's unit; G_MININT64 and G_MAXINT64 for all of it
 *
 * As suanli_flame_new(), counting only @group's threads and GPU streams. Its stacks start at the
 * root, with no node for the rank, so that suanli_flame_new_diff() lines up two ranks' flames.
 *
 * Returns: (transfer full): the aggregation of @group's @kind of work inside the range.
 */
SuanliFlame *
suanli_flame_new_for_group (SuanliTrace     *trace,
                            SuanliFlameKind  kind,
                            guint            group,
                            gint64           from,
                            gint64           to)
{
  return suanli_flame_new_full (trace, kind, group, from, to, 0);
}

/**
 * suanli_flame_new_full:
 * @group: the group (file, rank) whose work counts, or SUANLI_FLAME_ALL_GROUPS
 * @from, @to: the range, in the trace's unit; G_MININT64 and G_MAXINT64 for all of it
 * @flags: how frames are merged
 *
 * Returns: (transfer full): as suanli_flame_new_for_group(), made as @flags say.
 */
SuanliFlame *
suanli_flame_new_full (SuanliTrace      *trace,
                       SuanliFlameKind   kind,
                       guint             group,
                       gint64            from,
                       gint64            to,
                       SuanliFlameFlags  flags)
{
  SuanliFlame *self;

  g_return_val_if_fail (SUANLI_IS_TRACE (trace), NULL);
  self = g_object_new (SUANLI_TYPE_FLAME, NULL);
  self->trace = g_object_ref (trace);
  self->from = from;
  self->to = to;
  self->group = group;
  self->flags = flags;
  if (kind == SUANLI_FLAME_CPU)
    build_cpu (self);
  else
    build_gpu (self);
  return self;
}

/* The name a thread's node is matched by across two runs: Kineto names threads
 * "thread 4037 (python3.8)", and the id changes from run to run while the name does not. */
static char *
run_independent_name (const char *name)
{
  const char *at = name;
  gsize length = strlen (name);

  if (!g_str_has_prefix (at, "thread "))
    return g_strdup (name);
  at += strlen ("thread ");
  if (!g_ascii_isdigit (*at))
    return g_strdup (name);
  while (g_ascii_isdigit (*at))
    at++;
  if (!g_str_has_prefix (at, " (") || length < 2 || name[length - 1] != ')' || at + 2 >= name + length - 1)
    return g_strdup (name);
  return g_strndup (at + 2, (gsize) (name + length - 1 - (at + 2)));
}

/* Adds @source's nodes to @self by call path; into the baseline figures when @baseline. */
static void
merge (SuanliFlame *self,
       SuanliFlame *source,
       gboolean     baseline)
{
  g_autofree guint32 *mapped = g_new0 (guint32, source->nodes->len);

  /* A node's parent always comes before it, so one pass in index order maps every path. */
  for (guint i = 1; i < source->nodes->len; i++)
    {
      SuanliFlameNode *from = node_at (source, i);
      g_autofree char *text = run_independent_name (suanli_flame_get_name (source, i));
      SuanliString name = suanli_trace_intern (self->trace, text, -1);
      SuanliFlameNode *to;

      mapped[i] = child (self, mapped[from->parent], name);
      to = node_at (self, mapped[i]);
      to->first = MIN (to->first, from->first);
      if (baseline)
        {
          to->baseline_total += from->total;
          to->baseline_self += from->self;
        }
      else
        {
          to->total += from->total;
          to->self += from->self;
          to->count += from->count;
        }
    }
  if (baseline)
    node_at (self, 0)->baseline_total += node_at (source, 0)->total;
  else
    node_at (self, 0)->total += node_at (source, 0)->total;
}

/**
 * suanli_flame_new_diff:
 * @baseline: the flame to compare against ("before")
 * @current: the flame being looked at ("after")
 *
 * Merges the two trees by call path: each node's total and self are @current's, and its
 * baseline_total and baseline_self are @baseline's (0 where a path is in one tree only). Threads
 * match by name without their ids ("thread 4037 (python3.8)" is "python3.8"), so two runs of one
 * program line up. The names live in a trace of their own, which holds nothing else.
 *
 * Returns: (transfer full): the differential flame.
 */
SuanliFlame *
suanli_flame_new_diff (SuanliFlame *baseline,
                       SuanliFlame *current)
{
  SuanliFlame *self = g_object_new (SUANLI_TYPE_FLAME, NULL);

  self->trace = suanli_trace_new ();
  self->from = G_MININT64;
  self->to = G_MAXINT64;
  self->differential = TRUE;
  merge (self, baseline, TRUE);
  merge (self, current, FALSE);
  return self;
}

gboolean
suanli_flame_is_differential (SuanliFlame *self)
{
  return self->differential;
}

SuanliTrace *
suanli_flame_get_trace (SuanliFlame *self)
{
  return self->trace;
}

guint
suanli_flame_get_n_nodes (SuanliFlame *self)
{
  return self->nodes->len;
}

const SuanliFlameNode *
suanli_flame_get_node (SuanliFlame *self,
                       guint        index)
{
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return node_at (self, index);
}

const char *
suanli_flame_get_name (SuanliFlame *self,
                       guint        index)
{
  SuanliString name = node_at (self, index)->name;

  if (name & LABEL_BIT)
    return g_ptr_array_index (self->labels, name & ~LABEL_BIT);
  return suanli_trace_get_string (self->trace, name);
}

/* A frame's text in a folded line: ";" separates frames and a newline ends the line, so both
 * are replaced. */
static void
append_frame (GString    *line,
              const char *name)
{
  for (const char *at = name; *at != '\0'; at++)
    g_string_append_c (line, *at == ';' ? ',' : (*at == '\n' || *at == '\r') ? ' ' : *at);
}

/* Writes one "frame;frame;frame SELF" line per node with self time, depth first; a differential
 * flame writes "frame;frame BASELINE CURRENT". */
gboolean
suanli_flame_write_folded (SuanliFlame    *self,
                           GOutputStream  *output,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root_child = node_at (self, 0)->first_child;

  if (root_child != 0)
    g_array_append_val (stack, root_child);
  while (stack->len > 0)
    {
      guint32 index = g_array_index (stack, guint32, stack->len - 1);
      SuanliFlameNode *node = node_at (self, index);

      g_array_set_size (stack, stack->len - 1);
      if (node->next_sibling != 0)
        g_array_append_val (stack, node->next_sibling);
      if (node->first_child != 0)
        g_array_append_val (stack, node->first_child);
      if (node->self <= 0 && node->baseline_self <= 0)
        continue;

      {
        guint32 path[MAX_DEPTH + 2];
        guint depth = 0;

        for (guint32 at = index; at != 0 && depth < G_N_ELEMENTS (path); at = node_at (self, at)->parent)
          path[depth++] = at;
        g_string_truncate (line, 0);
        while (depth > 0)
          {
            append_frame (line, suanli_flame_get_name (self, path[--depth]));
            g_string_append_c (line, depth > 0 ? ';' : ' ');
          }
        /* A differential flame writes two columns, baseline then current, as difffolded does. */
        if (self->differential)
          g_string_append_printf (line, "%" G_GINT64_FORMAT " ", node->baseline_self);
        g_string_append_printf (line, "%" G_GINT64_FORMAT "\n", node->self);
        if (!g_output_stream_write_all (output, line->str, line->len, NULL, cancellable, error))
          return FALSE;
      }
    }
  return TRUE;
}
