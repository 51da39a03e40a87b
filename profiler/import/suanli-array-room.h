/* suanli-array-room.h — appending to a GArray without a call into GLib per element
 *
 * GLib 2.74's g_array_append_vals() checks every append against the largest size its array may
 * take with a 64-bit division, a slow instruction: for a trace's slices and flows it was 3 % of an
 * import. A SuanliArrayRoom remembers how many elements its array has room for; an append within
 * that room is a store, and only a full array calls GLib, to grow it to the size GLib itself
 * would have chosen (the next power of two in bytes, for elements whose size is a power of two),
 * so the arrays take the memory they always took.
 *
 * The arrays must be plain (g_array_new (FALSE, …)): no zero at the end. A room is tied to the
 * array it was made for; given another, it starts over from that one's length.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

typedef struct
{
  GArray *array;   /* the array the room is known for */
  guint   room;    /* elements it has memory for: at least its length */
} SuanliArrayRoom;

/* Grows @array, with room for @n more elements. */
static inline void
suanli_array_room_grow (SuanliArrayRoom *room,
                        GArray          *array,
                        guint            n)
{
  guint length = array->len, wanted = 1;

  /* As GLib's own arrays do past what a guint counts: a room that did not grow would be written
   * past, so this cannot merely return. */
  if (length > G_MAXUINT / 2 - n)
    g_error ("an array of %u elements cannot grow by %u more", length, n);
  while (wanted < length + n)
    wanted <<= 1;
  /* Set to the new size and back: GLib allocates it once, and no element moves. */
  g_array_set_size (array, wanted);
  g_array_set_size (array, length);
  room->array = array;
  room->room = wanted;
}

/* Makes @array, of elements of @element_size bytes, @n elements longer, returning where the
 * first of them goes (for the caller to fill). */
static inline gpointer
suanli_array_room_append (SuanliArrayRoom *room,
                          GArray          *array,
                          gsize            element_size,
                          guint            n)
{
  gpointer place;

  if (G_UNLIKELY (room->array != array || array->len + n > room->room))
    suanli_array_room_grow (room, array, n);
  place = array->data + (gsize) array->len * element_size;
  array->len += n;
  return place;
}
