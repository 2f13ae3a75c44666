"""Audit: simulated games pass with no server; any changed byte fails and names its event."""

import json
import random

import pytest

from service.cli.audit import audit_file
from service.cli.commands import main
from service.cli.simulate import export_records, run


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    directory = tmp_path_factory.mktemp("exports")
    _, records = run(games=100, players="mixed", seed="audit-100", check=False)
    export_records(records, str(directory))
    return sorted(directory.glob("*.jsonl"))


def test_a_hundred_simulated_games_pass_the_audit_from_their_files_alone(exported):
    assert len(exported) == 100
    reports = [audit_file(str(path)) for path in exported]
    assert [r.first_failure for r in reports if not r.ok] == []
    assert all(
        r.summary()["checks"]
        == {
            "file": True,
            "commitment": True,
            "hash_chain": True,
            "replay": True,
            "commands_redecided": True,
            "ai_views": True,
            "platform_events": True,
            "clocks": True,
            "final_scores": True,
        }
        for r in reports
    )


@pytest.mark.parametrize("trial", range(60))
def test_changing_any_byte_of_an_exported_file_fails_the_audit_and_names_that_event(exported, tmp_path, trial):
    rnd = random.Random(trial)
    source = exported[trial % len(exported)]
    lines = source.read_bytes().split(b"\n")
    number = rnd.randrange(len(lines) - 1)  # the last line is empty (trailing newline)
    line = bytearray(lines[number])
    position = rnd.randrange(len(line))
    line[position] = rnd.choice([c for c in b'0123456789abcdefxyz{}[]:," ' if c != line[position]])
    lines[number] = bytes(line)
    target = tmp_path / "tampered.jsonl"
    target.write_bytes(b"\n".join(lines))
    report = audit_file(str(target))
    assert not report.ok
    assert report.first_failure in ({0, 1} if number == 0 else {number})


def test_the_audit_command_prints_a_story_the_checks_and_a_json_last_line(exported, capsys):
    assert main(["audit", str(exported[0])]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("v1 ") and "create_game" in out[0]
    assert any(line.startswith("PASS commands_redecided") for line in out)
    last = json.loads(out[-1])
    assert last["ok"] is True and last["first_failure"] is None and last["events"] > 100
