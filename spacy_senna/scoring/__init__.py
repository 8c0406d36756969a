"""Scoring (paper §1.4): conlleval chunk F1 and its report, srl-eval.pl argument F1, and
the scorers registered for spaCy."""

from .chunks import score_chunks
from .conlleval import CONLLEVAL_BOUNDARY, ConllevalCounter, conlleval, format_conlleval
from .counts import prf, prf_by_type
from .scorers import make_spans_scorer, make_srl_scorer, score_span_group
from .srl import frame_arguments, score_srl

__all__ = [
    "CONLLEVAL_BOUNDARY",
    "ConllevalCounter",
    "conlleval",
    "format_conlleval",
    "frame_arguments",
    "make_spans_scorer",
    "make_srl_scorer",
    "prf",
    "prf_by_type",
    "score_chunks",
    "score_span_group",
    "score_srl",
]
