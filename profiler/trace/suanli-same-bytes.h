/* suanli-same-bytes.h — memcmp() == 0 for the few bytes of a name or key, inline
 *
 * A call to memcmp() per key was a tenth of reading a trace's keys, and a call per name most of
 * finding a name interned before. Whole words are compared, the last one overlapping the one
 * before rather than a byte at a time: the tail's bytes were most of the comparison.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

static inline gboolean
suanli_same_bytes (const void *a,
                   const void *b,
                   gsize       length)
{
  const char *x = a, *y = b;
  guint64 p, q;
  guint32 u, v;

  if (length >= 8)
    {
      for (gsize at = 0; at + 8 < length; at += 8)
        {
          memcpy (&p, x + at, 8);
          memcpy (&q, y + at, 8);
          if (p != q)
            return FALSE;
        }
      memcpy (&p, x + length - 8, 8);
      memcpy (&q, y + length - 8, 8);
      return p == q;
    }
  if (length >= 4)
    {
      memcpy (&u, x, 4);
      memcpy (&v, y, 4);
      if (u != v)
        return FALSE;
      memcpy (&u, x + length - 4, 4);
      memcpy (&v, y + length - 4, 4);
      return u == v;
    }
  for (; length > 0; x++, y++, length--)
    if (*x != *y)
      return FALSE;
  return TRUE;
}
