"""Linear-chain CRF over network scores: SENNA's sentence-level log-likelihood (paper §3.4.2).

A path's score is ``start[y_0] + sum_t emissions[t, y_t] + sum_{t>0} transitions[y_{t-1}, y_t]``
(+ ``end[y_last]`` when the optional end score is enabled; SENNA has none). Everything is
batched over variable-length sequences: ``emissions`` is (B, T, C) and ``lengths`` is (B,);
positions at or past a sequence's length are padding and never change any result.
A length-0 sequence is valid and has exactly one (empty) path: its NLL is 0, its decoded
path is all -1, its marginals are all 0 and its k-best scores are 0 (first) then -inf.

The partition function is in `crf_partition`, decoding in `crf_viterbi`.
"""

from typing import List, Optional, Sequence, Tuple

import torch
from torch import Tensor, nn

from .crf_compiled import CompiledTransitions, compile_transitions, compiled_decode
from .crf_partition import (
    NEG_INF,
    lengths_mask,
    log_partition,
    log_partition_logspace,
    scaled_forward_backward,
    span_emission_sums,
)
from .crf_viterbi import kbest_viterbi, viterbi
from .kept_copies import kept_copy
from .packed_chains import PackedChains
from .transition_blocks import TransitionBlocks

__all__ = ["CRF", "NEG_INF", "lengths_mask", "log_partition"]


class CRF(nn.Module):
    """Linear-chain CRF with batched NLL, Viterbi, marginals, span probabilities and k-best.

    Parameters are initialised to zero (SENNA/paper leave this unspecified; zero is the
    neutral choice: the first gradient steps learn the transitions from the data).

    :param n_tags: number of tags C.
    :param use_end: add a learned end score per tag (off: SENNA has none).
    :param allowed_transitions: optional (C, C) bool mask, [i, j] True when tag i may be
        followed by tag j (see :func:`spacy_senna.labels.tags.allowed_transitions`).
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

    def _transition_blocks(self, transitions: Tensor, constrained: bool = True) -> TransitionBlocks:
        """The `TransitionBlocks` of `transitions` (this CRF's transition scores, with the
        penalties when `constrained`, in their dtype), kept while the tensors they come from
        stay the same (`kept_copy`: labelling decodes batch after batch with one matrix;
        training and loading change it). No comparison of values, so no wait on a GPU."""
        return kept_copy(
            f"transition blocks, constrained={constrained}, {transitions.dtype}",
            lambda *_: TransitionBlocks(transitions, torch.isfinite(transitions)),
            self.transitions,
            self.trans_penalty,
        )

    def _added_scores(self, constrained: bool) -> Tuple[Tensor, Optional[Tensor], Tensor]:
        """The start, end (None without end scores or end constraints) and transition
        scores a path adds, with the constraints' penalties when `constrained`."""
        if not constrained:
            return self.start, self.end, self.transitions
        end = self.end
        if self.has_constraints:
            end = self.end_penalty if end is None else end + self.end_penalty
        return self.start + self.start_penalty, end, self.transitions + self.trans_penalty

    def _compiled_transitions(self, constrained: bool) -> CompiledTransitions:
        """The scores the decoder adds (`_added_scores`) laid out for the compiled decoder,
        made again only when a tensor they come from changes (`kept_copy`: an optimizer
        step, weights loaded, new constraints), not at every call."""

        def layout(*_) -> CompiledTransitions:
            with torch.no_grad():
                start, end, transitions = self._added_scores(constrained)
                return compile_transitions(transitions, start, end)

        # read from the module's dicts: its attribute lookup, six times, cost about as much
        # as the rest of a kept call
        params, buffers = self._parameters, self._buffers
        sources = [params["transitions"], params["start"], buffers["trans_penalty"]]
        sources += [buffers["start_penalty"], buffers["end_penalty"]]
        if params.get("end") is not None:
            sources.append(params["end"])
        return kept_copy(_COMPILED_PURPOSE[constrained], layout, *sources)

    # -- scores ---------------------------------------------------------------------------

    def _check(self, emissions: Tensor, lengths: Tensor) -> Tensor:
        if emissions.dim() != 3 or emissions.shape[2] != self.n_tags:
            raise ValueError(
                f"emissions must be (batch, time, {self.n_tags}), got {tuple(emissions.shape)}"
            )
        if not (isinstance(lengths, Tensor) and lengths.dtype == torch.long and lengths.is_cpu):
            lengths = torch.as_tensor(lengths, device=emissions.device).long()
        elif not emissions.is_cpu:
            lengths = lengths.to(emissions.device)
        if lengths.shape != (emissions.shape[0],):
            raise ValueError(f"lengths must be ({emissions.shape[0]},), got {tuple(lengths.shape)}")
        if lengths.is_cpu:  # read as numbers, not four tensor operations
            values = lengths.tolist()
            outside = bool(values) and (min(values) < 0 or max(values) > emissions.shape[1])
        else:
            outside = bool(((lengths < 0) | (lengths > emissions.shape[1])).any())  # one sync
        if outside:
            raise ValueError(f"lengths must lie in [0, {emissions.shape[1]}], got {lengths}")
        return lengths

    def _folded(
        self, emissions: Tensor, lengths: Tensor, constrained: bool
    ) -> Tuple[Tensor, Tensor]:
        """Emissions with start (and end) scores folded in, and the transition matrix."""
        T = emissions.shape[1]
        start, end, transitions = self._added_scores(constrained)
        # padding is zeroed so that whatever it holds (even inf/nan) changes nothing; the
        # start and end scores are added in place to this new tensor, at (B, C) cost
        folded = emissions.masked_fill(~lengths_mask(lengths, T)[:, :, None], 0.0)
        if T > 0:
            folded[:, 0] += start
            if end is not None:
                rows = torch.nonzero(lengths > 0).squeeze(1)
                folded[rows, lengths[rows] - 1] += end
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

        One scaled forward-backward pass over the rows holding spans, packed (no padding)
        and at the cost of the allowed transitions only, in the emissions' precision
        (float32 labelling: its products at twice float64's speed, the probabilities
        within a few 1e-6), then each span's emission terms summed along it in float64:
        memory linear in the rows' length, time in their length plus the spans' (one
        analysis's spans of a row do not overlap, so at most the row's length again).
        """
        lengths = self._check(emissions, lengths)
        out = emissions.new_zeros(rows.shape[0], dtype=torch.float64)
        if rows.shape[0] == 0:
            return out
        used, local = torch.unique(rows, return_inverse=True)
        with torch.no_grad():
            transitions = (self.transitions + self.trans_penalty).double()
            blocks = self._transition_blocks(transitions)
            precision = torch.float32 if emissions.dtype == torch.float32 else torch.float64
            packed = PackedChains.pack(
                [(emissions[used], lengths[used])], columns=blocks.order, dtype=precision
            )
            start = (self.start + self.start_penalty).double()
            end = self.end_penalty if self.end is None else self.end + self.end_penalty
            packed.data[packed.step(0)] += blocks.reorder(start)
            if self.end is not None or self.has_constraints:
                packed.data[packed.last_positions()] += blocks.reorder(end.double())
            alpha, beta, log_scale, em_max = scaled_forward_backward(packed, blocks, transitions)
            if not bool(torch.isfinite(log_scale).all()):
                folded, _ = self._folded(emissions[used].double(), lengths[used], True)
                return self._clamped_span_log_probs(
                    folded, transitions, lengths[used], local, starts, ends, first, inside, last
                )
            # a span's row k (sorted) at position t lies at offsets[t] + k, in block order
            rank = torch.empty_like(packed.order)
            rank[packed.order] = torch.arange(len(rank), device=rank.device)
            offsets = torch.tensor(packed.offsets, dtype=torch.long, device=rank.device)
            k = rank[local]

            def at(positions: Tensor) -> Tensor:
                return offsets[positions.clamp_min(0)] + k

            first_b, inside_b, last_b = (blocks.inverse[tags] for tags in (first, inside, last))
            emission_sum = span_emission_sums(
                packed, em_max, log_scale, k, starts, ends, inside_b, last_b
            )
            tr = transitions - transitions.max()
            length = ends - starts
            single = length == 1
            last_tag = torch.where(single, first_b, last_b)
            n_inside = (length - 3).clamp_min(0).double()
            transition_sum = torch.where(
                length == 2,
                tr[first, last],
                tr[first, inside] + n_inside * tr[inside, inside] + tr[inside, last],
            )
            transition_sum = torch.where(single, 0.0, transition_sum)
            return (
                torch.log(alpha[at(starts), first_b].double())
                + emission_sum
                + transition_sum
                + torch.log(beta[at(ends - 1), last_tag].double())
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
        clamped = log_partition_logspace(
            self._clamp(sub, tags, lengths[rows]), transitions, lengths[rows]
        )
        log_z = log_partition_logspace(folded, transitions, lengths)
        return clamped - log_z[rows]

    def decode(self, emissions: Tensor, lengths: Tensor, *, constrained: bool = True) -> Tensor:
        """(B, T) best tag sequence by Viterbi; -1 on padding."""
        return self.decode_chunks([(emissions, lengths)], constrained=constrained)[0]

    def decode_chunks(
        self, chunks: Sequence[Tuple[Tensor, Tensor]], *, constrained: bool = True
    ) -> List[Tensor]:
        """The best paths of several (emissions (B, T, C), lengths (B,)) pairs (e.g. the
        model calls of one batch of docs) in one Viterbi pass over their packed rows:
        per pair, its (B, T) paths, -1 on padding."""
        checked = [(em, self._check(em, n)) for em, n in chunks]
        if _decodes_compiled(checked, self.transitions):
            return compiled_decode(checked, self._compiled_transitions(constrained))
        with torch.no_grad():
            start, end, transitions = self._added_scores(constrained)
            blocks = self._transition_blocks(transitions, constrained)
            packed = PackedChains.pack(checked, columns=blocks.order)
            if packed.batch_sizes:
                packed.data[packed.step(0)] += blocks.reorder(start)
            if end is not None:
                packed.data[packed.last_positions()] += blocks.reorder(end)
            paths, _ = viterbi(packed, blocks, transitions)
        out, first = [], 0
        for emissions, lengths in checked:
            B, T = emissions.shape[:2]
            chunk = paths.new_full((B, T), -1)
            width = min(T, paths.shape[1])
            chunk[:, :width] = paths[first : first + B, :width]
            out.append(chunk)
            first += B
        return out

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
                blocks = self._transition_blocks(transitions, constrained)
                packed = PackedChains.pack([(folded, lengths)], columns=blocks.order)
                paths, scores = viterbi(packed, blocks, transitions)
                return paths[:, None], scores[:, None]
            return kbest_viterbi(folded, transitions, lengths, k)


#: the kept copies of the compiled decoder's scores, with and without the constraints
_COMPILED_PURPOSE = {
    True: "compiled decoder, constrained=True",
    False: "compiled decoder, constrained=False",
}


def _decodes_compiled(chunks: Sequence[Tuple[Tensor, Tensor]], transitions: Tensor) -> bool:
    """Whether the compiled CPU decoder takes these scores: on the CPU, in float32 or
    float64, the same dtype as the transitions (2-10x faster than the packed decoder from
    one sentence to a batch of 700; a GPU keeps the packed torch decoder; both give the
    same paths)."""
    return (
        transitions.is_cpu  # flags, where `device.type` builds a string
        and transitions.dtype in (torch.float32, torch.float64)
        and all(em.is_cpu and em.dtype == transitions.dtype for em, _ in chunks)
    )
