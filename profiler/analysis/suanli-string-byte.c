/* suanli-string-byte.c — a byte per string of a trace, for what the analyses work out once per
 * category, name or argument key (the classifier's kinds, the FLOPs count's keys)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-analysis-private.h"

/* A byte kept per string of @trace in @known (a GArray of guint8 made with clear set, so that it
 * grows with zeros: 0 is "not known yet"), for what an analysis works out once per category, name
 * or key: @string's, the array grown first to the trace's strings where it is short of them
 * (strings interned since it last grew are not known yet). A hashed table looked up per argument
 * was a third of the FLOPs' time. */
guint8 *
suanli_analysis_string_byte (SuanliTrace  *trace,
                             GArray       *known,
                             SuanliString  string)
{
  if (string >= known->len)
    g_array_set_size (known, MAX (suanli_trace_get_n_strings (trace), string + 1));
  return &g_array_index (known, guint8, string);
}
