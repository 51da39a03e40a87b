#!/bin/sh
# Runs check-accessibility.py against the real app: an X server (Xvfb) in a D-Bus session, with the
# AT-SPI bus a screen reader uses, and GTK's accessibility on (the other UI tests turn it off).
# Usage: run-accessibility.sh PYTHON CHECK APP
set -eu
unset GTK_A11Y NO_AT_BRIDGE
exec dbus-run-session -- xvfb-run --auto-servernum --server-args="-screen 0 1600x1000x24 -nolisten tcp" \
  sh -c '/usr/libexec/at-spi-bus-launcher --launch-immediately & launcher=$!
         "$1" "$2" "$3"; status=$?
         kill $launcher 2>/dev/null
         exit $status' sh "$@"
