"""``python -m toolcall_conformance``: the vectors against an implementation, without pytest."""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from ._loading import VectorError, check_vectors
from ._runner import DeclarationError, load_implementation, run_suite


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m toolcall_conformance",
        description="Run toolcall's conformance vectors against an implementation (module:name).",
    )
    parser.add_argument("--impl", metavar="MODULE:NAME", help="the implementation (an object, a class or a factory)")
    parser.add_argument("--level", choices=("mapping", "full"), help="the level to check at (default: declared)")
    parser.add_argument("--skip", action="append", default=[], metavar="ID", help="a vector id or a prefix ending in *")
    parser.add_argument("--rules", metavar="R1,R4", help="only these rules")
    parser.add_argument("--vectors", metavar="DIR", help="another vectors directory")
    parser.add_argument("--templates", metavar="DIR", help="shared chat templates some render vectors name")
    parser.add_argument("--json", action="store_true", help="print the totals and failures as JSON")
    parser.add_argument("--check", action="store_true", help="only check the vector files")
    parser.add_argument("--version", action="version", version=f"toolcall-conformance {__version__}")
    args = parser.parse_args(argv)
    if args.check:
        problems = check_vectors(args.vectors)
        for problem in problems:
            print(problem, file=sys.stderr)
        print("vectors ok" if not problems else f"{len(problems)} problems")
        return 0 if not problems else 1
    if not args.impl:
        parser.error("give --impl MODULE:NAME (or --check)")
    try:
        implementation = load_implementation(args.impl)
        rules = [rule.strip().upper() for rule in args.rules.split(",")] if args.rules else None
        summary = run_suite(
            implementation, level=args.level, skip=args.skip, root=args.vectors, rules=rules, templates=args.templates
        )
    except (DeclarationError, VectorError, FileNotFoundError) as error:
        print(f"toolcall-conformance: {error}", file=sys.stderr)
        return 2
    if summary.unmatched_skips:
        print(f"skip entries that name no vector: {', '.join(summary.unmatched_skips)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary.as_json(), indent=2))
    else:
        for failure in summary.failures:
            print(f"FAIL {failure['id']}\n  " + "\n  ".join(failure["messages"]))
        for rule, totals in sorted(summary.by_rule.items()):
            print(f"{rule}: {totals.passed} passed, {totals.failed} failed, {totals.skipped} skipped, "
                  f"{totals.not_applicable} not at this level")
        print(f"{summary.level} level: {summary.passed} passed, {summary.failed} failed, {summary.skipped} skipped")
    return 0 if summary.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
