"""'Why this paper', calmly (issue 21, item 5): a few content words, two colour-blind-safe
hues plus an underline, W and a preference turn it off, and the first paper of a
triage gets its line once the first model arrives."""

from __future__ import annotations

import colorsys
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from paperdesk.core.models import Status
from paperdesk.gui.dialogs.preferences import WHY_KEY, dark_palette, light_palette
from paperdesk.gui.triage.session import Order
from paperdesk.gui.widgets.abstract_marks import (
    TERMS_EACH_WAY,
    TINTED_SHARE,
    calm,
    tint_colours,
    tint_styles,
    why_html,
)
from paperdesk.ranking.explanation import Contribution, Explanation
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, searching
from paperdesk.services.use_cases.rendering import words_pattern
from tests.gui.conftest import open_window
from tests.gui.test_triage_view import WAIT_MS, enter_triage, trained_by_promise

FILLER = "we study a setting where the learner sees data and answers queries about it".split()


def _abstract(words: int, planted: dict[str, int]) -> str:
    """An abstract of about `words` words with each planted word `n` times in it."""
    text = [FILLER[i % len(FILLER)] for i in range(words)]
    for position, (word, times) in enumerate(planted.items()):
        for k in range(times):
            text[(position * 7 + k * 13) % words] = word
    return " ".join(text) + "."


def _explanation(raising: list[tuple[str, float]], lowering: list[tuple[str, float]]):
    return Explanation(
        1.0,
        0.0,
        tuple(Contribution(t, w) for t, w in raising),
        tuple(Contribution(t, -w) for t, w in lowering),
    )


def test_calm_tints_a_small_share_of_the_words_strongest_first(qapp) -> None:
    abstract = _abstract(200, {"bandit": 3, "regret": 2, "arms": 9, "vision": 2, "pixels": 8})
    found = _explanation(
        [("bandit", 0.9), ("regret", 0.5), ("arms", 0.4), ("regret bound", 0.3)],
        [("vision", 0.6), ("pixels", 0.2)],
    )
    kept = calm(found, abstract)
    terms = [c.term for c in kept.raising + kept.lowering]
    assert terms[0] == "bandit" and "vision" in terms  # the strongest either way stay
    assert "regret bound" not in terms  # it shares a word with "regret", chosen before
    pattern = words_pattern(terms)
    assert pattern is not None
    tinted = len(pattern.findall(abstract))
    assert 0 < tinted <= TINTED_SHARE * 200
    assert len(kept.raising) <= TERMS_EACH_WAY and len(kept.lowering) <= TERMS_EACH_WAY


def test_the_strongest_term_is_tinted_even_when_it_alone_passes_the_share(qapp) -> None:
    kept = calm(_explanation([("bandit", 1.0)], []), _abstract(40, {"bandit": 10}))
    assert [c.term for c in kept.raising] == ["bandit"]


def _hue(colour: str) -> float:
    c = QColor(colour)
    return 360 * colorsys.rgb_to_hsv(c.redF(), c.greenF(), c.blueF())[0]


def _contrast(first: QColor, second: QColor) -> float:
    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
        )

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_raised_and_lowered_are_blue_and_vermillion_and_only_raised_is_underlined(qapp) -> None:
    for palette in (light_palette(), dark_palette()):
        raising, lowering = tint_colours(palette)
        assert 190 <= _hue(raising) <= 215  # Okabe-Ito blue / sky blue
        assert 20 <= _hue(lowering) <= 35  # Okabe-Ito vermillion / orange
        base = palette.color(QPalette.ColorRole.Base)
        assert _contrast(QColor(raising), base) >= 4.5
        assert _contrast(QColor(lowering), base) >= 4.5
        up, down = tint_styles(palette)
        assert "underline" in up and "underline" not in down  # not colour alone
        line = why_html(palette, _explanation([("bandit", 1.0)], [("pixels", 0.5)]))
        assert up in line and down in line


def _tinted_spans(view) -> int:
    return len(re.findall(r"text-decoration:\s*underline", view.abstract.toHtml()))


def test_w_hides_why_this_paper_and_the_choice_is_kept(qtbot, window) -> None:
    view, _ = trained_by_promise(qtbot, window)
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_J)
    qtbot.waitUntil(lambda: view.why.isVisible(), timeout=WAIT_MS)
    qtbot.keyClick(view, Qt.Key.Key_W)
    assert not view.why.isVisible() and _tinted_spans(view) == 0
    assert window.settings.value(WHY_KEY, type=bool) is False
    qtbot.keyClick(view, Qt.Key.Key_W)
    assert view.why.isVisible() and "Why this paper" in view.why.text()
    assert window.settings.value(WHY_KEY, type=bool) is True


def test_with_the_preference_off_no_why_is_shown(qtbot, window) -> None:
    window.settings.setValue(WHY_KEY, False)
    view, _ = trained_by_promise(qtbot, window)
    with qtbot.waitSignal(view.session.explained, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_J)
    assert not view.why.isVisible() and _tinted_spans(view) == 0


def test_the_first_paper_gets_its_why_when_the_first_model_arrives(
    qtbot, seeded_library, tmp_path
) -> None:
    with Desk.open(seeded_library) as desk:
        kept = searching.find_ids(desk, "graph").ids[0]
        editing.set_status(desk, [kept], Status.TO_READ)
        editing.set_rating(desk, [kept], 5)  # a keep the model learns from at once
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    view = enter_triage(qtbot, window, Order.PROMISE)
    first = view.session.paper.id
    promise = window.desk.promise_if_started()
    assert promise is None or promise.latest() is None  # shown before any model
    qtbot.waitUntil(lambda: view.why.isVisible(), timeout=60_000)
    assert view.session.paper.id == first and "Why this paper" in view.why.text()
