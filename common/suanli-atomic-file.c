/* suanli-atomic-file.c — a file written beside its target and put in place only when complete
 *
 * A command that writes a file (trace convert, record, report) writes a hidden temporary file in
 * the target's folder and renames it over the target when all of it is written, so a failure
 * leaves the old file as it was. The new file keeps the mode of the one it replaces (a 0600
 * capture stays 0600). Temporary files are listed where a signal handler can reach them without
 * allocating: suanli_atomic_file_clean_on_signals() has SIGINT, SIGTERM and SIGHUP remove them
 * before the process dies of the signal, so an interrupted command leaves nothing behind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-atomic-file.h"

#define MAX_OPEN 8

struct _SuanliAtomicFile
{
  char *path;
  char *temporary;
  int   fd;
  int   slot;   /* in the signal handler's list, or -1 */
};

/* What the signal handler removes: written before "used" is set, read only when it is. */
static struct
{
  volatile sig_atomic_t used;
  char                  path[4096];
} open_files[MAX_OPEN];

static int
remember (const char *temporary)
{
  if (strlen (temporary) >= sizeof open_files[0].path)
    return -1;
  for (int i = 0; i < MAX_OPEN; i++)
    if (!open_files[i].used)
      {
        strcpy (open_files[i].path, temporary);
        open_files[i].used = 1;
        return i;
      }
  return -1;
}

static void
forget (SuanliAtomicFile *self)
{
  if (self->slot >= 0)
    open_files[self->slot].used = 0;
  self->slot = -1;
}

static void
remove_and_die (int signal_number)
{
  for (int i = 0; i < MAX_OPEN; i++)
    if (open_files[i].used)
      unlink (open_files[i].path);
  signal (signal_number, SIG_DFL);
  raise (signal_number);
}

/* SIGINT, SIGTERM and SIGHUP remove the temporary files of this process, then end it as the signal
 * would have. A command that handles SIGINT itself (record's Ctrl+C) installs its own after. */
void
suanli_atomic_file_clean_on_signals (void)
{
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    signal (signals[i], remove_and_die);
}

/* Gives the file behind @fd the mode of the file at @path that it will replace, if there is one
 * (a new file keeps what umask leaves of 0666, as open() made it: umask is not touched, since
 * reports are written on worker threads). */
static int
keep_mode (int         fd,
           const char *path)
{
  struct stat info;

  if (stat (path, &info) != 0)
    return 0;
  return fchmod (fd, info.st_mode & 07777);
}

/* Opens a new hidden file beside @path, named ".BASE.XXXXXX", listed for the signal handler
 * before it exists (mkstemp's name is known only once its file is there, and a signal between the
 * two left the file behind). Returns its descriptor, or -1 with errno set. */
static int
create_listed (SuanliAtomicFile *self,
               const char       *directory,
               const char       *base)
{
  for (int tries = 0; tries < 100; tries++)
    {
      g_free (self->temporary);
      self->temporary = g_strdup_printf ("%s%c.%s.%06X", directory, G_DIR_SEPARATOR, base,
                                         (guint) g_random_int_range (0, 0x1000000));
      self->slot = remember (self->temporary);
      self->fd = open (self->temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (self->fd >= 0 || errno != EEXIST)
        return self->fd;
      forget (self);
    }
  return -1;
}

/* Returns: (transfer full) (nullable): a temporary file beside @path, open for writing. */
SuanliAtomicFile *
suanli_atomic_file_new (const char  *path,
                        GError     **error)
{
  g_autofree char *directory = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  SuanliAtomicFile *self = g_new0 (SuanliAtomicFile, 1);

  self->path = g_strdup (path);
  self->slot = -1;
  if (create_listed (self, directory, base) < 0 || keep_mode (self->fd, path) != 0)
    {
      int saved = errno;
      g_autofree char *shown = g_filename_display_name (path);

      if (self->fd >= 0)
        {
          close (self->fd);
          g_unlink (self->temporary);
        }
      forget (self);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"), shown,
                   g_strerror (saved));
      g_free (self->path);
      g_free (self->temporary);
      g_free (self);
      return NULL;
    }
  return self;
}

int
suanli_atomic_file_get_fd (SuanliAtomicFile *self)
{
  return self->fd;
}

static void
atomic_file_free (SuanliAtomicFile *self)
{
  forget (self);
  g_free (self->path);
  g_free (self->temporary);
  g_free (self);
}

/* Writes what was written to disk and puts it in place; frees @self. */
gboolean
suanli_atomic_file_commit (SuanliAtomicFile  *self,
                           GError           **error)
{
  int failed = 0;

  if (fsync (self->fd) != 0)
    failed = errno;
  if (close (self->fd) != 0 && failed == 0)
    failed = errno;
  self->fd = -1;
  if (failed == 0 && g_rename (self->temporary, self->path) != 0)
    failed = errno;
  if (failed != 0)
    {
      g_autofree char *shown = g_filename_display_name (self->path);

      g_unlink (self->temporary);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (failed), _("Cannot write %s: %s"), shown,
                   g_strerror (failed));
    }
  atomic_file_free (self);
  return failed == 0;
}

/* Removes the temporary file, leaving the target as it was; frees @self. */
void
suanli_atomic_file_abandon (SuanliAtomicFile *self)
{
  if (self->fd >= 0)
    close (self->fd);
  g_unlink (self->temporary);
  atomic_file_free (self);
}

/* Replaces the file at @path with @length bytes of @data in one step, keeping its mode (a plan
 * saved 0600 stays 0600). On any error the old file is left as it was. */
gboolean
suanli_atomic_file_write_contents (const char  *path,
                                   const char  *data,
                                   gsize        length,
                                   GError     **error)
{
  SuanliAtomicFile *file = suanli_atomic_file_new (path, error);
  gsize written = 0;

  if (file == NULL)
    return FALSE;
  while (written < length)
    {
      gssize n = write (file->fd, data + written, length - written);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_autofree char *shown = g_filename_display_name (path);

          suanli_atomic_file_abandon (file);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"), shown,
                       g_strerror (saved));
          return FALSE;
        }
      written += (gsize) n;
    }
  return suanli_atomic_file_commit (file, error);
}
