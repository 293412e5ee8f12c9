"""`paperdesk restore FILE` and `paperdesk import FILE` of a JSON backup, as typed."""

from __future__ import annotations

from pathlib import Path

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import backup, tagging
from tests.cli.test_cli import SEEDS, invoke, run


def test_restore_into_a_new_folder_then_refuse_a_second_time(tmp_path: Path) -> None:
    original = tmp_path / "original"
    invoke(original, "import", *map(str, SEEDS))
    target = tmp_path / "backup.json"
    with Desk.open(original) as desk:
        tagging.add_tags(desk, [12], ["rnn"])
        backup.write_backup(desk, target)

    restored = tmp_path / "restored"
    result = run(restored, "restore", str(target))
    assert result.stdout == "Restore backup backup.json (38 papers)\n"
    assert invoke(restored, "search", "tag:rnn").stdout.split()[0] == "12"

    again = run(restored, "restore", str(target), check=False)
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.startswith(f"paperdesk: cannot restore into {restored}: it is not empty")

    imported = run(tmp_path / "by-import", "import", str(target))
    assert imported.stdout == "backup.json (backup): restored 38 papers\n"


def test_a_damaged_backup_is_one_line_on_stderr(tmp_path: Path) -> None:
    damaged = tmp_path / "backup.json"
    damaged.write_text('{"paperdesk_backup": 1, "created": "2025-07-01T12:00:00",\n"papers": [\n')
    result = run(tmp_path / "library", "restore", str(damaged), check=False)
    assert result.returncode == 1
    assert result.stderr == (
        f"paperdesk: {damaged}:3: not a complete JSON document (cut short?): Expecting value\n"
    )
