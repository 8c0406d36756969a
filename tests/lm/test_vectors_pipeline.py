"""Vectors pipeline directories: written atomically, read back in row order."""

import numpy

from spacy_senna.lm.vectors_pipeline import read_vectors, write_vectors


def test_write_vectors_replaces_atomically(tmp_path):
    out = tmp_path / "v"
    write_vectors(["a", "b"], numpy.eye(2, dtype="float32"), out, name="t")
    write_vectors(["c"], numpy.ones((1, 2), dtype="float32"), out, name="t")
    assert read_vectors(out)[0] == ["c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v"]
