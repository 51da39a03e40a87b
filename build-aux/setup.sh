#!/bin/sh
# Installs the Debian 12 packages Suanli needs when they are missing, and the zh_CN.UTF-8 locale.
#   build-aux/setup.sh run    what building and running the app needs
#   build-aux/setup.sh test   that, plus what the tests and the sanitizer build need
# Uses sudo when not run as root. Installs nothing when everything is there.
set -eu

profile=${1:-run}

run_packages="meson ninja-build pkg-config gcc g++ libc6-dev gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libgtk-4-bin libgdk-pixbuf2.0-bin
  libadwaita-1-dev libjson-glib-dev libyajl-dev libsimdjson-dev libisal-dev libsqlite3-dev
  libsoup-3.0-dev glib-networking libcairo2-dev libpango1.0-dev
  desktop-file-utils locales fonts-noto-cjk fonts-dejavu-core fonts-cantarell adwaita-icon-theme hicolor-icon-theme
  librsvg2-common gsettings-desktop-schemas dbus"
test_packages="xvfb xauth xdotool dbus appstream appstream-util clang libclang-rt-14-dev poppler-utils
  python3 python3-torch python3-pyatspi at-spi2-core openssl"

case "$profile" in
  run) packages=$run_packages ;;
  test) packages="$run_packages $test_packages" ;;
  *) echo "usage: $0 run|test" >&2; exit 1 ;;
esac

if [ "$(id -u)" -eq 0 ]; then
  sudo=""
else
  sudo="sudo"
fi

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -n "$missing" ]; then
  echo "Installing:$missing"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

# Chinese is a first-class language: the tests and the app want the zh_CN.UTF-8 locale.
if ! locale -a 2>/dev/null | grep -qix 'zh_CN.utf8'; then
  echo "Generating the zh_CN.UTF-8 locale"
  $sudo sed -i 's/^# *\(zh_CN.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^zh_CN.UTF-8 UTF-8' /etc/locale.gen || echo 'zh_CN.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen >/dev/null
  $sudo locale-gen
fi
