"""Validation of the ranking LM on the held-out windows.

The ranking loss of eq. 17 (mean hinge per pair) on windows of the held-out first
lines, with negatives fixed by the seed, plus the fraction of pairs ranked wrongly
(f(x^w) ≥ f(x)).
"""

from __future__ import annotations

import math

import torch

from .corpus import EncodedCorpus
from .negatives import sample_candidates
from .ranking_model import RankingLM, ranking_loss


@torch.no_grad()
def evaluate(
    model: RankingLM,
    corpus: EncodedCorpus,
    n_rows: int,
    negatives: int,
    seed: int,
    batch_size: int = 4096,
) -> tuple[float, float]:
    """Validation (mean hinge loss per pair, fraction of pairs ranked wrongly).

    Both are NaN when the corpus has no held-out words.
    """
    positions = corpus.valid_positions()
    if len(positions) == 0:
        return math.nan, math.nan
    device = model.hidden.weight.device
    generator = torch.Generator().manual_seed(seed + 1)
    total = errors = pairs = 0.0
    was_training = model.training
    model.eval()
    for start in range(0, len(positions), batch_size):
        words, caps = corpus.windows(positions[start : start + batch_size], n_rows, valid=True)
        words_t = torch.from_numpy(words).to(device)
        caps_t = torch.from_numpy(caps).to(device)
        candidates = sample_candidates(words_t, model.centre, n_rows, negatives, generator)
        scores = model.score_candidates(words_t, caps_t, candidates)
        loss, n_pairs = ranking_loss(scores, candidates)
        valid = candidates[:, 1:] != candidates[:, :1]
        wrong = (scores[:, 1:] >= scores[:, :1]) & valid
        total += float(loss)
        pairs += float(n_pairs)
        errors += float(wrong.sum())
    model.train(was_training)
    return total / max(pairs, 1.0), errors / max(pairs, 1.0)
