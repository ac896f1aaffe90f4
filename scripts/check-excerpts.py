#!/usr/bin/env python3
"""Checks that documentation quotes an example package as it is: every `swift` and `html`
fenced block of the given pages must be a run of whole lines of one file of the example.
A page that copies the example's code can then never drift from the example the tests build
and drive (scripts/docs runs it on DiffableWeb's tutorial and landing page).

    python3 scripts/check-excerpts.py Examples/CustomList PAGE.md...

Prints `page:line: error: …` for each block that is not, and exits 1 if any."""
import os
import re
import sys

# A fenced block, indented or not (in a list item): its indent, language and lines.
FENCED = re.compile(r"^( *)```(swift|html)\n(.*?)^\1```$", re.S | re.M)


def example_files(folder):
    """Every file of the example (hidden folders such as .build and .state left out), as lines."""
    files = []
    for root, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            with open(os.path.join(root, name), encoding="utf-8") as file:
                files.append(file.read().splitlines())
    return files


def quotes(lines, files):
    return any(file[start:start + len(lines)] == lines for file in files for start in range(len(file)))


def main(folder, pages):
    files = example_files(folder)
    failed = False
    for page in pages:
        with open(page, encoding="utf-8") as file:
            text = file.read()
        for block in FENCED.finditer(text):
            indent = len(block.group(1))
            if not quotes([line[indent:] for line in block.group(3).splitlines()], files):
                line = text.count("\n", 0, block.start()) + 1
                print(f"{page}:{line}: error: this {block.group(2)} block is not a run of lines of a file in {folder}",
                      file=sys.stderr)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
