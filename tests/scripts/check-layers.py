#!/usr/bin/env python3
"""The layers of docs/architecture.md, checked against the sources and the built objects.

  - Every quoted #include of a source file names a header of its own folder or of a folder
    below it (app → ui → ui/paint → bridge → catalog | profiler; catalog and profiler never touch; the
    profiler's stages trace ← analysis ← import ← live, and analysis ← whatif).
  - A *-private.h header is included from its own folder only.
  - capture/ and inject/ include nothing of GLib; catalog/, profiler/, bridge/ and ui/paint/ nothing of GTK.
  - No page names a property of the workspace as a string: pages use its getters and signals.
  - No two object files call each other (nm: each defines a symbol the other uses).

Usage: check-layers.py SOURCE_ROOT BUILD_ROOT
Prints one line per fault, as file:line: what; exits 1 when there is any.
"""
import collections
import os
import re
import subprocess
import sys

COMMON = ["common"]
CATALOG = ["catalog", "catalog/plan"] + COMMON
# What each folder may include, besides config.h at the root. A folder not named here (tests/)
# is not checked.
MAY_INCLUDE = {
    "common": COMMON,
    "catalog": ["catalog"] + COMMON,
    "catalog/plan": CATALOG,
    "profiler/trace": ["profiler/trace"] + COMMON,
    "profiler/analysis": ["profiler/analysis", "profiler/trace"] + COMMON,
    "profiler/whatif": ["profiler/whatif", "profiler/analysis", "profiler/trace"] + COMMON,
    "profiler/import": ["profiler/import", "profiler/analysis", "profiler/trace", "profiler/capture"] + COMMON,
    "profiler/live": ["profiler/live", "profiler/import", "profiler/analysis", "profiler/trace",
                      "profiler/capture", "profiler/inject"] + COMMON,
    "profiler/capture": ["profiler/capture"],
    "profiler/inject": ["profiler/inject", "profiler/capture"],
    "profiler/agent": ["profiler/agent", "profiler/live", "profiler/import", "profiler/analysis",
                       "profiler/trace", "profiler/capture", "profiler/inject"] + COMMON,
    "bridge": ["bridge"] + CATALOG + ["profiler/trace", "profiler/analysis", "profiler/whatif"],
    "ui/paint": ["ui/paint", "bridge"] + CATALOG + ["profiler/trace", "profiler/analysis", "profiler/whatif",
                                                    "profiler/import"],
    "ui": ["ui", "ui/paint", "bridge"] + CATALOG + ["profiler/trace", "profiler/analysis", "profiler/whatif",
                                                    "profiler/import", "profiler/live"],
    "app": ["app", "ui", "ui/paint", "bridge"] + CATALOG + ["profiler/trace", "profiler/analysis", "profiler/whatif",
                                                  "profiler/import", "profiler/live",
                                                  "profiler/capture", "profiler/inject"],
}
GLIB_FREE = ["profiler/capture", "profiler/inject"]
GTK_FREE = CATALOG + ["profiler/" + stage for stage in
                      ("trace", "analysis", "whatif", "import", "live", "capture", "inject", "agent")] + ["bridge", "ui/paint"]
GLIB_HEADERS = re.compile(r"#\s*include\s*<(glib|gio|gobject|json-glib|libsoup)[^>]*>")
GTK_HEADERS = re.compile(r"#\s*include\s*<(gtk/|adwaita\.h|gdk/)[^>]*>")
QUOTED = re.compile(r'#\s*include\s*"([^"]+)"')
WORKSPACE_PROPERTY = re.compile(
    r'"notify::(catalog|plan|trace|selection)"|g_object_[gs]et\s*\([^,]*workspace[^,]*,\s*"')

faults = []


def fault(path, line, message):
    faults.append(f"{path}:{line}: {message}")


def sources(root):
    for folder in MAY_INCLUDE:
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            if name.endswith((".c", ".h")):
                yield folder, os.path.join(folder, name)


def check_includes(root):
    headers = {}
    for folder, path in sources(root):
        if path.endswith(".h"):
            name = os.path.basename(path)
            if name in headers:
                fault(path, 1, f"a second {name} (the other is {headers[name]}): headers are included by name")
            headers[name] = folder
    for folder, path in sources(root):
        with open(os.path.join(root, path), encoding="utf-8") as source:
            for number, text in enumerate(source, 1):
                quoted = QUOTED.search(text)
                if quoted:
                    name = quoted.group(1)
                    target = headers.get(os.path.basename(name))
                    if name == "config.h":
                        continue
                    if target is None:
                        fault(path, number, f'#include "{name}" is no header of the project')
                    elif target not in MAY_INCLUDE[folder]:
                        fault(path, number, f'{folder}/ includes {target}/{os.path.basename(name)}, '
                                            f'which is not below it')
                    elif name.endswith("-private.h") and target != folder:
                        fault(path, number, f'{folder}/ includes {target}/{os.path.basename(name)}, '
                                            f'which is private to {target}/')
                if folder in GLIB_FREE and GLIB_HEADERS.search(text):
                    fault(path, number, f"{folder}/ runs inside other people's processes: no GLib")
                if folder in GTK_FREE and GTK_HEADERS.search(text):
                    fault(path, number, f"{folder}/ is built without GTK")
                if (folder == "ui" and not os.path.basename(path).startswith("suanli-workspace")
                        and WORKSPACE_PROPERTY.search(text)):
                    fault(path, number, "a workspace property named as a string: use its getters and signals")


def check_calls(build):
    """Pairs of object files each of which uses a function or variable the other defines."""
    objects = []
    for directory, folders, names in os.walk(build):
        folders[:] = [f for f in folders if f not in ("tests", "meson-private", "meson-logs")]
        objects += [os.path.join(directory, n) for n in names if n.endswith(".o")]
    defined = collections.defaultdict(set)
    used = {}
    for path in objects:
        listing = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
        used[path] = set()
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defined[parts[2]].add(path)
            elif len(parts) == 2 and parts[0] == "U":
                used[path].add(parts[1])
    calls = collections.defaultdict(set)
    for path, symbols in used.items():
        for symbol in symbols:
            for other in defined.get(symbol, ()):
                if other != path:
                    calls[path].add(other)
    for a in sorted(calls):
        for b in sorted(calls[a]):
            if a < b and a in calls.get(b, ()):
                fault(os.path.relpath(a, build), 0, f"and {os.path.relpath(b, build)} call each other")
    return len(objects)


def main():
    root, build = sys.argv[1], sys.argv[2]
    check_includes(root)
    n_objects = check_calls(build)
    for line in faults:
        print(line)
    print(f"{n_objects} object files and the sources of {len(MAY_INCLUDE)} folders checked: "
          f"{len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
