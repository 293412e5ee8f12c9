from __future__ import annotations

from datetime import datetime

from paperdesk.core.models import ImportBatch, Overview, SavedSearch, ShortlistInfo, TagInfo
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.window.sidebar import SECTION, Sidebar, coloured_tag_keys


def data(**overrides) -> Overview:
    values = dict(
        papers=40,
        by_status=(("new", 35), ("read", 5)),
        shortlists=[ShortlistInfo(1, "Reading group", 3, datetime(2025, 7, 1))],
        tags=[
            TagInfo(1, "ml/rnn", "#cc0000", 2),
            TagInfo(2, "ml/vision", None, 3),
            TagInfo(3, "graphs", "#00aa00", 5),
        ],
        saved_searches=[SavedSearch(1, "Graphs", "graph")],
        imports=[
            ImportBatch(1, "ICML 2025", "a.txt", "x", "seedlist", 19, 0, 0, 1, datetime(2025, 7, 1))
        ],
    )
    values.update(overrides)
    return Overview(**values)


def label(index) -> str:
    """An entry as the user reads it: the name, and its count when it has one."""
    count = index.siblingAtColumn(1).data()
    return f"{index.data()}  ({count})" if count else index.data()


def texts(sidebar: Sidebar) -> list[str]:
    return [label(index) for index in sidebar._all_indexes()]


def test_sidebar_model_passes_the_model_tester(qtbot, qtmodeltester, request):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())
    # The tester disconnects from the model after qtbot has closed the widgets: keep the
    # model alive on its own until then.
    model = sidebar.model_
    model.setParent(None)
    request.node.sidebar_model = model
    qtmodeltester.check(model, force_py=True)


def test_shows_every_section_with_counts_and_a_tag_tree(qtbot):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())
    shown = texts(sidebar)
    assert shown[0] == "All papers  (40)"
    assert "New  (35)" in shown and "Skimmed  (0)" in shown
    assert "Reading group  (3)" in shown
    assert "Graphs" in shown and "ICML 2025  (19)" in shown
    # ml/rnn and ml/vision hang under an "ml" node nobody tagged with plain "ml".
    ml = sidebar.index_of(Scope(Kind.TAG, "ml"))
    children = [label(ml.model().index(r, 0, ml)) for r in range(ml.model().rowCount(ml))]
    assert label(ml) == "ml" and children == ["rnn  (2)", "vision  (3)"]
    assert (
        not sidebar.model_.itemFromIndex(sidebar.index_of(Scope(Kind.TAG, "ml/rnn")))
        .icon()
        .isNull()
    )


def test_picking_entries_sets_the_scope(qtbot):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())
    with qtbot.waitSignal(sidebar.scope_changed) as changed:
        sidebar.setCurrentIndex(sidebar.index_of(Scope(Kind.TAG, "ml/rnn")))
    assert changed.args == [Scope(Kind.TAG, "ml/rnn")]
    assert changed.args[0].query() == 'tag:"ml/rnn"'
    with qtbot.waitSignal(sidebar.saved_search_chosen) as chosen:
        sidebar.setCurrentIndex(sidebar.index_of(Scope(Kind.SAVED, "Graphs")))
    assert chosen.args == ["Graphs"]


def test_a_refresh_keeps_the_entry_and_falls_back_when_it_is_gone(qtbot):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())
    sidebar.select_scope(Scope(Kind.SHORTLIST, "Reading group"))
    with qtbot.assertNotEmitted(sidebar.scope_changed):
        sidebar.populate(data(papers=41))
    assert sidebar.scope() == Scope(Kind.SHORTLIST, "Reading group")
    sidebar.follow_rename(Kind.SHORTLIST, "Reading group", "Must read")
    renamed = ShortlistInfo(1, "Must read", 3, datetime(2025, 7, 1))
    sidebar.populate(data(shortlists=[renamed]))
    assert sidebar.scope() == Scope(Kind.SHORTLIST, "Must read")
    assert label(sidebar.currentIndex().siblingAtColumn(0)) == "Must read  (3)"
    sidebar.populate(data(shortlists=[]))
    assert sidebar.scope() == Scope()


def test_renaming_a_parent_tag_follows_a_shown_sub_tag(qtbot):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())
    sidebar.select_scope(Scope(Kind.TAG, "ml/rnn"))
    sidebar.follow_rename(Kind.TAG, "ml", "learning")
    assert sidebar.scope() == Scope(Kind.TAG, "learning/rnn")


def test_right_click_menus_offer_what_fits_the_entry(qtbot):
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.populate(data())

    def offered(kind, value):
        return [a.text() for a in sidebar.menu_for(kind, value).actions()]

    assert offered(SECTION, "shortlist") == ["New shortlist…"]
    assert "Rename shortlist…" in offered(Kind.SHORTLIST, "Reading group")
    tag_menu = offered(Kind.TAG, "graphs")
    assert {"Rename tag…", "Merge into…", "Colour…", "Delete tag"} <= set(tag_menu)
    assert offered(Kind.SAVED, "Graphs") == ["Delete saved search"]
    assert offered(Kind.ALL, "") == []
    with qtbot.waitSignal(sidebar.command) as command:
        sidebar.menu_for(Kind.TAG, "graphs").actions()[-1].trigger()
    assert command.args == ["delete-tag", "graphs"]


def test_the_first_nine_coloured_tags_get_number_keys():
    tags = [TagInfo(i, f"t{i:02d}", "#123456", 1) for i in range(12)]
    tags.append(TagInfo(99, "aaa", None, 1))
    keys = coloured_tag_keys(tags)
    assert keys == {f"t{i:02d}": i + 1 for i in range(9)}
