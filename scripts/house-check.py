#!/usr/bin/env python3
"""The house rules of the source tree (issue 47), checked by the test command.

Outside vendor/, tests and generated code (the crates' `src` folders, a file's
`#[cfg(test)] mod tests` aside): no function is longer than 120 lines, and at most
three source files (.rs, .pl) are longer than 900 lines, each saying why in its
first lines (a line of its module docs or comments with "Over 900 lines").
Exits 1 naming every file and function that breaks them.
"""
import os
import re
import sys

ROOTS = ["charon/src", "charon/pldoc/src", "charon-cli/src", "charon-macros/src",
         "charon-macros/codegen/src"]
MAX_FUNCTION = 120
MAX_FILE = 900
MAX_LONG_FILES = 3
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def source_lines(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("#[cfg(test)]") and i + 1 < len(lines) and lines[i + 1].startswith("mod "):
            return lines[:i]
    return lines


def functions(lines):
    """(name, first line, length) of each function: from its `fn` line to the
    closing brace at the same indentation."""
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, name = m.group(1), m.group(7)
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith(indent + "}"):
            k += 1
        yield name, i + 1, k - i + 1
        i = k + 1


def main():
    problems, long_files = [], []
    for root in ROOTS:
        for folder, _, files in os.walk(root):
            for file in sorted(files):
                if not file.endswith((".rs", ".pl")):
                    continue
                path = os.path.join(folder, file)
                lines = source_lines(path)
                if len(lines) > MAX_FILE:
                    long_files.append(path)
                    if not any("over 900 lines" in l.lower() for l in lines[:5]):
                        problems.append(f"{path}: {len(lines)} lines, and its first lines do not say why (\"Over 900 lines …\")")
                if file.endswith(".rs"):
                    for name, line, length in functions(lines):
                        if length > MAX_FUNCTION:
                            problems.append(f"{path}:{line}: fn {name} is {length} lines (at most {MAX_FUNCTION}): split it along its steps")
    if len(long_files) > MAX_LONG_FILES:
        problems.append(f"{len(long_files)} files over {MAX_FILE} lines (at most {MAX_LONG_FILES}): {', '.join(long_files)}")
    for p in problems:
        print(f"house-check: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"house-check: no function over {MAX_FUNCTION} lines; {len(long_files)} file(s) over {MAX_FILE} lines, each saying why")


if __name__ == "__main__":
    main()
