#!/usr/bin/env python3
"""No import circles: the workspace's files (outside vendor/ and tests) as a graph.

An edge goes from a file to another wherever the first names an item of the second,
through `use` or a path (`crate::persist::fnv`, `super::template::X`, `fold::run` from
the parent of `fold`), except a child naming its own ancestors (`super::Engine` in
`engine/fold.rs`). Test modules (`#[cfg(test)] mod tests` and what follows) and
comments are left out. Re-exports are not followed: a name taken from the crate root
(`crate::KnowledgeBase`) is an edge to `lib.rs`, which every file may name.

Prints every circle (a strongly connected set of files, with its edges) and exits 1
if there is one, 0 otherwise. Run by scripts/test.sh.
"""

from __future__ import annotations

import os
import re
import sys

CRATES = {  # crate name as code names it → its source folder
    "charon": "charon/src",
    "charon_cli": "charon-cli/src",
    "charon_macros": "charon-macros/src",
    "charon_pldoc": "charon/pldoc/src",
}
ROOT_FILES = ("mod", "lib", "main")


def module_of(src: str, path: str) -> tuple[str, ...]:
    parts = os.path.relpath(path, src)[:-3].split(os.sep)
    return tuple(parts[:-1] if parts[-1] in ROOT_FILES else parts)


def use_paths(tree: str, prefix: tuple[str, ...] = ()):
    """The paths a `use` tree names: `a::{b, c::{d, e as f}}` → a::b, a::c::d, a::c::e."""
    tree = tree.strip()
    brace = re.match(r"^([\w:]*?)(?:::)?\{(.*)\}$", tree, re.S)
    if not brace:
        yield prefix + tuple(p for p in re.split(r"\s+as\s+", tree)[0].split("::") if p)
        return
    head = prefix + tuple(p for p in brace.group(1).split("::") if p)
    depth, part = 0, ""
    for ch in brace.group(2) + ",":
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            if part.strip():
                yield from use_paths(part, head)
            part = ""
        else:
            part += ch


def code_of(path: str) -> str:
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)
    return re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]


def graph(root: str) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for crate, folder in CRATES.items():
        src = os.path.join(root, folder)
        files = {
            module_of(src, os.path.join(d, f)): os.path.join(d, f)
            for d, _, names in os.walk(src)
            for f in names
            if f.endswith(".rs")
        }
        for here, path in files.items():
            code = code_of(path)
            paths = {p for m in re.finditer(r"\buse\s+([^;]+);", code) for p in use_paths(m.group(1))}
            paths |= {tuple(m.group(1).split("::")) for m in re.finditer(r"(?<![:\w])(\w+(?:::\w+)+)", code)}
            for p in paths:
                if not p:
                    continue
                if p[0] in ("crate", crate):
                    target = list(p[1:])
                elif p[0] == "super":
                    target, rest = list(here[:-1]), list(p[1:])
                    while rest and rest[0] == "super":
                        target, rest = target[:-1], rest[1:]
                    target += rest
                elif p[0] == "self":
                    target = list(here) + list(p[1:])
                elif here + (p[0],) in files:  # a child module by its name
                    target = list(here) + list(p)
                else:
                    continue  # another crate, std, a local name
                named = next((tuple(target[:k]) for k in range(len(target), -1, -1)
                              if tuple(target[:k]) in files), None)
                if named is None or named == here or here[: len(named)] == named:
                    continue  # itself, or one of its ancestors
                edges.setdefault(path, set()).add(files[named])
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected sets of more than one file (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    part.append(w)
                    if w == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    edges = graph(root)
    found = circles(edges)
    for part in found:
        print("import circle:", " ".join(os.path.relpath(f, root) for f in part))
        for a in part:
            for b in sorted(edges.get(a, ())):
                if b in part:
                    print(f"    {os.path.relpath(a, root)} -> {os.path.relpath(b, root)}")
    if found:
        print(f"import-circles: {len(found)} circle(s): move what both sides need into a layer below them", file=sys.stderr)
        return 1
    print(f"import-circles: none among {sum(len(v) for v in edges.values())} edges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
