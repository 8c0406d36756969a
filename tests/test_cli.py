"""CLI errors: one `✘ FILE: PROBLEM` line on stderr and exit code 1, never a traceback;
outputs are replaced only by complete files."""

import errno
import json
import os
import subprocess
import sys

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from spacy_senna.cli import main
from spacy_senna.commands import convert as convert_command

CONLL2000 = "The DT B-NP\ncat NN I-NP\nsat VBD B-VP\n\nGo VB B-VP\n\nDogs NNS B-NP\nbark VBP B-VP\n"


def fail_line(capsys, *argv) -> str:
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
def conll(tmp_path):
    path = tmp_path / "train.txt"
    path.write_text(CONLL2000, encoding="utf8")
    return path


@pytest.fixture
def afile(tmp_path):
    path = tmp_path / "afile"
    path.write_text("not a directory\n", encoding="utf8")
    return path


@pytest.fixture
def corpus(tmp_path):
    """A .spacy file of 10 Docs, each with a PER entity."""
    vocab = Vocab()
    docs = []
    for i in range(10):
        doc = Doc(vocab, words=["Ann", f"w{i}"])
        doc.ents = [Span(doc, 0, 1, label="PER")]
        docs.append(doc)
    path = tmp_path / "corpus.spacy"
    DocBin(docs=docs).to_disk(path)
    return path


@pytest.fixture(params=["garbage", "truncated"])
def corrupt(request, tmp_path, corpus):
    path = tmp_path / f"{request.param}.spacy"
    data = corpus.read_bytes()
    path.write_bytes(b"garbage\n" if request.param == "garbage" else data[: len(data) // 2])
    return path


def _unwritable(directory):
    directory.mkdir()
    directory.chmod(0o500)
    if os.access(directory, os.W_OK):
        directory.chmod(0o700)
        pytest.skip("permissions are not enforced for this user (root)")
    return directory


def _disk_full_after_half(monkeypatch, cls, method):
    """Make `cls.method(path)` write half of its output, then fail like a full disk."""
    original = getattr(cls, method)

    def half_write(self, path, *args, **kwargs):
        original(self, path, *args, **kwargs)
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cls, method, half_write)


# convert


def test_convert_into_a_file(capsys, conll, afile):
    line = fail_line(capsys, "convert", conll, afile, "-c", "conll2000")
    assert line == f"✘ {afile}: exists and is not a directory"


def test_convert_under_a_file(capsys, conll, afile):
    line = fail_line(capsys, "convert", conll, afile / "out", "-c", "conll2000")
    assert line == f"✘ {afile / 'out'}: cannot create it: {afile} is not a directory"


def test_convert_into_an_unwritable_directory(capsys, tmp_path, conll):
    locked = _unwritable(tmp_path / "locked")
    try:
        line = fail_line(capsys, "convert", conll, locked, "-c", "conll2000")
    finally:
        locked.chmod(0o700)
    assert line == f"✘ {locked / 'train.spacy'}: permission denied"
    assert list(locked.iterdir()) == []


def test_convert_onto_a_directory(capsys, tmp_path, conll):
    (tmp_path / "out" / "train.spacy").mkdir(parents=True)
    line = fail_line(capsys, "convert", conll, tmp_path / "out", "-c", "conll2000")
    assert line == f"✘ {tmp_path / 'out' / 'train.spacy'}: is a directory, expected a file"


def test_convert_failing_half_way_keeps_the_old_output(capsys, monkeypatch, tmp_path, conll):
    out = tmp_path / "out"
    main(["convert", str(conll), str(out), "-c", "conll2000", "-n", "3"])
    old = (out / "train.spacy").read_bytes()
    _disk_full_after_half(monkeypatch, DocBin, "to_disk")
    line = fail_line(capsys, "convert", conll, out, "-c", "conll2000")
    assert line == f"✘ {out / 'train.spacy'}: no space left on device"
    assert sorted(p.name for p in out.iterdir()) == ["train.spacy"]
    assert (out / "train.spacy").read_bytes() == old
    assert len(list(DocBin().from_disk(out / "train.spacy").get_docs(Vocab()))) == 1


@pytest.mark.parametrize(
    "content,problem",
    [
        (b"The DT B-NP\n\xff\xfe NN I-NP\n", ":2: expected UTF-8 text"),
        (b"The DT B-NP\ncat NN\n", ":2: expected 3 space-separated columns"),
        (b"\x00\x01\x02binary", ":1: expected a text file, found binary data"),
    ],
)
def test_convert_garbled_input(capsys, tmp_path, content, problem):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    line = fail_line(capsys, "convert", path, tmp_path / "out", "-c", "conll2000")
    assert line.startswith(f"✘ {path}{problem}")
    assert not (tmp_path / "out" / "bad.spacy").exists()


def test_convert_missing_or_directory_input(capsys, tmp_path):
    missing = tmp_path / "missing.txt"
    assert fail_line(capsys, "convert", missing, tmp_path, "-c", "conll2000") == (
        f"✘ {missing}: file not found"
    )
    assert fail_line(capsys, "convert", tmp_path, tmp_path, "-c", "conll2000") == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["convert", "{input}", "{out}", "-c", "conll2000"],
        ["score", "conll", "{input}"],
        ["split-dev", "{input}", "{out}"],
        ["build-gazetteer", "{input}", "{out}"],
    ],
)
def test_unreadable_input(capsys, tmp_path, conll, command):
    conll.chmod(0o000)
    if os.access(conll, os.R_OK):
        pytest.skip("permissions are not enforced for this user (root)")
    argv = [arg.format(input=conll, out=tmp_path / "out") for arg in command]
    assert fail_line(capsys, *argv) == f"✘ {conll}: permission denied"


# split-dev and build-gazetteer


@pytest.mark.parametrize("command", [["split-dev"], ["build-gazetteer"]])
def test_corrupt_corpus_is_named(capsys, tmp_path, corrupt, command):
    line = fail_line(capsys, *command, corrupt, tmp_path / "out")
    assert line == f"✘ {corrupt}: not a .spacy (DocBin) file, or a truncated or corrupt one"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", [["split-dev"], ["build-gazetteer"]])
def test_missing_or_directory_corpus(capsys, tmp_path, command):
    missing = tmp_path / "missing.spacy"
    assert fail_line(capsys, *command, missing, tmp_path / "o") == f"✘ {missing}: file not found"
    assert fail_line(capsys, *command, tmp_path, tmp_path / "o") == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )


def test_split_dev_outputs(capsys, monkeypatch, tmp_path, corpus, afile):
    assert fail_line(capsys, "split-dev", corpus, afile) == (
        f"✘ {afile}: exists and is not a directory"
    )
    out = tmp_path / "out"
    main(["split-dev", str(corpus), str(out), "--fraction", "0.5"])
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    _disk_full_after_half(monkeypatch, DocBin, "to_disk")
    line = fail_line(capsys, "split-dev", corpus, out, "--fraction", "0.2")
    assert line == f"✘ {out / 'train.spacy'}: no space left on device"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old  # both old files intact


def test_build_gazetteer_outputs(capsys, monkeypatch, tmp_path, corpus, afile):
    assert fail_line(capsys, "build-gazetteer", corpus, tmp_path) == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
    assert fail_line(capsys, "build-gazetteer", corpus, afile / "g.lst") == (
        f"✘ {afile / 'g.lst'}: cannot create it: {afile} is not a directory"
    )
    output = tmp_path / "g.lst"
    output.write_text("MISC old\n", encoding="utf8")

    def fail(self, data, encoding=None, errors=None, newline=None):
        with self.open("w", encoding=encoding) as stream:
            stream.write(data[:3])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(type(output), "write_text", fail)
    line = fail_line(capsys, "build-gazetteer", corpus, output)
    assert line == f"✘ {output}: no space left on device"
    assert output.read_text(encoding="utf8") == "MISC old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "corpus.spacy", "g.lst"]


# score


@pytest.mark.parametrize("delimiter", ["[", "(", "a{2,1}"])
def test_score_invalid_regex(capsys, conll, delimiter):
    line = fail_line(capsys, "score", "conll", "-d", delimiter, conll)
    assert line.startswith(f"✘ -d {delimiter}: not a valid regular expression (")


def test_score_inputs(capsys, tmp_path):
    missing = tmp_path / "missing.txt"
    assert fail_line(capsys, "score", "conll", missing) == f"✘ {missing}: file not found"
    assert fail_line(capsys, "score", "conll", tmp_path) == (
        f"✘ {tmp_path}: is a directory, expected a file"
    )
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("a B-NP B-NP\nb\n", encoding="utf8")
    assert fail_line(capsys, "score", "conll", garbled).startswith(f"✘ {garbled}:2: ")


# the LM commands


@pytest.fixture
def text_vectors(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("the 0.1 0.2\ncat 0.3 0.4\n", encoding="utf8")
    return path


def test_import_vectors_errors(capsys, tmp_path, text_vectors, afile):
    missing = tmp_path / "missing.txt"
    assert str(missing) in fail_line(capsys, "import-vectors", missing, tmp_path / "v")
    assert str(tmp_path) in fail_line(capsys, "import-vectors", tmp_path, tmp_path / "v")
    garbled = tmp_path / "garbled.txt"
    garbled.write_text("the 0.1 0.2\ncat 0.3\n", encoding="utf8")
    assert str(garbled) in fail_line(capsys, "import-vectors", garbled, tmp_path / "v")
    assert str(afile) in fail_line(capsys, "import-vectors", text_vectors, afile)
    assert fail_line(capsys, "import-vectors", text_vectors, afile / "v") == (
        f"✘ {afile / 'v'}: cannot create it: {afile} is not a directory"
    )


def test_import_vectors_failing_half_way_keeps_the_old_output(
    capsys, monkeypatch, tmp_path, text_vectors
):
    out = tmp_path / "vectors"
    main(["import-vectors", str(text_vectors), str(out)])
    old = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _disk_full_after_half(monkeypatch, spacy.Language, "to_disk")
    line = fail_line(capsys, "import-vectors", text_vectors, out)
    assert line == f"✘ {out}: no space left on device"
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vectors", "vectors.txt"]


def test_pretrain_lm_errors(capsys, tmp_path, afile):
    text = tmp_path / "text.txt"
    text.write_text("a b c\n", encoding="utf8")
    missing = tmp_path / "missing.txt"
    assert str(missing) in fail_line(capsys, "pretrain-lm", missing, tmp_path / "lm", "--quiet")
    line = fail_line(capsys, "pretrain-lm", text, afile / "lm", "--quiet")
    assert line.startswith(f"✘ {afile / 'lm'}") and f"{afile} is not a directory" in line


def test_nearest_neighbours_errors(capsys, tmp_path, afile):
    assert str(afile) in fail_line(capsys, "nearest-neighbours", afile)
    assert str(tmp_path) in fail_line(capsys, "nearest-neighbours", tmp_path)
    missing = tmp_path / "missing"
    assert str(missing) in fail_line(capsys, "nearest-neighbours", missing)


# unexpected errors


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
