/* suanli-import-chrome-flows.c — flow starts waiting for their ends (ChromeFlowStarts)
 *
 * Every launch in a Kineto trace has a flow pair: its "s" waits here, under its category, name and
 * id, until the "f" with the same three takes it. A hashed table of copied text keys did that
 * with two allocations, three hashings of the key and two frees a flow, a twentieth of the
 * import; this one keeps each start in its slot, the id copied there, and hashes the key once.
 * Slots are found by linear probing in a power of two of them, at most half full; a start taken
 * leaves no mark behind (the starts after it in its run move back into the gap).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-import-chrome-private.h"

typedef struct
{
  guint64      hash;          /* 0: an empty slot */
  SuanliString category, name;
  FlowEnd      end;
  guint8       id_length;
  char         id[sizeof ((Event *) NULL)->id - 1];
} Slot;

struct ChromeFlowStarts
{
  Slot  *slots;
  gsize  mask;     /* slots, less one */
  gsize  count;
};

#define FIRST_SLOTS 64

ChromeFlowStarts *
chrome_flow_starts_new (void)
{
  ChromeFlowStarts *starts = g_new (ChromeFlowStarts, 1);

  starts->slots = g_new0 (Slot, FIRST_SLOTS);
  starts->mask = FIRST_SLOTS - 1;
  starts->count = 0;
  return starts;
}

void
chrome_flow_starts_free (ChromeFlowStarts *starts)
{
  g_free (starts->slots);
  g_free (starts);
}

gsize
chrome_flow_starts_entry_bytes (void)
{
  return 2 * sizeof (Slot);
}

/* The key's hash, never 0: its two ids and its text a word at a time. */
static guint64
hash_key (SuanliString category,
          SuanliString name,
          const char  *id,
          gsize        id_length)
{
  const guint64 multiplier = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  guint64 hash = (((guint64) category << 32) | name) * multiplier;

  for (gsize at = 0; at < id_length; at += 8)
    {
      guint64 word = 0;

      memcpy (&word, id + at, MIN (8, id_length - at));
      hash = (hash ^ word) * multiplier;
      hash ^= hash >> 29;
    }
  return hash | 1;
}

/* The slot holding the key, or the empty one where it would go. */
static Slot *
find (const ChromeFlowStarts *starts,
      guint64                 hash,
      SuanliString            category,
      SuanliString            name,
      const char             *id,
      gsize                   id_length)
{
  gsize at = (gsize) (hash >> 32) & starts->mask;

  for (;; at = (at + 1) & starts->mask)
    {
      Slot *slot = &starts->slots[at];

      if (slot->hash == 0 ||
          (slot->hash == hash && slot->category == category && slot->name == name && slot->id_length == id_length &&
           memcmp (slot->id, id, id_length) == 0))
        return slot;
    }
}

static void
grow (ChromeFlowStarts *starts)
{
  Slot *old = starts->slots;
  gsize n_old = starts->mask + 1;

  starts->slots = g_new0 (Slot, 2 * n_old);
  starts->mask = 2 * n_old - 1;
  for (gsize i = 0; i < n_old; i++)
    if (old[i].hash != 0)
      *find (starts, old[i].hash, old[i].category, old[i].name, old[i].id, old[i].id_length) = old[i];
  g_free (old);
}

gboolean
chrome_flow_starts_put (ChromeFlowStarts *starts,
                        const Event      *event,
                        const FlowEnd    *end)
{
  gsize id_length = strlen (event->id);
  guint64 hash = hash_key (event->category, event->name, event->id, id_length);
  Slot *slot = find (starts, hash, event->category, event->name, event->id, id_length);

  if (slot->hash != 0)
    {
      slot->end = *end;
      return FALSE;
    }
  if (2 * (starts->count + 1) > starts->mask + 1)
    {
      grow (starts);
      slot = find (starts, hash, event->category, event->name, event->id, id_length);
    }
  slot->hash = hash;
  slot->category = event->category;
  slot->name = event->name;
  slot->end = *end;
  slot->id_length = (guint8) id_length;
  memcpy (slot->id, event->id, id_length);
  starts->count++;
  return TRUE;
}

gboolean
chrome_flow_starts_take (ChromeFlowStarts *starts,
                         const Event      *event,
                         FlowEnd          *end)
{
  gsize id_length = strlen (event->id);
  guint64 hash = hash_key (event->category, event->name, event->id, id_length);
  Slot *slot = find (starts, hash, event->category, event->name, event->id, id_length);
  gsize gap, at;

  if (slot->hash == 0)
    return FALSE;
  *end = slot->end;
  starts->count--;
  /* Close the gap: a start further on in the run moves back into it unless its own place lies
   * (cyclically) after the gap and at or before where it is now. */
  gap = (gsize) (slot - starts->slots);
  for (at = (gap + 1) & starts->mask; starts->slots[at].hash != 0; at = (at + 1) & starts->mask)
    {
      gsize home = (gsize) (starts->slots[at].hash >> 32) & starts->mask;

      if (((at - home) & starts->mask) >= ((at - gap) & starts->mask))
        {
          starts->slots[gap] = starts->slots[at];
          gap = at;
        }
    }
  starts->slots[gap].hash = 0;
  return TRUE;
}
