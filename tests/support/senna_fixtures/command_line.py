"""The command line: a one-line failure, an input file, unreadable and unwritable paths, a
full disk, the files a command leaves."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spacy_senna.cli import main

# the command line: a one-line failure, an input file, a file in the way of an output

CLI_CONLL2000 = (
    "The DT B-NP\ncat NN I-NP\nsat VBD B-VP\n\nGo VB B-VP\n\nDogs NNS B-NP\nbark VBP B-VP\n"
)


def _fail_line(capsys, *argv) -> str:
    """Run the CLI, expecting exit code 1; return its one `✘` line (warnings may precede it)."""
    with pytest.raises(SystemExit) as exc:
        main([str(arg) for arg in argv])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert [line for line in lines if line.startswith("✘")] == lines[-1:], err
    return lines[-1]


@pytest.fixture
def fail_line():
    """`fail_line(capsys, *argv)`: run the CLI, expecting exit code 1 and no traceback;
    return its one `✘` line."""
    return _fail_line


@pytest.fixture
def conll(tmp_path):
    """train.txt: three sentences in the CoNLL-2000 format."""
    path = tmp_path / "train.txt"
    path.write_text(CLI_CONLL2000, encoding="utf8")
    return path


def _unreadable(path):
    path.chmod(0o000)
    if os.access(path, os.R_OK):
        path.chmod(0o600)
        pytest.skip("permissions are not enforced for this user (root)")
    return path


def _unwritable(directory):
    directory.mkdir()
    directory.chmod(0o500)
    if os.access(directory, os.W_OK):
        directory.chmod(0o700)
        pytest.skip("permissions are not enforced for this user (root)")
    return directory


@pytest.fixture(scope="session")
def unreadable():
    """`unreadable(path)`: the file made unreadable (the test skips where root reads anyway)."""
    return _unreadable


@pytest.fixture(scope="session")
def unwritable():
    """`unwritable(directory)`: the directory created read-only (skips for root)."""
    return _unwritable


# a full disk: the command runs in a process whose files may not grow past a limit

_FILE_SIZE_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit raises EFBIG
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from spacy_senna.cli import main
main(sys.argv[2:])
"""


def _cli_with_file_size_limit(limit: int, *argv, cwd: Path) -> subprocess.CompletedProcess:
    """Run the CLI in a process that cannot write files larger than `limit` bytes."""
    command = [sys.executable, "-c", _FILE_SIZE_LIMITED, str(limit), *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def cli_with_file_size_limit():
    """`cli_with_file_size_limit(limit, *argv, cwd=DIR)`: run the CLI in a subprocess
    whose writes past `limit` bytes fail with EFBIG, as on a full disk; returns the
    CompletedProcess (text output). Run it outside the checkout (`cwd`), so that it
    imports the installed spacy_senna."""
    return _cli_with_file_size_limit


def _files_under(directory: Path) -> set:
    """The relative paths of every file and directory under `directory`."""
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*")}


@pytest.fixture(scope="session")
def all_files():
    """`all_files(directory)`: the relative paths of everything under it."""
    return _files_under


@pytest.fixture
def afile(tmp_path):
    """A plain file where a command may expect a directory."""
    path = tmp_path / "afile"
    path.write_text("not a directory\n", encoding="utf8")
    return path
