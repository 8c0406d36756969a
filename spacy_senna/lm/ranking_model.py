"""The window ranking language model of paper §4 (eq. 17).

f(x) scores a window of `window` words (word + caps lookups, concatenated) with
Linear → HardTanh → Linear(1). Training ranks each corpus window above the same
window with its centre word replaced (hinge loss with margin 1).

Because the first layer is linear, the contribution of the ten context positions is
computed once per window and only the centre-word term is recomputed per candidate:
`score_candidates` is exactly `score` on each corrupted window, about five times
cheaper with 8 negatives.
"""

import torch
from torch import nn
from torch.nn import functional as F


class RankingLM(nn.Module):
    """SENNA's LM network: window 11, word 50 + caps 5 → Linear 100 → HardTanh → Linear 1.

    Initialisation follows the Torch convention for the paper's fan-in rule (digest
    §4.6): linear layers U(−1/√fan_in, 1/√fan_in) (PyTorch's default), lookup tables
    U(−embed_init, embed_init).
    """

    def __init__(
        self,
        n_words: int,
        n_caps: int,
        *,
        word_dim: int = 50,
        caps_dim: int = 5,
        window: int = 11,
        hidden: int = 100,
        embed_init: float = 1.0,
    ) -> None:
        super().__init__()
        if window < 1 or window % 2 == 0:
            raise ValueError(f"The LM window must be a positive odd number, not {window}.")
        self.window = window
        self.centre = window // 2
        self.word_dim = word_dim
        self.caps_dim = caps_dim
        self.word = nn.Embedding(n_words, word_dim, sparse=True)
        self.caps = nn.Embedding(n_caps, caps_dim)
        self.hidden = nn.Linear(window * (word_dim + caps_dim), hidden)
        self.output = nn.Linear(hidden, 1)
        nn.init.uniform_(self.word.weight, -embed_init, embed_init)
        nn.init.uniform_(self.caps.weight, -embed_init, embed_init)
        # zero at the centre word's columns of the flattened window input
        mask = torch.ones(window, word_dim + caps_dim)
        mask[self.centre, :word_dim] = 0.0
        self.register_buffer("context_mask", mask.flatten(), persistent=False)

    def _window_input(self, words: torch.Tensor, caps: torch.Tensor) -> torch.Tensor:
        """Concatenated lookups, flattened per window.

        *Shape:* words, caps (B, W) int64 → (B, W·(word_dim + caps_dim)).
        """
        x = torch.cat([self.word(words), self.caps(caps)], dim=-1)
        return x.flatten(1)

    def score(self, words: torch.Tensor, caps: torch.Tensor) -> torch.Tensor:
        """f(x) for whole windows (the reference computation).

        *Shape:* words, caps (B, W) int64 → (B,) float.
        """
        h = F.hardtanh(self.hidden(self._window_input(words, caps)))
        return self.output(h).squeeze(-1)

    def score_candidates(
        self, words: torch.Tensor, caps: torch.Tensor, candidates: torch.Tensor
    ) -> torch.Tensor:
        """f(x^(w)) for each window with its centre word replaced by each candidate.

        The centre position keeps its caps value (corrupted windows keep the original
        capitalisation). `words[:, centre]` is ignored.
        *Shape:* words, caps (B, W) int64; candidates (B, C) int64 → (B, C) float.
        """
        n_window = words.shape[1]
        # one lookup for context and candidates: a single sparse gradient per step
        embedded = self.word(torch.cat([words, candidates], dim=1))
        # split (not two slices): its backward is one concatenation, no zero-filled copies
        in_window, as_centre = embedded.split([n_window, candidates.shape[1]], dim=1)
        x = torch.cat([in_window, self.caps(caps)], dim=-1).flatten(1)
        context = F.linear(x * self.context_mask, self.hidden.weight, self.hidden.bias)
        step = self.word_dim + self.caps_dim
        start = self.centre * step
        centre_weight = self.hidden.weight[:, start : start + self.word_dim]
        h = context.unsqueeze(1) + as_centre @ centre_weight.t()
        return self.output(F.hardtanh(h)).squeeze(-1)


def valid_pairs(candidates: torch.Tensor) -> torch.Tensor:
    """Which negatives differ from the true centre word (column 0).

    *Shape:* candidates (B, 1 + K) → (B, K) bool.
    """
    return candidates[:, 1:] != candidates[:, :1]


def hinge_terms(scores: torch.Tensor, candidates: torch.Tensor) -> torch.Tensor:
    """The pairwise hinge terms max(0, 1 − f(x) + f(x^(w))) of eq. 17.

    Column 0 of `scores`/`candidates` is the true centre word, the others negatives;
    the terms of negatives equal to the true word are 0.
    *Shape:* scores, candidates (B, 1 + K) → (B, K).
    """
    return F.relu(1.0 - scores[:, :1] + scores[:, 1:]) * valid_pairs(candidates)


def ranking_loss(
    scores: torch.Tensor, candidates: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Summed pairwise hinge loss of eq. 17 (`hinge_terms`), and the pair count.

    Negatives equal to the true word are not counted.
    *Shape:* scores, candidates (B, 1 + K) → (), () .
    """
    return hinge_terms(scores, candidates).sum(), valid_pairs(candidates).sum()
