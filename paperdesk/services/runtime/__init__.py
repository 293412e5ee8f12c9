"""What keeps an open library running, no use case in it: the Desk, the write lock,
rolling backups, the search index kept in step, the spawned workers and their links.
The use cases (services/use_cases/) import the runtime, never the reverse (pyproject.toml).
"""
