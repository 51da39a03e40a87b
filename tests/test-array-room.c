/* test-array-room.c — SuanliArrayRoom: appends that call GLib only when the array is full keep
 * every element, take the memory GLib's own appends would, and stay safe when the array was grown
 * or replaced behind the room's back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "suanli-array-room.h"

typedef struct
{
  gint64 start, duration;
  guint32 name, category;
  guint32 args;
  guint16 n_args;
  guint8  depth, flags;
} Slice;   /* 32 bytes, as a trace's slices are */

static void
append (SuanliArrayRoom *room,
        GArray          *array,
        guint            value)
{
  Slice slice = { value, 2 * (gint64) value, value, 0, 0, 0, 0, 0 };

  *(Slice *) suanli_array_room_append (room, array, sizeof slice, 1) = slice;
}

static void
check_values (GArray *array,
              guint   n)
{
  g_assert_cmpuint (array->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const Slice *slice = &g_array_index (array, Slice, i);

      g_assert_cmpint (slice->start, ==, i);
      g_assert_cmpint (slice->duration, ==, 2 * (gint64) i);
      g_assert_cmpuint (slice->name, ==, i);
    }
}

/* A hundred thousand appends: every element in order, and the room a power of two that holds them,
 * grown eighteen times (to 1, 2, 4 … 131,072 elements), not per append. */
static void
test_appends (void)
{
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (Slice));
  SuanliArrayRoom room = { NULL, 0 };
  guint grown = 0, last_room = 0;

  for (guint i = 0; i < 100000; i++)
    {
      append (&room, array, i);
      grown += room.room != last_room;
      last_room = room.room;
      g_assert_cmpuint (room.room, >=, array->len);
      g_assert_cmpuint (room.room & (room.room - 1), ==, 0);
    }
  check_values (array, 100000);
  g_assert_cmpuint (room.room, ==, 131072);
  g_assert_cmpuint (grown, ==, 18);   /* 1, 2, 4 … 131072 */
}

/* Several elements at once, as a flow's two ends go. */
static void
test_appends_several (void)
{
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (guint64));
  SuanliArrayRoom room = { NULL, 0 };

  for (guint64 i = 0; i < 1000; i += 2)
    {
      guint64 *pair = suanli_array_room_append (&room, array, sizeof (guint64), 2);

      pair[0] = i;
      pair[1] = i + 1;
    }
  g_assert_cmpuint (array->len, ==, 1000);
  for (guint i = 0; i < 1000; i++)
    g_assert_cmpuint (g_array_index (array, guint64, i), ==, i);
}

/* The array grows elsewhere (a plain g_array_append_val) past what the room knew: the next append
 * through the room grows it again rather than writing past its memory. */
static void
test_grown_elsewhere (void)
{
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (Slice));
  SuanliArrayRoom room = { NULL, 0 };
  guint i = 0;

  for (; i < 3; i++)
    append (&room, array, i);
  g_assert_cmpuint (room.room, ==, 4);
  for (; i < 1000; i++)
    {
      Slice slice = { i, 2 * (gint64) i, i, 0, 0, 0, 0, 0 };

      g_array_append_val (array, slice);
    }
  append (&room, array, i++);
  g_assert_cmpuint (room.room, >=, array->len);
  check_values (array, 1001);
}

/* A room given another array starts over from that one's length. */
static void
test_another_array (void)
{
  g_autoptr(GArray) first = g_array_new (FALSE, FALSE, sizeof (Slice));
  g_autoptr(GArray) second = g_array_new (FALSE, FALSE, sizeof (Slice));
  SuanliArrayRoom room = { NULL, 0 };

  for (guint i = 0; i < 100; i++)
    append (&room, first, i);
  append (&room, second, 0);
  g_assert_true (room.array == second);
  g_assert_cmpuint (room.room, ==, 1);
  for (guint i = 1; i < 10; i++)
    append (&room, second, i);
  check_values (first, 100);
  check_values (second, 10);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/array-room/appends", test_appends);
  g_test_add_func ("/array-room/appends-several", test_appends_several);
  g_test_add_func ("/array-room/grown-elsewhere", test_grown_elsewhere);
  g_test_add_func ("/array-room/another-array", test_another_array);
  return g_test_run ();
}
