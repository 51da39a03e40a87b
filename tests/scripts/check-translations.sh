#!/bin/sh
# Checks the translations against the sources, as a translator would find them:
#  - every source file with translatable strings is listed in po/POTFILES.in, and every listed file exists;
#  - the template regenerated from those files (xgettext), merged into each language (msgmerge),
#    leaves no string untranslated or fuzzy;
#  - each .po file passes msgfmt --check.
# Usage: check-translations.sh SOURCE_DIR
set -eu
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cd "$src"
failed=0

grep -v '^#' po/POTFILES.in | sed '/^[[:space:]]*$/d' | sort > "$work/listed"
{
  grep -rlE '(^|[^A-Za-z0-9_])(N?_|C_|NC_)\(' --include='*.c' app catalog common profiler ui || true
  grep -rl 'translatable="yes"' --include='*.ui' resources || true
  ls resources/*.desktop.in resources/*.metainfo.xml.in resources/*.gschema.xml
} | sort -u > "$work/found"

for file in $(comm -13 "$work/listed" "$work/found"); do
  echo "po/POTFILES.in: $file has translatable strings but is not listed"
  failed=1
done
for file in $(cat "$work/listed"); do
  if [ ! -f "$file" ]; then
    echo "po/POTFILES.in: $file is listed but does not exist"
    failed=1
  fi
done

# The same keywords and flags as meson's i18n "glib" preset.
xgettext --from-code=UTF-8 --add-comments --package-name=suanli \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=g_dcgettext:2 \
  --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format --flag=g_printerr:1:c-format \
  --flag=g_print:1:c-format \
  --directory="$src" --files-from="$work/listed" --output="$work/suanli.pot"
echo "$(grep -c '^msgid ' "$work/suanli.pot") strings in the regenerated template"

for language in $(grep -v '^#' po/LINGUAS); do
  po="po/$language.po"
  msgfmt --check --output-file=/dev/null "$po" || failed=1
  msgmerge --quiet --output-file="$work/$language.po" "$po" "$work/suanli.pot"
  untranslated=$(msgattrib --untranslated --no-obsolete "$work/$language.po" | grep -c '^msgid ' || true)
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$work/$language.po" | grep -c '^msgid ' || true)
  # msgattrib prints the header entry with any other entry.
  [ "$untranslated" -gt 0 ] && untranslated=$((untranslated - 1))
  [ "$fuzzy" -gt 0 ] && fuzzy=$((fuzzy - 1))
  echo "$language: $untranslated untranslated, $fuzzy fuzzy"
  if [ "$untranslated" -ne 0 ] || [ "$fuzzy" -ne 0 ]; then
    msgattrib --untranslated --no-obsolete "$work/$language.po" | grep -A1 '^msgid ' | sed -n '3,$p'
    msgattrib --only-fuzzy --no-obsolete "$work/$language.po" | grep -A1 '^msgid ' | sed -n '3,$p'
    echo "$po: translate the strings above (edit $po, or run: ninja -C BUILD suanli-update-po)"
    failed=1
  fi
done
exit $failed
