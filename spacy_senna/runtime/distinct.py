"""The distinct values, or rows, of a small array as `numpy.unique` gives them, without
its fixed cost: labelled alone, a text brings its caches a few new words at a time, where
`numpy.unique`'s sorts and bookkeeping cost about 8 us for values and 38 for rows against
3 and 4 for a dict."""

from typing import Tuple

import numpy

#: the most values (or rows) put through a dict; longer arrays go to `numpy.unique`
DICT_MAX = 256


def distinct(values: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """`numpy.unique(values, return_index=True, return_inverse=True)` of a 1-D array of
    integers, or with `axis=0` of a 2-D one: the distinct values (rows) in sorted order,
    where each first occurs, and the index of each value among them (1-D)."""
    if len(values) > DICT_MAX:
        axis = 0 if values.ndim == 2 else None
        uniques, first, inverse = numpy.unique(
            values, axis=axis, return_index=True, return_inverse=True
        )
        return uniques, first, inverse.reshape(-1)
    items = values.tolist()
    if values.ndim == 2:
        items = list(map(tuple, items))
    first_of: dict = {}
    for i, item in enumerate(items):
        first_of.setdefault(item, i)
    ordered = sorted(first_of)  # as NumPy's: by value, rows lexicographically
    position = {item: k for k, item in enumerate(ordered)}
    uniques = numpy.array(ordered, dtype=values.dtype).reshape(len(ordered), *values.shape[1:])
    first = numpy.fromiter(map(first_of.__getitem__, ordered), numpy.int64, len(ordered))
    inverse = numpy.fromiter(map(position.__getitem__, items), numpy.int64, len(items))
    return uniques, first, inverse
