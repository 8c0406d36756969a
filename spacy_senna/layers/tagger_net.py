"""A scoring network and its sequence criterion, held as one module (one state dict)."""

from typing import Optional

import numpy
import torch
from torch import Tensor, nn

from .crf import CRF
from .word_likelihood import WordLevelLikelihood


class SequenceTaggerNet(nn.Module):
    """An emission network (window or sentence network) plus its training criterion
    (CRF = sentence-level likelihood, or word-level likelihood)."""

    def __init__(self, emission_net: nn.Module, criterion: CRF):
        super().__init__()
        self.emission_net = emission_net
        self.criterion = criterion

    def forward(self, *inputs: Tensor) -> Tensor:
        return self.emission_net(*inputs)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):
        # pipelines saved before the rename hold the emission network under "scorer"
        old = prefix + "scorer."
        for key in [k for k in state_dict if k.startswith(old)]:
            state_dict[prefix + "emission_net." + key[len(old) :]] = state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)


def build_criterion(
    kind: str,
    n_tags: int,
    *,
    allowed: Optional[tuple] = None,
    constrain_training: bool = False,
) -> CRF:
    """`"sll"` -> CRF, "wll" -> word-level softmax; `allowed` = (transitions, start, end)."""
    if kind not in ("sll", "wll"):
        raise ValueError(f"criterion must be 'sll' or 'wll', got '{kind}'")
    cls = CRF if kind == "sll" else WordLevelLikelihood
    criterion = cls(n_tags, constrain_training=constrain_training)
    if allowed is not None:
        criterion.set_constraints(*(torch.tensor(numpy.array(a, dtype=bool)) for a in allowed))
    return criterion
