"""`senna_chunker`: SENNA's chunker (word, caps, POS window network + CRF) -> doc.spans[key].

With `spans_key = "pt0"` the same component is the PT0 (parse tree level 0) segmenter
whose spans SRL reads. Each span carries the CRF probability of exactly that span.
Its NP chunks are also the docs' `doc.noun_chunks` (see noun_chunks.py).
"""

from typing import Callable, Iterable, List, Optional, Union

from spacy.language import Language
from spacy.tokens import Doc, SpanGroup
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Model

from ..labels.tags import Chunk, chunks_to_biluo
from ..syntax.noun_chunks import read_noun_chunks_from
from .defaults import default_model_config
from .spans import DocSpanLabeler, non_overlapping

DEFAULT_CHUNKER_MODEL = default_model_config(
    """
[model.features.pos]
@misc = "spacy-senna.AttrFeature.v1"
attr = "tag_"
width = 5
"""
)


@Language.factory(
    "senna_chunker",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_CHUNKER_MODEL,
        "spans_key": "chunks",
        "kbest": 1,
        "span_scores": True,
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
    span_scores: Union[bool, str] = True,
) -> "SennaChunker":
    """SENNA chunker (paper Table 14: word, caps, POS) writing `doc.spans[spans_key]`.

    model (Model): a spacy-senna window tagger; the default reads `token.tag_` (gold in
        training data, or a preceding senna_tagger at run time).
    spans_key (str): the span group to learn from and write to ("chunks"; "pt0" for PT0);
        its NP spans are also `doc.noun_chunks` (the pipeline's first chunker's).
    kbest (int): also keep the next k-1 analyses as `doc.spans[f"{spans_key}_{rank}"]`.
    span_scores (Union[bool, str]): give each span its CRF probability in `attrs["scores"]`
        of the span group: true computes them when first read (for the whole batch at
        once), "eager" with the spans (when every one will be read), false never.
    scorer (Optional[Callable]): span P/R/F with conlleval semantics (`spans_<key>_f`).
    """
    return SennaChunker(
        nlp.vocab,
        model,
        name,
        spans_key=spans_key,
        kbest=kbest,
        span_scores=span_scores,
        scorer=scorer,
    )


class SennaChunker(DocSpanLabeler):
    """Chunks (or PT0 segments) into a span group; scores in `spans.attrs["scores"]`."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_chunker",
        *,
        spans_key: str = "chunks",
        kbest: int = 1,
        span_scores: Union[bool, str] = True,
        scorer: Optional[Callable] = None,
    ) -> None:
        super().__init__(
            vocab,
            model,
            name,
            scorer=scorer,
            kbest=kbest,
            span_scores=span_scores,
            spans_key=spans_key,
        )
        read_noun_chunks_from(vocab, spans_key)

    @property
    def kbest_prefix(self) -> str:
        """Next-best analyses go to `doc.spans[f"{spans_key}_{rank}"]`."""
        return self.cfg["spans_key"]

    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The labels of the gold spans in `doc.spans[spans_key]`."""
        key = self.cfg["spans_key"]
        labels = set()
        for doc in docs:
            for span in doc.spans.get(key, []):
                if not span.label_:
                    raise ValueError(
                        f"[{self.name}] gold span '{span.text}' in doc.spans['{key}'] of "
                        f"'{doc.text[:60]}' has no label: every span needs one."
                    )
                labels.add(span.label_)
        return sorted(labels)

    def gold_chunks(self, example: Example) -> Optional[List[Chunk]]:
        """The reference's spans aligned to the predicted tokens (None: unannotated)."""
        key = self.cfg["spans_key"]
        if key not in example.reference.spans:
            return None
        aligned = example.get_aligned_spans_y2x(example.reference.spans[key], allow_overlap=True)
        return non_overlapping(aligned, self.name, example)

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """The gold spans as BILUO tags (None everywhere when the doc has no such group)."""
        chunks = self.gold_chunks(example)
        if chunks is None:
            return [None] * len(example.predicted)
        return chunks_to_biluo(chunks, len(example.predicted))

    def write_spans(self, doc: Doc, group: SpanGroup) -> None:
        """Replace `doc.spans[spans_key]` with the predicted spans."""
        doc.spans[self.cfg["spans_key"]] = group
