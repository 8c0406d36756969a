"""The repository's size rules, checked on every CI run: BENCHMARKS.md stays a page of current
results (dated logs go to docs/experiments/), no module grows past one screenful of concepts,
and the package root holds only its entry points (docs/layout.md)."""

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
BENCHMARKS_MAX_LINES = 300
MODULE_MAX_LINES = 450
ROOT_MODULES_MAX = 8
SKIPPED = {".venv", "build", "dist", ".git", "node_modules"}


def _python_files():
    for path in REPOSITORY.rglob("*.py"):
        parts = path.relative_to(REPOSITORY).parts
        if not SKIPPED.intersection(parts) and not any(p.endswith(".egg-info") for p in parts):
            yield path


def test_benchmarks_md_is_at_most_300_lines():
    lines = (REPOSITORY / "BENCHMARKS.md").read_text(encoding="utf8").count("\n")
    assert lines <= BENCHMARKS_MAX_LINES, (
        f"BENCHMARKS.md has {lines} lines, more than {BENCHMARKS_MAX_LINES}: move dated rows "
        "and logs to docs/experiments/ and keep the page of current results"
    )


def test_no_module_is_over_450_lines():
    long = {
        str(path.relative_to(REPOSITORY)): n
        for path in _python_files()
        if (n := path.read_text(encoding="utf8").count("\n")) > MODULE_MAX_LINES
    }
    assert not long, f"modules over {MODULE_MAX_LINES} lines, split them by concept: {long}"


def test_package_root_holds_only_its_entry_points():
    root = sorted(path.name for path in (REPOSITORY / "spacy_senna").glob("*.py"))
    assert len(root) <= ROOT_MODULES_MAX, f"spacy_senna/ root modules: {root}; see docs/layout.md"


@pytest.mark.parametrize("folder", ["spacy_senna", "tests", "benchmarks", "projects"])
def test_the_size_rules_see_the_code(folder):
    """The checks above read real files (a wrong REPOSITORY would pass them vacuously)."""
    assert any(path.relative_to(REPOSITORY).parts[0] == folder for path in _python_files())
