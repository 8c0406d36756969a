"""Errors of the LM commands (`pretrain-lm`, `nearest-neighbours`, `import-vectors`): one
`✘ FILE: PROBLEM` line on stderr and exit code 1, never a traceback."""

import gzip

import numpy
import pytest
import spacy
import torch

from spacy_senna.cli import main
from spacy_senna.lm.vectors_pipeline import read_vectors, write_vectors

TINY_RUN = ["--max-words", "64", "--batch-size", "32", "--validation-words", "8"]
TINY_RUN += ["--vocab-size", "6", "--threads", "1", "--device", "cpu", "--quiet"]


@pytest.fixture
def text(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text("the cat sees a dog .\na dog sees the cat .\n" * 20, encoding="utf8")
    return path


@pytest.fixture
def vectors_text(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("2 3\nthe 0.1 0.2 0.3\ncat 0.4 0.5 0.6\n", encoding="utf8")
    return path


@pytest.fixture
def vectors_dir(tmp_path):
    path = tmp_path / "vectors"
    write_vectors(["the", "cat", "dog"], numpy.eye(3, dtype="float32"), path, name="t")
    return path


# inputs and outputs of every command

COMMANDS = {
    "pretrain-lm": ["pretrain-lm", "{input}", "{out}", *TINY_RUN],
    "import-vectors": ["import-vectors", "{input}", "{out}"],
}


def _argv(command, input, out):
    return [str(arg).format(input=input, out=out) for arg in COMMANDS[command]]


@pytest.mark.parametrize("command", COMMANDS)
def test_missing_input(capsys, tmp_path, command, fail_line):
    missing = tmp_path / "missing.txt"
    out = tmp_path / "out"
    assert fail_line(capsys, *_argv(command, missing, out)) == f"✘ {missing}: file not found"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_directory_input(capsys, tmp_path, command, fail_line):
    folder = tmp_path / "folder"
    folder.mkdir()
    line = fail_line(capsys, *_argv(command, folder, tmp_path / "out"))
    assert line == f"✘ {folder}: is a directory, expected a file"


@pytest.mark.parametrize("command", COMMANDS)
def test_unreadable_input(capsys, tmp_path, text, command, fail_line, unreadable):
    unreadable(text)
    line = fail_line(capsys, *_argv(command, text, tmp_path / "out"))
    assert line == f"✘ {text}: permission denied"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_binary_input(capsys, tmp_path, command, fail_line):
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"2 3\n" + bytes(range(256)) * 10)
    line = fail_line(capsys, *_argv(command, binary, tmp_path / "out"))
    assert line.startswith(f"✘ {binary}: does not look like UTF-8 text (binary data")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_truncated_gzip_input(capsys, tmp_path, text, vectors_text, command, fail_line):
    source = text if command == "pretrain-lm" else vectors_text
    data = gzip.compress(source.read_bytes() * 50)
    truncated = tmp_path / "truncated.txt.gz"
    truncated.write_bytes(data[: len(data) // 2])
    line = fail_line(capsys, *_argv(command, truncated, tmp_path / "out"))
    assert line.startswith(f"✘ {truncated}: cannot read gzip data: ")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_output_is_a_file(capsys, text, vectors_text, afile, command, fail_line):
    source = text if command == "pretrain-lm" else vectors_text
    line = fail_line(capsys, *_argv(command, source, afile))
    assert line == f"✘ {afile}: exists and is not a directory"
    line = fail_line(capsys, *_argv(command, source, afile / "out"))
    assert line == f"✘ {afile / 'out'}: cannot create it: {afile} is not a directory"
    assert afile.read_text(encoding="utf8") == "not a directory\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_output_in_an_unwritable_directory(
    capsys, tmp_path, text, vectors_text, command, fail_line, unwritable
):
    source = text if command == "pretrain-lm" else vectors_text
    locked = unwritable(tmp_path / "locked")
    try:
        line = fail_line(capsys, *_argv(command, source, locked / "out"))
    finally:
        locked.chmod(0o700)
    written = locked / ("out.checkpoints" if command == "pretrain-lm" else "out")
    assert line == f"✘ {written}: permission denied"
    assert list(locked.iterdir()) == []


# pretrain-lm


@pytest.fixture
def checkpoint(tmp_path, text):
    """The checkpoint of a finished tiny run writing to tmp_path/out."""
    main(["pretrain-lm", str(text), str(tmp_path / "out"), *TINY_RUN])
    return tmp_path / "out.checkpoints" / "checkpoint.pt"


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_input_without_words(capsys, tmp_path, fail_line, content):
    empty = tmp_path / "empty.txt"
    empty.write_text(content, encoding="utf8")
    line = fail_line(capsys, "pretrain-lm", empty, tmp_path / "new" / "out", *TINY_RUN)
    assert line == f"✘ {empty}: the input text has no words for training"
    assert [p.name for p in tmp_path.iterdir()] == ["empty.txt"]  # nothing was trained


def test_resume_without_checkpoint(capsys, tmp_path, text, fail_line):
    out = tmp_path / "out"
    line = fail_line(capsys, "pretrain-lm", text, out, *TINY_RUN, "--resume")
    checkpoint = tmp_path / "out.checkpoints" / "checkpoint.pt"
    assert line == (
        f"✘ {checkpoint}: no checkpoint to resume (run without --resume to start afresh)"
    )


def test_resume_with_other_settings(capsys, tmp_path, text, checkpoint, fail_line):
    out = tmp_path / "out"
    line = fail_line(capsys, "pretrain-lm", text, out, *TINY_RUN, "--resume", "--negatives", "4")
    assert line.startswith(
        f"✘ {checkpoint}: cannot resume: it was trained with different settings "
        "(negatives: checkpoint 8, now 4)"
    )


@pytest.mark.parametrize("damage", ["empty", "garbage", "truncated", "zeroed"])
def test_resume_from_a_damaged_checkpoint(capsys, tmp_path, text, checkpoint, damage, fail_line):
    data = checkpoint.read_bytes()
    checkpoint.write_bytes(
        {
            "empty": b"",
            "garbage": b"garbage\n",
            "truncated": data[: len(data) // 2],
            "zeroed": data[:100] + bytes(len(data) - 100),
        }[damage]
    )
    line = fail_line(capsys, "pretrain-lm", text, tmp_path / "out", *TINY_RUN, "--resume")
    assert line == (
        f"✘ {checkpoint}: cannot resume: not a readable checkpoint (damaged or truncated); "
        "run without --resume to start afresh"
    )


def test_resume_from_an_incomplete_or_foreign_checkpoint(
    capsys, tmp_path, text, checkpoint, fail_line
):
    saved = torch.load(checkpoint, weights_only=True)
    del saved["model"], saved["sampler"]
    torch.save(saved, checkpoint)
    line = fail_line(capsys, "pretrain-lm", text, tmp_path / "out", *TINY_RUN, "--resume")
    assert line == (
        f"✘ {checkpoint}: cannot resume: an incomplete checkpoint (no model, sampler); "
        "run without --resume to start afresh"
    )
    torch.save(torch.ones(3), checkpoint)
    line = fail_line(capsys, "pretrain-lm", text, tmp_path / "out", *TINY_RUN, "--resume")
    assert line == (
        f"✘ {checkpoint}: cannot resume: not a pretrain-lm checkpoint; "
        "run without --resume to start afresh"
    )
    checkpoint.unlink()
    checkpoint.mkdir()
    line = fail_line(capsys, "pretrain-lm", text, tmp_path / "out", *TINY_RUN, "--resume")
    assert line == f"✘ {checkpoint}: is a directory, expected a file"


def test_resume_with_a_damaged_corpus_cache(capsys, tmp_path, text, checkpoint):
    """The encoded corpus is a cache: damaged, it is encoded again and the run goes on
    exactly as without the damage."""
    meta = tmp_path / "out.checkpoints" / "corpus" / "meta.json"
    meta.write_text('{"format": 1, "inputs"', encoding="utf8")
    more = [*TINY_RUN, "--max-words", "128"]
    main(["pretrain-lm", str(text), str(tmp_path / "out"), *more, "--resume"])
    err = capsys.readouterr().err
    assert err.startswith(f"⚠ {meta}: damaged encoded corpus (") and "✘" not in err
    main(["pretrain-lm", str(text), str(tmp_path / "straight"), *more])
    resumed, straight = read_vectors(tmp_path / "out"), read_vectors(tmp_path / "straight")
    assert resumed[0] == straight[0]
    numpy.testing.assert_array_equal(resumed[1], straight[1])


# nearest-neighbours


def test_neighbours_of_a_missing_directory(capsys, tmp_path, fail_line):
    missing = tmp_path / "missing"
    line = fail_line(capsys, "nearest-neighbours", missing, "cat")
    assert line == f"✘ {missing}: pipeline directory not found"


def test_neighbours_of_a_file(capsys, afile, fail_line):
    line = fail_line(capsys, "nearest-neighbours", afile, "cat")
    assert line == f"✘ {afile}: expected a pipeline directory"


def test_neighbours_of_a_directory_without_config(capsys, tmp_path, fail_line):
    line = fail_line(capsys, "nearest-neighbours", tmp_path, "cat")
    assert line == f"✘ {tmp_path}: not a spaCy pipeline directory (no config.cfg)"


def test_neighbours_without_vectors(capsys, tmp_path, fail_line):
    spacy.blank("en").to_disk(tmp_path / "blank")
    line = fail_line(capsys, "nearest-neighbours", tmp_path / "blank", "cat")
    assert line == f"✘ {tmp_path / 'blank'}: the pipeline has no word vectors"


@pytest.mark.parametrize("name", ["config.cfg", "vocab/vectors"])
def test_neighbours_with_an_unreadable_file(capsys, vectors_dir, name, fail_line, unreadable):
    locked = unreadable(vectors_dir / name)
    line = fail_line(capsys, "nearest-neighbours", vectors_dir, "cat")
    assert line == f"✘ {locked}: permission denied"


@pytest.mark.parametrize(
    "name,content,problem",
    [
        ("config.cfg", b"garbage [[[\n", "not a valid pipeline config (File contains no section"),
        ("config.cfg", b"\xff\xfe\x00", "not a valid pipeline config ('utf-8' codec can't"),
        ("config.cfg", b"[paths]\n", "not a pipeline config (no [nlp] section)"),
        ("meta.json", b"{", "damaged or not a spaCy data file ("),
        ("vocab/strings.json", b"", "damaged or not a spaCy data file ("),
        ("vocab/key2row", b"junk\n", "damaged or not a spaCy data file ("),
        ("vocab/vectors", b"junk\n", "damaged or not a spaCy data file ("),
        ("vocab/vectors", b"", "damaged or not a spaCy data file (No data left in file)"),
    ],
)
def test_neighbours_of_a_damaged_pipeline(capsys, vectors_dir, name, content, problem, fail_line):
    (vectors_dir / name).write_bytes(content)
    line = fail_line(capsys, "nearest-neighbours", vectors_dir, "cat")
    assert line.startswith(f"✘ {vectors_dir / name}: {problem}")


def test_neighbours_of_a_truncated_pipeline(capsys, vectors_dir, fail_line):
    config = vectors_dir / "config.cfg"
    text = config.read_text(encoding="utf8")
    config.write_text(text[: text.index("@vectors")], encoding="utf8")
    line = fail_line(capsys, "nearest-neighbours", vectors_dir, "cat")
    assert line == f"✘ {config}: not a valid pipeline config (vectors: Input should be callable)"
    config.write_text(text[: text.index("[initialize]")] + "[nlp]\n", encoding="utf8")
    line = fail_line(capsys, "nearest-neighbours", vectors_dir, "cat")
    assert line.startswith(f"✘ {config}: not a valid pipeline config (While reading from ")
    vectors = vectors_dir / "vocab" / "vectors"
    config.write_text(text, encoding="utf8")
    numpy.save(vectors.open("wb"), numpy.ones((2, 3), dtype="float32"))
    line = fail_line(capsys, "nearest-neighbours", vectors_dir, "cat")
    assert line == (
        f"✘ {vectors_dir / 'vocab'}: the vector table (shape (2, 3)) does not match its keys "
        "(rows up to 2)"
    )


# import-vectors


@pytest.mark.parametrize(
    "content,problem",
    [
        ("the 0.1 0.2\nof 0.3\n", ":2: 1 values where 2 were expected"),
        ("the 0.1 0.2\nof\n", ":2: a word without values"),
        ("the 0.1 0.2\nof 0.3 x\n", ":2: 'x' is not a number"),
        ("the 0.1 0.2\n\nThe 0.3 zero\n", ":3: 'zero' is not a number"),
        ("the 0.1 0.2\nof 0.3 nan\n", ":2: 'nan' is not a finite float32 number"),
        ("the 0.1 0.2\nof 1e39 0\n", ":2: '1e39' is not a finite float32 number"),
        ("the 0.1 0.2\nof 0.3  0.4\n", ":2: an empty value (two spaces in a row)"),
        ("2 3\nthe 0.1 0.2 0.3 0.4\nof 0 0 0\n", ":2: 4 values, the header announces 3"),
        ("2 3\nthe 0.1 0.2\nof 0 0\n", ":2: 2 values, the header announces 3"),
        ("2 0\nthe\n", ":1: the header announces 0 dimensions"),
        ("3 2\nthe 0.1 0.2\nof 0.3 0.4\n", ": the header announces 3 vectors, the file has 2"),
        ("\n\n", ": contains no word vectors"),
    ],
)
def test_malformed_text_vectors(capsys, tmp_path, content, problem, fail_line):
    path = tmp_path / "vectors.txt"
    path.write_text(content, encoding="utf8")
    line = fail_line(capsys, "import-vectors", path, tmp_path / "out")
    assert line.startswith(f"✘ {path}{problem}")
    assert not (tmp_path / "out").exists()


def test_more_rows_than_the_header_announces(capsys, tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("1 2\nthe 0.1 0.2\nof 0.3 0.4\n", encoding="utf8")
    main(["import-vectors", str(path), str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert f"⚠ {path}: the header announces 1 vectors, the file has 2." in err
    assert read_vectors(tmp_path / "out")[0] == ["the", "of"]


# option values


@pytest.mark.parametrize(
    "command,line",
    [
        (
            ["pretrain-lm", "{text}", "{out}", *TINY_RUN, "--device", "nowhere"],
            "✘ The torch device 'nowhere' cannot be used: Expected one of cpu, cuda",
        ),
        (["pretrain-lm", "{text}", "{out}", *TINY_RUN, "--threads", "-1"], "✘ threads must not"),
        (["nearest-neighbours", "{vectors_dir}", "cat", "--k", "0"], "✘ --k must be at least 1"),
        (["import-vectors", "{vectors_text}", "{out}", "--max-words", "-1"], "✘ --max-words must"),
    ],
)
def test_bad_option_values(
    capsys, tmp_path, text, vectors_dir, vectors_text, command, line, fail_line
):
    paths = {"text": text, "vectors_dir": vectors_dir, "vectors_text": vectors_text}
    argv = [arg.format(out=tmp_path / "out", **paths) for arg in command]
    assert fail_line(capsys, *argv).startswith(line)
    assert not (tmp_path / "out").exists()
