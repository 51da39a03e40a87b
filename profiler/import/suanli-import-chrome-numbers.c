/* suanli-import-chrome-numbers.c — numbers as a trace writes them, read without strtod where it
 * can be: integers, short decimals, and times in microseconds to whole nanoseconds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-import-chrome-private.h"

/* g_ascii_isdigit() without its table: numbers are most of a trace's bytes. */
static inline gboolean
is_digit (char c)
{
  return (guchar) (c - '0') <= 9;
}

/* The digits @text[@i, @length) as a number, into @magnitude: FALSE where one is not a digit or,
 * when @may_overflow, the number passes what 64 bits hold. Inlined with @may_overflow a constant,
 * so that the common case is a loop without the check. */
G_ALWAYS_INLINE static inline gboolean
read_digits (const char *text,
             gsize       i,
             gsize       length,
             gboolean    may_overflow,
             guint64    *magnitude)
{
  guint64 number = 0;

  for (; i < length; i++)
    {
      if (!is_digit (text[i]) || (may_overflow && number > (guint64) G_MAXINT64 / 10))
        return FALSE;
      number = number * 10 + (guint64) (text[i] - '0');
    }
  *magnitude = number;
  return TRUE;
}

/* A JSON integer that fits 64 bits; FALSE for fractions, exponents and overflow. */
gboolean
chrome_parse_integer (const char *text,
                      gsize       length,
                      gint64     *value)
{
  guint64 magnitude = 0;
  gboolean negative = length > 0 && text[0] == '-';
  gsize i = negative ? 1 : 0;

  if (i == length)
    return FALSE;
  /* Eighteen digits or fewer cannot pass 2^63, and most of a trace's integers have one to five. */
  if (!(length - i <= 18 ? read_digits (text, i, length, FALSE, &magnitude)
                         : read_digits (text, i, length, TRUE, &magnitude)) ||
      magnitude > (guint64) G_MAXINT64)
    return FALSE;
  *value = negative ? -(gint64) magnitude : (gint64) magnitude;
  return TRUE;
}

/* A decimal such as "1.62963" or "-34.9" (no exponent, at most 19 digits, at most 22 after the
 * point) as the double strtod gives: when the digits, as an integer, are below 2^53, both they and
 * the power of ten are exact doubles, and one IEEE division rounds their quotient correctly, as
 * strtod does. FALSE for anything else, which strtod then reads. */
gboolean
chrome_parse_short_decimal (const char *text,
                            gsize       length,
                            double     *value)
{
  static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
  guint64 digits = 0;
  guint n_digits = 0, after_point = 0;
  gboolean negative = length > 0 && text[0] == '-', point = FALSE;

  for (gsize i = negative ? 1 : 0; i < length; i++)
    {
      if (text[i] == '.' && !point)
        point = TRUE;
      else if (is_digit (text[i]) && n_digits < 19)
        {
          digits = digits * 10 + (guint64) (text[i] - '0');
          n_digits++;
          after_point += point;
        }
      else
        return FALSE;
    }
  if (n_digits == 0 || after_point >= G_N_ELEMENTS (powers) || digits > (G_GUINT64_CONSTANT (1) << 53))
    return FALSE;
  *value = (double) digits / powers[after_point];
  if (negative)
    *value = -*value;
  return TRUE;
}

/* Whether the eight bytes at @text are all digits, and if so their value, found a word at a time:
 * a timestamp's whole microseconds are 16 digits in Kineto's traces. */
static inline gboolean
eight_digits (const char *text,
              guint32    *value)
{
  guint64 word;

  memcpy (&word, text, 8);
  word = GUINT64_FROM_LE (word);
  /* Each byte a digit: its high half 3, and still 3 with 6 added (no byte of that form carries). */
  if (((word & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) |
       (((word + G_GUINT64_CONSTANT (0x0606060606060606)) & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) >> 4)) !=
      G_GUINT64_CONSTANT (0x3333333333333333))
    return FALSE;
  word -= G_GUINT64_CONSTANT (0x3030303030303030);
  /* The first digit is the lowest byte. Pairs of digits into every other byte, then pairs of those
   * into the low and high halves' lowest 16 bits, then the two halves into one number. */
  word = word * 10 + (word >> 8);
  word = (((word & G_GUINT64_CONSTANT (0x000000FF000000FF)) * (100 + (G_GUINT64_CONSTANT (1000000) << 32))) +
          (((word >> 16) & G_GUINT64_CONSTANT (0x000000FF000000FF)) * (1 + (G_GUINT64_CONSTANT (10000) << 32)))) >> 32;
  *value = (guint32) word;
  return TRUE;
}

/* Decimal microseconds, as text, to integer nanoseconds, without a double's rounding: epoch
 * timestamps need every digit. */
gboolean
chrome_parse_microseconds (const char *text,
                           gsize       length,
                           gint64     *ns)
{
  gint64 whole = 0, fraction = 0;
  int digits = 0;
  gboolean negative = FALSE;
  gsize i = 0;

  if (i < length && (text[i] == '-' || text[i] == '+'))
    negative = text[i++] == '-';
  if (i == length)
    return FALSE;
  /* Eight digits at once while the whole stays far from overflowing. The digits one at a time stop
   * where the whole before one is past the limit; the whole grows, so that is where the whole
   * before the eighth is. */
  for (guint32 eight; length - i >= 8 && whole < G_GINT64_CONSTANT (10000000000) && eight_digits (text + i, &eight); i += 8)
    {
      gint64 next = whole * 100000000 + eight;

      if (next / 10 > TIME_LIMIT_NS / 10 / 1000)
        return FALSE;
      whole = next;
    }
  for (; i < length && is_digit (text[i]); i++)
    {
      if (whole > TIME_LIMIT_NS / 10 / 1000)
        return FALSE;
      whole = whole * 10 + (text[i] - '0');
    }
  if (i < length && text[i] == '.')
    for (i++; i < length && is_digit (text[i]); i++)
      if (digits < 3)
        {
          fraction = fraction * 10 + (text[i] - '0');
          digits++;
        }
  if (i < length)
    {
      /* An exponent or other form: fall back to a double. */
      g_autofree char *copy = g_strndup (text, length);
      char *end = NULL;
      double value = g_ascii_strtod (copy, &end);

      if (end == copy || *end != '\0' || !(fabs (value * 1000.0) <= (double) TIME_LIMIT_NS))
        return FALSE;
      *ns = (gint64) (value * 1000.0);
      return TRUE;
    }
  while (digits < 3)
    {
      fraction *= 10;
      digits++;
    }
  *ns = (whole * 1000 + fraction) * (negative ? -1 : 1);
  return TRUE;
}
