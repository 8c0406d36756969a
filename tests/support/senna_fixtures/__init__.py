"""Fixtures shared by tests in several folders, loaded by tests/conftest.py (pytest_plugins)."""
