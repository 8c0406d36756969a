"""`senna_ner`: SENNA's named-entity recogniser (word, caps (+ gazetteer) window network +
CRF) -> doc.ents, with each entity's CRF probability in `doc.spans[scores_key]`."""

from typing import Callable, Iterable, List, Optional, Union

import numpy
from spacy.language import Language
from spacy.tokens import Doc, SpanGroup
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Model

from .defaults import default_model_config
from .spans import DocSpanLabeler

DEFAULT_NER_MODEL = default_model_config("")


@Language.factory(
    "senna_ner",
    assigns=["doc.ents", "token.ent_iob", "token.ent_type"],
    default_config={
        "model": DEFAULT_NER_MODEL,
        "overwrite": False,
        "scores_key": "senna_ents",
        "kbest": 1,
        "span_scores": True,
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
    span_scores: Union[bool, str] = True,
) -> "SennaNER":
    """SENNA named-entity recogniser (paper Table 14: word, caps, gazetteer) -> doc.ents.

    model (Model): a spacy-senna window tagger (add a GazetteerFeature for SENNA's set).
    overwrite (bool): False keeps entities already on the doc and adds only predicted
        entities that do not overlap them; True replaces them all.
    scores_key (str): span group holding the predicted entities with their CRF
        probabilities in `attrs["scores"]` (doc.ents cannot carry scores).
    kbest (int): also keep the next k-1 analyses as `doc.spans[f"{scores_key}_{rank}"]`.
    span_scores (Union[bool, str]): give each span its CRF probability in `attrs["scores"]`
        of the span group: true computes them when first read (for the whole batch at
        once), "eager" with the spans (when every one will be read), false never.
    scorer (Optional[Callable]): entity P/R/F (`ents_f`, `ents_per_type`).
    """
    return SennaNER(
        nlp.vocab,
        model,
        name,
        overwrite=overwrite,
        scores_key=scores_key,
        kbest=kbest,
        span_scores=span_scores,
        scorer=scorer,
    )


class SennaNER(DocSpanLabeler):
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
            overwrite=overwrite,
            scores_key=scores_key,
        )

    @property
    def kbest_prefix(self) -> str:
        """Next-best analyses go to `doc.spans[f"{scores_key}_{rank}"]`."""
        return self.cfg["scores_key"]

    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The labels of the reference entities."""
        return sorted({ent.label_ for doc in docs for ent in doc.ents})

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """spaCy's aligned BILUO entity tags; None where missing."""
        if not example.reference.has_annotation("ENT_IOB"):
            return [None] * len(example.predicted)
        return [None if tag in (None, "-", "") else tag for tag in example.get_aligned_ner()]

    def write_spans(self, doc: Doc, group: SpanGroup) -> None:
        """Entities into doc.ents (keeping existing ones unless overwrite) and the scores group."""
        doc.spans[self.cfg["scores_key"]] = group
        if self.cfg["overwrite"] or not doc.ents:
            doc.set_ents(list(group), default="outside")
            return
        taken = numpy.zeros(len(doc), dtype=bool)
        for ent in doc.ents:
            taken[ent.start : ent.end] = True
        new = [span for span in group if not taken[span.start : span.end].any()]
        doc.set_ents(list(doc.ents) + new, default="unmodified")
