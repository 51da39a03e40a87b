#!/usr/bin/python3
"""What a screen reader is told: starts the real app on a trace under an AT-SPI bus and walks its
accessible tree, as Orca would see it. Every control a user can focus must have a name a person can
read (not empty, not a GTK type name such as "GtkImage", which GTK 4.8 falls back to), and the
timeline and flame graph must be there by name. Run by run-accessibility.sh; exits 1 with the list
of what is wrong."""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

# The app keeps the suite's G_DEBUG=fatal-warnings: a warning of its own is a fault. This client's
# libatspi is not under test: its warnings while the app is still exporting its tree ("Object does
# not exist at path /org/a11y/atspi/cache") are retried, not fatal. GLib reads G_DEBUG when it is
# loaded, so it is taken out of this process's environment before gi is imported.
APP_ENVIRONMENT = dict(os.environ)
os.environ["G_DEBUG"] = ",".join(flag for flag in os.environ.get("G_DEBUG", "").split(",")
                                 if flag and flag not in ("fatal-warnings", "fatal-criticals"))
PATIENCE = int(os.environ.get("SUANLI_TEST_PATIENCE_S", "60"))

import gi  # noqa: E402

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

CONTROLS = {"push button", "toggle button", "entry", "text", "combo box", "check box", "radio button",
            "spin button", "slider", "switch", "page tab", "menu item"}
TYPE_NAME = re.compile(r"^(Gtk|Adw|Suanli)[A-Z]\w*$")
CJK = re.compile(r"[\u4e00-\u9fff]")


def write_trace(directory):
    """A small Kineto-form trace: a CPU step with an operator and a launch, and its kernel."""
    events = [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5,
         "args": {"correlation": 1}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 30, "dur": 40,
         "args": {"correlation": 1}},
    ]
    path = os.path.join(directory, "a11y-trace.json")
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)
    return path


def find_app(pid):
    """The application on the bus whose process is @pid (its name is translated), or None while
    the registry does not list it yet (or cannot be read yet)."""
    try:
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_process_id() == pid:
                return app
    except gi.repository.GLib.Error as error:
        print("# the registry is not ready yet: %s" % error.message)
    return None


def walk(node, path, found):
    try:
        role = node.get_role_name()
        name = node.get_name() or ""
        focusable = node.get_state_set().contains(Atspi.StateType.FOCUSABLE)
        count = node.get_child_count()
    except gi.repository.GLib.Error:
        return   # gone while being read
    found["names"].append((role, name))
    if role in CONTROLS and focusable and (not name.strip() or TYPE_NAME.match(name)):
        found["unnamed"].append("%s named %r, under %s" % (role, name, " / ".join(path[-3:]) or "the window"))
    readable = name if name and not TYPE_NAME.match(name) else role
    for i in range(count):
        child = node.get_child_at_index(i)
        if child is not None:
            walk(child, path + [readable[:30]], found)


def read_tree(app_path, trace):
    """Starts the app on @trace and reads its tree once the timeline is in it. Returns the tree
    (None when the app never showed up) and the app's exit status (None while it ran)."""
    app = subprocess.Popen([app_path, trace], env=APP_ENVIRONMENT)
    found = None
    try:
        # The tree fills in as the window is built and the trace loads: read it again until the
        # timeline is in it, polling the registry (which may itself still be starting).
        end = time.time() + PATIENCE
        while time.time() < end and app.poll() is None:
            root = find_app(app.pid)
            if root is not None:
                found = {"names": [], "unnamed": []}
                walk(root, [], found)
                if ("image", "Timeline") in found["names"] or ("image", "时间线") in found["names"]:
                    break
            time.sleep(0.2)
        status = app.poll()
    finally:
        app.terminate()
        app.wait(10)
    return found, status


def main():
    app_path = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        trace = write_trace(directory)
        # An app that could not start at all (the X server not yet taking connections, say) is
        # started again, twice at most; one that ran and was not found is a failure.
        for attempt in range(3):
            found, status = read_tree(app_path, trace)
            if found is not None or status is None:
                break
            print("# the app exited with %s before it showed up: starting it again" % status)
    if found is None:
        print("not ok: the app never showed up on the accessibility bus (exit status %s)" % status)
        return 1
    problems = list(found["unnamed"])
    names = {name for _, name in found["names"]}
    for role, wanted in (("image", ("Timeline", "时间线")), ("image", ("Flame graph", "火焰图"))):
        if not any((role, w) in found["names"] for w in wanted):
            problems.append("no %s named %s" % (role, " or ".join(wanted)))
    if os.environ.get("LANGUAGE", "").startswith("zh") and not any(CJK.search(n) for n in names):
        problems.append("no Chinese name anywhere, with LANGUAGE=zh_CN")
    print("# %d accessible objects read, %d controls checked" %
          (len(found["names"]), sum(1 for role, _ in found["names"] if role in CONTROLS)))
    for problem in problems:
        print("not ok:", problem)
    if not problems:
        print("ok: every focusable control has a readable name")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
