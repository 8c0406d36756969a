"""SENNA's word-level log-likelihood (paper §3.4.1): an independent softmax per token.

It shares the CRF's interface so a component can switch criterion by config. Decoding,
marginals and k-best are those of a chain whose transition and start scores stay zero
(per-token argmax, per-token softmax), with any hard constraints still applied.
"""

import torch
from torch import Tensor

from .crf import CRF, lengths_mask


class WordLevelLikelihood(CRF):
    """Per-token cross-entropy; no transition parameters are trained."""

    def __init__(self, n_tags: int, **constraints):
        super().__init__(n_tags, **constraints)
        self.transitions.requires_grad_(False)
        self.start.requires_grad_(False)

    def nll(self, emissions: Tensor, tags: Tensor, lengths: Tensor) -> Tensor:
        """(B,) summed token cross-entropy over the known (non -1) labels."""
        lengths = self._check(emissions, lengths)
        tags = torch.as_tensor(tags, device=emissions.device).long()
        if tags.shape != emissions.shape[:2]:
            raise ValueError(f"tags must be {tuple(emissions.shape[:2])}, got {tuple(tags.shape)}")
        known = (tags >= 0) & lengths_mask(lengths, emissions.shape[1])
        log_probs = torch.log_softmax(emissions.masked_fill(~known[:, :, None], 0.0), dim=2)
        gold = log_probs.gather(2, tags.clamp_min(0)[:, :, None]).squeeze(2)
        return -(gold * known).sum(1)
