"""Nearest neighbours of words in an embedding table (paper Table 7)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from ..features import normalize_word

#: the query words of paper Table 7
PAPER_QUERIES = ("france", "jesus", "xbox", "reddish", "scratched", "megabits")


def nearest_neighbours(
    words: Sequence[str], table: numpy.ndarray, queries: Sequence[str], k: int = 10
) -> dict[str, list[tuple[str, float]] | None]:
    """The `k` nearest words (Euclidean, like paper Table 7) of each query.

    Queries are normalised with `normalize_word`; a query without a vector maps to None.
    *Shape:* table (len(words), dim).
    """
    index = {w: i for i, w in enumerate(words)}
    found = [(q, index[normalize_word(q)]) for q in queries if normalize_word(q) in index]
    result: dict[str, list[tuple[str, float]] | None] = {q: None for q in queries}
    if not found or k < 1:
        return result
    data = numpy.asarray(table, dtype="float32")
    rows = numpy.array([i for _, i in found])
    norms = (data * data).sum(1)
    dist2 = norms[rows, None] - 2.0 * data[rows] @ data.T + norms[None, :]
    dist2[numpy.arange(len(rows)), rows] = numpy.inf
    n = min(k, len(words) - 1)
    if n < 1:
        return {q: ([] if r is None else r) for q, r in result.items()}
    nearest = numpy.argpartition(dist2, n - 1, axis=1)[:, :n]
    for (query, _), cand, d2 in zip(found, nearest, dist2):
        order = cand[numpy.argsort(d2[cand])]
        result[query] = [(words[j], float(numpy.sqrt(max(d2[j], 0.0)))) for j in order]
    return result


def format_neighbours(
    neighbours: dict[str, list[tuple[str, float]] | None], words: Sequence[str]
) -> str:
    """A plain-text report: one line per query with its dictionary rank (1-based)."""
    rank = {w: i + 1 for i, w in enumerate(words)}
    lines = []
    for query, found in neighbours.items():
        key = normalize_word(query)
        if found is None:
            lines.append(f"{query}: (no vector)")
            continue
        items = ", ".join(f"{w} ({d:.2f})" for w, d in found)
        lines.append(f"{key} (rank {rank.get(key, '?')}): {items}")
    return "\n".join(lines)
