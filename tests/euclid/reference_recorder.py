"""Records what the reference implementation (euclid-mcp) is asked to reason about.

Every call to one of its reasoning entry points is appended, as one JSON line, to the
file named by the environment variable EUCLID_RECORD:

  euclid_mcp.server.reason          the `reason` tool (also behind explain, diagnose,
                                    what_if, the MCP server and the CLI)
  euclid_mcp.engine.execute         the backend dispatcher
  euclid_mcp.prolog_bridge.execute  the SWI-Prolog backend (translated clauses)
  euclid_mcp.ir_engine.solve_kb     the pure-Python backend (a KB object)

Only the outermost call is recorded (reason -> engine.execute -> prolog_bridge.execute
is one record). A record holds the knowledge as Euclid-IR text, the query, the
effective max_solutions and max_depth (the callee's defaults filled in), the backend
the call ran on, and where it came from (the pytest test id, or EUCLID_RECORD_SOURCE).
The engine-level entry points take a parsed KB, or clauses translated from one; its
text is the one `euclid_mcp.language.parse` read it from, or, for a KB the caller built
field by field, its facts and rules one a line (`"kb_rendered": true`). A call whose
knowledge cannot be told (an unknown kb_id, no knowledge at all, clauses not made by
`kb_to_decls_clauses`) is recorded with `"skip"` saying why.

tests/euclid/side_by_side.py copies this file as `sitecustomize.py` into a scratch copy
of the reference's sdist and puts that directory first on PYTHONPATH, so the hooks are
in place in pytest's process and in the subprocesses the reference's tests start;
`install()` puts them in place in the current process. The hooks patch each module
right after it is imported, before any test module takes a name from it.
"""

from __future__ import annotations

import functools
import importlib.abc
import inspect
import json
import os
import re
import shlex
import sys
import threading

_local = threading.local()
_parsed: dict[tuple, str] = {}  # (facts, rules) of a parsed KB -> the text parsed
_translated: dict[tuple, object] = {}  # (decls, clauses) -> the KB translated


def _source() -> str:
    explicit = os.environ.get("EUCLID_RECORD_SOURCE")
    if explicit:
        return explicit
    return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" (", 1)[0]


def _emit(record: dict) -> None:
    path = os.environ.get("EUCLID_RECORD")
    if not path:
        return
    record["source"] = _source()
    line = (json.dumps(record, ensure_ascii=False, default=repr) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)  # one write per record: lines of concurrent processes never mix
    finally:
        os.close(fd)


def _kb_text(kb) -> tuple[str, bool]:
    """The Euclid-IR text of a KB object, and whether it had to be rendered."""
    text = _parsed.get((tuple(kb.facts), tuple(kb.rules)))
    if text is not None:
        return text, False
    lines = list(kb.facts)
    for i, rule in enumerate(kb.rules):
        rid = kb.rule_ids.get(i)
        lines.append(f"{rule}  # rule: {rid}" if rid else rule)
    return "\n".join(lines), True


def _backend() -> str:
    from euclid_mcp.engine import resolve_backend

    return resolve_backend()


def _recording(entry: str, fn, describe):
    """`fn`, recording its outermost calls as `describe(bound arguments)` says."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_local, "busy", False):
            return fn(*args, **kwargs)
        _local.busy = True
        try:
            try:
                bound = sig.bind(*args, **kwargs)
                bound.apply_defaults()
                record = describe(bound.arguments)
            except Exception as exc:  # the call itself will say what is wrong
                record = {"skip": f"arguments not readable: {exc!r}"}
            _emit({"entry": entry, **record})
            return fn(*args, **kwargs)
        finally:
            _local.busy = False

    return wrapper


def _case(knowledge, query, a, backend, rendered=False) -> dict:
    return {
        "knowledge": knowledge,
        "query": query,
        "max_solutions": a["max_solutions"],
        "max_depth": a["max_depth"],
        "backend": backend,
        **({"kb_rendered": True} if rendered else {}),
    }


def _patch_language(module) -> None:
    parse = module.parse

    @functools.wraps(parse)
    def recording_parse(text, *args, **kwargs):
        kb = parse(text, *args, **kwargs)
        _parsed[(tuple(kb.facts), tuple(kb.rules))] = text  # the latest: the one about to run
        return kb

    module.parse = recording_parse


def _patch_translator(module) -> None:
    translate = module.kb_to_decls_clauses

    @functools.wraps(translate)
    def recording_translate(kb, *args, **kwargs):
        decls, clauses = translate(kb, *args, **kwargs)
        _translated[(tuple(decls), tuple(clauses))] = kb.model_copy(deep=True)
        return decls, clauses

    module.kb_to_decls_clauses = recording_translate


def _patch_prolog_bridge(module) -> None:
    def describe(a):
        kb = _translated.get((tuple(a["decls"]), tuple(a["clauses"])))
        if kb is None:
            return {"skip": "clauses not made by kb_to_decls_clauses"}
        text, rendered = _kb_text(kb)
        return _case(text, a["query"], a, "prolog", rendered)

    module.execute = _recording("prolog_bridge.execute", module.execute, describe)


def _patch_ir_engine(module) -> None:
    def describe(a):
        text, rendered = _kb_text(a["kb"])
        return _case(text, a["kb"].query, a, "native", rendered)

    module.solve_kb = _recording("ir_engine.solve_kb", module.solve_kb, describe)


def _patch_engine(module) -> None:
    def describe(a):
        return _case(a["kb_source"], a["kb"].query, a, _backend())

    module.execute = _recording("engine.execute", module.execute, describe)


def _patch_server(module) -> None:
    def describe(a):
        source, error = module._resolve(a["knowledge"], a["kb_id"], a["delta_knowledge"])
        if error or source is None:
            return {"skip": f"knowledge not resolved: {error or 'none given'}"}
        return _case(source, a["query"], a, _backend())

    # `reason` is the metrics wrapper of the tool function, and the MCP server holds
    # that wrapper: the tool function is swapped inside it, so every caller is seen.
    tool = module.reason
    cell = tool.__closure__[tool.__code__.co_freevars.index("fn")]
    cell.cell_contents = _recording("server.reason", cell.cell_contents, describe)


_PATCHES = {
    "euclid_mcp.language": _patch_language,
    "euclid_mcp.translator": _patch_translator,
    "euclid_mcp.prolog_bridge": _patch_prolog_bridge,
    "euclid_mcp.ir_engine": _patch_ir_engine,
    "euclid_mcp.engine": _patch_engine,
    "euclid_mcp.server": _patch_server,
}


class _PatchAfterImport(importlib.abc.MetaPathFinder):
    """Finds the modules of _PATCHES as usual, and patches each once it has run."""

    def find_spec(self, name, path=None, target=None):
        if name not in _PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    _PATCHES[name](module)

                spec.loader.exec_module = exec_module
                return spec
        return None


def install() -> None:
    if any(name in sys.modules for name in _PATCHES):
        raise RuntimeError("install the recorder before euclid_mcp is imported")
    if not any(isinstance(f, _PatchAfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _PatchAfterImport())


# ── The README's examples ─────────────────────────────────────────────────────

FENCE = re.compile(r"^```\s*([\w-]*)\s*$")


def fenced_blocks(markdown: str) -> list[tuple[int, str, str]]:
    """(line of the opening fence, info string, body) of each fenced code block."""
    blocks, opened, lang, body = [], None, "", []
    for number, line in enumerate(markdown.splitlines(), 1):
        m = FENCE.match(line)
        if opened is None and m:
            opened, lang, body = number, m.group(1).lower(), []
        elif opened is not None and line.strip() == "```":
            blocks.append((opened, lang, "\n".join(body)))
            opened = None
        elif opened is not None:
            body.append(line)
    return blocks


def _shell_commands(body: str) -> list[tuple[int, list[str], str | None]]:
    """(line offset, argv, stdin) of each command of a shell block: continuation
    lines joined, `printf FMT | cmd` feeding FMT to cmd, and a transcript of the
    euclid-cli REPL (`$ euclid-cli` then `euclid > LINE`s) feeding it the typed lines."""
    out: list[tuple[int, list[str], str | None]] = []
    # shlex leaves `\$` alone inside double quotes, where the shell reads `$`
    lines = body.replace("\\$", "$").split("\n")
    i = 0
    while i < len(lines):
        start, text = i, lines[i]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i]
        i += 1
        if text.strip() == "$ euclid-cli":
            typed = [t.split("euclid > ", 1)[1] for t in lines[i:] if t.startswith("euclid > ")]
            out.append((start, ["euclid-cli"], "\n".join(typed) + "\n"))
            break
        try:
            argv = shlex.split(text, comments=True)
        except ValueError:  # a quote left open: the command goes on below
            while i < len(lines):
                text += "\n" + lines[i]
                i += 1
                try:
                    argv = shlex.split(text, comments=True)
                    break
                except ValueError:
                    continue
            else:
                continue
        if "|" in argv:
            bar = argv.index("|")
            if argv[:1] == ["printf"] and len(argv) > 1:
                out.append((start, argv[bar + 1:], argv[1].encode().decode("unicode_escape")))
            continue
        if argv:
            out.append((start, argv, None))
    return out


def run_readme(path: str) -> None:
    """Run, recorded, every example of the README that asks the reference something:
    its Python blocks (statement by statement, the tools in scope), and in its shell
    blocks `curl -d BODY` to a tool's route (the tool called with BODY), `python3 -c
    CODE`, and `euclid-cli` with inline knowledge or input (the CLI run in process).
    Examples that need files, servers or modules the sdist does not ship are left out."""
    install()
    import ast
    import contextlib
    import io

    import euclid_mcp.cli as cli
    import euclid_mcp.server as server

    routes = {
        "reason": server.reason,
        "explain": server.explain,
        "diagnose": server.diagnose,
        "what-if": server.what_if,
        "register-kb": server.register_kb,
        "unregister-kb": server.unregister_kb,
    }
    scope = {name: getattr(server, name) for name in
             ("reason", "explain", "diagnose", "what_if", "check_kb", "register_kb",
              "unregister_kb", "list_kbs")}
    blocks = fenced_blocks(open(path, encoding="utf-8").read())

    def run(where: int, action) -> None:
        os.environ["EUCLID_RECORD_SOURCE"] = f"README.md:{where}"
        backend = os.environ.get("EUCLID_BACKEND")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                action()
            except BaseException:  # an example that fails here records nothing more
                pass
        if backend is None:  # the CLI sets it
            os.environ.pop("EUCLID_BACKEND", None)

    for line, lang, body in blocks:
        if lang == "python":
            for stmt in ast.parse(body).body:
                code = compile(ast.Module([stmt], []), "README.md", "exec")
                run(line + stmt.lineno, lambda code=code: exec(code, dict(scope)))
        elif lang in ("bash", "sh", "shell", "console"):
            for offset, argv, stdin in _shell_commands(body):
                where = line + 1 + offset
                if argv[0] == "curl" and "-d" in argv:
                    route = next((a.rsplit("/", 1)[1] for a in argv if "://" in a), "")
                    if route in routes:
                        body_json = json.loads(argv[argv.index("-d") + 1])
                        run(where, lambda f=routes[route], b=body_json: f(**b))
                elif "python3" in argv and argv[argv.index("python3") + 1:][:1] == ["-c"]:
                    code = argv[argv.index("python3") + 2]
                    run(where, lambda code=code: exec(code, {}))
                elif "euclid-cli" in argv:
                    args = argv[argv.index("euclid-cli") + 1:]
                    if stdin is None and "--knowledge" not in args:
                        continue  # -f policies.euclid: a file the README does not give
                    if stdin is not None:
                        def action(args=args, stdin=stdin):
                            sys.stdin = io.StringIO(stdin)
                            try:
                                cli.main(args)
                            finally:
                                sys.stdin = sys.__stdin__
                        run(where, action)
                    else:
                        run(where, lambda args=args: cli.main(args))


if __name__ == "sitecustomize" and os.environ.get("EUCLID_RECORD"):
    install()
elif __name__ == "__main__":
    # python reference_recorder.py readme README.md  (EUCLID_RECORD names the output)
    if sys.argv[1:2] != ["readme"] or len(sys.argv) != 3:
        sys.exit("usage: EUCLID_RECORD=FILE python reference_recorder.py readme README.md")
    run_readme(sys.argv[2])
