/* suanli-capture.c — reading and writing the capture stream's header and records
 *
 * Plain C11, no GLib, no allocation: the injection library uses it inside other processes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "suanli-capture.h"

#include <string.h>

static const size_t record_sizes[SUANLI_CAPTURE_N_KINDS] = {
  [SUANLI_CAPTURE_KERNEL] = sizeof (SuanliCaptureKernel),
  [SUANLI_CAPTURE_MEMCPY] = sizeof (SuanliCaptureMemcpy),
  [SUANLI_CAPTURE_MEMSET] = sizeof (SuanliCaptureMemset),
  [SUANLI_CAPTURE_API] = sizeof (SuanliCaptureApi),
  [SUANLI_CAPTURE_SYNC] = sizeof (SuanliCaptureSync),
  [SUANLI_CAPTURE_NVTX_RANGE] = sizeof (SuanliCaptureNvtx),
  [SUANLI_CAPTURE_NVTX_MARK] = sizeof (SuanliCaptureNvtx),
  [SUANLI_CAPTURE_STRING] = sizeof (SuanliCaptureString),
  [SUANLI_CAPTURE_COUNTER] = sizeof (SuanliCaptureCounter),
  [SUANLI_CAPTURE_OVERHEAD] = sizeof (SuanliCaptureOverhead),
  [SUANLI_CAPTURE_DROPPED] = sizeof (SuanliCaptureDropped),
  [SUANLI_CAPTURE_END] = sizeof (SuanliCaptureEnd),
  [SUANLI_CAPTURE_LAUNCH_STACK] = sizeof (SuanliCaptureLaunchStack),
  [SUANLI_CAPTURE_MODULE] = sizeof (SuanliCaptureModule),
};

const char *
suanli_capture_status_message (SuanliCaptureStatus status)
{
  switch (status)
    {
    case SUANLI_CAPTURE_OK:
      return "no error";
    case SUANLI_CAPTURE_NEED_MORE:
      return "the data ends inside a header or record";
    case SUANLI_CAPTURE_BAD_MAGIC:
      return "not a Suanli capture (no SUANLICP magic)";
    case SUANLI_CAPTURE_BAD_VERSION:
      return "a capture format newer than this reader";
    case SUANLI_CAPTURE_FOREIGN_ENDIAN:
      return "written on a machine of the other byte order";
    case SUANLI_CAPTURE_BAD_SIZE:
    default:
      return "a header or record size that cannot be";
    }
}

/* The size a record of @kind has in this version of the format; 0 for kinds it does not know. */
size_t
suanli_capture_record_size (SuanliCaptureKind kind)
{
  return (unsigned) kind < SUANLI_CAPTURE_N_KINDS ? record_sizes[kind] : 0;
}

/**
 * suanli_capture_read_header:
 * @consumed: (out): the header's bytes; the devices follow
 *
 * Reads a stream's header from its first bytes. A header from a later minor revision (larger)
 * is read for the fields this one knows.
 */
SuanliCaptureStatus
suanli_capture_read_header (const void          *data,
                            size_t               length,
                            SuanliCaptureHeader *header,
                            size_t              *consumed)
{
  SuanliCaptureHeader raw;
  size_t size;

  if (length == 0)
    return SUANLI_CAPTURE_NEED_MORE;   /* nothing yet: data may be NULL, which memcmp may not be given */
  if (length < offsetof (SuanliCaptureHeader, endian) + sizeof raw.endian)
    return memcmp (data, SUANLI_CAPTURE_MAGIC, length < 8 ? length : 8) == 0 ? SUANLI_CAPTURE_NEED_MORE
                                                                           : SUANLI_CAPTURE_BAD_MAGIC;
  memcpy (&raw, data, offsetof (SuanliCaptureHeader, endian) + sizeof raw.endian);
  if (memcmp (raw.magic, SUANLI_CAPTURE_MAGIC, 8) != 0)
    return SUANLI_CAPTURE_BAD_MAGIC;
  if (raw.endian != SUANLI_CAPTURE_ENDIAN)
    return SUANLI_CAPTURE_FOREIGN_ENDIAN;
  if (raw.version != SUANLI_CAPTURE_VERSION)
    return SUANLI_CAPTURE_BAD_VERSION;
  if (raw.header_size < SUANLI_CAPTURE_HEADER_V1_SIZE || raw.header_size > 4096)
    return SUANLI_CAPTURE_BAD_SIZE;
  size = raw.header_size;
  if (length < size)
    return SUANLI_CAPTURE_NEED_MORE;
  /* An older, shorter header reads its later fields as 0; a newer, longer one, those this knows. */
  memset (header, 0, sizeof *header);
  memcpy (header, data, size < sizeof *header ? size : sizeof *header);
  header->host[sizeof header->host - 1] = '\0';
  if (header->n_devices > 0 && (header->device_size < sizeof (SuanliCaptureDevice) || header->device_size > 4096))
    return SUANLI_CAPTURE_BAD_SIZE;
  *consumed = size;
  return SUANLI_CAPTURE_OK;
}

/* Reads one of the devices that follow the header. */
SuanliCaptureStatus
suanli_capture_read_device (const void                *data,
                            size_t                     length,
                            const SuanliCaptureHeader *header,
                            SuanliCaptureDevice       *device,
                            size_t                    *consumed)
{
  if (length < header->device_size)
    return SUANLI_CAPTURE_NEED_MORE;
  memcpy (device, data, sizeof *device);
  device->name[sizeof device->name - 1] = '\0';
  *consumed = header->device_size;
  return SUANLI_CAPTURE_OK;
}

/**
 * suanli_capture_next_record:
 * @record: (out): the record at @data, whose header's size says how long it is
 *
 * Returns: SUANLI_CAPTURE_OK with @record pointing into @data (not aligned: copy it with
 * suanli_capture_copy_record() before reading its fields), SUANLI_CAPTURE_NEED_MORE when @data
 * ends inside it, or SUANLI_CAPTURE_BAD_SIZE when its size is impossible.
 */
SuanliCaptureStatus
suanli_capture_next_record (const void                 *data,
                            size_t                      length,
                            const SuanliCaptureRecord **record)
{
  SuanliCaptureRecord head;

  if (length < sizeof head)
    return SUANLI_CAPTURE_NEED_MORE;
  memcpy (&head, data, sizeof head);
  if (head.size < sizeof head || head.size > SUANLI_CAPTURE_MAX_RECORD)
    return SUANLI_CAPTURE_BAD_SIZE;
  if (length < head.size)
    return SUANLI_CAPTURE_NEED_MORE;
  *record = data;
  return SUANLI_CAPTURE_OK;
}

/**
 * suanli_capture_copy_record:
 * @out: a struct of the record's kind, @out_size bytes
 *
 * Copies what the record and @out have in common and zeroes the rest of @out: a record from an
 * older writer is shorter, one from a newer writer longer. Returns: the bytes copied.
 */
size_t
suanli_capture_copy_record (const SuanliCaptureRecord *record,
                            void                      *out,
                            size_t                     out_size)
{
  SuanliCaptureRecord head;
  size_t common;

  memcpy (&head, record, sizeof head);
  common = head.size < out_size ? head.size : out_size;
  memcpy (out, record, common);
  memset ((char *) out + common, 0, out_size - common);
  return common;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* Fills in what every header has; the caller sets the process, host, clocks and rank. */
void
suanli_capture_init_header (SuanliCaptureHeader *header,
                            uint16_t             n_devices)
{
  memset (header, 0, sizeof *header);
  memcpy (header->magic, SUANLI_CAPTURE_MAGIC, 8);
  header->version = SUANLI_CAPTURE_VERSION;
  header->header_size = sizeof *header;
  header->endian = SUANLI_CAPTURE_ENDIAN;
  header->rank = header->local_rank = header->world_size = -1;
  header->n_devices = n_devices;
  header->device_size = sizeof (SuanliCaptureDevice);
}

void
suanli_capture_init_record (SuanliCaptureRecord *record,
                            SuanliCaptureKind    kind,
                            uint32_t             size)
{
  record->kind = (uint16_t) kind;
  record->flags = 0;
  record->size = size;
}

/* A string record's size for @length bytes of text: its header, the text, padding to 8. */
size_t
suanli_capture_string_size (uint32_t length)
{
  return (sizeof (SuanliCaptureString) + length + 7) & ~(size_t) 7;
}

/* Writes a string record into @out. Returns: its size, or 0 when it does not fit @out or the format. */
size_t
suanli_capture_write_string (void       *out,
                             size_t      out_size,
                             uint32_t    id,
                             const char *text,
                             uint32_t    length)
{
  size_t size = suanli_capture_string_size (length);
  SuanliCaptureString string;

  if (size > out_size || size > SUANLI_CAPTURE_MAX_RECORD)
    return 0;
  suanli_capture_init_record (&string.record, SUANLI_CAPTURE_STRING, (uint32_t) size);
  string.id = id;
  string.length = length;
  memcpy (out, &string, sizeof string);
  memcpy ((char *) out + sizeof string, text, length);
  memset ((char *) out + sizeof string + length, 0, size - sizeof string - length);
  return size;
}
