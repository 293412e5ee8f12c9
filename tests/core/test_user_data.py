"""UserData: what a file gives back of the user's own data about a paper."""

from __future__ import annotations

from paperdesk.core.models import PaperRecord, Status, UserData


def test_a_record_carries_no_user_data_unless_its_file_gives_some() -> None:
    assert PaperRecord("A title").user.is_empty
    assert not UserData(status=Status.READ).is_empty
    assert not UserData(tags=("method/rl",)).is_empty
    # "not given" is not "unrated" or "new": importing must not reset stored values
    assert UserData().rating is None and UserData().status is None
