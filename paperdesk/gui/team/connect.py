"""File > Connect to Team Library…, and the password prompt of a team library.

The dialog builds a `postgresql://` address from its fields and can test it (off the GUI
thread: a server that does not answer must not freeze the window). The password lives
only in the address handed to the window that opens the library; Recent Libraries and
every message keep the address without it.
"""

from __future__ import annotations

import getpass
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.errors import PaperdeskError
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.team_connection import check_connection

DEFAULT_PORT = 5432


class _Answer(QObject):
    """Carries a connection test's outcome from its thread to the GUI thread."""

    ready = Signal(str, bool)


class TeamConnectDialog(QDialog):
    """Host, port, database, user, password; `address()` once accepted."""

    tested = Signal(str, bool)  # the test's message, whether it connected

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to Team Library")
        self.host = QLineEdit("localhost")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.database = QLineEdit()
        self.database.setPlaceholderText("the team's database, e.g. icml_triage")
        self.user = QLineEdit(getpass.getuser())
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("empty: PGPASSWORD or ~/.pgpass, else asked")
        form = QFormLayout()
        for label, field in (
            ("&Host:", self.host),
            ("&Port:", self.port),
            ("&Database:", self.database),
            ("&User:", self.user),
            ("Pass&word:", self.password),
        ):
            field.setAccessibleName(label.replace("&", "").rstrip(":"))
            form.addRow(label, field)
        self.status = QLabel(" ")
        self.status.setObjectName("teamConnectStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.test_button = QPushButton("&Test Connection")
        self.test_button.clicked.connect(self.test_connection)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.connect_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.connect_button.setText("&Connect")
        buttons.addButton(self.test_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self._answer = _Answer(self)
        self._answer.ready.connect(self._show_test)
        self.setMinimumWidth(460)

    def address(self) -> TeamAddress:
        """The fields as an address; LibraryError (a readable line) when one is missing."""
        return TeamAddress.build(
            self.host.text(),
            self.port.value(),
            self.database.text(),
            self.user.text(),
            self.password.text(),
        )

    def test_connection(self) -> None:
        try:
            address = self.address()
        except PaperdeskError as error:
            self._show_test(str(error), False)
            return
        self.test_button.setEnabled(False)
        self.status.setText(f"Connecting to {address.masked}…")
        threading.Thread(
            target=self._test, args=(address,), name="paperdesk-team-test", daemon=True
        ).start()

    def _test(self, address: TeamAddress) -> None:
        try:
            check_connection(address)
        except PaperdeskError as error:
            self._answer.ready.emit(str(error), False)
        else:
            self._answer.ready.emit(f"Connected to {address.masked}.", True)

    def _show_test(self, message: str, connected: bool) -> None:
        self.test_button.setEnabled(True)
        self.status.setText(("✔ " if connected else "✘ ") + message)
        self.adjustSize()  # a server's reason can take several lines
        self.tested.emit(message, connected)

    def _accept_if_valid(self) -> None:
        try:
            self.address()
        except PaperdeskError as error:
            self._show_test(str(error), False)
            return
        self.accept()


def connect_to_team(parent: QWidget, on_address: Callable[[TeamAddress], None]) -> QDialog:
    """Open the dialog window-modal (never blocking); `on_address` gets the address."""
    dialog = TeamConnectDialog(parent)
    dialog.accepted.connect(lambda: on_address(dialog.address()))
    dialog.open()
    return dialog


def ask_password(
    parent: QWidget,
    address: TeamAddress,
    on_password: Callable[[str], None],
    refused: bool = False,
) -> QInputDialog:
    """Ask for the password of `address` (window-modal, never blocking); `refused`: the
    server refused the one given."""
    prompt = QInputDialog(parent)
    prompt.setWindowTitle("Team library password")
    again = "The server refused the password. " if refused else ""
    prompt.setLabelText(f"{again}Password for {address.with_password(None).masked}:")
    prompt.setTextEchoMode(QLineEdit.EchoMode.Password)
    prompt.textValueSelected.connect(on_password)
    prompt.open()
    return prompt
