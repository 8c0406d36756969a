"""Document context (not in SENNA): what the network saw at a word's other occurrences.

A window of five words often cannot tell a team (ORG) from its city (LOC), or a person
from a company; another mention of the same word in the same document often can. For
each token, `other_occurrences_mean` averages the window network's hidden layer over
the *other* tokens of its Doc with the same lowercase form (zero when there are none),
and the output layer reads it beside the token's own hidden layer. It is a batched
scatter-add, differentiable, and depends on the token's own Doc only, so a Doc's tags do
not change with the batch it is processed in.
"""

from typing import List, Sequence, Tuple

import numpy
import torch
from spacy.attrs import LOWER
from spacy.tokens import Doc
from torch import Tensor


def occurrence_groups(
    docs: Sequence[Doc],
    bounds: Sequence[List[Tuple[int, int]]],
    index: numpy.ndarray,
    n_rows: int,
) -> Tensor:
    """A group id per row of the window network's hidden layer (`n_rows` rows; token
    rows as in `index`, see `flatten_windows`): the tokens of one Doc with the same
    lowercase form share one id; every other row (padding) is alone in its group.
    """
    tokens = _token_groups(docs, bounds)
    rows = numpy.arange(len(tokens), len(tokens) + n_rows)
    lengths = [end - start for doc_bounds in bounds for start, end in doc_bounds]
    token_rows = [index[b, :length] for b, length in enumerate(lengths)]
    if token_rows:
        rows[numpy.concatenate(token_rows)] = tokens
    return torch.from_numpy(rows)


def _token_groups(docs: Sequence[Doc], bounds: Sequence[List[Tuple[int, int]]]) -> numpy.ndarray:
    """A group id per token, doc by doc and each doc's `bounds` in order."""
    groups = []
    offset = 0
    for doc, doc_bounds in zip(docs, bounds):
        if not doc_bounds:
            continue
        _, inverse = numpy.unique(doc.to_array(LOWER), return_inverse=True)
        inverse = inverse.reshape(-1)
        groups.extend(inverse[start:end] + offset for start, end in doc_bounds)
        offset += int(inverse.max()) + 1
    if not groups:
        return numpy.zeros(0, dtype="int64")
    return numpy.concatenate(groups).astype("int64")


def other_occurrences_mean(hidden: Tensor, groups: Tensor) -> Tensor:
    """Mean of `hidden` (n_tokens, H) over each token's group, leaving the token out.

    Tokens alone in their group get zeros.
    """
    groups = groups.to(hidden.device)
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    sums = hidden.new_zeros(n_groups, hidden.shape[1]).index_add_(0, groups, hidden)
    counts = torch.bincount(groups, minlength=n_groups).to(hidden.dtype)
    others = (counts[groups] - 1).clamp(min=1)[:, None]
    return (sums[groups] - hidden) / others
