"""One client of the concurrency test (test_team_concurrency.py), run as its own process:

    python -m tests.services.team_client URL SEED OPERATIONS

It tags, rates, annotates and shortlists the library's papers at random through the
services the CLI and the GUI call, then catches its index up and searches for the
shared tag. It prints what it did and what it found as one JSON object.
"""

from __future__ import annotations

import json
import random
import sys

from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, notes, searching, shortlists, tagging

SHARED_TAG = "team/shared"
SHORTLIST = "Team picks"


def run(url: str, seed: int, operations: int) -> dict[str, object]:
    chooser = random.Random(seed)
    done: dict[str, list[list[object]]] = {"tag": [], "rate": [], "note": [], "shortlist": []}
    with Desk.open_team(TeamAddress.parse(url)) as desk:
        user = desk._library.actor
        ids = searching.find_ids(desk).ids
        for number in range(operations):
            paper = chooser.choice(ids)
            kind = ("tag", "rate", "note", "shortlist")[number % 4]
            if kind == "tag":
                tag = chooser.choice([SHARED_TAG, f"{user}/{number % 5}"])
                tagging.add_tags(desk, [paper], [tag])
                done["tag"].append([paper, tag])
            elif kind == "rate":
                rating = chooser.randint(1, 5)
                editing.set_rating(desk, [paper], rating)
                done["rate"].append([paper, rating])
            elif kind == "note":
                line = f"{user} says {number}"
                notes.append_note(desk, paper, line)
                done["note"].append([paper, line])
            else:
                shortlists.add(desk, SHORTLIST, [paper])
                done["shortlist"].append([paper])
        desk.catch_up_with_others()
        found = sorted(searching.find_ids(desk, f'tag:"{SHARED_TAG}"').ids)
    return {"user": user, "done": done, "found_shared": found}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
