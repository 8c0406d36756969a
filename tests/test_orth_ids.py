"""OrthIds: a featurizer's per-word id rows, read for a batch's distinct words at once."""

import numpy

from spacy_senna.features.orth_ids import OrthIds


def _rows_of(orths):
    return [[int(o) % 97, int(o) % 89] for o in orths.tolist()]


def test_rows_are_computed_once_per_orth_and_read_back_in_order():
    table = OrthIds()
    asked = []

    def compute(orths):
        asked.append(orths.tolist())
        return _rows_of(orths)

    big = 2**64 - 5  # spaCy's orths are uint64 hashes, often past int64
    first = numpy.array([3, 10, big], dtype="uint64")
    assert table.rows(first, compute).tolist() == _rows_of(first)
    second = numpy.array([1, 3, 7, big], dtype="uint64")  # two new ones among known ones
    assert table.rows(second, compute).tolist() == _rows_of(second)
    assert asked == [[3, 10, big], [1, 7]]
    assert table.rows(second, compute).tolist() == _rows_of(second)
    assert len(asked) == 2 and len(table) == 5
    table.clear()
    assert len(table) == 0
    assert table.rows(first, compute).tolist() == _rows_of(first)
    assert len(asked) == 3
