"""Span labeling on the shared core: BILUO tags, a constrained CRF and span probabilities.

The chunker, the NER and SRL components label non-overlapping typed spans through
BILUO tags (SENNA's IOBES with spaCy's letters), decoded under the scheme's hard
constraints so every output is a valid set of spans. Each span carries the CRF
probability of exactly that labelled span (unless `span_scores` is off: the
forward-backward pass behind them is a fifth of a chunker's or ner's time); with
`kbest > 1` the next-best analyses of every row are kept too.
"""

import warnings
from abc import abstractmethod
from functools import partial
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy
import torch
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import filter_spans
from spacy.vocab import Vocab
from thinc.api import Model

from ..labels.span_groups import BoundsSpanGroup
from ..labels.tags import BiluoTagSet, Chunk, biluo_paths_to_chunks
from ..layers.crf import CRF
from ..models.senna_model import get_net
from ..models.sequences import Sequences
from ..runtime.threads import labelling
from .batching import decode_calls
from .rows import Row, rows_per_doc
from .sequence_labeler import SennaWarning, SequenceLabeler
from .span_scores import PendingScores, RowChunks, ScoredSpanGroup, scores_mode
from .whitespace import to_doc_chunks, words_only

#: the analyses of one row, best first: (chunks relative to the row, their probabilities,
#: None until they are read)
Ranked = List[Tuple[List[Chunk], Optional[numpy.ndarray]]]
EMPTY = numpy.zeros(0, dtype="float32")


class SpanLabeler(BiluoTagSet, SequenceLabeler):
    """Labels non-overlapping typed spans of each row through BILUO tags and a CRF."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str,
        *,
        scorer: Optional[Callable] = None,
        kbest: int = 1,
        span_scores: Union[bool, str] = True,
        **cfg,
    ) -> None:
        if kbest < 1:
            raise ValueError(f"[{name}] kbest must be >= 1, got {kbest}")
        scores_mode(span_scores, name)
        super().__init__(vocab, model, name, scorer=scorer, kbest=kbest, **cfg)
        # a run-time switch from the config, not saved in cfg (from_disk would restore it)
        self.span_scores = span_scores

    @property
    def scores_mode(self) -> str:
        """When span probabilities are computed: "lazy" (first read), "eager" or "off"."""
        mode = scores_mode(self.span_scores, self.name)
        # the next-best analyses of kbest > 1 are rare: their probabilities come at once
        return "eager" if mode == "lazy" and self.cfg["kbest"] > 1 else mode

    def row_results(self, calls: List[Sequences]) -> List[Ranked]:
        """Per row of the calls, its k best analyses: chunks (row offsets) and span
        probabilities (None until read, with `span_scores` true)."""
        crf = get_net(self.model).criterion
        k = self.cfg["kbest"]
        eager = self.scores_mode == "eager"
        paths_of = (
            decode_calls(self.model, calls)
            if k == 1
            else [crf.kbest(s.emissions, s.lengths, k)[0].cpu().numpy() for s in calls]
        )
        out: List[Ranked] = []
        for scores, paths in zip(calls, paths_of):
            lengths = scores.lengths.tolist()
            per_rank = []
            for rank in range(k):
                ranked = paths if k == 1 else paths[:, rank]
                chunks = biluo_paths_to_chunks(ranked, lengths, self.tag_names)
                if eager:
                    probs = span_probabilities(
                        crf, scores.emissions, scores.lengths, chunks, self.tag_index
                    )
                else:
                    probs = [None] * len(chunks)
                per_rank.append(list(zip(chunks, probs)))
            out.extend(list(analyses) for analyses in zip(*per_rank))
        return out

    def span_group(
        self,
        doc: Doc,
        chunks: List[Chunk],
        probs: Optional[numpy.ndarray],
        pending_rows: Optional[Tuple[PendingScores, int, Tuple[int, int]]] = None,
        attrs: Optional[Dict] = None,
    ) -> SpanGroup:
        """A span group of `chunks` (with `attrs`): with their probabilities in
        `attrs["scores"]`, or computed there when first read (`pending_rows`: the batch's
        pending scores, the doc's index there and the rows the group's spans are from),
        or none (`span_scores` off)."""
        if pending_rows is not None:
            pending, doc_index, rows = pending_rows
            return ScoredSpanGroup(
                doc, bounds=chunks, pending=pending, doc_index=doc_index, rows=rows, attrs=attrs
            )
        group = BoundsSpanGroup(doc, bounds=chunks, attrs=attrs)
        if probs is not None and self.scores_mode != "off":
            group.attrs["scores"] = numpy.asarray(probs, dtype="float32")
        return group

    def pending_scores(self) -> Optional[PendingScores]:
        """A batch's pending probabilities (with `span_scores` true), else None."""
        return PendingScores(self) if self.scores_mode == "lazy" else None

    def row_probabilities(
        self, docs: List[Doc], rows_of: List[List[RowChunks]]
    ) -> List[List[numpy.ndarray]]:
        """The probabilities of the decoded chunks of each doc's rows, row by row: the
        network scores the docs again, then one forward-backward pass per model call."""
        crf = get_net(self.model).criterion
        words = [words_only(doc, self.input_attrs)[0] for doc in docs]
        out: List[List[numpy.ndarray]] = [[] for _ in docs]
        with labelling():
            for batch, scores in self.model_calls(words):
                owners = [d for (d, _), rows in zip(batch, rows_per_doc(scores)) for _ in rows]
                known, taken = [], {}
                for d in owners:
                    index = len(out[d]) + taken.get(d, 0)
                    taken[d] = taken.get(d, 0) + 1
                    known.append((d, rows_of[d][index] if index < len(rows_of[d]) else None))
                lengths = scores.lengths.tolist()
                if any(row is None or row.length != n for (_, row), n in zip(known, lengths)):
                    raise ValueError(
                        f"[{self.name}] cannot compute span probabilities: a doc's words, "
                        "sentences or inputs changed after it was labelled. Read "
                        "attrs['scores'] before changing the doc, or set span_scores = "
                        '"eager" to compute them with the spans.'
                    )
                chunks = [row.chunks for _, row in known]
                probs = span_probabilities(
                    crf, scores.emissions, scores.lengths, chunks, self.tag_index
                )
                for d, row_probs in zip(owners, probs):
                    out[d].append(row_probs)
        if any(len(done) != len(rows) for done, rows in zip(out, rows_of)):
            raise ValueError(
                f"[{self.name}] cannot compute span probabilities: a doc's words, sentences "
                "or inputs changed after it was labelled (it now has fewer rows)."
            )
        return out


class DocSpans(NamedTuple):
    """A doc's prediction: per rank, its spans (doc offsets) and their probabilities (None
    until read), and the rows they were decoded from (for the probabilities)."""

    ranked: Ranked
    rows: List[RowChunks]


class DocSpanLabeler(SpanLabeler):
    """A span labeler whose rows (sentences) together make one span group per doc."""

    def doc_prediction(self, doc: Doc, rows: List[Row], results: List[Ranked]) -> DocSpans:
        """Per rank, the spans of all the doc's rows (doc offsets) and their probabilities."""
        out = []
        for rank in range(self.cfg["kbest"]):
            chunks = [
                (label, s + row.start, e + row.start)
                for row, ranked in zip(rows, results)
                for label, s, e in ranked[rank][0]
            ]
            probs = [ranked[rank][1] for ranked in results]
            if any(p is None for p in probs):
                out.append((chunks, None))
            else:
                out.append((chunks, numpy.concatenate(probs) if probs else EMPTY))
        decoded = [
            RowChunks(ranked[0][0], row.end - row.start) for row, ranked in zip(rows, results)
        ]
        return DocSpans(out, decoded)

    def prediction_on_doc(self, spans: DocSpans, kept: numpy.ndarray, n_tokens: int) -> DocSpans:
        """Every analysis's spans in the doc's offsets (over any whitespace inside)."""
        ranked = [(to_doc_chunks(chunks, kept), probs) for chunks, probs in spans.ranked]
        return DocSpans(ranked, spans.rows)

    def set_annotations(self, docs: Sequence[Doc], predictions: List[DocSpans]) -> None:
        """Write the best analysis (`write_spans`) and keep the next ones as span groups."""
        pending = self.pending_scores()
        for doc, prediction in zip(docs, predictions):
            ranked = prediction.ranked
            rows = prediction.rows
            at = None if pending is None else (pending, pending.add(doc, rows), (0, len(rows)))
            group = self.span_group(doc, *ranked[0], at)
            self.write_spans(doc, group)
            for rank in range(1, len(ranked)):
                doc.spans[f"{self.kbest_prefix}_{rank + 1}"] = self.span_group(doc, *ranked[rank])

    @property
    @abstractmethod
    def kbest_prefix(self) -> str:
        """Span groups of the next-best analyses are named `{kbest_prefix}_{rank}`."""
        raise NotImplementedError

    @abstractmethod
    def write_spans(self, doc: Doc, group: SpanGroup) -> None:
        """Write the best analysis of a doc (its spans as a group)."""
        raise NotImplementedError


def span_probabilities(
    crf: CRF,
    emissions: torch.Tensor,
    lengths: torch.Tensor,
    decoded: Sequence[List[Chunk]],
    index: Dict[str, int],
) -> List[numpy.ndarray]:
    """P(exactly this labelled span) for every span of every row (BILUO tags), from one
    forward-backward pass: linear in the rows' length, however many spans they hold."""
    spans = [
        (row, label, start, end)
        for row, chunks in enumerate(decoded)
        for label, start, end in chunks
    ]
    if not spans:
        return [EMPTY for _ in decoded]
    rows, labels, starts, ends = zip(*spans)
    single = [end - start == 1 for _, _, start, end in spans]
    first = [index[f"U-{lab}" if one else f"B-{lab}"] for lab, one in zip(labels, single)]
    inside = [index.get(f"I-{lab}", 0) for lab in labels]
    last = [index[f"U-{lab}" if one else f"L-{lab}"] for lab, one in zip(labels, single)]
    as_tensor = partial(torch.tensor, dtype=torch.long, device=emissions.device)
    log_probs = crf.span_log_probs(
        emissions,
        lengths,
        as_tensor(rows),
        as_tensor(starts),
        as_tensor(ends),
        as_tensor(first),
        as_tensor(inside),
        as_tensor(last),
    )
    probs = torch.exp(log_probs).clamp(0.0, 1.0).cpu().numpy().astype("float32")
    out, i = [], 0
    for chunks in decoded:
        out.append(probs[i : i + len(chunks)])
        i += len(chunks)
    return out


def non_overlapping(spans: Sequence[Span], name: str, example: Example) -> List[Chunk]:
    """Gold spans as chunks, keeping the longest of overlapping ones (with a warning)."""
    kept = filter_spans(spans)
    if len(kept) != len(spans):
        as_tuples = {(s.start, s.end, s.label_) for s in spans}
        dropped = sorted(as_tuples - {(s.start, s.end, s.label_) for s in kept})
        warnings.warn(
            f"[{name}] overlapping gold spans in '{example.reference.text[:60]}': kept the "
            f"longest, dropped {dropped[:5]}.",
            SennaWarning,
        )
    return [(s.label_, s.start, s.end) for s in sorted(kept, key=lambda s: s.start)]
