"""Training in the background: decisions return at once, the next paper follows them."""

from __future__ import annotations

from paperdesk.ranking.background import BackgroundRanker
from paperdesk.ranking.features import FeatureMatrix
from tests.ranking.synthetic import make_records


def test_the_next_paper_follows_the_decisions() -> None:
    records, relevant = make_records(n=200, relevant_topic="robots", share=0.1)
    features = FeatureMatrix.build(enumerate(records))
    with BackgroundRanker(features) as ranker:
        assert ranker.wait(timeout=30)
        assert ranker.next_paper() == 0  # nothing decided: file order
        kept = relevant.index(True)
        ranker.decide(kept, True)
        ranker.decide(relevant.index(False), False)
        assert ranker.wait(timeout=30)
        assert ranker.latest.scorer is not None and ranker.latest.scorer.kind == "learnt"
        shown = []
        for _ in range(5):
            paper = ranker.next_paper()
            assert paper is not None and paper not in shown
            shown.append(paper)
            ranker.decide(paper, relevant[paper])
        assert all(relevant[p] for p in shown)
        assert ranker.wait(timeout=30)


def test_candidates_limit_the_choice_and_undo_forgets() -> None:
    records, relevant = make_records(n=100, relevant_topic="vision", share=0.2)
    features = FeatureMatrix.build(enumerate(records))
    with BackgroundRanker(features, query="image segmentation camera") as ranker:
        assert ranker.wait(timeout=30)
        others = [i for i, r in enumerate(relevant) if not r][:3]
        assert ranker.next_paper(others) in others
        best = ranker.next_paper()
        assert best is not None and relevant[best]
        ranker.decide(best, False)
        assert ranker.next_paper([best]) is None
        ranker.decide(best, None)
        assert ranker.next_paper([best]) == best
        assert ranker.next_paper([1000, best]) == best  # a paper newer than the model waits
        assert ranker.next_paper([1000]) == 1000
