#!/usr/bin/env python3
"""What the docs point at exists: README.md, docs/*.md, BENCHMARKS.md, THREATMODEL.md.

* A relative link names a file or directory of the repository.
* A link's `#anchor` into a markdown file names one of its headings, slugged as
  GitHub slugs them (lowercase; punctuation but `-` and `_` dropped; spaces to `-`;
  a repeated heading gets `-1`, `-2`, ...).
* A `--flag` written after `charon <subcommand>`, in the same inline code span or on
  the same line of a code block, is one that `charon <subcommand> --help` lists.
  Only lowercase flags are checked: `charon call KB.pl OP --Age 82` passes the
  operation's arguments, named like Prolog variables. A path before `charon`
  (`target/release/charon mcp … --method`) is another program's command line.

Prints one line per problem, `FILE:LINE: what`, and exits 1 if there is any. The
binary is "${CARGO_TARGET_DIR:-target}/release/charon", so run it after the build.
Python 3 standard library only.
"""
import glob
import os
import re
import subprocess
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)

FILES = ["README.md", *sorted(glob.glob("docs/*.md")), "BENCHMARKS.md", "THREATMODEL.md"]
# The subcommands the docs are written against; `charon --help` may list more.
SUBCOMMANDS = ["http", "mcp", "check", "openapi", "call", "export", "reason"]

FENCE = re.compile(r"^ *(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
LONG_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")
# Where a shell command line ends: a comment, a pipe, a list or a redirection.
COMMAND_END = re.compile(r"\s#|[|;&<>]")


def blocks(lines):
    """Yield (kind, [(line_number, text)]) for each code block and prose paragraph."""
    fence = None
    current = []
    for number, line in enumerate(lines, 1):
        if fence:
            m = FENCE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                yield "code", current
                fence, current = None, []
            else:
                current.append((number, line))
            continue
        m = FENCE.match(line)
        if m:
            if current:
                yield "prose", current
            fence, current = m.group(1), []
        elif not line.strip():
            if current:
                yield "prose", current
            current = []
        else:
            current.append((number, line))
    if current:
        yield ("code" if fence else "prose"), current


def slug(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    kept = "".join(c for c in text.lower()
                   if c in " -" or unicodedata.category(c)[0] in "LMN"
                   or unicodedata.category(c) == "Pc")
    return kept.replace(" ", "-")


_anchors = {}
checked = {"links": 0, "flags": 0}


def anchors(path):
    if path not in _anchors:
        seen = {}
        found = set()
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for kind, block in blocks(lines):
            if kind != "prose":
                continue
            for _, line in block:
                m = HEADING.match(line)
                if not m:
                    continue
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        _anchors[path] = found
    return _anchors[path]


def line_of(block, offset):
    """The file line at `offset` in the block's lines joined by newlines."""
    for number, text in block:
        if offset <= len(text):
            return number
        offset -= len(text) + 1
    return block[-1][0]


def check_links(path, block, problems):
    text = "\n".join(line for _, line in block)
    # Links written inside code spans are code, not links.
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    found = [(m.start(), m.group(1)) for m in INLINE_LINK.finditer(text)]
    found += [(m.start(), m.group(1)) for m in HTML_LINK.finditer(text)]
    offset = 0
    for _, line in block:
        m = REFERENCE_DEF.match(line)
        if m:
            found.append((offset, m.group(1)))
        offset += len(line) + 1
    for at, target in found:
        checked["links"] += 1
        where = f"{path}:{line_of(block, at)}"
        if SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part.split("?", 1)[0])
        if file_part:
            base = ROOT if file_part.startswith("/") else os.path.dirname(path)
            resolved = os.path.normpath(os.path.join(base, file_part.lstrip("/")))
            if not os.path.exists(resolved):
                problems.append(f"{where}: link to {target}: {resolved} does not exist")
                continue
        else:
            resolved = path
        if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
            if unquote(anchor) not in anchors(resolved):
                problems.append(f"{where}: link to {target}: {resolved} has no heading "
                                f"#{anchor}")


def help_flags(binary, sub):
    out = subprocess.run([binary, sub, "--help"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    flags = set()
    for line in out.stdout.split("\n"):
        # An option's own line: `      --port <PORT>` or `  -h, --help`.
        m = re.match(r"^ {2,6}(?:-\w, )?(--[a-z0-9][a-z0-9-]*)", line)
        if m:
            flags.add(m.group(1))
    return flags


def check_flags(path, kind, block, invocation, flags, problems):
    if kind == "code":
        spans = [(number, text, 0) for number, text in block]
    else:
        text = "\n".join(line for _, line in block)
        spans = [(None, m.group(2), m.start(2)) for m in CODE_SPAN.finditer(text)]
    for number, code, start in spans:
        for m in invocation.finditer(code):
            subs = m.group(1).split("|")
            rest_at = m.end()
            end = COMMAND_END.search(code, rest_at)
            rest = code[rest_at:end.start() if end else len(code)]
            for f in LONG_FLAG.finditer(rest):
                flag = "--" + f.group(1)
                checked["flags"] += 1
                line = number or line_of(block, start + rest_at + f.start())
                for sub in subs:
                    if flags.get(sub) is None:
                        problems.append(f"{path}:{line}: `charon {sub} --help` failed")
                    elif flag not in flags[sub]:
                        problems.append(f"{path}:{line}: charon {sub} has no flag {flag} "
                                        f"(charon {sub} --help lists the flags)")


def main():
    binary = os.path.join(os.environ.get("CARGO_TARGET_DIR") or "target", "release", "charon")
    if not os.access(binary, os.X_OK):
        sys.exit(f"docs-check-links: {binary} not found; build it first "
                 "(cargo build --release -p charon-cli)")
    top = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    listed = re.findall(r"^  ([a-z][a-z0-9-]*)  ", top.split("Commands:", 1)[-1].split("Options:", 1)[0],
                        re.M)
    subs = sorted(set(SUBCOMMANDS) | set(listed) - {"help"}, key=lambda s: (-len(s), s))
    flags = {sub: help_flags(binary, sub) for sub in subs}
    names = "|".join(re.escape(s) for s in subs)
    # `charon http`, `charon http|mcp|call`, `cargo run -p charon-cli -- http`.
    invocation = re.compile(
        rf"(?:(?<![\w/.-])charon|(?<![\w/.-])charon-cli\s+--)\s+((?:{names})(?:\|(?:{names}))*)(?![\w-])")

    problems = []
    for path in FILES:
        if not os.path.exists(path):
            problems.append(f"{path}:1: missing")
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for kind, block in blocks(lines):
            if not block:
                continue
            if kind == "prose":
                check_links(path, block, problems)
            check_flags(path, kind, block, invocation, flags, problems)
    for p in problems:
        print(p)
    if problems:
        print(f"docs-check-links: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"docs-check-links: ok ({len(FILES)} files, {checked['links']} links, "
          f"{checked['flags']} flags after `charon <subcommand>`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
