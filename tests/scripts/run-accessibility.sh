#!/bin/sh
# Runs check-accessibility.py against the real app: an X server (Xvfb) in a D-Bus session, with the
# AT-SPI bus a screen reader uses, and GTK's accessibility on (the other UI tests turn it off).
# Usage: run-accessibility.sh PYTHON CHECK APP
set -eu
unset GTK_A11Y NO_AT_BRIDGE
exec dbus-run-session -- xvfb-run --auto-servernum --server-args="-screen 0 1600x1000x24 -nolisten tcp" \
  sh -c '/usr/libexec/at-spi-bus-launcher --launch-immediately & launcher=$!
         # GTK looks for the accessibility bus once, when the app starts: have it answer first.
         # Polled, with the suite'"'"'s patience as the limit (SUANLI_TEST_PATIENCE_S, 60 s).
         tries=0
         until gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus \
                 --method org.a11y.Bus.GetAddress >/dev/null 2>&1; do
           tries=$((tries + 1))
           if [ $tries -ge $((${SUANLI_TEST_PATIENCE_S:-60} * 10)) ]; then
             echo "not ok: the accessibility bus never answered"; exit 1
           fi
           sleep 0.1
         done
         "$1" "$2" "$3"; status=$?
         kill $launcher 2>/dev/null
         exit $status' sh "$@"
