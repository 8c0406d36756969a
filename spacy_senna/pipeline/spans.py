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
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy
import torch
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import filter_spans
from spacy.vocab import Vocab
from thinc.api import Model

from ..layers.crf import CRF
from ..models import get_net
from ..sequences import Sequences
from ..tags import Chunk, allowed_transitions, biluo_labels, biluo_paths_to_chunks
from .rows import Row
from .sequence_labeler import SennaWarning, SequenceLabeler
from .whitespace import to_doc_chunks

#: the analyses of one row, best first: (chunks relative to the row, their probabilities)
Ranked = List[Tuple[List[Chunk], numpy.ndarray]]
EMPTY = numpy.zeros(0, dtype="float32")


class SpanLabeler(SequenceLabeler):
    """Labels non-overlapping typed spans of each row through BILUO tags and a CRF."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str,
        *,
        scorer: Optional[Callable] = None,
        kbest: int = 1,
        span_scores: bool = True,
        **cfg,
    ) -> None:
        if kbest < 1:
            raise ValueError(f"[{name}] kbest must be >= 1, got {kbest}")
        super().__init__(vocab, model, name, scorer=scorer, kbest=kbest, **cfg)
        # a run-time switch from the config, not saved in cfg (from_disk would restore it)
        self.span_scores = span_scores

    @property
    def tag_names(self) -> List[str]:
        """The BILUO expansion of the labels."""
        return biluo_labels(self.labels)

    def tag_constraints(self) -> tuple:
        """BILUO's allowed transitions, starts and ends."""
        return allowed_transitions(self.tag_names, "BILUO")

    def row_results(self, scores: Sequences) -> List[Ranked]:
        """Per row, its k best analyses: chunks (row offsets) and span probabilities."""
        crf = get_net(self.model).criterion
        lengths = scores.lengths
        paths, _ = crf.kbest(scores.emissions, lengths, self.cfg["kbest"])
        paths = paths.cpu().numpy()
        per_rank = []
        for rank in range(paths.shape[1]):
            chunks = biluo_paths_to_chunks(paths[:, rank], lengths.tolist(), self.tag_names)
            if self.span_scores:
                probs = span_probabilities(crf, scores.emissions, lengths, chunks, self.tag_index)
            else:
                probs = [numpy.full(len(c), numpy.nan, dtype="float32") for c in chunks]
            per_rank.append(list(zip(chunks, probs)))
        return [list(analyses) for analyses in zip(*per_rank)]

    def span_group(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> SpanGroup:
        """A span group of `chunks` with their probabilities in `attrs["scores"]` (none
        with `span_scores` off)."""
        spans = [Span(doc, start, end, label=label) for label, start, end in chunks]
        group = SpanGroup(doc, spans=spans)
        if self.span_scores:
            group.attrs["scores"] = numpy.asarray(probs, dtype="float32")
        return group


class DocSpanLabeler(SpanLabeler):
    """A span labeler whose rows (sentences) together make one span group per doc."""

    def doc_prediction(self, doc: Doc, rows: List[Row], results: List[Ranked]) -> Ranked:
        """Per rank, the spans of all the doc's rows (doc offsets) and their probabilities."""
        out = []
        for rank in range(self.cfg["kbest"]):
            chunks = [
                (label, s + row.start, e + row.start)
                for row, ranked in zip(rows, results)
                for label, s, e in ranked[rank][0]
            ]
            probs = [ranked[rank][1] for ranked in results]
            out.append((chunks, numpy.concatenate(probs) if probs else EMPTY))
        return out

    def prediction_on_doc(self, ranked: Ranked, kept: numpy.ndarray, n_tokens: int) -> Ranked:
        """Every analysis's spans in the doc's offsets (over any whitespace inside)."""
        return [(to_doc_chunks(chunks, kept), probs) for chunks, probs in ranked]

    def set_annotations(self, docs: Sequence[Doc], predictions: List[Ranked]) -> None:
        """Write the best analysis (`write_spans`) and keep the next ones as span groups."""
        for doc, ranked in zip(docs, predictions):
            self.write_spans(doc, *ranked[0])
            for rank in range(1, len(ranked)):
                doc.spans[f"{self.kbest_prefix}_{rank + 1}"] = self.span_group(doc, *ranked[rank])

    @property
    @abstractmethod
    def kbest_prefix(self) -> str:
        """Span groups of the next-best analyses are named `{kbest_prefix}_{rank}`."""
        raise NotImplementedError

    @abstractmethod
    def write_spans(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> None:
        """Write the best analysis of a doc."""
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
