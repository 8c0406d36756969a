"""Reading a command's .spacy input: a corrupt, missing or directory corpus is one line
naming it."""

import pytest


@pytest.mark.parametrize("command", [["split-dev"], ["build-gazetteer"]])
def test_corrupt_corpus_is_named(capsys, tmp_path, corrupt, command, fail_line):
    line = fail_line(capsys, *command, corrupt, tmp_path / "out")
    assert line == f"✘ {corrupt}: not a .spacy (DocBin) file, or a truncated or corrupt one"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", [["split-dev"], ["build-gazetteer"]])
def test_missing_or_directory_corpus(capsys, tmp_path, command, fail_line):
    missing = tmp_path / "missing.spacy"
    assert fail_line(capsys, *command, missing, tmp_path / "o") == f"✘ {missing}: file not found"
    assert fail_line(capsys, *command, tmp_path, tmp_path / "o") == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
