/* suanli-test-capture-reader.h — a capture stream read record by record, from a file or a job's
 * control socket, for the tests that look at what the injection library sends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "suanli-capture.h"

G_BEGIN_DECLS

/* What a capture stream says, as far as it has been read: its header, its kernels and API calls,
 * its strings and launch stacks, its drop records and its end. */
typedef struct
{
  gsize               offset;          /* parsed up to here */
  gboolean            has_header;
  SuanliCaptureHeader header;
  GArray             *kernels;         /* SuanliCaptureKernel */
  GArray             *apis;            /* SuanliCaptureApi */
  GHashTable         *strings;         /* id → text */
  GHashTable         *stacks;          /* correlation → depth of its LAUNCH_STACK record */
  guint               drop_records;
  guint64             dropped;         /* the drop records' counts together */
  gboolean            ended;
  SuanliCaptureEnd    end;
} SuanliTestStream;

/* A capture the test started over a job's control socket, read on a thread of its own. */
typedef struct
{
  int         fd;
  GThread    *reader;
  GMutex      lock;
  GByteArray *bytes;
  gboolean    closed;   /* the job closed the connection */
  SuanliTestStream  stream;   /* what the bytes say so far (on the test's thread) */
} SuanliTestCapture;

void        suanli_test_stream_init       (SuanliTestStream          *stream);
void        suanli_test_stream_clear      (SuanliTestStream          *stream);
void        suanli_test_stream_parse      (SuanliTestStream          *stream,
                                           const guint8              *bytes,
                                           gsize                      length);
const char *suanli_test_stream_string     (SuanliTestStream          *stream,
                                           guint32                    id);
gboolean    suanli_test_stream_has_stack  (SuanliTestStream          *stream,
                                           const SuanliCaptureKernel *kernel);
void        suanli_test_stream_read_file  (SuanliTestStream          *stream,
                                           const char                *path);

SuanliTestCapture *suanli_test_capture_start  (const char        *socket_path,
                                               GError           **error);
gboolean           suanli_test_capture_update (SuanliTestCapture *capture);
gboolean           suanli_test_capture_closed (gpointer           capture);
void               suanli_test_capture_stop   (SuanliTestCapture *capture);
void               suanli_test_capture_finish (SuanliTestCapture *capture);
void               suanli_test_capture_save   (SuanliTestCapture *capture,
                                               const char        *path);
void               suanli_test_capture_free   (SuanliTestCapture *capture);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SuanliTestStream, suanli_test_stream_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTestCapture, suanli_test_capture_free)

G_END_DECLS
