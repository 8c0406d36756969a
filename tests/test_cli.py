"""CLI errors: one `✘ FILE: PROBLEM` line on stderr and exit code 1, never a traceback,
for every command; unexpected errors keep their traceback. (Each command's own errors are
tested in tests/commands/.)"""

import json
import os
import subprocess
import sys

import pytest

from spacy_senna.cli import main
from spacy_senna.commands import convert as convert_command


@pytest.mark.parametrize(
    "command",
    [
        ["convert", "{input}", "{out}", "-c", "conll2000"],
        ["score", "conll", "{input}"],
        ["split-dev", "{input}", "{out}"],
        ["build-gazetteer", "{input}", "{out}"],
    ],
)
def test_unreadable_input(capsys, tmp_path, conll, command, fail_line):
    conll.chmod(0o000)
    if os.access(conll, os.R_OK):
        pytest.skip("permissions are not enforced for this user (root)")
    argv = [arg.format(input=conll, out=tmp_path / "out") for arg in command]
    assert fail_line(capsys, *argv) == f"✘ {conll}: permission denied"


def _broken_converter(path, vocab):
    json.loads("{")  # a ValueError raised inside a library: a bug, not a user error
    yield


def test_unexpected_errors_keep_their_traceback(monkeypatch, conll, tmp_path):
    monkeypatch.setitem(convert_command.CONVERTERS, "conll2000", _broken_converter)
    with pytest.raises(json.JSONDecodeError):
        main(["convert", str(conll), str(tmp_path / "out"), "-c", "conll2000"])


def test_end_to_end_error_is_one_line(tmp_path, conll, afile):
    result = subprocess.run(
        [sys.executable, "-m", "spacy_senna", "convert", str(conll), str(afile), "-c", "conll2000"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == f"✘ {afile}: exists and is not a directory\n"
    assert result.stdout == ""
