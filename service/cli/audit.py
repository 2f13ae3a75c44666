"""`pantheon audit`: print the audit report of an exported file (or a game on the server)."""

from __future__ import annotations

import json
import sys

from service.audit.checks import Check, Report, audit
from service.audit.export import ExportError, decider_for, read_export
from service.config import Settings


def print_report(report: Report, *, quiet: bool = False, out=None) -> None:
    out = out or sys.stdout
    if not quiet:
        for line in report.story:
            print(line, file=out)
    for check in report.checks:
        mark = {True: "PASS", False: "FAIL", None: "SKIP"}[check.ok]
        where = f" (first failure at event {check.first_failure})" if check.first_failure else ""
        print(f"{mark} {check.name}: {check.detail}{where}", file=out)
    print(json.dumps(report.summary()), file=out)


def audit_file(path: str, *, rerun_bots: bool = False) -> Report:
    """The audit of an exported file; a file that is unreadable or altered fails the `file` check."""
    with open(path, "rb") as f:
        lines = f.read().splitlines()
    try:
        header, envelopes = read_export(lines)
    except ExportError as error:
        report = Report(game="?", events=max(len(lines) - 1, 0))
        report.checks.append(Check("file", False, str(error), error.version))
        return report
    report = audit(header, envelopes, decider_for(header.kind), rerun_bots=rerun_bots)
    report.checks.insert(0, Check("file", True, "every line is exactly as exported"))
    return report


def audit_command(
    path: str | None,
    game: str | None,
    settings: Settings | None = None,
    *,
    quiet: bool = False,
    rerun_bots: bool = False,
) -> int:
    """Audit an exported file, or `game` on the server of `settings` (None: of the environment)."""
    if bool(path) == bool(game):
        print("Give either an exported FILE or --game ID.", file=sys.stderr)
        return 2
    try:
        if game:
            from service.audit.archive import fetch_export

            header, envelopes = fetch_export(game, settings)
            report = audit(header, envelopes, decider_for(header.kind), rerun_bots=rerun_bots)
        else:
            assert path is not None  # one of the two, as checked above
            report = audit_file(path, rerun_bots=rerun_bots)
    except OSError as error:
        print(json.dumps({"ok": False, "events": 0, "first_failure": None, "error": str(error)}))
        return 1
    print_report(report, quiet=quiet)
    return 0 if report.ok else 1
