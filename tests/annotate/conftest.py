"""Helpers to write the annotate tests' input files (their trained pipeline,
`pipeline_dir`, is in tests/conftest.py)."""

import pytest


@pytest.fixture
def write(tmp_path):
    """write(name, text or bytes) -> path of a new input file under tmp_path/inputs."""

    def _write(name, content):
        path = tmp_path / "inputs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf8")
        path.write_bytes(content)
        return path

    return _write


@pytest.fixture
def run_cli():
    """run_cli(*args) runs `annotate ARGS` in this process and returns its exit status."""
    from spacy_senna.cli import main

    def _run(*args):
        try:
            main(["annotate", *map(str, args)])
        except SystemExit as exit:
            return exit.code
        return 0

    return _run
