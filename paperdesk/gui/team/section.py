"""The detail pane's "Team" section, shown for a paper of a team library only.

Each member has their own rating and note of a paper (the stars and the note editor
are the reader's own); this section shows the team's: the average rating and who gave
what ("★ 3.5 average of 2 · alice 4, bob 3"), and the others' notes, read-only, each
with who wrote it and when.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from paperdesk.core.team_values import TeamValues


class TeamSection(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = QLabel("Team")
        heading.setObjectName("sectionLabel")
        self.summary = QLabel()
        self.summary.setObjectName("teamSummary")
        self.summary.setAccessibleName("Team rating")
        self.notes = QLabel()
        self.notes.setObjectName("teamNotes")
        self.notes.setAccessibleName("The team's notes")
        self.notes.setWordWrap(True)
        self.notes.setTextFormat(Qt.TextFormat.RichText)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.notes)
        self.hide()

    def show_team(self, team: TeamValues | None) -> None:
        """A team library's values of the paper; None (a personal library) hides it."""
        self.setVisible(team is not None)
        if team is None:
            return
        self.summary.setText(team.summary())
        others = team.others_notes()
        self.notes.setText(
            "<br>".join(
                f"<b>{html.escape(note.member)}</b>"
                + (f" <small>{note.when:%Y-%m-%d %H:%M}</small>" if note.when else "")
                + "<br>"
                + html.escape(note.body).replace("\n", "<br>")
                for note in others
            )
        )
        self.notes.setVisible(bool(others))
