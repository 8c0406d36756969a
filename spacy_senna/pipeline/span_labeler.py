"""`senna_chunker` (-> doc.spans[key]) and `senna_ner` (-> doc.ents): CRF span labelers.

Both are the shared sequence labeler over BILUO tags (SENNA's IOBES with spaCy's
letters), decoded under the scheme's hard constraints so every output is a valid set of
spans. Each span carries the CRF probability of exactly that labelled span; with
`kbest > 1` the next-best analyses are kept as extra span groups.
"""

import warnings
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

import numpy
import torch
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import filter_spans
from spacy.vocab import Vocab
from thinc.api import Model

from ..models import get_net
from ..tags import allowed_transitions, biluo_labels, biluo_to_chunks, chunks_to_biluo
from .sequence_labeler import SequenceLabeler, default_model_config, per_doc

Chunk = Tuple[str, int, int]
Ranked = Tuple[List[Chunk], numpy.ndarray]
EMPTY = numpy.zeros(0, dtype="float32")


DEFAULT_CHUNKER_MODEL = default_model_config(
    """
[model.features.pos]
@misc = "spacy-senna.AttrFeature.v1"
attr = "tag_"
width = 5
"""
)
DEFAULT_NER_MODEL = default_model_config("")


class SpanLabeler(SequenceLabeler):
    """Labels non-overlapping typed spans through BILUO tags and a constrained CRF."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str,
        *,
        scorer: Optional[Callable] = None,
        kbest: int = 1,
        **cfg,
    ) -> None:
        if kbest < 1:
            raise ValueError(f"[{name}] kbest must be >= 1, got {kbest}")
        super().__init__(vocab, model, name, scorer=scorer, kbest=kbest, **cfg)

    @property
    def tag_names(self) -> List[str]:
        return biluo_labels(self.labels)

    def tag_constraints(self) -> tuple:
        return allowed_transitions(self.tag_names, "BILUO")

    def gold_chunks(self, example: Example) -> Optional[List[Chunk]]:
        """Gold spans on the predicted tokens, or None when the doc is unannotated."""
        raise NotImplementedError

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        chunks = self.gold_chunks(example)
        if chunks is None:
            return [None] * len(example.predicted)
        return chunks_to_biluo(chunks, len(example.predicted))

    def predict(self, docs: Iterable[Doc]) -> List[List[Ranked]]:
        """Per doc, k analyses best first: (spans, probability of each span)."""
        docs = list(docs)
        self._check_inputs(docs)
        k = self.cfg["kbest"]
        if not any(len(doc) for doc in docs):
            return [[([], numpy.zeros(0, dtype="float32"))] * k for _ in docs]
        scores = self.model.predict(self.model_input(docs))
        emissions, lengths = scores.emissions, scores.lengths
        crf = get_net(self.model).criterion
        paths, _ = crf.kbest(emissions, lengths, k)
        tags = self.tag_names
        starts = [start for doc_bounds in scores.bounds for start, _ in doc_bounds]
        per_rank = []
        for rank in range(k):
            decoded = [
                biluo_to_chunks([tags[t] for t in paths[row, rank, :n].tolist() if t >= 0])
                for row, n in enumerate(lengths.tolist())
            ]
            probs = _span_probabilities(crf, emissions, lengths, decoded, self.tag_index)
            shifted = [
                [(label, s + offset, e + offset) for label, s, e in chunks]
                for chunks, offset in zip(decoded, starts)
            ]
            per_rank.append(
                [
                    ([c for seq in seqs for c in seq], numpy.concatenate(ps) if ps else EMPTY)
                    for seqs, ps in zip(
                        per_doc(shifted, scores.bounds), per_doc(probs, scores.bounds)
                    )
                ]
            )
        return [[per_rank[r][b] for r in range(k)] for b in range(len(docs))]

    def set_annotations(self, docs: Iterable[Doc], predictions: List[List[Ranked]]) -> None:
        for doc, ranked in zip(docs, predictions):
            self.write_spans(doc, *ranked[0])
            for rank in range(1, len(ranked)):
                doc.spans[f"{self.kbest_prefix}_{rank + 1}"] = self._span_group(doc, *ranked[rank])

    def _span_group(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> SpanGroup:
        spans = [Span(doc, start, end, label=label) for label, start, end in chunks]
        group = SpanGroup(doc, spans=spans)
        group.attrs["scores"] = numpy.asarray(probs, dtype="float32")
        return group

    @property
    def kbest_prefix(self) -> str:
        return self.name

    def write_spans(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> None:
        raise NotImplementedError


def _span_probabilities(
    crf, emissions: torch.Tensor, lengths: torch.Tensor, decoded: Sequence[List[Chunk]], index
) -> List[numpy.ndarray]:
    """P(exactly this labelled span) for every span, in one batched clamped forward pass."""
    rows, partial = [], []
    T = emissions.shape[1]
    for b, chunks in enumerate(decoded):
        for label, start, end in chunks:
            tags = numpy.full(T, -1, dtype="int64")
            if end - start == 1:
                tags[start] = index[f"U-{label}"]
            else:
                tags[start] = index[f"B-{label}"]
                tags[start + 1 : end - 1] = index[f"I-{label}"]
                tags[end - 1] = index[f"L-{label}"]
            rows.append(b)
            partial.append(tags)
    if not rows:
        return [numpy.zeros(0, dtype="float32") for _ in decoded]
    with torch.no_grad():
        log_z = crf.log_partition(emissions, lengths)
        rows_t = torch.tensor(rows)
        clamped = crf.clamped_log_partition(
            emissions[rows_t], torch.from_numpy(numpy.stack(partial)), lengths[rows_t]
        )
        probs = torch.exp(clamped - log_z[rows_t]).clamp(0.0, 1.0).numpy()
    out, i = [], 0
    for chunks in decoded:
        out.append(probs[i : i + len(chunks)].astype("float32"))
        i += len(chunks)
    return out


@Language.factory(
    "senna_chunker",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_CHUNKER_MODEL,
        "spans_key": "chunks",
        "kbest": 1,
        "scorer": {"@scorers": "spacy-senna.spans_scorer.v1"},
    },
    default_score_weights={"spans_chunks_f": 1.0, "spans_chunks_p": 0.0, "spans_chunks_r": 0.0},
)
def make_senna_chunker(
    nlp: Language,
    name: str,
    model: Model,
    spans_key: str,
    kbest: int,
    scorer: Optional[Callable],
) -> "SennaChunker":
    """SENNA chunker (paper Table 14: word, caps, POS) writing `doc.spans[spans_key]`.

    model (Model): a spacy-senna window tagger; the default reads `token.tag_` (gold in
        training data, or a preceding senna_tagger at run time).
    spans_key (str): the span group to learn from and write to ("chunks"; "pt0" for PT0).
    kbest (int): also keep the next k-1 analyses as `doc.spans[f"{spans_key}_{rank}"]`.
    scorer (Optional[Callable]): span P/R/F with conlleval semantics (`spans_<key>_f`).
    """
    return SennaChunker(nlp.vocab, model, name, spans_key=spans_key, kbest=kbest, scorer=scorer)


class SennaChunker(SpanLabeler):
    """Chunks (or PT0 segments) into a span group; scores in `spans.attrs["scores"]`."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_chunker",
        *,
        spans_key: str = "chunks",
        kbest: int = 1,
        scorer: Optional[Callable] = None,
    ) -> None:
        super().__init__(vocab, model, name, scorer=scorer, kbest=kbest, spans_key=spans_key)

    @property
    def kbest_prefix(self) -> str:
        return self.cfg["spans_key"]

    def labels_from_examples(self, examples: Iterable[Example]) -> List[str]:
        key = self.cfg["spans_key"]
        labels = set()
        for eg in examples:
            for span in eg.reference.spans.get(key, []):
                if not span.label_:
                    raise ValueError(
                        f"[{self.name}] gold span '{span.text}' in doc.spans['{key}'] of "
                        f"'{eg.reference.text[:60]}' has no label: every span needs one."
                    )
                labels.add(span.label_)
        return sorted(labels)

    def gold_chunks(self, example: Example) -> Optional[List[Chunk]]:
        key = self.cfg["spans_key"]
        if key not in example.reference.spans:
            return None
        aligned = example.get_aligned_spans_y2x(example.reference.spans[key], allow_overlap=True)
        return _non_overlapping(aligned, self.name, example)

    def write_spans(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> None:
        doc.spans[self.cfg["spans_key"]] = self._span_group(doc, chunks, probs)


@Language.factory(
    "senna_ner",
    assigns=["doc.ents", "token.ent_iob", "token.ent_type"],
    default_config={
        "model": DEFAULT_NER_MODEL,
        "overwrite": False,
        "scores_key": "senna_ents",
        "kbest": 1,
        "scorer": {"@scorers": "spacy.ner_scorer.v1"},
    },
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_senna_ner(
    nlp: Language,
    name: str,
    model: Model,
    overwrite: bool,
    scores_key: str,
    kbest: int,
    scorer: Optional[Callable],
) -> "SennaNER":
    """SENNA named-entity recogniser (paper Table 14: word, caps, gazetteer) -> doc.ents.

    model (Model): a spacy-senna window tagger (add a GazetteerFeature for SENNA's set).
    overwrite (bool): False keeps entities already on the doc and adds only predicted
        entities that do not overlap them; True replaces them all.
    scores_key (str): span group holding the predicted entities with their CRF
        probabilities in `attrs["scores"]` (doc.ents cannot carry scores).
    kbest (int): also keep the next k-1 analyses as `doc.spans[f"{scores_key}_{rank}"]`.
    scorer (Optional[Callable]): entity P/R/F (`ents_f`, `ents_per_type`).
    """
    return SennaNER(
        nlp.vocab,
        model,
        name,
        overwrite=overwrite,
        scores_key=scores_key,
        kbest=kbest,
        scorer=scorer,
    )


class SennaNER(SpanLabeler):
    """Entities into `doc.ents`, with their probabilities in `doc.spans[scores_key]`."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_ner",
        *,
        overwrite: bool = False,
        scores_key: str = "senna_ents",
        kbest: int = 1,
        scorer: Optional[Callable] = None,
    ) -> None:
        super().__init__(
            vocab,
            model,
            name,
            scorer=scorer,
            kbest=kbest,
            overwrite=overwrite,
            scores_key=scores_key,
        )

    @property
    def kbest_prefix(self) -> str:
        return self.cfg["scores_key"]

    def labels_from_examples(self, examples: Iterable[Example]) -> List[str]:
        return sorted({ent.label_ for eg in examples for ent in eg.reference.ents})

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        if not example.reference.has_annotation("ENT_IOB"):
            return [None] * len(example.predicted)
        return [None if tag in (None, "-", "") else tag for tag in example.get_aligned_ner()]

    def write_spans(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> None:
        group = self._span_group(doc, chunks, probs)
        doc.spans[self.cfg["scores_key"]] = group
        if self.cfg["overwrite"] or not doc.ents:
            doc.set_ents(list(group), default="outside")
            return
        taken = numpy.zeros(len(doc), dtype=bool)
        for ent in doc.ents:
            taken[ent.start : ent.end] = True
        new = [span for span in group if not taken[span.start : span.end].any()]
        doc.set_ents(list(doc.ents) + new, default="unmodified")


def _non_overlapping(spans: Sequence[Span], name: str, example: Example) -> List[Chunk]:
    kept = filter_spans(spans)
    if len(kept) != len(spans):
        as_tuples = {(s.start, s.end, s.label_) for s in spans}
        dropped = sorted(as_tuples - {(s.start, s.end, s.label_) for s in kept})
        warnings.warn(
            f"[{name}] overlapping gold spans in '{example.reference.text[:60]}': kept the "
            f"longest, dropped {dropped[:5]}."
        )
    return [(s.label_, s.start, s.end) for s in sorted(kept, key=lambda s: s.start)]


__all__ = ["SennaChunker", "SennaNER"]
