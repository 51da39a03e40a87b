#!/usr/bin/env python3
"""Checks that every C source stays a size a reader can hold.

No .c file of the project (tests included) over 1,200 lines, and no function over 150 lines,
counted from the line that names it to its closing brace. A function is found the way the
project writes one: its name at the start of a line followed by " (", and its body closed by a
"}" at the start of a line. Prints TAP.
Usage: check-room-sizes.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 1200
MAX_FUNCTION_LINES = 150
DEFINITION = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*) \(')
NOT_FUNCTIONS = {'G_DEFINE_TYPE', 'G_DEFINE_FINAL_TYPE', 'G_DEFINE_TYPE_WITH_CODE', 'G_DEFINE_AUTOPTR_CLEANUP_FUNC',
                 'G_DEFINE_BOXED_TYPE', 'G_DEFINE_QUARK', 'G_DEFINE_INTERFACE', 'G_DECLARE_FINAL_TYPE',
                 'G_DECLARE_DERIVABLE_TYPE', 'G_DEFINE_ABSTRACT_TYPE', 'G_DEFINE_FINAL_TYPE_WITH_CODE'}


def c_sources(root):
    listed = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '*.c'],
                            capture_output=True, check=True).stdout
    return sorted(name for name in listed.decode('utf-8', 'replace').split('\0')
                  if name and os.path.isfile(os.path.join(root, name)))


def long_functions(lines):
    """(name, first line, length) of each function over the limit."""
    found = []
    index = 0
    while index < len(lines):
        match = DEFINITION.match(lines[index])
        if match and match.group(1) not in NOT_FUNCTIONS and not lines[index].rstrip().endswith(';'):
            start = index
            # the parameters may run over several lines; the body opens with "{" at the start of a line
            while index < len(lines) and not lines[index].startswith('{'):
                if lines[index].rstrip().endswith(';'):
                    break
                index += 1
            if index < len(lines) and lines[index].startswith('{'):
                while index < len(lines) and not lines[index].startswith('}'):
                    index += 1
                length = index - start + 1
                if length > MAX_FUNCTION_LINES:
                    found.append((match.group(1), start + 1, length))
        index += 1
    return found


def main():
    root = sys.argv[1]
    faults = []
    files = c_sources(root)
    for name in files:
        with open(os.path.join(root, name), encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        if len(lines) > MAX_FILE_LINES:
            faults.append('%s: %d lines (at most %d)' % (name, len(lines), MAX_FILE_LINES))
        for function, line, length in long_functions(lines):
            faults.append('%s:%d: %s is %d lines (at most %d)' % (name, line, function, length, MAX_FUNCTION_LINES))
    print('1..1')
    for fault in faults:
        print('# ' + fault)
    print('%s 1 - %d C files, none over %d lines, no function over %d lines' %
          ('not ok' if faults else 'ok', len(files), MAX_FILE_LINES, MAX_FUNCTION_LINES))
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main())
