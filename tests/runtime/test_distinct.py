"""`distinct`: numpy.unique's distinct values, first indices and inverse, for any size."""

import numpy
import pytest

from spacy_senna.runtime.distinct import DICT_MAX, distinct


def unique(values):
    axis = 0 if values.ndim == 2 else None
    uniques, first, inverse = numpy.unique(
        values, axis=axis, return_index=True, return_inverse=True
    )
    return uniques, first, inverse.reshape(-1)


@pytest.mark.parametrize("dtype", ["uint64", "int64"])
@pytest.mark.parametrize("n", [1, 2, 7, DICT_MAX, DICT_MAX + 1, 1000])
@pytest.mark.parametrize("columns", [None, 1, 4])
def test_distinct_is_numpy_unique(dtype, n, columns):
    rng = numpy.random.default_rng(n)
    shape = (n,) if columns is None else (n, columns)
    values = rng.integers(0, 5 if columns else 2**40, size=shape).astype(dtype)
    if dtype == "uint64":
        values[0] = numpy.iinfo(numpy.uint64).max  # past int64's range: still by value
    else:
        values[-1] = -values[-1] - 1  # negatives sort first
    got, want = distinct(values), unique(values)
    for mine, theirs in zip(got, want):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        assert numpy.array_equal(mine, theirs)
