"""Shared test setup: single-threaded torch, and the installed-package guard.

The tests import `spacy_senna` from wherever it is installed (pytest runs with
`--import-mode=importlib`, so nothing puts the repository on sys.path). With
SPACY_SENNA_TEST_INSTALLED=1 (CI sets it) the run stops at once when `spacy_senna` comes
from inside the repository, e.g. because `python -m pytest` put the current directory first
on sys.path: CI tests the built wheel, not the source tree.
"""

import os
from pathlib import Path

import pytest
import torch

import spacy_senna

REPOSITORY = Path(__file__).resolve().parent.parent

torch.set_num_threads(1)


def pytest_report_header(config: pytest.Config) -> str:
    return f"spacy_senna {spacy_senna.__version__} from {Path(spacy_senna.__file__).parent}"


def pytest_configure(config: pytest.Config) -> None:
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
