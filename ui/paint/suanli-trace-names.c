/* suanli-trace-names.c — the rows' names and labels, in the user's language
 *
 * Kineto names a GPU stream's row "stream 7 " and the process of user annotations "Spans"; some
 * traces name a device's process "Device 0"; the analyses add counters named "Stream 7 queue
 * length" and "GPU 0 memory allocated". These are names of a known form, not the user's own, so
 * they are shown translated; any other name is shown as the trace gives it. Here too the labels
 * of the timeline's rows, made of those names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-trace-names.h"

/* Whether @name is "@prefix N@suffix" (trailing spaces aside), with N in @number. */
static gboolean
numbered (const char *name,
          const char *prefix,
          const char *suffix,
          long long  *number)
{
  gsize prefix_length = strlen (prefix);
  char *end = NULL;

  if (strncmp (name, prefix, prefix_length) != 0 || !g_ascii_isdigit (name[prefix_length]))
    return FALSE;
  *number = g_ascii_strtoll (name + prefix_length, &end, 10);
  if (strncmp (end, suffix, strlen (suffix)) != 0)
    return FALSE;
  end += strlen (suffix);
  while (*end == ' ')
    end++;
  return *end == '\0';
}

/* "GPU 0" or "CPU", translated; NULL for another device. */
static char *
device_for_display (const char *device)
{
  long long number;

  if (g_str_equal (device, "CPU"))
    return g_strdup (_("CPU"));
  if (numbered (device, "GPU ", "", &number))
    return g_strdup_printf (_("GPU %lld"), number);
  return NULL;
}

/* "GPU 0 memory allocated", translated; NULL for another name. */
static char *
memory_for_display (const char *name)
{
  gboolean allocated = g_str_has_suffix (name, " memory allocated");
  const char *suffix = allocated ? " memory allocated" : " memory reserved";
  g_autofree char *device = NULL, *shown = NULL;

  if (!allocated && !g_str_has_suffix (name, suffix))
    return NULL;
  device = g_strndup (name, strlen (name) - strlen (suffix));
  shown = device_for_display (device);
  if (shown == NULL)
    return NULL;
  return allocated ? g_strdup_printf (_("%s memory allocated"), shown) : g_strdup_printf (_("%s memory reserved"), shown);
}

/**
 * suanli_trace_name_for_display:
 * @name: a process's or a track's name, as the trace or an analysis gives it
 *
 * Returns: (transfer full): @name in the user's language where it is one of the names of a known
 * form, else @name as it is.
 */
char *
suanli_trace_name_for_display (const char *name)
{
  long long number;
  char *memory;

  if (name == NULL)
    return NULL;
  if (g_str_equal (name, "Spans"))
    return g_strdup (_("Spans"));
  if (numbered (name, "stream ", "", &number))
    return g_strdup_printf (_("stream %lld"), number);
  if (numbered (name, "Stream ", " queue length", &number))
    return g_strdup_printf (_("Stream %lld queue length"), number);
  if (numbered (name, "Device ", "", &number))
    return g_strdup_printf (_("Device %lld"), number);
  if ((memory = memory_for_display (name)) != NULL)
    return memory;
  return g_strdup (name);
}

/**
 * suanli_trace_process_label:
 * @gpu: whether the process is a GPU (Kineto's pid is then the device's index)
 *
 * Returns: (transfer full): the label of a process's row: its name and pid, its GPU, its rank.
 */
char *
suanli_trace_process_label (SuanliTrace *trace,
                            guint        group_index,
                            gint64       pid,
                            gboolean     gpu)
{
  SuanliGroup *group = suanli_trace_get_group (trace, group_index);
  const char *name = NULL;
  g_autofree char *rank = NULL, *shown_name = NULL;

  if (pid == G_MININT64)
    return g_strdup (_("Global markers"));   /* the importer's row for instants of scope "g" */
  for (guint p = 0; p < suanli_trace_get_n_processes (trace); p++)
    {
      SuanliProcess *process = suanli_trace_get_process (trace, p);

      if (process->group == group_index && process->pid == pid && process->name != 0)
        name = suanli_trace_get_string (trace, process->name);
    }
  shown_name = suanli_trace_name_for_display (name);
  if (group != NULL && group->rank >= 0 && suanli_trace_get_n_groups (trace) > 1)
    rank = g_strdup_printf (_("rank %d"), group->rank);
  {
    /* Kineto's GPUs are processes whose pid is the device index; pids given as words ("Spans")
     * have a made-up negative number, not shown. */
    g_autofree char *what = gpu ? g_strdup_printf (_("GPU %lld"), (long long) pid)
                            : name == NULL ? g_strdup_printf (_("process %lld"), (long long) pid)
                            : pid < 0 ? suanli_trace_name_for_display (name)
                            : g_strdup_printf ("%s (%lld)", shown_name, (long long) pid);

    if (gpu && name != NULL)
      {
        char *with_name = g_strdup_printf ("%s · %s", what, shown_name);

        g_free (what);
        what = with_name;
      }
    return rank != NULL ? g_strdup_printf ("%s · %s", rank, what) : g_steal_pointer (&what);
  }
}

/* Returns: (transfer full): the label of a track's row: its name, else its kind and number. */
char *
suanli_trace_track_label (SuanliTrace *trace,
                          SuanliTrack *track)
{
  if (track->name != 0)
    return suanli_trace_name_for_display (suanli_trace_get_string (trace, track->name));
  if (track->pid == G_MININT64)
    return g_strdup (_("markers"));
  if (track->kind == SUANLI_TRACK_GPU_STREAM)
    return g_strdup_printf (_("stream %lld"), (long long) track->tid);
  return g_strdup_printf (_("thread %lld"), (long long) track->tid);
}
