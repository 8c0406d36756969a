"""The repository's size rules, checked on every CI run: BENCHMARKS.md stays a page of current
results (dated logs go to docs/experiments/), no module grows past one screenful of concepts,
the package root holds only its entry points (docs/layout.md), and .gitignore hides no
folder of code."""

import shutil
import subprocess
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


def _code_folders():
    """Every folder of code or configs, and the test folder mirroring each package folder
    (tests/training once went uncommitted: .gitignore took it for training output)."""
    folders = {REPOSITORY / "spacy_senna", REPOSITORY / "tests"}
    folders.update(path.parent for path in _python_files())
    folders.update(path.parent for path in (REPOSITORY / "configs").rglob("*.cfg"))
    folders.update(path.parent for path in (REPOSITORY / "projects").glob("*/project.yml"))
    for package in (REPOSITORY / "spacy_senna").iterdir():
        if (package / "__init__.py").exists():
            folders.add(REPOSITORY / "tests" / package.name)
    return sorted(folder for folder in folders if "__pycache__" not in folder.parts)


def test_gitignore_hides_no_code_folder():
    if shutil.which("git") is None or not (REPOSITORY / ".git").exists():
        pytest.skip("not a git checkout")
    probes = [str((folder / "probe.py").relative_to(REPOSITORY)) for folder in _code_folders()]
    assert len(probes) > 20, "the folders were not found"
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=REPOSITORY,
        input="\n".join(probes),
        capture_output=True,
        text=True,
    ).stdout.split()
    assert not ignored, f".gitignore hides these code folders' files: {ignored}"
