#!/usr/bin/env python3
"""Write the RBAC-1000 reasoning workload (Euclid-IR) and its expected answers.

Files written into the output folder:

  rbac_1000.euclid  1000 users (user_0001..user_1000) in seven roles, a five-level
                    role hierarchy admin > manager > developer > editor > viewer,
                    16 role permissions, 20 direct grants and four rules. The same
                    data and rules as Euclid-MCP's RBAC-1000 benchmark, so the figures
                    compare.
  expected.json     answers computed here in plain Python (no rule engine): the
                    sorted distinct users of every permission, the full lists for
                    delete_repo (31) and deploy (103), and point checks
                    (user, permission, holds).

Usage:
  python3 bench/reason/gen_rbac.py [--out DIR]

DIR defaults to $BENCH_OUT/charon-reason-bench, else $TMPDIR/charon-reason-bench,
else /tmp/charon-reason-bench. The output is the same on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

USERS = 1000

# (senior, junior): the senior role holds every permission of the junior one.
HIERARCHY = [("admin", "manager"), ("manager", "developer"),
             ("developer", "editor"), ("editor", "viewer")]

# Permissions each role holds directly, in the order they are written.
ROLE_PERMISSIONS = [
    ("viewer", ("read_doc", "read_report")),
    ("editor", ("write_doc", "edit_comment")),
    ("developer", ("create_repo", "push_code")),
    ("manager", ("approve_pr", "manage_team")),
    ("admin", ("delete_repo", "manage_billing", "manage_users")),
    ("auditor", ("read_logs", "view_audit_trail")),
    ("operator", ("deploy", "restart_service", "monitor")),
]

# Role of each user number: consecutive blocks, upper bounds inclusive.
ROLE_BLOCKS = [(30, "admin"), (100, "manager"), (300, "developer"), (500, "editor"),
               (800, "viewer"), (900, "auditor"), (1000, "operator")]

# Grants outside the role system: (user number, permission), in the order written.
GRANTS = [
    (15, "delete_repo"), (50, "read_logs"), (105, "deploy"), (222, "manage_billing"),
    (340, "push_code"), (415, "write_doc"), (555, "approve_pr"), (610, "read_logs"),
    (750, "deploy"), (834, "view_audit_trail"), (45, "manage_team"), (180, "delete_repo"),
    (275, "restart_service"), (370, "create_repo"), (460, "approve_pr"), (520, "push_code"),
    (680, "read_logs"), (810, "deploy"), (925, "manage_billing"), (990, "restart_service"),
]

RULES = [
    "role_has_permission($r, $p) IF permission($r, $p)",
    "role_has_permission($r, $p) IF inherits($r, $s) AND role_has_permission($s, $p)",
    "user_has_permission($u, $p) IF has_role($u, $r) AND role_has_permission($r, $p)",
    "user_has_permission($u, $p) IF direct_grant($u, $p)",
]

# Sizes the benchmark is known by (Euclid-MCP reports the same figures).
KNOWN_COUNTS = {"delete_repo": 31, "deploy": 103}

# Point checks: (user number, permission). Whether each holds is computed, and the
# list is checked to contain both outcomes; it mixes role, inherited and granted cases.
POINT_CHECKS = [
    (42, "deploy"), (42, "approve_pr"), (42, "delete_repo"), (42, "read_doc"),
    (1, "read_doc"), (30, "delete_repo"), (31, "delete_repo"), (15, "delete_repo"),
    (180, "delete_repo"), (181, "delete_repo"), (105, "deploy"), (750, "deploy"),
    (751, "deploy"), (950, "deploy"), (300, "push_code"), (301, "push_code"),
    (340, "push_code"), (500, "read_report"), (501, "write_doc"), (850, "read_doc"),
    (850, "view_audit_trail"), (925, "manage_billing"), (926, "manage_billing"),
    (1000, "monitor"),
]


def uname(n: int) -> str:
    return f"user_{n:04d}"


def role_of(n: int) -> str:
    for upper, role in ROLE_BLOCKS:
        if n <= upper:
            return role
    raise ValueError(n)


def all_permissions() -> list[str]:
    return [p for _, perms in ROLE_PERMISSIONS for p in perms]


def render() -> str:
    """The knowledge base, as Euclid-IR text."""
    lines = [
        "@version 1.0",
        "# RBAC-1000 reasoning workload (written by bench/reason/gen_rbac.py).",
        f"# Distinct users: delete_repo {KNOWN_COUNTS['delete_repo']},"
        f" deploy {KNOWN_COUNTS['deploy']}.",
        "",
        "# inherits(Senior, Junior)",
    ]
    lines += [f"inherits({s}, {j})" for s, j in HIERARCHY]
    lines += ["", "# permission(Role, Permission)"]
    lines += [f"permission({r}, {p})" for r, perms in ROLE_PERMISSIONS for p in perms]
    lines += ["", "# has_role(User, Role)"]
    lines += [f"has_role({uname(n)}, {role_of(n)})" for n in range(1, USERS + 1)]
    lines += ["", "# direct_grant(User, Permission)"]
    lines += [f"direct_grant({uname(n)}, {p})" for n, p in GRANTS]
    lines += ["", "# Rules"]
    lines += RULES
    return "\n".join(lines) + "\n"


def holders() -> dict[str, list[str]]:
    """Permission -> sorted distinct users holding it, computed directly."""
    juniors = dict(HIERARCHY)  # each role has at most one junior here
    own = {r: set(perms) for r, perms in ROLE_PERMISSIONS}
    closure: dict[str, set[str]] = {}
    for role in {r for r, _ in ROLE_PERMISSIONS}:
        acc: set[str] = set()
        r: str | None = role
        while r is not None:
            acc |= own.get(r, set())
            r = juniors.get(r)
        closure[role] = acc
    users: dict[str, set[str]] = {p: set() for p in all_permissions()}
    for n in range(1, USERS + 1):
        for p in closure[role_of(n)]:
            users[p].add(uname(n))
    for n, p in GRANTS:
        users[p].add(uname(n))
    return {p: sorted(us) for p, us in users.items()}


def expected() -> dict:
    by_perm = holders()
    for perm, n in KNOWN_COUNTS.items():
        if len(by_perm[perm]) != n:
            raise SystemExit(f"gen_rbac: {perm} has {len(by_perm[perm])} users, expected {n}")
    if max(len(us) for us in by_perm.values()) > 1000:
        raise SystemExit("gen_rbac: a permission has more than 1000 users (max_solutions)")
    checks = [{"user": uname(n), "permission": p, "holds": uname(n) in by_perm[p]}
              for n, p in POINT_CHECKS]
    assert {"user": "user_0042", "permission": "deploy", "holds": False} in checks
    assert {c["holds"] for c in checks} == {True, False}
    return {
        "users": USERS,
        "permissions": all_permissions(),
        "counts": {p: len(us) for p, us in by_perm.items()},
        "users_by_permission": by_perm,
        "delete_repo_users": by_perm["delete_repo"],
        "deploy_users": by_perm["deploy"],
        "point_checks": checks,
    }


def default_out() -> str:
    base = os.environ.get("BENCH_OUT") or os.environ.get("TMPDIR") or "/tmp"
    return str(Path(base) / "charon-reason-bench")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=default_out(),
                    help="output folder (default: %(default)s)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "rbac_1000.euclid").write_text(render(), encoding="utf-8")
    (out / "expected.json").write_text(json.dumps(expected(), indent=1) + "\n",
                                       encoding="utf-8")
    print(f"gen_rbac: wrote {out / 'rbac_1000.euclid'} and {out / 'expected.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
