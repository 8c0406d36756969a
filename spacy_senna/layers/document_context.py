"""Document context (not in SENNA): what the network saw at a word's other occurrences.

A window of five words often cannot tell a team (ORG) from its city (LOC), or a person
from a company; another mention of the same word in the same document often can. For
each token, the window network's output layer also reads the mean of its hidden layer
over the *other* tokens of the Doc with the same lowercase form (zero when there are
none, so only repeated words cost anything). It is a batched scatter-add,
differentiable, and depends on the token's own Doc only, so a Doc's tags do not change
with the batch it is processed in.
"""

from typing import List, Sequence, Tuple

import numpy
import torch
from spacy.attrs import LOWER
from spacy.tokens import Doc
from torch import Tensor


def occurrence_groups(
    docs: Sequence[Doc], bounds: Sequence[List[Tuple[int, int]]], index: numpy.ndarray
) -> Tensor:
    """The repeated words of a batch, as a (2, M) tensor: the hidden-layer row of each
    token whose lowercase form occurs again in its Doc (rows as in `index`, see
    `flatten_windows`), and its group (0 .. G-1), shared with those other occurrences.
    """
    tokens = _token_groups(docs, bounds)
    lengths = [end - start for doc_bounds in bounds for start, end in doc_bounds]
    rows = [index[b, :length] for b, length in enumerate(lengths)]
    if not rows:
        return torch.zeros(2, 0, dtype=torch.long)
    repeated = numpy.bincount(tokens)[tokens] > 1
    _, groups = numpy.unique(tokens[repeated], return_inverse=True)
    pairs = numpy.stack([numpy.concatenate(rows)[repeated], groups.reshape(-1)])
    return torch.from_numpy(pairs.astype("int64"))


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
    """Mean of `hidden` (M, H) over each row's group (M,), leaving the row itself out.

    Rows alone in their group get zeros.
    """
    groups = groups.to(hidden.device)
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    sums = hidden.new_zeros(n_groups, hidden.shape[1]).index_add_(0, groups, hidden)
    counts = torch.bincount(groups, minlength=n_groups).to(hidden.dtype)
    others = (counts[groups] - 1).clamp(min=1)[:, None]
    return (sums[groups] - hidden) / others
