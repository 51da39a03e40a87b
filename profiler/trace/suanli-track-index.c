/* suanli-track-index.c — a track's slices by depth, for drawing millions of them at any zoom
 *
 * A track's slices are one array sorted by start; a row of the timeline shows one depth of it.
 * The index keeps, per depth, the positions of that depth's slices (still sorted by start) and the
 * longest slice of each block of BLOCK of them. Drawing a time window at a given resolution then
 * costs a binary search per pixel column that holds many slices: slices shorter than a column are
 * replaced by the longest one starting in that column, found through the block maxima, so a
 * one-pixel spike is never lost and a frame never visits every slice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-track-index.h"

#define BLOCK 8

/* What a block of BLOCK slices of one depth holds, packed so that a zoomed-out frame can skip
 * over thousands of slices reading a few cache lines. */
typedef struct
{
  gint64  first_start;    /* the start of its first slice */
  gint64  longest;        /* the duration of its longest slice */
  guint32 longest_pos;    /* that slice's position (in Depth.slices) */
} Block;

typedef struct
{
  GArray *slices;     /* of guint32: positions in the track's array */
  GArray *blocks;     /* of Block, one per BLOCK slices */
} Depth;

struct _SuanliTrackIndex
{
  SuanliTrack *track;
  GArray      *depths;   /* of Depth */
};

static const SuanliSlice *
slice_of (SuanliTrackIndex *self,
          Depth            *depth,
          guint             position)
{
  return &g_array_index (self->track->slices, SuanliSlice, g_array_index (depth->slices, guint32, position));
}

/* Builds the index of @track as it is now; rebuild it when the track grows. The track must
 * outlive the index. */
SuanliTrackIndex *
suanli_track_index_new (SuanliTrack *track)
{
  SuanliTrackIndex *self = g_new0 (SuanliTrackIndex, 1);

  self->track = track;
  self->depths = g_array_new (FALSE, TRUE, sizeof (Depth));
  for (guint i = 0; i < track->slices->len; i++)
    {
      guint depth = g_array_index (track->slices, SuanliSlice, i).depth;
      guint32 position = i;

      if (depth >= self->depths->len)
        {
          guint from = self->depths->len;

          g_array_set_size (self->depths, depth + 1);
          for (guint d = from; d <= depth; d++)
            {
              g_array_index (self->depths, Depth, d).slices = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_array_index (self->depths, Depth, d).blocks = g_array_new (FALSE, FALSE, sizeof (Block));
            }
        }
      g_array_append_val (g_array_index (self->depths, Depth, depth).slices, position);
    }
  for (guint d = 0; d < self->depths->len; d++)
    {
      Depth *depth = &g_array_index (self->depths, Depth, d);

      for (guint start = 0; start < depth->slices->len; start += BLOCK)
        {
          Block block = { slice_of (self, depth, start)->start, slice_of (self, depth, start)->duration, start };

          for (guint p = start + 1; p < MIN (start + BLOCK, depth->slices->len); p++)
            if (slice_of (self, depth, p)->duration > block.longest)
              {
                block.longest = slice_of (self, depth, p)->duration;
                block.longest_pos = p;
              }
          g_array_append_val (depth->blocks, block);
        }
    }
  return self;
}

void
suanli_track_index_free (SuanliTrackIndex *self)
{
  for (guint d = 0; d < self->depths->len; d++)
    {
      g_array_unref (g_array_index (self->depths, Depth, d).slices);
      g_array_unref (g_array_index (self->depths, Depth, d).blocks);
    }
  g_array_unref (self->depths);
  g_free (self);
}

/* The bytes the index holds (its arrays as allocated), for the benchmarks' memory accounts. */
gsize
suanli_track_index_get_size (SuanliTrackIndex *self)
{
  gsize size = sizeof *self + self->depths->len * sizeof (Depth);

  for (guint d = 0; d < self->depths->len; d++)
    {
      Depth *depth = &g_array_index (self->depths, Depth, d);

      size += depth->slices->len * sizeof (guint32) + depth->blocks->len * sizeof (Block);
    }
  return size;
}

guint
suanli_track_index_n_depths (SuanliTrackIndex *self)
{
  return self->depths->len;
}

/* The first position in [@low, @high) of @depth whose slice starts at or after @time. */
static guint
first_starting (SuanliTrackIndex *self,
                Depth            *depth,
                guint             low,
                guint             high,
                gint64            time)
{
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (slice_of (self, depth, middle)->start < time)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

/* Like first_starting, but searching forwards from @low in growing steps: the answer is usually
 * a few slices away (the end of one pixel column), not anywhere up to @high. */
static guint
gallop_to (SuanliTrackIndex *self,
           Depth            *depth,
           guint             low,
           guint             high,
           gint64            time)
{
  guint step = 1, bound = low;

  while (bound < high && slice_of (self, depth, bound)->start < time)
    {
      low = bound + 1;
      bound = MIN (bound + step, high);
      step *= 2;
    }
  return first_starting (self, depth, low, MIN (bound, high), time);
}

/* The position of the longest slice in [@low, @high), through the block maxima. */
static guint
longest_between (SuanliTrackIndex *self,
                 Depth            *depth,
                 guint             low,
                 guint             high)
{
  guint best = low;

  for (guint p = low; p < high;)
    {
      guint candidate = p;

      if (p % BLOCK == 0 && p + BLOCK <= high)
        {
          candidate = g_array_index (depth->blocks, Block, p / BLOCK).longest_pos;
          p += BLOCK;
        }
      else
        p++;
      if (slice_of (self, depth, candidate)->duration > slice_of (self, depth, best)->duration)
        best = candidate;
    }
  return best;
}

/* From block @first on (it starts a bucket), the first block starting at or after @bucket_end,
 * galloping over the packed blocks, and the longest slice of the blocks before it in @best.
 * Returns: that block's first position. */
static guint
block_end (Depth  *depth,
           guint   first,
           gint64  bucket_end,
           guint  *best)
{
  GArray *blocks = depth->blocks;
  guint low = first + 1, bound = low, step = 1, high = blocks->len;
  gint64 longest = -1;

  while (bound < high && g_array_index (blocks, Block, bound).first_start < bucket_end)
    {
      low = bound + 1;
      bound = MIN (bound + step, high);
      step *= 2;
    }
  high = MIN (bound, high);
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (blocks, Block, middle).first_start < bucket_end)
        low = middle + 1;
      else
        high = middle;
    }
  for (guint b = first; b < low; b++)
    if (g_array_index (blocks, Block, b).longest > longest)
      {
        longest = g_array_index (blocks, Block, b).longest;
        *best = g_array_index (blocks, Block, b).longest_pos;
      }
  return MIN (low * BLOCK, depth->slices->len);
}

/* The start of the bucket (of @bucket_ns from @from on) that @time falls in; @from before it. */
static gint64
bucket_of (gint64 time,
           gint64 from,
           gint64 bucket_ns)
{
  return time < from ? from : from + (time - from) / bucket_ns * bucket_ns;
}

/**
 * suanli_track_index_visit:
 * @from, @to: the time window
 * @bucket_ns: the time one pixel column covers (at least 1)
 *
 * Calls @visit, in time order, for what there is to draw of @depth in the window: each slice at
 * least @bucket_ns long, and for each bucket (column) of shorter ones, their longest.
 */
void
suanli_track_index_visit (SuanliTrackIndex *self,
                          guint             depth_index,
                          gint64            from,
                          gint64            to,
                          gint64            bucket_ns,
                          SuanliTrackVisit  visit,
                          gpointer          user_data)
{
  Depth *depth;
  guint n, i;

  if (depth_index >= self->depths->len)
    return;
  depth = &g_array_index (self->depths, Depth, depth_index);
  n = depth->slices->len;
  bucket_ns = MAX (bucket_ns, 1);
  i = first_starting (self, depth, 0, n, from);
  /* Slices of one depth rarely overlap: the one before the window may reach into it. */
  while (i > 0 && slice_of (self, depth, i - 1)->start + slice_of (self, depth, i - 1)->duration > from)
    i--;
  while (i < n)
    {
      const SuanliSlice *slice;
      gint64 bucket_start, bucket_end;
      guint end, best = i;

      /* Zoomed far out, a bucket that starts a block and runs past the next one is taken whole
       * blocks at a time, to the first block starting after the bucket, reading only the packed
       * blocks: the few slices between the bucket's end and that block show in this column
       * rather than the next, less than a pixel off, and none is lost. */
      if (i % BLOCK == 0 && i / BLOCK + 1 < depth->blocks->len)
        {
          const Block *block = &g_array_index (depth->blocks, Block, i / BLOCK);

          if (block->first_start >= to)
            break;
          bucket_start = bucket_of (block->first_start, from, bucket_ns);
          bucket_end = block->first_start < from ? from : bucket_start + bucket_ns;
          if (block->longest < bucket_ns && block[1].first_start < bucket_end)
            {
              end = block_end (depth, i / BLOCK, bucket_end, &best);
              visit (g_array_index (depth->slices, guint32, best), slice_of (self, depth, best),
                     slice_of (self, depth, best)->duration < bucket_ns, bucket_start, user_data);
              i = end;
              continue;
            }
        }
      slice = slice_of (self, depth, i);
      if (slice->start >= to)
        break;
      if (slice->duration >= bucket_ns)
        {
          visit (g_array_index (depth->slices, guint32, i), slice, FALSE, slice->start, user_data);
          i++;
          continue;
        }
      /* The bucket this short slice starts in, aligned to the window, and all that start in it. */
      bucket_start = bucket_of (slice->start, from, bucket_ns);
      bucket_end = slice->start < from ? from : bucket_start + bucket_ns;
      end = gallop_to (self, depth, i + 1, n, bucket_end);
      best = longest_between (self, depth, i, end);
      visit (g_array_index (depth->slices, guint32, best), slice_of (self, depth, best),
             end - i > 1 && slice_of (self, depth, best)->duration < bucket_ns, bucket_start, user_data);
      i = end;
    }
}

/**
 * suanli_track_index_find:
 * @slack_ns: how far from @time a slice may be and still count (a pixel or two, for clicks)
 *
 * Returns: whether a slice of @depth covers @time (within @slack_ns), with its position in the
 * track's array; the nearest one when several are within reach.
 */
gboolean
suanli_track_index_find (SuanliTrackIndex *self,
                         guint             depth_index,
                         gint64            time,
                         gint64            slack_ns,
                         guint32          *slice_index)
{
  Depth *depth;
  guint after;
  gint64 best_distance = G_MAXINT64;

  if (depth_index >= self->depths->len)
    return FALSE;
  depth = &g_array_index (self->depths, Depth, depth_index);
  after = first_starting (self, depth, 0, depth->slices->len, time - slack_ns);
  /* Candidates: the slices just before (which may cover @time) and those starting within reach. */
  for (guint p = after > 2 ? after - 2 : 0; p < depth->slices->len; p++)
    {
      const SuanliSlice *slice = slice_of (self, depth, p);
      gint64 end = slice->start + slice->duration;
      gint64 distance = time < slice->start ? slice->start - time : time > end ? time - end : 0;

      if (slice->start > time + slack_ns)
        break;
      if (distance <= slack_ns && distance < best_distance)
        {
          best_distance = distance;
          *slice_index = g_array_index (depth->slices, guint32, p);
        }
    }
  return best_distance != G_MAXINT64;
}
