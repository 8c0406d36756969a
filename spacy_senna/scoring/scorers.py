"""The scorers spaCy calls (`spacy train`, `spacy evaluate`), registered by name."""

from typing import Any, Callable, Dict, Iterable

from spacy.scorer import Scorer
from spacy.training import Example
from spacy.util import registry

from .srl import score_srl


def score_span_group(
    examples: Iterable[Example], *, spans_key: str = "chunks", **_
) -> Dict[str, Any]:
    """`spans_<key>_p/r/f` and `spans_<key>_per_type`: exact (start, end, label) matches,
    the same counting conlleval does on the chunks read from the tag columns."""
    return Scorer.score_spans(
        examples,
        attr=f"spans_{spans_key}",
        getter=lambda doc, attr: doc.spans.get(attr[len("spans_") :], []),
        has_annotation=lambda doc: spans_key in doc.spans,
        allow_overlap=False,
    )


@registry.scorers("spacy-senna.spans_scorer.v1")
def make_spans_scorer() -> Callable:
    """Span P/R/F for the span group a senna_chunker writes (its `spans_key`)."""
    return score_span_group


@registry.scorers("spacy-senna.srl_scorer.v1")
def make_srl_scorer() -> Callable:
    """Argument P/R/F of senna_srl frames (`srl_f`), srl-eval.pl counting."""
    return score_srl
