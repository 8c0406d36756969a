"""Corrupted centre words for the ranking loss (paper eq. 17).

`negatives` corrupted windows per corpus window, centre words drawn uniformly over the
current dictionary's real words (PADDING/UNKNOWN excluded), matching the uniform sum
over D in eq. 17. A negative equal to the true word is masked out by `ranking_loss`
(its hinge term is a constant 1 with zero gradient anyway). The corrupted centre keeps
the original caps value, so the network must judge the word itself, not its
capitalisation.
"""

import torch

from ..layers.lexicon import SPECIALS


def sample_candidates(
    words: torch.Tensor,
    centre: int,
    n_rows: int,
    negatives: int,
    generator: torch.Generator,
) -> torch.Tensor:
    """The true centre word, then `negatives` uniform negatives among real words, drawn
    from `generator` on the CPU (so a run's draws, and its checkpoints, do not depend on
    the device it trains on).

    *Shape:* words (B, W) int64 → (B, 1 + negatives) int64.
    """
    low = len(SPECIALS)
    high = max(n_rows, low + 1)
    noise = torch.randint(low, high, (words.shape[0], negatives), generator=generator)
    return torch.cat([words[:, centre : centre + 1], noise.to(words.device)], dim=1)
