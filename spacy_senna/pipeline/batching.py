"""How a batch of docs goes through a network and its decoder in bounded pieces.

A component's rows are cut into model calls of bounded working memory (`bounded_batches`,
`call_floats`), so a long document or a doc with many predicates cannot exhaust
memory; the rows of consecutive calls are then decoded together (`decode_groups`,
DECODE_FLOATS) in one packed Viterbi pass (`decode_calls`), one loop over positions for
all their rows instead of one per call.
"""

from functools import lru_cache
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy
import torch
from thinc.api import Model

from ..models.senna_model import get_net
from ..models.sequences import Sequences

#: working floats one model call may hold while predicting on a CPU, about rows x (longest
#: row x per-token width + tags^2); a batch of docs is cut into model calls below it
MAX_PREDICT_FLOATS = 1 << 25

#: the same on a GPU, where a sixteenth of the device's memory allows it: every call makes
#: the host wait for the device a few times (reading lengths, paths), so a batch should
#: be one call there (256 paragraphs' SRL rows: 31 calls within MAX_PREDICT_FLOATS, 2 here)
GPU_PREDICT_FLOATS = 1 << 31

#: scores (rows x tokens x tags) decoded in one Viterbi pass: consecutive model calls are
#: decoded together up to it, and no further (a pass over more rows than the caches hold
#: runs slower per row)
DECODE_FLOATS = 1 << 21


def call_floats(model: Model) -> int:
    """The working floats one call of `model`'s network may hold: MAX_PREDICT_FLOATS on a
    CPU (larger calls gain nothing there and cost memory), GPU_PREDICT_FLOATS on a GPU
    that has 16 times that in bytes, a sixteenth of a smaller one's memory."""
    transitions = get_net(model).criterion.transitions  # every senna net's criterion is a CRF
    if not transitions.is_cuda:  # a flag, where `device.type` builds a string
        return MAX_PREDICT_FLOATS
    index = transitions.device.index
    return max(MAX_PREDICT_FLOATS, min(GPU_PREDICT_FLOATS, _device_bytes(index) // 64))


@lru_cache(maxsize=None)
def _device_bytes(index: Optional[int]) -> int:
    return torch.cuda.get_device_properties(index or 0).total_memory


def row_cost(attrs: Dict[str, Any], n_tags: int, length: int) -> int:
    """Working floats of one row of `length` tokens while predicting (an estimate), for a
    model with these attrs and tags."""
    # the sentence network's max holds about eighteen float32 (rows, length, conv_width)
    # tensors' worth (running maxima with their int64 positions, shifted copies: measured
    # on WSJ 24), the span probabilities about ten float64 (rows, length, tags) ones; a
    # BiLSTM layer run per row about ten (rows, length, width) ones (both directions'
    # states and gates): the whole stack of a predicate BiLSTM, the heads of a network
    # that encodes each sentence once
    if "head_depth" in attrs:
        per_row_lstm = attrs["head_depth"] * attrs["head_width"]
    else:
        per_row_lstm = attrs.get("lstm_depth", 0) * attrs.get("lstm_width", 0)
    width = (
        attrs["hidden_width"] + 18 * attrs.get("conv_width", 0) + 10 * per_row_lstm + 20 * n_tags
    )
    return length * width + n_tags**2


def bounded_batches(
    items: List[Tuple[int, Any]],
    shapes: List[Tuple[int, int]],
    cost: Callable[[int], int],
    limit: int,
) -> Iterator[List[Tuple[int, Any]]]:
    """(doc index, item) groups in order, each of (rows, longest row) `shapes` within
    `limit` floats (`call_floats`) by `cost` (floats of a row of a given length); a group
    holds at least one item."""
    batch: List[Tuple[int, Any]] = []
    n_rows = longest = 0
    for (d, item), (rows, length) in zip(items, shapes):
        grown_rows, grown_longest = n_rows + rows, max(longest, length)
        if batch and grown_rows * cost(grown_longest) > limit:
            yield batch
            batch, grown_rows, grown_longest = [], rows, length
        batch.append((d, item))
        n_rows, longest = grown_rows, grown_longest
    if batch:
        yield batch


def decode_groups(calls: Iterable[Tuple[Any, Sequences]]) -> Iterator[List[Tuple[Any, Sequences]]]:
    """Consecutive model calls in groups whose scores together stay within DECODE_FLOATS
    (a group holds at least one call), to be decoded in one pass."""
    group: List[Tuple[Any, Sequences]] = []
    floats = 0
    for batch, scores in calls:
        size = int(scores.lengths.sum()) * scores.emissions.shape[2]
        if group and floats + size > DECODE_FLOATS:
            yield group
            group, floats = [], 0
        group.append((batch, scores))
        floats += size
    if group:
        yield group


def decode_calls(model: Model, calls: List[Sequences]) -> List[numpy.ndarray]:
    """The best tag ids of every row of the calls, from one Viterbi pass over all of them:
    per call, a (rows, T) int64 array (-1 past a row's end)."""
    scored = [(scores.emissions, scores.lengths) for scores in calls if len(scores.lengths)]
    paths = iter(get_net(model).criterion.decode_chunks(scored) if scored else [])
    return [
        next(paths).cpu().numpy() if len(scores.lengths) else numpy.zeros((0, 0), dtype="int64")
        for scores in calls
    ]
