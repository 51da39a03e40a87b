#!/bin/sh
# The systemd user unit for suanli-agent, as systemd itself reads it: `systemd-analyze verify`,
# with ExecStart pointed at the agent just built (the installed path does not exist yet). Any
# warning fails it.
#   check-agent-unit.sh BUILT-UNIT BUILT-AGENT
set -eu
unit=$1
agent=$2
if ! command -v systemd-analyze >/dev/null; then
  echo "skipped: systemd-analyze is not installed, so the unit cannot be checked" >&2
  exit 77
fi
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
sed "s#^ExecStart=.*suanli-agent\$#ExecStart=$agent#" "$unit" > "$folder/suanli-agent.service"
grep -q "^ExecStart=$agent\$" "$folder/suanli-agent.service"
# systemd ignores what it cannot parse, with a warning and exit status 0: any word from it fails.
complaints=$(systemd-analyze verify "$folder/suanli-agent.service" 2>&1) || { echo "$complaints" >&2; exit 1; }
if [ -n "$complaints" ]; then
  echo "$complaints" >&2
  exit 1
fi
