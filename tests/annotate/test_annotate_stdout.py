"""`annotate [PIPELINE] [INPUT...]` without --output: SENNA's habit of text in, columns out
on stdout, the pipeline named first or with --pipeline (default: the bundled en_senna)."""

import io
import sys

import pytest

from spacy_senna.bundled import BUNDLED_NAME
from spacy_senna.cli import main
from spacy_senna.commands.annotate import pipeline_and_inputs

TEXT = "John Smith visited Paris today.\nMary saw the big house in Berlin.\n"


def test_pipeline_and_inputs(pipeline_dir, tmp_path):
    text = tmp_path / "a.txt"
    text.write_text(TEXT)
    assert pipeline_and_inputs(None, []) == (BUNDLED_NAME, ["-"])
    assert pipeline_and_inputs(None, [str(text)]) == (BUNDLED_NAME, [str(text)])
    assert pipeline_and_inputs(None, [str(pipeline_dir), str(text)]) == (
        str(pipeline_dir),
        [str(text)],
    )
    assert pipeline_and_inputs(None, [str(pipeline_dir)]) == (str(pipeline_dir), ["-"])
    assert pipeline_and_inputs(None, [BUNDLED_NAME, "-"]) == (BUNDLED_NAME, ["-"])
    # --pipeline given: every positional is an input
    assert pipeline_and_inputs("p", [str(pipeline_dir)]) == ("p", [str(pipeline_dir)])


def test_stdout_equals_the_shard_output(run_cli, pipeline_dir, write, tmp_path, capsysbinary):
    text = write("a.txt", TEXT)
    out = tmp_path / "out"
    assert run_cli(pipeline_dir, text, "--output", out) == 0
    capsysbinary.readouterr()
    assert run_cli(pipeline_dir, text) == 0
    printed = capsysbinary.readouterr()
    assert printed.out == (out / "a.txt.00000.senna").read_bytes()
    assert printed.out.split(b"\n")[0].split() == [
        b"John",
        b"NNP",
        b"B-NP",
        b"B-PER",
        b"-",
        b"B-A0",
    ]
    assert b"Annotated 2 docs" in printed.err  # the summary goes to stderr


def test_stdin_to_stdout_in_input_order(run_cli, pipeline_dir, write, monkeypatch, capsysbinary):
    first = write("1.txt", "Mary saw the big house in Berlin.\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode("utf8"))))
    assert run_cli("--pipeline", pipeline_dir, first, "-", "--format", "conll") == 0
    printed = capsysbinary.readouterr().out.decode("utf8")
    sentences = [block.split("\n")[0].split("\t")[0] for block in printed.strip().split("\n\n")]
    assert sentences == ["Mary", "John", "Mary"]


def test_missing_pipeline_is_named(tmp_path, capsys):
    text = tmp_path / "a.txt"
    text.write_text(TEXT)
    with pytest.raises(SystemExit) as exit:
        main(["annotate", "--pipeline", str(tmp_path / "nowhere"), str(text)])
    assert exit.value.code == 1
    assert "nowhere" in capsys.readouterr().err
