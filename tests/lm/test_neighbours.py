"""Euclidean nearest neighbours (paper Table 7) and their report."""

import numpy

from spacy_senna.lm.neighbours import format_neighbours, nearest_neighbours


def test_nearest_neighbours_are_sorted_by_euclidean_distance():
    words = ["paris", "london", "cat", "dog"]
    table = numpy.array([[0, 0], [3, 4], [10, 0], [10, 1]], dtype="float32")
    found = nearest_neighbours(words, table, ["Paris", "zzz"], k=2)
    assert found == {"Paris": [("london", 5.0), ("cat", 10.0)], "zzz": None}
    assert format_neighbours(found, words).splitlines() == [
        "paris (rank 1): london (5.00), cat (10.00)",
        "zzz: (no vector)",
    ]
