"""`nearest-neighbours`: the k nearest words of each query in a vectors pipeline, and a
file, directory or missing path that is no pipeline as one line."""

import numpy

from spacy_senna import cli
from spacy_senna.lm.vectors_pipeline import write_vectors


def test_nearest_neighbours_prints_one_line_per_query(tmp_path, capsys):
    words = ["the", "dog", "cat", "fox", "cow", "in"]
    table = numpy.random.default_rng(0).normal(size=(len(words), 5)).astype("float32")
    write_vectors(words, table, tmp_path / "vectors", name="t")
    cli.main(["nearest-neighbours", str(tmp_path / "vectors"), "Dog", "zzz", "--k", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dog (rank ") and lines[0].count("(") == 4
    assert lines[1] == "zzz: (no vector)"


def test_nearest_neighbours_errors(capsys, tmp_path, afile, fail_line):
    assert str(afile) in fail_line(capsys, "nearest-neighbours", afile)
    assert str(tmp_path) in fail_line(capsys, "nearest-neighbours", tmp_path)
    missing = tmp_path / "missing"
    assert str(missing) in fail_line(capsys, "nearest-neighbours", missing)
