"""Linear-chain CRF over network scores: SENNA's sentence-level log-likelihood (paper §3.4.2).

A path's score is ``start[y_0] + sum_t emissions[t, y_t] + sum_{t>0} transitions[y_{t-1}, y_t]``
(+ ``end[y_last]`` when the optional end score is enabled; SENNA has none). Everything is
batched over variable-length sequences: ``emissions`` is (B, T, C) and ``lengths`` is (B,);
positions at or past a sequence's length are padding and never change any result.
A length-0 sequence is valid and has exactly one (empty) path: its NLL is 0, its decoded
path is all -1, its marginals are all 0 and its k-best scores are 0 (first) then -inf.

Speed: the partition function uses a scaled forward recursion in probability space
(one (B, C) x (C, C) matmul per step, no per-step exp/log) with a hand-written
forward-backward gradient, and falls back to an exact log-space recursion in the rare
batches where scaling underflows (e.g. hard constraints combined with huge emissions).
"""

from typing import Optional, Tuple

import torch
from torch import Tensor, nn

from .sparse_transitions import SparseTransitions

NEG_INF = float("-inf")


def lengths_mask(lengths: Tensor, max_len: int) -> Tensor:
    """(B, T) bool mask, True on real positions."""
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]


class _ScaledForward(torch.autograd.Function):
    """log Z of a chain with scores already folded into emissions (start/end included)."""

    @staticmethod
    def forward(ctx, emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
        B, T, C = emissions.shape
        mask = lengths_mask(lengths, T)
        em_max = emissions.amax(dim=2, keepdim=True).clamp_min(torch.finfo(emissions.dtype).min)
        ex = torch.exp(emissions - em_max)  # (B, T, C), max entry 1 per position
        tr_max = transitions.max().clamp_min(torch.finfo(transitions.dtype).min)
        ex_tr = torch.exp(transitions - tr_max)
        alpha = torch.empty_like(ex)
        scale = torch.ones(B, T, dtype=ex.dtype, device=ex.device)
        a = ex[:, 0]
        s = a.sum(1, keepdim=True)
        a = a / s
        alpha[:, 0] = a
        scale[:, 0] = s.squeeze(1)
        for t in range(1, T):
            q = (a @ ex_tr) * ex[:, t]
            s = q.sum(1, keepdim=True)
            live = mask[:, t : t + 1]
            a = torch.where(live, q / s, a)
            alpha[:, t] = a
            scale[:, t] = torch.where(live, s, torch.ones_like(s)).squeeze(1)
        n_steps = (lengths - 1).clamp_min(0).to(ex.dtype)
        log_z = (
            torch.log(scale).masked_fill(~mask, 0.0).sum(1)
            + (em_max.squeeze(2) * mask).sum(1)
            + n_steps * tr_max
        )
        log_z = log_z.masked_fill(lengths == 0, 0.0)
        ctx.save_for_backward(alpha, scale, ex, ex_tr, lengths)
        return log_z

    @staticmethod
    def backward(ctx, grad_log_z: Tensor):
        alpha, scale, ex, ex_tr, lengths = ctx.saved_tensors
        B, T, C = alpha.shape
        mask = lengths_mask(lengths, T)
        beta = torch.empty_like(alpha)
        ones = torch.ones(B, C, dtype=alpha.dtype, device=alpha.device)
        b = ones
        beta[:, T - 1] = b
        for t in range(T - 2, -1, -1):
            v = ex[:, t + 1] * beta[:, t + 1] / scale[:, t + 1 : t + 2]
            b = torch.where(mask[:, t + 1 : t + 2], v @ ex_tr.T, ones)
            beta[:, t] = b
        gamma = alpha * beta * mask[:, :, None]
        weight = grad_log_z[:, None, None]
        grad_emissions = gamma * weight
        grad_transitions = None
        if ctx.needs_input_grad[1] and T > 1:
            nxt = ex[:, 1:] * beta[:, 1:] / scale[:, 1:, None] * (mask[:, 1:, None] * weight)
            pair = alpha[:, :-1].reshape(-1, C).T @ nxt.reshape(-1, C)
            grad_transitions = ex_tr * pair
        elif ctx.needs_input_grad[1]:
            grad_transitions = torch.zeros_like(ex_tr)
        return grad_emissions, grad_transitions, None


def _log_partition_logspace(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
    """Exact log-space forward algorithm (autograd); the fallback of the scaled recursion."""
    B, T, C = emissions.shape
    mask = lengths_mask(lengths, T)
    alpha = emissions[:, 0]
    for t in range(1, T):
        nxt = torch.logsumexp(alpha[:, :, None] + transitions[None], dim=1) + emissions[:, t]
        alpha = torch.where(mask[:, t : t + 1], nxt, alpha)
    log_z = torch.logsumexp(alpha, dim=1)
    return torch.where(lengths == 0, torch.zeros_like(log_z), log_z)


def log_partition(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tensor:
    """(B,) log of the summed exp-scores of all paths; start/end must be in `emissions`."""
    if emissions.shape[1] == 0:
        return emissions.new_zeros(emissions.shape[0])
    log_z = _ScaledForward.apply(emissions, transitions, lengths)
    if not bool(torch.isfinite(log_z).all()):
        log_z = _log_partition_logspace(emissions, transitions, lengths)
    return log_z


def _scaled_forward_backward(
    folded: Tensor, transitions: Tensor, lengths: Tensor
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Scaled forward-backward of a folded chain, without gradients.

    Returns a (B, T, C), b (B, T, C), the per-position log scale (B, T) and the
    per-position emission max (B, T), such that with a tag sequence fixed on [s, e):
    log P = log a[s, y_s] + sum_{s<i<e} (trans[y_{i-1}, y_i] - max trans + folded[i, y_i]
    - max[i] - log scale[i]) + log b[e - 1, y_{e-1}] (see `CRF.span_log_probs`).
    Rows run longest first and each step touches only the rows still running (a packed
    sequence), so the work is proportional to the real tokens; a and b are 1 and the
    scale 1 past a row's end.
    """
    B, T, C = folded.shape
    order = torch.argsort(lengths, descending=True)
    running = (lengths[order][None, :] > torch.arange(T, device=lengths.device)[:, None]).sum(1)
    running = running.tolist()  # running[t]: rows with a token at position t
    em_max = folded.amax(dim=2, keepdim=True).clamp_min(torch.finfo(folded.dtype).min)
    ex = torch.exp(folded[order] - em_max[order])
    ex_tr = torch.exp(transitions - transitions.max().clamp_min(torch.finfo(folded.dtype).min))
    alpha = torch.ones_like(ex)
    beta = torch.ones_like(ex)
    scale = torch.ones(B, T, dtype=ex.dtype, device=ex.device)
    n = running[0] if T else 0
    a = ex[:n, 0]
    s = a.sum(1, keepdim=True)
    alpha[:n, 0] = a = a / s
    scale[:n, 0] = s.squeeze(1)
    for t in range(1, T):
        n = running[t]
        if n == 0:
            break
        q = (a[:n] @ ex_tr) * ex[:n, t]
        s = q.sum(1, keepdim=True)
        alpha[:n, t] = a = q / s
        scale[:n, t] = s.squeeze(1)
    for t in range(T - 2, -1, -1):
        n = running[t + 1]  # rows that go on past t
        if n:
            v = ex[:n, t + 1] * beta[:n, t + 1] / scale[:n, t + 1 : t + 2]
            beta[:n, t] = v @ ex_tr.T
    unsorted = torch.empty_like(order)
    unsorted[order] = torch.arange(B, device=order.device)
    return alpha[unsorted], beta[unsorted], torch.log(scale[unsorted]), em_max.squeeze(2)


class CRF(nn.Module):
    """Linear-chain CRF with batched NLL, Viterbi, marginals, span probabilities and k-best.

    Parameters are initialised to zero (SENNA/paper leave this unspecified; zero is the
    neutral choice: the first gradient steps learn the transitions from the data).

    :param n_tags: number of tags C.
    :param use_end: add a learned end score per tag (off: SENNA has none).
    :param allowed_transitions: optional (C, C) bool mask, [i, j] True when tag i may be
        followed by tag j (see :func:`spacy_senna.tags.allowed_transitions`).
    :param allowed_start: optional (C,) bool mask of tags that may start a sequence.
    :param allowed_end: optional (C,) bool mask of tags that may end a sequence.
    :param constrain_training: also apply the masks in :meth:`nll` (they always apply in
        decoding, marginals and k-best).
    """

    def __init__(
        self,
        n_tags: int,
        *,
        use_end: bool = False,
        allowed_transitions: Optional[Tensor] = None,
        allowed_start: Optional[Tensor] = None,
        allowed_end: Optional[Tensor] = None,
        constrain_training: bool = False,
    ):
        super().__init__()
        if n_tags < 1:
            raise ValueError(f"CRF needs at least one tag, got n_tags={n_tags}")
        self.n_tags = n_tags
        self.transitions = nn.Parameter(torch.zeros(n_tags, n_tags))
        self.start = nn.Parameter(torch.zeros(n_tags))
        self.end = nn.Parameter(torch.zeros(n_tags)) if use_end else None
        self.constrain_training = constrain_training
        self.register_buffer("trans_penalty", torch.zeros(n_tags, n_tags))
        self.register_buffer("start_penalty", torch.zeros(n_tags))
        self.register_buffer("end_penalty", torch.zeros(n_tags))
        self.set_constraints(allowed_transitions, allowed_start, allowed_end)

    def set_constraints(
        self,
        allowed_transitions: Optional[Tensor] = None,
        allowed_start: Optional[Tensor] = None,
        allowed_end: Optional[Tensor] = None,
    ) -> None:
        """Set (or clear, with None) hard constraints as -inf penalties."""
        C = self.n_tags
        for name, allowed, shape in (
            ("trans_penalty", allowed_transitions, (C, C)),
            ("start_penalty", allowed_start, (C,)),
            ("end_penalty", allowed_end, (C,)),
        ):
            penalty = getattr(self, name)
            if allowed is None:
                penalty.zero_()
                continue
            allowed = torch.as_tensor(allowed, dtype=torch.bool, device=penalty.device)
            if tuple(allowed.shape) != shape:
                raise ValueError(f"{name[:-8]} constraint must have shape {shape}")
            penalty.copy_(torch.zeros(shape).masked_fill(~allowed.cpu(), NEG_INF))
        self.has_constraints = bool(
            torch.isinf(self.trans_penalty).any()
            or torch.isinf(self.start_penalty).any()
            or torch.isinf(self.end_penalty).any()
        )

    # -- scores ---------------------------------------------------------------------------

    def _check(self, emissions: Tensor, lengths: Tensor) -> Tensor:
        if emissions.dim() != 3 or emissions.shape[2] != self.n_tags:
            raise ValueError(
                f"emissions must be (batch, time, {self.n_tags}), got {tuple(emissions.shape)}"
            )
        lengths = torch.as_tensor(lengths, device=emissions.device).long()
        if lengths.shape != (emissions.shape[0],):
            raise ValueError(f"lengths must be ({emissions.shape[0]},), got {tuple(lengths.shape)}")
        if bool((lengths < 0).any()) or bool((lengths > emissions.shape[1]).any()):
            raise ValueError(f"lengths must lie in [0, {emissions.shape[1]}], got {lengths}")
        return lengths

    def _folded(
        self, emissions: Tensor, lengths: Tensor, constrained: bool
    ) -> Tuple[Tensor, Tensor]:
        """Emissions with start (and end) scores folded in, and the transition matrix."""
        B, T, C = emissions.shape
        start = self.start + self.start_penalty if constrained else self.start
        # padding is zeroed so that whatever it holds (even inf/nan) changes nothing
        emissions = emissions.masked_fill(~lengths_mask(lengths, T)[:, :, None], 0.0)
        folded = torch.cat([emissions[:, :1] + start, emissions[:, 1:]], dim=1)
        end = self.end if self.end is not None else None
        if constrained and self.has_constraints:
            end = self.end_penalty if end is None else end + self.end_penalty
        if end is not None and T > 0:
            last = torch.nn.functional.one_hot((lengths - 1).clamp_min(0), T).to(emissions.dtype)
            last = last * (lengths > 0)[:, None]
            # 0 * -inf is nan: only add the end row where `last` is set
            end_rows = torch.where(
                last[:, :, None] > 0, end.expand(B, T, C), torch.zeros_like(folded)
            )
            folded = folded + end_rows
        transitions = self.transitions + self.trans_penalty if constrained else self.transitions
        return folded, transitions

    def log_partition(
        self, emissions: Tensor, lengths: Tensor, *, constrained: bool = True
    ) -> Tensor:
        """(B,) log Z over all (allowed) paths."""
        lengths = self._check(emissions, lengths)
        folded, transitions = self._folded(emissions, lengths, constrained)
        return log_partition(folded, transitions, lengths)

    def clamped_log_partition(
        self, emissions: Tensor, tags: Tensor, lengths: Tensor, *, constrained: bool = True
    ) -> Tensor:
        """(B,) log of the summed exp-scores of the paths that agree with `tags` (-1 = free)."""
        lengths = self._check(emissions, lengths)
        folded, transitions = self._folded(emissions, lengths, constrained)
        return log_partition(self._clamp(folded, tags, lengths), transitions, lengths)

    def _clamp(self, folded: Tensor, tags: Tensor, lengths: Tensor) -> Tensor:
        tags = torch.as_tensor(tags, device=folded.device).long()
        if tags.shape != folded.shape[:2]:
            raise ValueError(f"tags must be {tuple(folded.shape[:2])}, got {tuple(tags.shape)}")
        if bool(((tags < -1) | (tags >= self.n_tags)).any()):
            raise ValueError(f"tags must be -1 (missing) or in [0, {self.n_tags})")
        known = (tags >= 0) & lengths_mask(lengths, folded.shape[1])
        gold_only = torch.nn.functional.one_hot(tags.clamp_min(0), self.n_tags).bool()
        return folded.masked_fill(~(gold_only | ~known[:, :, None]), NEG_INF)

    def nll(self, emissions: Tensor, tags: Tensor, lengths: Tensor) -> Tensor:
        """(B,) negative log-likelihood of the gold tags; -1 marks a missing label.

        A missing label is marginalised: the loss is -log of the total probability of all
        paths consistent with the known labels. Positions past a sequence's length are
        ignored. The loss is +inf when the known labels are impossible under the training
        constraints (only with ``constrain_training``).
        """
        lengths = self._check(emissions, lengths)
        folded, transitions = self._folded(emissions, lengths, self.constrain_training)
        clamped = self._clamp(folded, tags, lengths)
        both = log_partition(
            torch.cat([folded, clamped]), transitions, torch.cat([lengths, lengths])
        )
        B = emissions.shape[0]
        return both[:B] - both[B:]

    # -- inference ------------------------------------------------------------------------

    def marginals(self, emissions: Tensor, lengths: Tensor) -> Tensor:
        """(B, T, C) per-token tag probabilities; real positions sum to 1, padding is 0."""
        lengths = self._check(emissions, lengths)
        with torch.enable_grad():
            em = emissions.detach().requires_grad_(True)
            folded, transitions = self._folded(em, lengths, True)
            log_z = log_partition(folded, transitions.detach(), lengths)
            (grad,) = torch.autograd.grad(log_z.sum(), em)
        return grad

    def sequence_log_prob(self, emissions: Tensor, tags: Tensor, lengths: Tensor) -> Tensor:
        """(B,) log P(labels) under the decoding constraints; -1 positions are free.

        With a partial labelling covering one span (e.g. B-X I-X L-X, or U-X) this is the
        log-probability of that exact labelled span, the confidence span taggers report.
        """
        return self.clamped_log_partition(emissions, tags, lengths) - self.log_partition(
            emissions, lengths
        )

    def span_log_probs(
        self,
        emissions: Tensor,
        lengths: Tensor,
        rows: Tensor,
        starts: Tensor,
        ends: Tensor,
        first: Tensor,
        inside: Tensor,
        last: Tensor,
    ) -> Tensor:
        """(N,) log P(tokens [start, end) of `row` are tagged first, inside, ..., last)
        under the decoding constraints, for N spans (a one-token span is tagged `first`).

        One scaled forward-backward pass over the rows (float64, O(B T C^2)) and O(1) per
        span from cumulative sums, so memory and time stay linear in the sequence length
        however many spans a long sequence holds.
        """
        lengths = self._check(emissions, lengths)
        n = rows.shape[0]
        if n == 0:
            return emissions.new_zeros(0, dtype=torch.float64)
        with torch.no_grad():
            folded, transitions = self._folded(emissions.double(), lengths, True)
            transitions = transitions.double()
            alpha, beta, log_scale, em_max = _scaled_forward_backward(folded, transitions, lengths)
            if not bool(torch.isfinite(log_scale).all()):
                return self._clamped_span_log_probs(
                    folded, transitions, lengths, rows, starts, ends, first, inside, last
                )
            tr = transitions - transitions.max()
            # h[i, c]: the terms of tag c fixed at a position i > start; only the first and
            # last positions can be -inf (start/end constraints), and the inside positions
            # of a span are neither, so their cumulative sum skips infinities
            # h, then its cumulative sum g, in place of `folded` (no longer needed)
            h = folded.sub_(em_max[:, :, None]).sub_(log_scale[:, :, None])
            h_last = h[rows, ends - 1, last]
            g = h.masked_fill_(torch.isinf(h), 0.0).cumsum_(dim=1)
            length = ends - starts
            single = length == 1
            last_tag = torch.where(single, first, last)
            inner_sum = torch.where(
                length > 2, g[rows, ends - 2, inside] - g[rows, starts, inside], 0.0
            )
            emission_sum = torch.where(single, 0.0, inner_sum + h_last)
            n_inside = (length - 3).clamp_min(0).double()
            transition_sum = torch.where(
                length == 2,
                tr[first, last],
                tr[first, inside] + n_inside * tr[inside, inside] + tr[inside, last],
            )
            transition_sum = torch.where(single, 0.0, transition_sum)
            return (
                torch.log(alpha[rows, starts, first])
                + emission_sum
                + transition_sum
                + torch.log(beta[rows, ends - 1, last_tag])
            )

    def _clamped_span_log_probs(
        self, folded, transitions, lengths, rows, starts, ends, first, inside, last
    ) -> Tensor:
        """`span_log_probs` by clamped partition functions (the exact log-space fallback)."""
        T = folded.shape[1]
        positions = torch.arange(T, device=folded.device)[None, :]
        tags = torch.full((rows.shape[0], T), -1, dtype=torch.long, device=folded.device)
        inner = (positions > starts[:, None]) & (positions < ends[:, None] - 1)
        tags = torch.where(inner, inside[:, None], tags)
        tags = torch.where(positions == ends[:, None] - 1, last[:, None], tags)
        tags = torch.where(positions == starts[:, None], first[:, None], tags)
        sub = folded[rows]
        clamped = _log_partition_logspace(
            self._clamp(sub, tags, lengths[rows]), transitions, lengths[rows]
        )
        log_z = _log_partition_logspace(folded, transitions, lengths)
        return clamped - log_z[rows]

    def decode(self, emissions: Tensor, lengths: Tensor, *, constrained: bool = True) -> Tensor:
        """(B, T) best tag sequence by Viterbi; -1 on padding."""
        paths, _ = self.kbest(emissions, lengths, 1, constrained=constrained)
        return paths[:, 0]

    def kbest(
        self, emissions: Tensor, lengths: Tensor, k: int, *, constrained: bool = True
    ) -> Tuple[Tensor, Tensor]:
        """The k highest-scoring paths (B, k, T) and their scores (B, k), best first.

        When fewer than k paths exist the extra rows are -1 with score -inf;
        `constrained=False` ignores the hard constraints (for ablations).
        """
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        lengths = self._check(emissions, lengths)
        with torch.no_grad():
            folded, transitions = self._folded(emissions, lengths, constrained)
            if k == 1:
                return _viterbi(folded, transitions, lengths)
            return _kbest_viterbi(folded, transitions, lengths, k)


def _viterbi(emissions: Tensor, transitions: Tensor, lengths: Tensor) -> Tuple[Tensor, Tensor]:
    """1-best Viterbi with a vectorized backtrace (loop over time only).

    Sequences are sorted longest first, so step t only touches the prefix of the batch
    still running (a packed sequence): work is proportional to the real tokens, not
    batch x longest. The forward pass keeps only max values (a max-with-indices over
    (B, C, C) is several times slower); the backtrace recovers each argmax from the
    stored (B, C) deltas.
    """
    B, T, C = emissions.shape
    paths = torch.full((B, 1, T), -1, dtype=torch.long, device=emissions.device)
    if T == 0:
        return paths, emissions.new_zeros(B, 1)
    order = torch.argsort(lengths, descending=True)
    sorted_lengths = lengths[order]
    active = (sorted_lengths[None, :] > torch.arange(T, device=lengths.device)[:, None]).sum(1)
    active = active.tolist()  # active[t]: sequences with a token at position t
    deltas = emissions[order]
    # (B, next, prev) layout: the max runs over the contiguous last dimension
    trans_t = transitions.T.contiguous()
    plan = SparseTransitions.plan(transitions, torch.isfinite(transitions))
    for t in range(1, T):
        n = active[t]
        if n == 0:
            break
        if plan is not None:
            deltas[:n, t] += plan.max_plus(deltas[:n, t - 1])
        else:
            deltas[:n, t] += (deltas[:n, t - 1, None, :] + trans_t).amax(dim=2)
    last = (sorted_lengths - 1).clamp_min(0)
    score, best_last = deltas[torch.arange(B, device=deltas.device), last].max(dim=1)
    tags = torch.empty(B, T, dtype=torch.long, device=emissions.device)
    tag = best_last.clone()
    tags[:, T - 1] = tag
    for t in range(T - 2, -1, -1):
        n = active[t + 1]  # sequences that continue past t: follow their backpointer
        if n:
            tag[:n] = (deltas[:n, t] + trans_t[tag[:n]]).argmax(dim=1)
        tags[:, t] = tag
    unsorted = torch.empty_like(tags)
    unsorted[order] = tags
    paths[:, 0] = unsorted.masked_fill(~lengths_mask(lengths, T), -1)
    out_score = torch.empty_like(score)
    out_score[order] = score
    out_score = torch.where(lengths == 0, torch.zeros_like(out_score), out_score)
    return paths, out_score[:, None]


def _kbest_viterbi(
    emissions: Tensor, transitions: Tensor, lengths: Tensor, k: int
) -> Tuple[Tensor, Tensor]:
    """k-best list Viterbi: keep the top k partial paths per (position, tag)."""
    B, T, C = emissions.shape
    device = emissions.device
    paths = torch.full((B, k, T), -1, dtype=torch.long, device=device)
    if T == 0:
        scores = emissions.new_full((B, k), NEG_INF)
        scores[:, 0] = 0.0
        return paths, scores
    mask = lengths_mask(lengths, T)
    delta = emissions.new_full((B, C, k), NEG_INF)
    delta[:, :, 0] = emissions[:, 0]
    # backpointers into the flattened (previous tag, previous rank) grid
    backptr = torch.zeros(B, T, k, C, dtype=torch.long, device=device)
    for t in range(1, T):
        cand = delta[:, :, :, None] + transitions[None, :, None, :]  # (B, C, k, C)
        best, idx = cand.reshape(B, C * k, C).topk(k, dim=1)  # (B, k, C)
        backptr[:, t] = idx
        new = best.transpose(1, 2) + emissions[:, t, :, None]  # (B, C, k)
        delta = torch.where(mask[:, t, None, None], new, delta)
    scores, flat = delta.reshape(B, C * k).topk(k, dim=1)  # (B, k)
    tag, rank = flat // k, flat % k
    last = lengths - 1
    for t in range(T - 1, -1, -1):
        if t < T - 1:
            ptr = backptr[:, t + 1].reshape(B, k * C).gather(1, rank * C + tag)
            moving = (t < last)[:, None]
            tag = torch.where(moving, ptr // k, tag)
            rank = torch.where(moving, ptr % k, rank)
        paths[:, :, t] = torch.where(mask[:, t, None], tag, torch.full_like(tag, -1))
    empty = lengths == 0
    scores = torch.where(empty[:, None], torch.full_like(scores, NEG_INF), scores)
    scores[:, 0] = torch.where(empty, torch.zeros_like(scores[:, 0]), scores[:, 0])
    paths = paths.masked_fill(torch.isinf(scores)[:, :, None] & (scores < 0)[:, :, None], -1)
    return paths, scores
