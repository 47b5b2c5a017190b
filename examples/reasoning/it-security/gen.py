#!/usr/bin/env python3
"""Generate the IT-security / compliance knowledge bases and their expected answers.

Writes, into the folder this script lives in:

  small.euclid     the policy and structure layers, plus ~30 generated users
  large.euclid     the same rules and structure, plus ~200 generated users
  questions.json   for each variant, natural-language questions with their Euclid-IR
                   query and the complete, sorted list of expected binding sets

The expected answers are computed here directly with Python sets and loops over the
generated data (no rule interpreter), so they are an independent reference for any
engine that runs the .euclid files.

The output is byte-for-byte identical on every run: the data comes from a small
fixed-seed PRNG implemented below (SplitMix64), not from the `random` module.

Usage:
  python3 gen.py [--out DIR]     # DIR defaults to this script's folder
  python3 gen.py --check         # regenerate in memory; exit 1 if the files differ
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

MAX_KB_BYTES = 500_000

# ---------------------------------------------------------------------------------
# Layer (b): structure shared by both variants.
# ---------------------------------------------------------------------------------

# inherits(Senior, Junior): Senior holds every role Junior holds, transitively.
INHERITS = [
    ("ciso", "security_admin"),
    ("security_admin", "security_analyst"),
    ("security_analyst", "employee"),
    ("auditor", "employee"),
    ("it_director", "sysadmin"),
    ("sysadmin", "helpdesk"),
    ("helpdesk", "employee"),
    ("engineering_manager", "senior_engineer"),
    ("senior_engineer", "engineer"),
    ("engineer", "employee"),
    ("sre_lead", "sre"),
    ("sre", "engineer"),
    ("dba", "engineer"),
    ("finance_manager", "accountant"),
    ("accountant", "employee"),
    ("payment_approver", "employee"),
    ("change_approver", "employee"),
    ("hr_partner", "employee"),
    ("sales_rep", "employee"),
]

# Roles that are privileged in themselves; a role inheriting one is privileged too.
PRIVILEGED_BASE = ["security_admin", "sysadmin", "sre", "dba"]

# Pairs of roles one person must not hold together (separation of duties).
CONFLICTS = [
    ("engineer", "change_approver"),
    ("accountant", "payment_approver"),
    ("security_admin", "auditor"),
    ("sysadmin", "auditor"),
]

ENVIRONMENTS = ["dev", "staging", "prod"]
# Lowest clearance level a user needs to hold a grant in each environment (0: none).
MIN_CLEARANCE = {"dev": 0, "staging": 0, "prod": 1}

CLASSIFICATIONS = ["public", "internal", "confidential", "restricted"]
# Lowest clearance level a user needs to hold a grant on data of each class.
CLASS_LEVEL = {"public": 0, "internal": 1, "confidential": 2, "restricted": 3}
# Environments approved to hold data of each class.
APPROVED_ENV = {
    "public": ["dev", "staging", "prod"],
    "internal": ["dev", "staging", "prod"],
    "confidential": ["staging", "prod"],
    "restricted": ["prod"],
}

# Systems each role may legitimately use (least privilege); inherited upwards.
ROLE_SYSTEMS = {
    "employee": ["wiki", "ticketing", "status_page"],
    "sales_rep": ["crm"],
    "hr_partner": ["hr_records"],
    "accountant": ["payroll", "payments"],
    "payment_approver": ["payments"],
    "finance_manager": ["data_lake"],
    "engineer": ["ci_pipeline", "source_code"],
    "senior_engineer": ["data_lake"],
    "sre": ["k8s_cluster", "monitoring", "customer_db"],
    "dba": ["customer_db", "backups"],
    "helpdesk": ["monitoring"],
    "sysadmin": ["k8s_cluster", "identity", "backups"],
    "security_analyst": ["siem"],
    "security_admin": ["identity"],
    "auditor": ["siem"],
    "change_approver": ["ci_pipeline"],
}

# system -> (data classification, environments it runs in). Every default placement
# is approved for its class; misplaced copies are added per variant below.
SYSTEMS = {
    "wiki": ("internal", ["prod"]),
    "ticketing": ("internal", ["prod"]),
    "status_page": ("public", ["staging", "prod"]),
    "ci_pipeline": ("internal", ["dev", "staging", "prod"]),
    "source_code": ("confidential", ["prod"]),
    "k8s_cluster": ("internal", ["dev", "staging", "prod"]),
    "monitoring": ("internal", ["staging", "prod"]),
    "siem": ("confidential", ["prod"]),
    "identity": ("restricted", ["prod"]),
    "customer_db": ("restricted", ["prod"]),
    "backups": ("restricted", ["prod"]),
    "crm": ("confidential", ["staging", "prod"]),
    "hr_records": ("restricted", ["prod"]),
    "payroll": ("restricted", ["prod"]),
    "payments": ("restricted", ["prod"]),
    "data_lake": ("confidential", ["staging", "prod"]),
}

DEPARTMENTS = ["engineering", "it_ops", "security", "finance", "hr", "sales"]
DEPT_WEIGHTS = [10, 3, 2, 3, 2, 4]
# department -> (role, weight) for the primary role of generated users.
DEPT_ROLES = {
    "engineering": [("engineer", 10), ("senior_engineer", 5), ("engineering_manager", 2),
                    ("sre", 4), ("sre_lead", 1), ("dba", 2)],
    "it_ops": [("helpdesk", 6), ("sysadmin", 3), ("it_director", 1)],
    "security": [("security_analyst", 5), ("security_admin", 2), ("auditor", 2)],
    "finance": [("accountant", 5), ("finance_manager", 1), ("payment_approver", 2)],
    "hr": [("hr_partner", 3), ("employee", 1)],
    "sales": [("sales_rep", 5), ("employee", 1)],
}
# Extra roles handed out now and then (some of them clash with the primary role).
SECONDARY_ROLES = ["change_approver", "payment_approver", "auditor", "accountant"]
BASE_CLEARANCE = {
    "employee": 1, "sales_rep": 2, "hr_partner": 3, "helpdesk": 1, "engineer": 2,
    "senior_engineer": 2, "engineering_manager": 3, "sre": 3, "sre_lead": 3, "dba": 3,
    "sysadmin": 3, "it_director": 3, "security_analyst": 2, "security_admin": 3,
    "auditor": 2, "accountant": 3, "finance_manager": 3, "payment_approver": 3,
    "ciso": 3, "change_approver": 2,
}
CVSS_CHOICES = [43, 53, 61, 75, 88, 90, 91, 98, 100]  # tenths

# ---------------------------------------------------------------------------------
# Layer (c): fixed personas (the same in both variants), then generated users.
# Each persona exercises one rule path on purpose; the comments say which.
# ---------------------------------------------------------------------------------

PERSONAS = [
    # (roles, department, employment, mfa, last_login_days, disabled, clearance, grants)
    # 1: CISO, fully compliant; privileged only through two levels of inheritance.
    (["ciso"], "security", "employee", True, 2, False, 3, ["siem_prod", "identity_prod"]),
    # 2: IT director without MFA: privileged through it_director -> sysadmin.
    (["it_director"], "it_ops", "employee", False, 5, False, 3, ["monitoring_prod"]),
    # 3: senior engineer who also approves changes: SoD through senior_engineer -> engineer.
    (["senior_engineer", "change_approver"], "engineering", "employee", True, 1, False, 2,
     ["ci_pipeline_staging", "source_code_prod"]),
    # 4: SRE without MFA, but disabled (and stale): no MFA finding, no stale finding.
    (["sre"], "engineering", "employee", False, 200, True, 3, ["k8s_cluster_prod"]),
    # 5: engineer last seen exactly 90 days ago: not stale (the limit is > 90).
    (["engineer"], "engineering", "employee", True, 90, False, 2, ["ci_pipeline_dev"]),
    # 6: accountant last seen 91 days ago, still enabled: stale, 1 day overdue.
    (["accountant"], "finance", "employee", True, 91, False, 3, ["payroll_prod"]),
    # 7: uncleared contractor engineer in production: contractor and clearance findings.
    (["engineer"], "engineering", "contractor", True, 3, False, 0, ["ci_pipeline_prod"]),
    # 8: HR partner holding a customer database grant: unjustified access.
    (["hr_partner"], "hr", "employee", True, 8, False, 3, ["hr_records_prod", "customer_db_prod"]),
    # 9: DBA with MFA, fully compliant (the ground MFA question that fails).
    (["dba"], "engineering", "employee", True, 0, False, 3, ["customer_db_prod", "backups_prod"]),
    # 10: sales rep with no grant at all (unused account).
    (["sales_rep"], "sales", "employee", True, 12, False, 1, []),
]

# Vulnerabilities planted in both variants: (resource, cve, cvss in tenths). 9.0 sits
# on the boundary of control VM-1; the staging one is not in production.
PLANTED_VULNS = [
    ("customer_db_prod", "cve_2024_3094", 100), ("monitoring_prod", "cve_2023_4863", 90),
    ("ci_pipeline_staging", "cve_2024_6387", 98), ("identity_prod", "cve_2023_44487", 75),
]

VARIANTS = {
    # name: (users, seed, systems used, misplaced copies (system, env), vulnerabilities
    #        planted as (resource, cve, cvss tenths))
    "small": (30, 20240611,
              ["wiki", "ticketing", "ci_pipeline", "source_code", "k8s_cluster",
               "monitoring", "siem", "identity", "customer_db", "backups", "crm",
               "hr_records", "payroll", "payments"],
              [("customer_db", "staging")],
              PLANTED_VULNS),
    "large": (200, 20240612,
              list(SYSTEMS),
              [("customer_db", "staging"), ("data_lake", "dev"), ("payroll", "staging"),
               ("hr_records", "staging")],
              PLANTED_VULNS),
}


class SplitMix64:
    """A tiny deterministic PRNG (SplitMix64), so the output never depends on the
    standard library's generator."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n) (the modulo bias is irrelevant here)."""
        return self.next() % n

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent

    def pick(self, items: list):
        return items[self.below(len(items))]

    def weighted(self, pairs: list[tuple[object, int]]):
        total = sum(w for _, w in pairs)
        x = self.below(total)
        for item, w in pairs:
            if x < w:
                return item
            x -= w
        raise AssertionError("unreachable")


def user_name(n: int) -> str:
    return f"user_{n:03d}"


def resource_name(system: str, env: str) -> str:
    return f"{system}_{env}"


class Dataset:
    """The generated facts of one variant (layer c), as plain Python structures."""

    def __init__(self, name: str) -> None:
        n_users, seed, systems, misplaced, planted_vulns = VARIANTS[name]
        rng = SplitMix64(seed)
        self.name = name
        # resource -> (system, env, classification), in a stable order.
        self.resources: dict[str, tuple[str, str, str]] = {}
        for system in systems:
            cls, envs = SYSTEMS[system]
            for env in envs:
                self.resources[resource_name(system, env)] = (system, env, cls)
        for system, env in misplaced:
            cls, _ = SYSTEMS[system]
            self.resources[resource_name(system, env)] = (system, env, cls)
        by_system: dict[str, list[str]] = {}
        for res, (system, _, _) in self.resources.items():
            by_system.setdefault(system, []).append(res)

        self.users: list[str] = []
        self.roles: dict[str, list[str]] = {}
        self.department: dict[str, str] = {}
        self.employment: dict[str, str] = {}
        self.mfa: set[str] = set()
        self.last_login: dict[str, int] = {}
        self.disabled: set[str] = set()
        self.clearance: dict[str, int] = {}
        self.grants: list[tuple[str, str]] = []

        for i, (roles, dept, emp, mfa, login, disabled, clr, grants) in enumerate(PERSONAS, 1):
            self._add_user(user_name(i), roles, dept, emp, mfa, login, disabled, clr, grants)

        for i in range(len(PERSONAS) + 1, n_users + 1):
            dept = rng.weighted(list(zip(DEPARTMENTS, DEPT_WEIGHTS)))
            roles = [rng.weighted(DEPT_ROLES[dept])]
            if rng.chance(12):
                extra = rng.pick(SECONDARY_ROLES)
                if extra not in roles:
                    roles.append(extra)
            emp = "contractor" if rng.chance(12) else "employee"
            mfa = rng.chance(82)
            r = rng.below(100)
            if r < 85:
                login = rng.below(61)
            elif r < 90:
                login = 61 + rng.below(30)  # 61..90: not yet stale
            else:
                login = 91 + rng.below(310)
            disabled = rng.chance(50) if login > 90 else rng.chance(3)
            if emp == "contractor" and rng.chance(70):
                clr = 0  # most contractors are not cleared at all
            else:
                clr = max(1, BASE_CLEARANCE[roles[0]] - (1 if rng.chance(10) else 0))
            # Grants: one to three resources of systems the roles justify...
            allowed = sorted({s for role in roles for s in self._systems_of(role)
                              if s in by_system})
            grants: list[str] = []
            for _ in range(1 + rng.below(3)):
                options = by_system[rng.pick(allowed)]
                if emp == "contractor" and not rng.chance(30):
                    options = [o for o in options if self.resources[o][1] != "prod"] or options
                res = rng.pick(options)
                if res not in grants:
                    grants.append(res)
            # ...and now and then one they have no business holding.
            if rng.chance(8):
                res = rng.pick(list(self.resources))
                if res not in grants:
                    grants.append(res)
            self._add_user(user_name(i), roles, dept, emp, mfa, login, disabled, clr, grants)

        # Vulnerabilities: the planted ones, then a few more.
        self.vulns: list[tuple[str, str, int]] = list(planted_vulns)
        taken = {r for r, _, _ in self.vulns}
        for k, res in enumerate(self.resources):
            if res not in taken and rng.chance(20):
                self.vulns.append((res, f"cve_2025_{1000 + 37 * k + rng.below(37)}",
                                   rng.pick(CVSS_CHOICES)))

    @staticmethod
    def _systems_of(role: str) -> set[str]:
        """Systems a role may use, its juniors' included (used only to pick data)."""
        out = set(ROLE_SYSTEMS.get(role, []))
        for senior, junior in INHERITS:
            if senior == role:
                out |= Dataset._systems_of(junior)
        return out

    def _add_user(self, u, roles, dept, emp, mfa, login, disabled, clr, grants) -> None:
        for res in grants:
            assert res in self.resources, f"{self.name}: {u} granted unknown {res}"
        self.users.append(u)
        self.roles[u] = list(roles)
        self.department[u] = dept
        self.employment[u] = emp
        if mfa:
            self.mfa.add(u)
        self.last_login[u] = login
        if disabled:
            self.disabled.add(u)
        self.clearance[u] = clr
        self.grants.extend((u, res) for res in grants)


# ---------------------------------------------------------------------------------
# Rendering (Euclid-IR).
# ---------------------------------------------------------------------------------

RULES = """\
# ===========================================================================
# Layer (a): policy and controls. These rules are identical in every variant.
# ===========================================================================

# Role hierarchy: role_includes(Senior, Junior) is the transitive closure of inherits.
role_includes($s, $j) IF inherits($s, $j)
role_includes($s, $j) IF inherits($s, $m) AND role_includes($m, $j)

# A user holds every role assigned to them and every role those include.
effective_role($u, $r) IF has_role($u, $r)
effective_role($u, $r) IF has_role($u, $s) AND role_includes($s, $r)

active($u) IF user($u) AND NOT account_disabled($u)
privileged($u) IF effective_role($u, $r) AND privileged_base($r)

# Control AC-1 (MFA): every active privileged account must have MFA enabled.
violation_no_mfa($u) IF mfa_required_for_privileged AND privileged($u) AND
    active($u) AND NOT mfa_enabled($u)

# Control AC-2 (stale accounts): no login for more than 90 days -> must be disabled.
stale_account($u) IF last_login_days($u, $d) AND $d > 90
violation_stale_active($u) IF stale_account($u) AND NOT account_disabled($u)
overdue_days($u, $n) IF violation_stale_active($u) AND last_login_days($u, $d) AND
    $n is $d - 90
recent_login($u) IF last_login_days($u, $d) AND $d =< 7

# Control AC-3 (clearance): a grant needs the clearance of its environment and of
# its data classification.
required_level($r, $n) IF resource_env($r, $e) AND min_clearance($e, $n)
required_level($r, $n) IF resource_class($r, $c) AND class_level($c, $n)
under_cleared($u, $r) IF access_grant($u, $r) AND active($u) AND
    required_level($r, $n) AND clearance($u, $l) AND $l < $n

# Control DP-1 (data placement): data only in environments approved for its class.
misplaced_data($r) IF resource_class($r, $c) AND resource_env($r, $e) AND
    NOT approved_environment($c, $e)

# Control AC-4 (separation of duties): no user holds two conflicting roles.
sod_violation($u) IF effective_role($u, $a) AND effective_role($u, $b) AND conflicts($a, $b)

# Control AC-5 (contractors): contractors hold no production grant.
contractor_in_prod($u) IF employment($u, contractor) AND access_grant($u, $r) AND
    resource_env($r, prod)

# Control AC-6 (least privilege): every grant is justified by one of the user's roles.
justified($u, $r) IF access_grant($u, $r) AND resource_system($r, $s) AND
    effective_role($u, $role) AND role_system_access($role, $s)
unjustified_access($u, $r) IF access_grant($u, $r) AND NOT justified($u, $r)
unused_account($u) IF active($u) AND NOT access_grant($u, _)

# Control VM-1 (vulnerabilities): critical CVSS (9.0 or more) in production.
critical_exposure($r) IF vulnerability($r, _, $s) AND $s >= 9.0 AND resource_env($r, prod)

# Roll-up: a user with any finding is non-compliant.
non_compliant($u) IF violation_no_mfa($u)
non_compliant($u) IF violation_stale_active($u)
non_compliant($u) IF under_cleared($u, _)
non_compliant($u) IF sod_violation($u)
non_compliant($u) IF contractor_in_prod($u)
non_compliant($u) IF unjustified_access($u, _)
compliant($u) IF active($u) AND NOT non_compliant($u)
"""


def render_structure() -> str:
    out: list[str] = []
    w = out.append
    w("# ===========================================================================")
    w("# Layer (b): structure -- role hierarchy, environments, data classification.")
    w("# ===========================================================================")
    w("")
    w("mfa_required_for_privileged    // policy switch for control AC-1")
    w("")
    w("# inherits(Senior, Junior): the senior role holds everything the junior holds.")
    for s, j in INHERITS:
        w(f"inherits({s}, {j})")
    w("")
    w("# Roles that are privileged in themselves.")
    for r in PRIVILEGED_BASE:
        w(f"privileged_base({r})")
    w("")
    w("# Separation of duties: pairs of roles one person must not hold together.")
    for a, b in CONFLICTS:
        w(f"conflicts({a}, {b})")
    w("")
    w("# Environments: the clearance level a grant in each one needs.")
    for env in ENVIRONMENTS:
        w(f"min_clearance({env}, {MIN_CLEARANCE[env]})")
    w("")
    w("# Data classification: the clearance level a grant on each class needs, and the")
    w("# environments approved to hold it.")
    for cls in CLASSIFICATIONS:
        w(f"class_level({cls}, {CLASS_LEVEL[cls]})")
    for cls in CLASSIFICATIONS:
        for env in APPROVED_ENV[cls]:
            w(f"approved_environment({cls}, {env})")
    w("")
    w("# Least privilege: the systems each role may use (seniors inherit them).")
    for role, systems in ROLE_SYSTEMS.items():
        for s in systems:
            w(f"role_system_access({role}, {s})")
    return "\n".join(out) + "\n"


def render_data(ds: Dataset) -> str:
    out: list[str] = []
    w = out.append
    w("# ===========================================================================")
    w(f"# Layer (c): generated data ({ds.name}: {len(ds.users)} users,"
      f" {len(ds.resources)} resources).")
    w("# ===========================================================================")
    w("")
    w("# Resources: system, environment and data classification.")
    for res, (system, env, cls) in ds.resources.items():
        w(f"resource_system({res}, {system})")
        w(f"resource_env({res}, {env})")
        w(f"resource_class({res}, {cls})")
    w("")
    w("# Known vulnerabilities: vulnerability(Resource, Cve, CvssScore).")
    for res, cve, tenths in ds.vulns:
        w(f"vulnerability({res}, {cve}, {tenths // 10}.{tenths % 10})")
    w("")
    w("# Users.")
    for u in ds.users:
        w(f"user({u})")
        for r in ds.roles[u]:
            w(f"has_role({u}, {r})")
        w(f"department({u}, {ds.department[u]})")
        w(f"employment({u}, {ds.employment[u]})")
        w(f"clearance({u}, {ds.clearance[u]})")
        w(f"last_login_days({u}, {ds.last_login[u]})")
        if u in ds.mfa:
            w(f"mfa_enabled({u})")
        if u in ds.disabled:
            w(f"account_disabled({u})")
    w("")
    w("# Access grants: access_grant(User, Resource).")
    for u, res in ds.grants:
        w(f"access_grant({u}, {res})")
    return "\n".join(out) + "\n"


def render(ds: Dataset) -> str:
    head = (
        "@version 1.0\n"
        f"# IT-security / compliance knowledge base, variant `{ds.name}`.\n"
        "# Generated by gen.py in this folder; edit that script, not this file.\n"
        "\n"
    )
    return head + RULES + "\n" + render_structure() + "\n" + render_data(ds)


# ---------------------------------------------------------------------------------
# Expected answers, computed directly from the data (no rule interpreter).
# ---------------------------------------------------------------------------------


class Reference:
    """Every control of the rule layer, written out as Python set computations."""

    def __init__(self, ds: Dataset) -> None:
        self.ds = ds
        juniors: dict[str, set[str]] = {}
        for s, j in INHERITS:
            juniors.setdefault(s, set()).add(j)
        # Transitive closure by depth-first search from every role.
        self.includes: dict[str, set[str]] = {}
        for role in {r for pair in INHERITS for r in pair}:
            seen: set[str] = set()
            stack = list(juniors.get(role, ()))
            while stack:
                j = stack.pop()
                if j not in seen:
                    seen.add(j)
                    stack.extend(juniors.get(j, ()))
            self.includes[role] = seen
        users = ds.users
        self.eff = {u: set(ds.roles[u]).union(*(self.includes.get(r, set()) for r in ds.roles[u]))
                    for u in users}
        self.active = {u for u in users if u not in ds.disabled}
        self.privileged = {u for u in users if self.eff[u] & set(PRIVILEGED_BASE)}
        self.no_mfa = {u for u in self.privileged if u in self.active and u not in ds.mfa}
        self.stale = {u for u in users if ds.last_login[u] > 90}
        self.stale_active = {u for u in self.stale if u not in ds.disabled}
        self.overdue = {(u, ds.last_login[u] - 90) for u in self.stale_active}
        self.under_cleared = set()
        for u, res in ds.grants:
            _, env, cls = ds.resources[res]
            need = max(MIN_CLEARANCE[env], CLASS_LEVEL[cls])
            if u in self.active and ds.clearance[u] < need:
                self.under_cleared.add((u, res))
        self.misplaced = {res for res, (_, env, cls) in ds.resources.items()
                          if env not in APPROVED_ENV[cls]}
        self.sod = {u for u in users
                    if any(a in self.eff[u] and b in self.eff[u] for a, b in CONFLICTS)}
        self.contractor_prod = {u for u, res in ds.grants
                                if ds.employment[u] == "contractor"
                                and ds.resources[res][1] == "prod"}
        self.unjustified = set()
        for u, res in ds.grants:
            system = ds.resources[res][0]
            if not any(system in ROLE_SYSTEMS.get(r, []) for r in self.eff[u]):
                self.unjustified.add((u, res))
        granted = {u for u, _ in ds.grants}
        self.unused = {u for u in self.active if u not in granted}
        self.critical = {res for res, _, tenths in ds.vulns
                         if tenths >= 90 and ds.resources[res][1] == "prod"}
        self.non_compliant = (self.no_mfa | self.stale_active
                              | {u for u, _ in self.under_cleared} | self.sod
                              | self.contractor_prod | {u for u, _ in self.unjustified})
        self.compliant = self.active - self.non_compliant


def sort_key(binding: dict, order: list[str]):
    """Numbers before atoms, numbers by value, atoms by code point, variable by
    variable in order of first appearance in the query."""
    key = []
    for var in order:
        v = binding[var]
        key.append((0, v, "") if isinstance(v, (int, float)) else (1, 0, v))
    return tuple(key)


def answers(order: list[str], rows) -> list[dict]:
    """Distinct binding objects for `order`, from tuples (or single values)."""
    out = []
    for row in set(rows):
        if not isinstance(row, tuple):
            row = (row,)
        assert len(row) == len(order)
        out.append(dict(zip(order, row)))
    return sorted(out, key=lambda b: sort_key(b, order))


def questions(ds: Dataset) -> list[dict]:
    ref = Reference(ds)
    # Sanity: the personas behave as their comments say.
    assert "user_002" in ref.no_mfa and "user_004" not in ref.no_mfa
    assert "user_004" in ref.stale and "user_004" not in ref.stale_active
    assert "user_005" not in ref.stale and ("user_006", 1) in ref.overdue
    assert "user_003" in ref.sod and "user_001" in ref.compliant
    assert ("user_007", "ci_pipeline_prod") in ref.under_cleared
    assert "user_007" in ref.contractor_prod
    assert ("user_008", "customer_db_prod") in ref.unjustified
    assert "user_009" in ref.privileged and "user_009" not in ref.no_mfa
    assert "user_009" in ref.compliant and "user_010" in ref.unused
    assert {"customer_db_prod", "monitoring_prod"} <= ref.critical
    assert "ci_pipeline_staging" not in ref.critical and "identity_prod" not in ref.critical

    qs = [
        ("no_mfa",
         "Which active users hold a privileged role (directly or through the role "
         "hierarchy) but have not enabled multi-factor authentication?",
         "violation_no_mfa($u)", answers(["u"], ref.no_mfa)),
        ("stale_enabled",
         "Which accounts have not logged in for more than 90 days and are still enabled?",
         "violation_stale_active($u)", answers(["u"], ref.stale_active)),
        ("overdue_days",
         "For every stale account that is still enabled, how many days past the "
         "90-day limit is its last login?",
         "overdue_days($u, $n)", answers(["u", "n"], ref.overdue)),
        ("under_cleared",
         "Which active users hold a grant on a resource whose environment or data "
         "classification requires a higher clearance than theirs, and on which resource?",
         "under_cleared($u, $r)", answers(["u", "r"], ref.under_cleared)),
        ("misplaced_data",
         "Which resources keep data in an environment not approved for its classification?",
         "misplaced_data($r)", answers(["r"], ref.misplaced)),
        ("sod",
         "Which users hold two conflicting roles (separation of duties), counting "
         "inherited roles?",
         "sod_violation($u)", answers(["u"], ref.sod)),
        ("unjustified",
         "Which access grants are not justified by any role of the user, inherited "
         "roles included?",
         "unjustified_access($u, $r)", answers(["u", "r"], ref.unjustified)),
        ("critical_exposure",
         "Which production resources have a known vulnerability with a CVSS score of "
         "9.0 or more?",
         "critical_exposure($r)", answers(["r"], ref.critical)),
        ("compliant",
         "Which active users have no finding under any control?",
         "compliant($u)", answers(["u"], ref.compliant)),
        ("privileged_and_stale",
         "Which privileged users (enabled or not) have not logged in for more than 90 days?",
         "privileged($u) AND stale_account($u)",
         answers(["u"], ref.privileged & ref.stale)),
        ("sod_user_003",
         "Does user_003 violate separation of duties?",
         "sod_violation(user_003)", [{}] if "user_003" in ref.sod else []),
        ("no_mfa_user_009",
         "Is user_009 an active privileged account without MFA?",
         "violation_no_mfa(user_009)", [{}] if "user_009" in ref.no_mfa else []),
    ]
    return [{"id": f"{ds.name}_{k:02d}_{qid}", "question": q, "query": query, "expected": exp}
            for k, (qid, q, query, exp) in enumerate(qs, 1)]


def build() -> dict[str, str]:
    """File name -> content, for every output file."""
    files: dict[str, str] = {}
    qdoc = {
        "description": "Questions over the IT-security knowledge bases. `expected` is the "
                       "complete list of distinct binding sets, sorted (numbers before "
                       "atoms, numbers by value, atoms by code point, variables in order "
                       "of first appearance in the query); [{}] for a ground query that "
                       "holds, [] for a query with no solution.",
        "variants": [],
    }
    for name in VARIANTS:
        ds = Dataset(name)
        text = render(ds)
        assert len(text.encode("utf-8")) < MAX_KB_BYTES, f"{name}.euclid is too large"
        files[f"{name}.euclid"] = text
        qdoc["variants"].append({"name": name, "file": f"{name}.euclid",
                                 "users": len(ds.users), "resources": len(ds.resources),
                                 "questions": questions(ds)})
    files["questions.json"] = json.dumps(qdoc, indent=1) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(here), help="output folder (default: this script's)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the files in --out differ from a fresh run")
    args = ap.parse_args(argv)
    out = Path(args.out)
    files = build()
    if args.check:
        stale = [n for n, text in files.items()
                 if not (out / n).is_file() or (out / n).read_text(encoding="utf-8") != text]
        for n in stale:
            print(f"gen.py: {out / n} is out of date", file=sys.stderr)
        return 1 if stale else 0
    out.mkdir(parents=True, exist_ok=True)
    for n, text in files.items():
        (out / n).write_text(text, encoding="utf-8")
    print(f"gen.py: wrote {', '.join(sorted(files))} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
