#!/bin/sh
# check-headless-build.sh — a -Dgui=false build as a GPU server makes it: with none of the GUI's
# programs and libraries there.
#
#   check-headless-build.sh SOURCE BUILD [--cupti-extras CUDA] [TARGET…] [-- MESON-OPTION…]
#
# Runs `meson setup BUILD SOURCE -Dgui=false` and compiles the targets in an environment made
# for it: PATH holds links to every command of this machine's PATH except the GUI's (the desktop
# file and AppStream validators, glib-compile-schemas, GTK's tools, gettext's),
# and pkg-config sees every library of this machine except the GUI's (GTK, libadwaita, cairo,
# pango and what only they use). It checks that those programs really cannot be found there,
# that the configuration names none of those libraries, and that what it built links none.
# --cupti-extras CUDA points -Dcupti_prefix at a copy of CUDA (whose include/ holds cuda.h and
# CUPTI's headers) laid out as NVIDIA's toolkit is: cuda.h in include/, CUPTI's headers only in
# extras/CUPTI/include.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

[ $# -ge 2 ] || { echo "usage: $0 SOURCE BUILD [--cupti-extras CUDA] [TARGET…] [-- MESON-OPTION…]" >&2; exit 2; }
source_dir=$(cd "$1" && pwd)
build_dir=$2
shift 2
extras=false
cuda=""
targets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cupti-extras) extras=true; cuda=${2:?--cupti-extras needs a CUDA folder}; shift ;;
    --) shift; break ;;
    *) targets="$targets $1" ;;
  esac
  shift
done

work=$(mktemp -d "${TMPDIR:-/tmp}/suanli-headless.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "check-headless-build: $*" >&2; exit 1; }

# The GUI's programs, by name or pattern: none of them may be needed.
gui_programs='desktop-file-validate desktop-file-install desktop-file-edit update-desktop-database
  appstreamcli appstream-util appstream-compose glib-compile-schemas
  gtk4-builder-tool gtk4-update-icon-cache gtk-update-icon-cache gtk4-encode-symbolic-svg
  msgfmt msgmerge msginit xgettext itstool xvfb-run Xvfb'
is_gui_program() {
  case " $(echo $gui_programs) " in *" $1 "*) return 0 ;; esac
  return 1
}

# PATH: a folder of links to everything else.
mkdir "$work/bin"
for folder in $(echo "$PATH" | tr ':' ' '); do
  [ -d "$folder" ] || continue
  for program in "$folder"/*; do
    name=${program##*/}
    [ -x "$program" ] && [ ! -d "$program" ] || continue
    is_gui_program "$name" && continue
    [ -e "$work/bin/$name" ] || ln -s "$program" "$work/bin/$name"
  done
done

# pkg-config: every .pc file but the GUI's libraries.
mkdir "$work/pkgconfig"
for folder in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
  [ -d "$folder" ] || continue
  for pc in "$folder"/*.pc; do
    [ -e "$pc" ] || continue
    name=${pc##*/}
    case "$name" in
      gtk4*|gtk+*|gdk-*|gail*|libadwaita*|cairo*|pango*|harfbuzz*|graphene*|epoxy*|librsvg*|\
      x11*|xcb*|xext*|xrender*|xft*|xi.pc|xrandr*|xinerama*|xcursor*|xdamage*|xfixes*|xkbcommon*|\
      wayland*|egl*|gl.pc|glesv2*|vulkan*|fontconfig*|freetype*|pixman*|fribidi*|libthai*|\
      appstream*|gsettings-desktop-schemas*) continue ;;
    esac
    [ -e "$work/pkgconfig/$name" ] || ln -s "$pc" "$work/pkgconfig/$name"
  done
done

run_headless() {
  env -u PKG_CONFIG_PATH PATH="$work/bin" PKG_CONFIG_LIBDIR="$work/pkgconfig" "$@"
}

for denied in $gui_programs; do
  if run_headless sh -c "command -v $denied" >/dev/null 2>&1; then
    fail "$denied can still be found in the headless PATH"
  fi
done
for library in gtk4 libadwaita-1 cairo pangocairo; do
  if run_headless pkg-config --exists "$library"; then
    fail "pkg-config still finds $library in the headless environment"
  fi
done

cupti_option=""
if [ "$extras" = true ]; then
  # NVIDIA's toolkit layout, made of this machine's CUDA: CUPTI's headers apart from cuda.h.
  [ -f "$cuda/include/cupti_activity.h" ] && [ -f "$cuda/include/cuda.h" ] ||
    fail "--cupti-extras $cuda: no cuda.h and cupti_activity.h in $cuda/include"
  mkdir -p "$work/cuda/include" "$work/cuda/extras/CUPTI/include"
  for header in "$cuda"/include/*; do
    name=${header##*/}
    case "$name" in
      cupti*|generated_*_meta.h|Openacc|Openmp) ln -s "$header" "$work/cuda/extras/CUPTI/include/$name" ;;
      *) ln -s "$header" "$work/cuda/include/$name" ;;
    esac
  done
  [ ! -e "$work/cuda/include/cupti_activity.h" ] || fail "the extras layout still has CUPTI in include/"
  cupti_option="-Dcupti_prefix=$work/cuda"
fi

rm -rf "$build_dir"
# shellcheck disable=SC2086 # the options are words
if ! run_headless meson setup "$build_dir" "$source_dir" -Dgui=false $cupti_option "$@" > "$work/setup.log" 2>&1; then
  cat "$work/setup.log" >&2
  fail "meson setup -Dgui=false failed without the GUI's programs and libraries (log above)"
fi
# The configuration asks for none of the GUI's libraries, and found none.
dependencies=$(run_headless meson introspect --dependencies "$build_dir" | python3 -c '
import json, sys
print(" ".join(sorted({d["name"] for d in json.load(sys.stdin)})))')
for library in gtk4 libadwaita-1 cairo pangocairo; do
  case " $dependencies " in
    *" $library "*) fail "the headless configuration depends on $library" ;;
  esac
done
echo "headless setup: GUI programs absent ($(echo $gui_programs | wc -w) names), GUI libraries absent; dependencies: $dependencies"

if [ "$extras" = true ]; then
  grep -q "libsuanli-inject.so is not built" "$work/setup.log" && { cat "$work/setup.log" >&2; fail "CUPTI's headers in extras/CUPTI/include were not found"; }
  echo "headless setup: CUPTI's headers found in $work/cuda/extras/CUPTI/include, cuda.h in $work/cuda/include"
fi

if [ -n "$targets" ]; then
  # shellcheck disable=SC2086
  if ! run_headless meson compile -C "$build_dir" $targets > "$work/compile.log" 2>&1; then
    tail -n 60 "$work/compile.log" >&2
    fail "meson compile$targets failed in the headless environment"
  fi
  for target in $targets; do
    binary=$(find "$build_dir" -name "$target" -type f -o -name "lib$target.so" -type f | head -n 1)
    [ -n "$binary" ] || fail "no $target was built"
    needed=$(readelf -d "$binary" | awk '/NEEDED/ { gsub(/[][]/, "", $5); print $5 }' | tr '\n' ' ')
    case "$needed" in
      *gtk*|*adwaita*|*cairo*|*pango*) fail "$binary links a GUI library: $needed" ;;
    esac
    echo "headless build: $target links $needed"
  done
fi
