"""The pytest plugin (entry point ``pytest11``): ``pytest --toolcall-impl module:name`` runs every vector as a test
named ``toolcall-conformance::<vector id>``, with no test file of your own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ._loading import VectorError, load_vectors
from ._runner import (
    ConformanceSkip,
    DeclarationError,
    NotApplicable,
    SkipList,
    Summary,
    Totals,
    declared_level,
    load_implementation,
    run_case,
)

_NODE = "toolcall-conformance"


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("toolcall-conformance", "toolcall conformance vectors")
    group.addoption("--toolcall-impl", metavar="MODULE:NAME", help="run the vectors against this implementation")
    group.addoption("--toolcall-level", choices=("mapping", "full"), help="the level to check at (default: declared)")
    group.addoption("--toolcall-skip", action="append", default=[], metavar="ID", help="a vector id or a prefix ending in *")
    group.addoption("--toolcall-rules", metavar="R1,R4", help="only these rules")
    group.addoption("--toolcall-vectors", metavar="DIR", help="another vectors directory")
    group.addoption("--toolcall-templates", metavar="DIR", help="shared chat templates some render vectors name")
    group.addoption("--toolcall-report", metavar="FILE", help="write the totals per rule as JSON")


class ConformanceFailure(Exception):
    pass


class VectorItem(pytest.Item):
    """One vector (or, with ``case`` None, the run's setup: the vectors, the declaration, the skip list)."""

    def __init__(self, *, case: Any, run: "_Run", problem: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.run = run
        self.problem = problem

    def runtest(self) -> None:
        if self.case is None:
            raise ConformanceFailure(self.problem)
        outcome, rule = "skipped", self.case.rule
        try:
            messages = run_case(
                self.case, self.run.implementation, self.run.skips, self.run.level, self.run.templates
            )
        except NotApplicable as reason:
            self.run.count(rule, "not_applicable")
            self.not_applicable = True
            pytest.skip(str(reason))
        except ConformanceSkip as reason:
            self.run.count(rule, outcome)
            pytest.skip(str(reason))
        if messages:
            self.run.count(rule, "failed", {"id": self.case.id, "title": self.case.title, "messages": messages})
            raise ConformanceFailure(f"{self.case.id}: " + "\n  ".join(messages) + f"\n  ({self.case.title})")
        self.run.count(rule, "passed")

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple:
        path = self.case.path if self.case is not None else Path.cwd()
        return path, None, self.name


class _Run:
    def __init__(self, config: Any):
        self.config = config
        self.implementation = None
        self.level = None
        self.skips = SkipList(config.getoption("toolcall_skip"))
        self.templates = config.getoption("toolcall_templates")
        self.summary = Summary()

    def count(self, rule: str, key: str, failure: dict | None = None) -> None:
        totals = self.summary.by_rule.setdefault(rule, Totals())
        setattr(totals, key, getattr(totals, key) + 1)
        setattr(self.summary, key, getattr(self.summary, key) + 1)
        if failure:
            self.summary.failures.append(failure)


_RUN_KEY = pytest.StashKey["_Run"]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: Any, config: Any, items: list) -> None:
    spec = config.getoption("toolcall_impl")
    if not spec:
        return
    run = _Run(config)
    config.stash[_RUN_KEY] = run
    parent = _Suite.from_parent(session, name=_NODE, nodeid=_NODE)
    problems: list = []
    cases: list = []
    try:
        run.implementation = load_implementation(spec)
        run.level = config.getoption("toolcall_level") or declared_level(run.implementation)
        run.summary.level = run.level
    except DeclarationError as error:
        problems.append(str(error))
    try:
        root = config.getoption("toolcall_vectors")
        cases = list(load_vectors(root))
        rules = config.getoption("toolcall_rules")
        if rules:
            wanted = {rule.strip().upper() for rule in rules.split(",")}
            cases_run = [case for case in cases if case.rule in wanted]
        else:
            cases_run = cases
        unmatched = run.skips.unmatched(case.id for case in cases)
        if unmatched:
            problems.append(f"skip entries that name no vector: {', '.join(unmatched)}")
        cases = cases_run
    except (FileNotFoundError, VectorError) as error:
        problems.append(str(error))
        cases = []
    if problems or not cases:
        items.append(VectorItem.from_parent(parent, name="setup", case=None, run=run, problem="; ".join(problems) or "no vectors"))
        return
    items.extend(VectorItem.from_parent(parent, name=case.id, case=case, run=run) for case in cases)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    if getattr(item, "not_applicable", False):
        outcome.get_result().toolcall_not_applicable = True


def pytest_report_teststatus(report: Any, config: Any) -> Any:
    # A vector the implementation does not answer at its level is neither a pass nor a skip: pytest's own summary line
    # counts it apart ("12 passed, 3 not at this level"), as the per-rule lines below do.
    if report.when == "call" and report.skipped and getattr(report, "toolcall_not_applicable", False):
        return "not at this level", "n", "NOT AT THIS LEVEL"
    return None


class _Suite(pytest.Collector):
    def collect(self) -> list:  # the items are made by the hook above
        return []


def pytest_terminal_summary(terminalreporter: Any, exitstatus: Any, config: Any) -> None:
    run = config.stash.get(_RUN_KEY, None)
    if run is None or run.implementation is None:
        return
    summary = run.summary
    terminalreporter.section(f"toolcall conformance ({summary.level} level)")
    for rule, totals in sorted(summary.by_rule.items()):
        scored = totals.passed + totals.failed
        terminalreporter.write_line(
            f"{rule}: {totals.passed}/{scored} passed, {totals.skipped} skipped, {totals.not_applicable} not at this level"
        )
    report = config.getoption("toolcall_report")
    if report:
        Path(report).write_text(json.dumps(summary.as_json(), indent=2) + "\n", encoding="utf-8")
