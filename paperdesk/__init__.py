"""paperdesk: a reading-list manager for researchers who triage conference papers."""

__version__ = "0.1.0"
APP_NAME = "paperdesk"
