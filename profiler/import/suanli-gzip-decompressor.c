/* suanli-gzip-decompressor.c — gzip decompression that goes on through concatenated members
 *
 * A gzip file may hold several members one after another (`cat a.gz b.gz`, pigz, bgzip); gunzip
 * reads them all, but GZlibDecompressor stops at the end of the first. This converter wraps one
 * and starts it afresh whenever bytes follow the end of a member.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-gzip-decompressor.h"

struct _SuanliGzipDecompressor
{
  GObject     parent_instance;

  GConverter *member;          /* the decompressor of the current member */
  gboolean    member_ended;
};

static void converter_init (GConverterIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SuanliGzipDecompressor, suanli_gzip_decompressor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER, converter_init))

static GConverterResult
suanli_gzip_decompressor_convert (GConverter      *converter,
                                  const void      *inbuf,
                                  gsize            inbuf_size,
                                  void            *outbuf,
                                  gsize            outbuf_size,
                                  GConverterFlags  flags,
                                  gsize           *bytes_read,
                                  gsize           *bytes_written,
                                  GError         **error)
{
  SuanliGzipDecompressor *self = SUANLI_GZIP_DECOMPRESSOR (converter);
  GConverterResult result;

  if (self->member_ended)
    {
      /* Nothing after a member's end is the end of the file; anything is another member. */
      if (inbuf_size == 0)
        {
          *bytes_read = *bytes_written = 0;
          if (flags & G_CONVERTER_INPUT_AT_END)
            return G_CONVERTER_FINISHED;
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input is needed");
          return G_CONVERTER_ERROR;
        }
      g_converter_reset (self->member);
      self->member_ended = FALSE;
    }
  result = g_converter_convert (self->member, inbuf, inbuf_size, outbuf, outbuf_size, flags, bytes_read,
                                bytes_written, error);
  if (result == G_CONVERTER_FINISHED)
    {
      self->member_ended = TRUE;
      if (*bytes_read < inbuf_size || !(flags & G_CONVERTER_INPUT_AT_END))
        return G_CONVERTER_CONVERTED;
    }
  return result;
}

static void
suanli_gzip_decompressor_reset (GConverter *converter)
{
  SuanliGzipDecompressor *self = SUANLI_GZIP_DECOMPRESSOR (converter);

  g_converter_reset (self->member);
  self->member_ended = FALSE;
}

static void
converter_init (GConverterIface *iface)
{
  iface->convert = suanli_gzip_decompressor_convert;
  iface->reset = suanli_gzip_decompressor_reset;
}

static void
suanli_gzip_decompressor_finalize (GObject *object)
{
  SuanliGzipDecompressor *self = SUANLI_GZIP_DECOMPRESSOR (object);

  g_object_unref (self->member);
  G_OBJECT_CLASS (suanli_gzip_decompressor_parent_class)->finalize (object);
}

static void
suanli_gzip_decompressor_class_init (SuanliGzipDecompressorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_gzip_decompressor_finalize;
}

static void
suanli_gzip_decompressor_init (SuanliGzipDecompressor *self)
{
  self->member = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
}

GConverter *
suanli_gzip_decompressor_new (void)
{
  return g_object_new (SUANLI_TYPE_GZIP_DECOMPRESSOR, NULL);
}
