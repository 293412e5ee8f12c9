"""Small widgets every surface uses; they know no window, triage or team (pyproject.toml)."""
