"""Importing word2vec/GloVe text vectors, re-keyed by the normalised word."""

import numpy
import pytest

from spacy_senna.lm.text_vectors import import_text_vectors
from spacy_senna.lm.vectors_pipeline import read_vectors


def test_import_vectors_rekeys_by_normalized_word(tmp_path):
    text = tmp_path / "vec.txt"
    text.write_text(
        "5 3\nParis 1 0 0 \nparis 2 0 0 \nPS2 0 1 0 \nps3 0 2 0 \nnew york 0 0 1 \n",
        encoding="utf8",
    )
    stats = import_text_vectors(text, tmp_path / "vec")
    assert stats == {"rows": 3, "dim": 3, "lines": 5, "merged": 2}
    words, table = read_vectors(tmp_path / "vec")
    assert words == ["paris", "ps0", "new york"]
    numpy.testing.assert_array_equal(table[:2], [[1, 0, 0], [0, 1, 0]])  # first form wins
    glove = tmp_path / "glove.txt"
    glove.write_text("the 0.1 0.2\nThe 0.3 0.4\nof 0.5\n", encoding="utf8")
    with pytest.raises(ValueError, match="glove.txt:3: 1 values where 2 were expected"):
        import_text_vectors(glove, tmp_path / "g")
    binary = tmp_path / "vectors.bin"
    binary.write_bytes(b"2 3\n" + bytes(range(256)))
    with pytest.raises(ValueError, match="does not look like UTF-8"):
        import_text_vectors(binary, tmp_path / "g")
    assert not (tmp_path / "g").exists()
