#!/usr/bin/env python3
"""Checks that the repository stands on its own.

No file cites notes that live beside the repository rather than in it (the workshop's shared
folder, its design and UI notes, its reference notes): what a contributor or a user needs is in
docs/, and sources are papers and vendor pages. Every relative link in README.md and docs/*.md
names a file that exists. Prints TAP.
Usage: check-self-contained.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys

# Spelt in parts, so that a search of the tree for these names finds no false hit here.
OUTSIDE = re.compile('|'.join(re.escape(part + suffix) for part, suffix in
                              (('shared', '/'), ('DESIGN', '.md'), ('UI', '.md'), ('reference', '/'))))
LINK = re.compile(r'\]\(([^)\s]+)\)')


def source_files(root):
    """The files of the source tree: git's tracked and unignored ones, else a walk without builds."""
    try:
        listed = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                                capture_output=True, check=True).stdout
        return sorted(name for name in listed.decode('utf-8', 'replace').split('\0')
                      if name and os.path.isfile(os.path.join(root, name)))
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(('.', '_build'))
                         and not os.path.exists(os.path.join(folder, s, 'meson-private'))]
        found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
    return sorted(found)


def text_of(path):
    with open(path, 'rb') as f:
        data = f.read()
    if b'\0' in data:
        return None
    return data.decode('utf-8', 'replace')


def main():
    root = sys.argv[1]
    files = source_files(root)
    cited, broken = [], []
    for name in files:
        text = text_of(os.path.join(root, name))
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            found = OUTSIDE.search(line)
            if found:
                cited.append('%s:%d: %s' % (name, number, line.strip()))
        if name == 'README.md' or (name.startswith('docs/') and name.endswith('.md')):
            for target in LINK.findall(text):
                if re.match(r'[a-z]+:', target) or target.startswith('#'):
                    continue
                path = os.path.normpath(os.path.join(root, os.path.dirname(name), target.split('#')[0]))
                if not os.path.exists(path):
                    broken.append('%s: %s' % (name, target))
    print('1..2')
    print('%s 1 - nothing cites notes outside the repository (%d files read)' % ('not ok' if cited else 'ok', len(files)))
    for line in cited:
        print('# ' + line)
    print('%s 2 - every relative link in README.md and docs/ resolves' % ('not ok' if broken else 'ok'))
    for line in broken:
        print('# ' + line)
    return 1 if cited or broken else 0


if __name__ == '__main__':
    sys.exit(main())
