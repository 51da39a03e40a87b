#!/bin/sh
# Runs a widget test or benchmark in a real X server (Xvfb) inside its own D-Bus session bus:
# GtkApplication wants a session bus, and without one it warns, which fatal-warnings turns into an abort.
exec dbus-run-session -- xvfb-run --auto-servernum --server-args="-screen 0 1600x1000x24 -nolisten tcp" "$@"
