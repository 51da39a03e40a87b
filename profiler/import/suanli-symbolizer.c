/* suanli-symbolizer.c — a job's return addresses named from its modules' files
 *
 * The job sends raw return addresses and a record for each module it has mapped (where it lies, its
 * bias, its file and the file's GNU build id); naming them is the collector's work, never the job's.
 * A module's file is read the first time an address falls in it: mapped, not read in, and its ELF
 * symbol table (.symtab when it has one, else .dynsym, as Debian's libtorch_cpu has only) sorted
 * once. Each address is named once, then kept. A file that is not there, is not ELF, or whose
 * build id is not the one the job loaded gives offsets ("libfoo.so+0x1a2b"), never names that
 * might be another build's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suanli-demangle.h"
#include "suanli-symbolizer.h"

#define MAX_BUILD_ID 20

typedef struct
{
  guint64 start;
  guint64 size;
  guint32 name;        /* in the table's strings */
  guint32 index;       /* in the table: of aliases (one address, several names), the first is shown */
  guint8  binding;     /* 0 global, 1 weak, 2 local: of aliases, a global name before a local one */
} Symbol;

/* One file's symbols, shared by the modules that map it. */
typedef struct
{
  char        *path;
  gboolean     loaded;         /* read (or tried): symbols may still be none */
  const guint8 *map;           /* the whole file, mapped; NULL when it could not be */
  gsize         map_size;
  guint8        build_id[MAX_BUILD_ID];
  guint         build_id_length;
  const guint8 *debug_map;     /* a separate debug file's, when its symbols come from there */
  gsize         debug_map_size;
  const char   *strings;
  gsize         strings_size;
  Symbol       *symbols;
  guint         n_symbols;
  char        **names;         /* per symbol, demangled once it is asked for */
} ElfFile;

typedef struct
{
  guint64  bias;
  guint64  start;
  guint64  end;
  char    *library;
  ElfFile *file;
  guint8   build_id[MAX_BUILD_ID];
  guint    build_id_length;
} Module;

/* An address's answer, kept: the address first, for g_int64_hash. */
typedef struct
{
  guint64     address;
  SuanliFrame frame;
} Named;

struct _SuanliSymbolizer
{
  GPtrArray  *modules;   /* of Module, by start, none overlapping */
  GHashTable *files;     /* path → ElfFile */
  GHashTable *named;     /* of Named */
};

static void
elf_file_free (ElfFile *file)
{
  for (guint i = 0; file->names != NULL && i < file->n_symbols; i++)
    if (file->names[i] != NULL &&
        !(file->names[i] >= file->strings && file->names[i] < file->strings + file->strings_size))
      g_free (file->names[i]);
  g_free (file->names);
  g_free (file->symbols);
  if (file->map != NULL)
    munmap ((void *) file->map, file->map_size);
  if (file->debug_map != NULL)
    munmap ((void *) file->debug_map, file->debug_map_size);
  g_free (file->path);
  g_free (file);
}

static void
module_free (Module *module)
{
  g_free (module->library);
  g_free (module);
}

SuanliSymbolizer *
suanli_symbolizer_new (void)
{
  SuanliSymbolizer *self = g_new0 (SuanliSymbolizer, 1);

  self->modules = g_ptr_array_new_with_free_func ((GDestroyNotify) module_free);
  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) elf_file_free);
  self->named = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  return self;
}

void
suanli_symbolizer_free (SuanliSymbolizer *self)
{
  g_hash_table_unref (self->named);
  g_ptr_array_unref (self->modules);
  g_hash_table_unref (self->files);
  g_free (self);
}

/* ---- ELF ------------------------------------------------------------------------------------ */

static const guint8 *
map_file (const char *path,
          gsize      *size)
{
  struct stat info;
  void *map;
  /* Never waiting on a FIFO a damaged capture might name. */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0)
    return NULL;
  if (fstat (fd, &info) != 0 || !S_ISREG (info.st_mode) || info.st_size < (off_t) sizeof (Elf64_Ehdr))
    {
      close (fd);
      return NULL;
    }
  map = mmap (NULL, (size_t) info.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return NULL;
  *size = (gsize) info.st_size;
  return map;
}

/* Whether [offset, offset + length) lies in a file of @size bytes. */
static gboolean
within (guint64 offset,
        guint64 length,
        gsize   size)
{
  return offset <= size && length <= size - offset;
}

/* The section headers of a 64-bit ELF file of this machine's byte order; NULL for anything else. */
static const Elf64_Shdr *
sections_of (const guint8 *map,
             gsize         size,
             guint        *n_sections)
{
  Elf64_Ehdr header;

  memcpy (&header, map, sizeof header);
  if (memcmp (header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != (G_BYTE_ORDER == G_LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB) ||
      header.e_shentsize != sizeof (Elf64_Shdr) || header.e_shoff % 8 != 0 ||
      !within (header.e_shoff, (guint64) header.e_shnum * sizeof (Elf64_Shdr), size))
    return NULL;
  *n_sections = header.e_shnum;
  return (const Elf64_Shdr *) (map + header.e_shoff);
}

/* The GNU build id among the file's notes: its length, 0 when it has none. */
static guint
read_build_id (const guint8     *map,
               gsize             size,
               const Elf64_Shdr *sections,
               guint             n_sections,
               guint8           *build_id)
{
  for (guint s = 0; s < n_sections; s++)
    {
      const Elf64_Shdr *section = &sections[s];
      guint64 at, end;

      if (section->sh_type != SHT_NOTE || !within (section->sh_offset, section->sh_size, size))
        continue;
      at = section->sh_offset;
      end = section->sh_offset + section->sh_size;
      while (at + sizeof (Elf64_Nhdr) <= end)
        {
          Elf64_Nhdr note;
          guint64 name_at = at + sizeof note, desc_at;

          memcpy (&note, map + at, sizeof note);
          desc_at = name_at + ((note.n_namesz + 3u) & ~3u);
          if (desc_at > end || note.n_descsz > end - desc_at)
            break;
          if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && memcmp (map + name_at, "GNU", 4) == 0 &&
              note.n_descsz > 0 && note.n_descsz <= MAX_BUILD_ID)
            {
              memcpy (build_id, map + desc_at, note.n_descsz);
              return note.n_descsz;
            }
          at = desc_at + ((note.n_descsz + 3u) & ~3u);
        }
    }
  return 0;
}

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const Symbol *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->binding != y->binding)
    return x->binding < y->binding ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The functions of the file's table of @type (SHT_SYMTAB or SHT_DYNSYM), sorted. Returns: whether
 * it has such a table with any. */
static gboolean
read_symbols (ElfFile          *file,
              const guint8     *map,
              gsize             size,
              const Elf64_Shdr *sections,
              guint             n_sections,
              guint32           type)
{
  for (guint s = 0; s < n_sections; s++)
    {
      const Elf64_Shdr *table = &sections[s];
      const Elf64_Shdr *strings;
      const Elf64_Sym *symbols;
      guint64 count;
      guint n = 0;

      if (table->sh_type != type || table->sh_entsize != sizeof (Elf64_Sym) || table->sh_link >= n_sections ||
          table->sh_offset % 8 != 0 || !within (table->sh_offset, table->sh_size, size))
        continue;
      strings = &sections[table->sh_link];
      /* A table of names that ends in NUL: every name in it does. */
      if (strings->sh_type != SHT_STRTAB || strings->sh_size == 0 ||
          !within (strings->sh_offset, strings->sh_size, size) || map[strings->sh_offset + strings->sh_size - 1] != '\0')
        continue;
      symbols = (const Elf64_Sym *) (map + table->sh_offset);
      count = MIN (table->sh_size / sizeof (Elf64_Sym), (guint64) G_MAXUINT32);
      file->symbols = g_new (Symbol, count);
      for (guint64 i = 0; i < count; i++)
        {
          const Elf64_Sym *symbol = &symbols[i];
          guint kind = ELF64_ST_TYPE (symbol->st_info);
          guint binding = ELF64_ST_BIND (symbol->st_info);

          if ((kind != STT_FUNC && kind != STT_GNU_IFUNC) || symbol->st_shndx == SHN_UNDEF || symbol->st_value == 0 ||
              symbol->st_name == 0 || symbol->st_name >= strings->sh_size)
            continue;
          file->symbols[n].start = symbol->st_value;
          file->symbols[n].size = symbol->st_size;
          file->symbols[n].name = symbol->st_name;
          file->symbols[n].index = (guint32) i;
          file->symbols[n].binding = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2;
          n++;
        }
      if (n == 0)
        {
          g_clear_pointer (&file->symbols, g_free);
          continue;
        }
      qsort (file->symbols, n, sizeof (Symbol), compare_symbols);
      file->n_symbols = n;
      file->strings = (const char *) map + strings->sh_offset;
      file->strings_size = strings->sh_size;
      return TRUE;
    }
  return FALSE;
}

/* A stripped file's full symbols may be in a debug file installed by build id (Debian's -dbgsym
 * packages): /usr/lib/debug/.build-id/ab/cdef….debug. */
static gboolean
read_debug_symbols (ElfFile *file)
{
  g_autoptr(GString) path = g_string_new ("/usr/lib/debug/.build-id/");
  const Elf64_Shdr *sections;
  guint n_sections;
  guint8 build_id[MAX_BUILD_ID];

  if (file->build_id_length < 2)
    return FALSE;
  for (guint i = 0; i < file->build_id_length; i++)
    g_string_append_printf (path, i == 1 ? "/%02x" : "%02x", file->build_id[i]);
  g_string_append (path, ".debug");
  file->debug_map = map_file (path->str, &file->debug_map_size);
  if (file->debug_map == NULL)
    return FALSE;
  sections = sections_of (file->debug_map, file->debug_map_size, &n_sections);
  /* Only the debug file of this very build. */
  if (sections != NULL &&
      read_build_id (file->debug_map, file->debug_map_size, sections, n_sections, build_id) == file->build_id_length &&
      memcmp (build_id, file->build_id, file->build_id_length) == 0 &&
      read_symbols (file, file->debug_map, file->debug_map_size, sections, n_sections, SHT_SYMTAB))
    return TRUE;
  munmap ((void *) file->debug_map, file->debug_map_size);
  file->debug_map = NULL;
  return FALSE;
}

static void
load (ElfFile *file)
{
  const Elf64_Shdr *sections;
  guint n_sections;

  file->loaded = TRUE;
  file->map = map_file (file->path, &file->map_size);
  if (file->map == NULL)
    return;
  sections = sections_of (file->map, file->map_size, &n_sections);
  if (sections == NULL)
    {
      munmap ((void *) file->map, file->map_size);
      file->map = NULL;
      return;
    }
  file->build_id_length = read_build_id (file->map, file->map_size, sections, n_sections, file->build_id);
  if (!read_symbols (file, file->map, file->map_size, sections, n_sections, SHT_SYMTAB) &&
      !read_debug_symbols (file))
    read_symbols (file, file->map, file->map_size, sections, n_sections, SHT_DYNSYM);
}

/* The symbol that covers @value (an address in the file's terms), or -1. */
static gint64
find_symbol (ElfFile *file,
             guint64  value)
{
  guint low = 0, high = file->n_symbols;

  /* The symbols that start at or before @value. */
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (file->symbols[middle].start <= value)
        low = middle + 1;
      else
        high = middle;
    }
  if (low == 0)
    return -1;
  /* Of the aliases that start there, the first that covers it (they are in the order shown). */
  for (low--; low > 0 && file->symbols[low - 1].start == file->symbols[low].start; low--)
    ;
  for (guint i = low; i < file->n_symbols && file->symbols[i].start == file->symbols[low].start; i++)
    if (value - file->symbols[i].start < file->symbols[i].size)
      return i;
  return -1;
}

static const char *
symbol_name (ElfFile *file,
             guint    index)
{
  if (file->names == NULL)
    file->names = g_new0 (char *, file->n_symbols);
  if (file->names[index] == NULL)
    {
      const char *raw = file->strings + file->symbols[index].name;
      /* A debug file's symbol table names versions too ("__libc_start_main@@GLIBC_2.34"). */
      const char *version = strchr (raw, '@');
      g_autofree char *unversioned = version != NULL ? g_strndup (raw, (gsize) (version - raw)) : NULL;
      char *demangled = suanli_demangle (unversioned != NULL ? unversioned : raw);

      if (demangled != NULL)
        file->names[index] = demangled;
      else
        file->names[index] = unversioned != NULL ? g_steal_pointer (&unversioned) : (char *) raw;
    }
  return file->names[index];
}

/* ---- modules -------------------------------------------------------------------------------- */

/* The module that holds @address, or NULL. */
static Module *
find_module (SuanliSymbolizer *self,
             guint64           address)
{
  guint low = 0, high = self->modules->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      Module *module = g_ptr_array_index (self->modules, middle);

      if (address < module->start)
        high = middle;
      else if (address >= module->end)
        low = middle + 1;
      else
        return module;
    }
  return NULL;
}

/**
 * suanli_symbolizer_add_module:
 * @path: its file, as the job opened it
 * @build_id: (array length=build_id_length): its GNU build id, as the job read it from memory
 *
 * A module mapped in the job at [@start, @end), its addresses less @bias being its file's. One
 * that overlaps modules added before replaces them (the job unloaded those, and loaded this there).
 */
void
suanli_symbolizer_add_module (SuanliSymbolizer *self,
                              guint64           bias,
                              guint64           start,
                              guint64           end,
                              const char       *path,
                              const guint8     *build_id,
                              guint             build_id_length)
{
  Module *module;
  const char *slash = strrchr (path, '/');
  guint at = 0;

  if (end <= start)
    return;
  for (guint i = 0; i < self->modules->len;)
    {
      Module *other = g_ptr_array_index (self->modules, i);

      if (other->start < end && start < other->end)
        {
          g_ptr_array_remove_index (self->modules, i);
          /* What was named there was named by the module that went. */
          g_hash_table_remove_all (self->named);
          continue;
        }
      if (other->start < start)
        at = i + 1;
      i++;
    }
  module = g_new0 (Module, 1);
  module->bias = bias;
  module->start = start;
  module->end = end;
  module->library = g_strdup (slash != NULL ? slash + 1 : path);
  module->build_id_length = MIN (build_id_length, MAX_BUILD_ID);
  if (module->build_id_length > 0)
    memcpy (module->build_id, build_id, module->build_id_length);
  module->file = g_hash_table_lookup (self->files, path);
  if (module->file == NULL)
    {
      module->file = g_new0 (ElfFile, 1);
      module->file->path = g_strdup (path);
      g_hash_table_insert (self->files, module->file->path, module->file);
    }
  g_ptr_array_insert (self->modules, (gint) at, module);
}

/* Whether the module's file may name its addresses: it was read, and it is the build the job
 * loaded wherever both say which. */
static gboolean
file_matches (Module *module)
{
  ElfFile *file = module->file;

  if (!file->loaded)
    load (file);
  if (file->map == NULL || file->n_symbols == 0)
    return FALSE;
  return module->build_id_length == 0 || file->build_id_length == 0 ||
         (module->build_id_length == file->build_id_length &&
          memcmp (module->build_id, file->build_id, file->build_id_length) == 0);
}

/**
 * suanli_symbolizer_lookup:
 * @address: a return address, as the job's backtrace gave it
 *
 * Names it: the function it is in, demangled, and its module; or only the module and the offset
 * there, when its file cannot say; or nothing (library NULL) when it lies in no module. The answer
 * stays valid as long as the symbolizer.
 */
void
suanli_symbolizer_lookup (SuanliSymbolizer *self,
                          guint64           address,
                          SuanliFrame      *frame)
{
  Named *named = g_hash_table_lookup (self->named, &address);

  if (named == NULL)
    {
      /* The call is the byte before where it returns to: a call that ends a function returns
       * to the next one. */
      guint64 call = address > 0 ? address - 1 : 0;
      Module *module = find_module (self, call);

      named = g_new0 (Named, 1);
      named->address = address;
      if (module != NULL)
        {
          named->frame.library = module->library;
          named->frame.offset = address - module->bias;
          if (file_matches (module))
            {
              gint64 index = find_symbol (module->file, call - module->bias);

              if (index >= 0)
                named->frame.function = symbol_name (module->file, (guint) index);
            }
        }
      g_hash_table_add (self->named, named);
    }
  *frame = named->frame;
}

/* How many functions the file at @path has named so far (0 until an address in it was asked
 * for, and when it has none that can be used): for tests and the benchmark. */
guint
suanli_symbolizer_get_n_symbols (SuanliSymbolizer *self,
                                 const char       *path)
{
  ElfFile *file = g_hash_table_lookup (self->files, path);

  return file != NULL ? file->n_symbols : 0;
}
