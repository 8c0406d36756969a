"""Shared test setup: single-threaded torch, the installed-package guard, and the fixtures
that tests in more than one folder use: tests/support/senna_fixtures/ (pytest_plugins below;
fixtures of one folder live in its conftest.py).

The tests import `spacy_senna` from wherever it is installed (pytest runs with
`--import-mode=importlib`, so nothing puts the repository on sys.path). With
SPACY_SENNA_TEST_INSTALLED=1 (CI sets it) the run stops at once when `spacy_senna` comes
from inside the repository, e.g. because `python -m pytest` put the current directory first
on sys.path: CI tests the built wheel, not the source tree.

With SPACY_SENNA_TEST_GPU=1 every test runs on the GPU (`spacy.require_gpu()` before any
model is built): the networks, their inputs and the CRF live there. CI has no GPU; run it
on a machine that has one.
"""

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable, List

import pytest
import spacy
import torch

import spacy_senna

REPOSITORY = Path(__file__).resolve().parent.parent
ON_GPU = os.environ.get("SPACY_SENNA_TEST_GPU") == "1"

torch.set_num_threads(1)

# tests/support is on sys.path (pyproject.toml: pythonpath)
pytest_plugins = [
    "senna_fixtures.formats",
    "senna_fixtures.examples",
    "senna_fixtures.command_line",
]


def pytest_report_header(config: pytest.Config) -> str:
    location = Path(spacy_senna.__file__).parent
    return f"spacy_senna {spacy_senna.__version__} from {location}, {'GPU' if ON_GPU else 'CPU'}"


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    if not ON_GPU:
        return
    # CUDA cannot run in a forked process, and CPU workers score a little differently
    skip = pytest.mark.skip(reason="forked or CPU worker processes (SPACY_SENNA_TEST_GPU=1)")
    for item in items:
        if "forks" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    if ON_GPU:
        spacy.require_gpu()
        # cuDNN convolutions in full float32 (TF32 is its default): the thresholds of the
        # overfit tests were set on the CPU
        torch.backends.cudnn.allow_tf32 = False
    if os.environ.get("SPACY_SENNA_TEST_INSTALLED") != "1":
        return
    location = Path(spacy_senna.__file__).resolve()
    if location.is_relative_to(REPOSITORY):
        raise pytest.UsageError(
            f"SPACY_SENNA_TEST_INSTALLED=1 but spacy_senna was imported from {location}, "
            f"inside the repository {REPOSITORY}, not from an installed package. Run the "
            "`pytest` script (or `python -P -m pytest`) in an environment where spacy-senna "
            "is installed from its wheel."
        )


def _load_script(path: Path) -> ModuleType:
    """The Python script at `path` (a project's or benchmarks' file, not in a package) as a
    fresh module, importing its sibling scripts as it does when run directly."""
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    name = "script_" + "_".join(path.with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_script() -> Callable[[Path], ModuleType]:
    """`load_script(path)`: the Python script at `path` as a module (see `_load_script`)."""
    return _load_script
