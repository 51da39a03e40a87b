"""Launch stacks from Python: the injection library reads CPython 3.11's frames itself (no call
into Python, no GIL), so a kernel launched from a PyTorch model lands on the model's Python
functions, not on _PyEval_EvalFrameDefault. Checked against the real interpreter running this
script, through ctypes, with the GIL held (PyDLL) and released (CDLL), and on a second thread.

    check-python-stack.py LIBPYTHON-STACK-PROBE.so
"""
import ctypes
import sys
import threading

PROBE = sys.argv[1]
FILE = "scripts/check-python-stack.py"   # frames name a file by its last folder and name
holding_gil = ctypes.PyDLL(PROBE)
released_gil = ctypes.CDLL(PROBE)
for library in (holding_gil, released_gil):
    library.suanli_probe_python_stack.restype = ctypes.c_size_t
    library.suanli_probe_python_stack.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    library.suanli_probe_launch_stack.restype = ctypes.c_size_t
    library.suanli_probe_launch_stack.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]


def fail(message, stack):
    print("FAIL:", message)
    print(stack)
    sys.exit(1)


class Block:
    def forward(self, library, launch):
        buffer = ctypes.create_string_buffer(4096)
        if launch:
            length = library.suanli_probe_launch_stack(buffer, 4096, 7)
        else:
            length = library.suanli_probe_python_stack(buffer, 4096)
        text = buffer.value.decode()
        if len(text) != length:
            fail("the length returned is not the text's", text)
        return text


def train_step(library, launch):
    return Block().forward(library, launch)


def check_python_frames(stack, outermost):
    lines = stack.split("\n")
    names = [line.split(" (")[0] for line in lines]
    expected = [outermost, "train_step", "Block.forward"]
    if names[: len(expected)] != expected:
        fail(f"the Python frames should start {expected}", stack)
    for line in lines[:3]:
        if f"({FILE}:" not in line:
            fail(f"each Python frame should name {FILE} and its line", stack)
    line_of_train_step = int(lines[1].rsplit(":", 1)[1].rstrip(")"))
    if line_of_train_step != train_step.__code__.co_firstlineno:
        fail("train_step's line should be where it starts", stack)
    return lines


for library, how in ((holding_gil, "holding the GIL"), (released_gil, "with the GIL released")):
    alone = train_step(library, False)
    check_python_frames(alone, "<module>")
    if len(alone.split("\n")) != 3:
        fail(f"{how}: only Python frames expected", alone)

    stack = train_step(library, True)
    lines = check_python_frames(stack, "<module>")
    rest = lines[3:]
    if not rest or not rest[-1].startswith("suanli_probe_launch_stack ("):
        fail(f"{how}: the native frames under Python should end at the launch", stack)
    if any("_PyEval_" in line or "(python3" in line for line in rest):
        fail(f"{how}: the interpreter's own frames should be left out", stack)
    print(f"ok: launch stack {how}:")
    print("    " + stack.replace("\n", "\n    "))

# Another Python thread: its own frames, from its own entry point.
results = []
worker = threading.Thread(target=lambda: results.append(train_step(released_gil, True)))
worker.start()
worker.join()
lines = results[0].split("\n")
names = [line.split(" (")[0] for line in lines]
if "train_step" not in names or "Thread.run" not in names or "<module>" in names:
    fail("a thread's stack should be its own, from Thread.run", results[0])
print("ok: a second thread's launch stack starts at", lines[0])
