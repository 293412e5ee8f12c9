"""One client of the concurrency test (test_team_concurrency.py), run as its own process:

    python -m tests.services.team_client URL SEED OPERATIONS FINISHED_DIR CLIENTS

It tags, rates, annotates and shortlists the library's papers at random through the
services the CLI and the GUI call, then waits until every client has finished (a file
per client in FINISHED_DIR: a client that caught up while another still tagged would
rightly miss that tag), catches its index up and searches for the shared tag. It
prints what it did and what it found as one JSON object.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, notes, searching, shortlists, tagging

SHARED_TAG = "team/shared"
SHORTLIST = "Team picks"


def wait_for_all(finished: Path, user: str, clients: int) -> None:
    """Say this client has finished; return once every client has (10 minutes at most)."""
    (finished / user).touch()
    deadline = time.monotonic() + 600
    while len(list(finished.iterdir())) < clients:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(list(finished.iterdir()))} of {clients} finished")
        time.sleep(0.05)


def run(url: str, seed: int, operations: int, finished: Path, clients: int) -> dict[str, object]:
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
        wait_for_all(finished, user, clients)
        desk.catch_up_with_others()
        found = sorted(searching.find_ids(desk, f'tag:"{SHARED_TAG}"').ids)
    return {"user": user, "done": done, "found_shared": found}


if __name__ == "__main__":
    url, seed, operations, finished, clients = sys.argv[1:6]
    print(json.dumps(run(url, int(seed), int(operations), Path(finished), int(clients))))
