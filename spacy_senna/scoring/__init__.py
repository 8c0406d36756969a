"""Scoring (paper §1.4): conlleval chunk F1 and its report, srl-eval.pl argument F1 and
its report (with the CoNLL-2005 props format), and the scorers registered for spaCy."""

from .chunks import score_chunks
from .conlleval import CONLLEVAL_BOUNDARY, ConllevalCounter, conlleval, format_conlleval
from .counts import prf, prf_by_type
from .props import PropsSentence, props_lines, read_props, start_end_chunks, start_end_column
from .scorers import make_spans_scorer, make_srl_scorer, score_span_group
from .srl import frame_arguments, score_srl
from .srl_eval import SrlEvalCounter, srl_eval

__all__ = [
    "CONLLEVAL_BOUNDARY",
    "ConllevalCounter",
    "conlleval",
    "format_conlleval",
    "frame_arguments",
    "make_spans_scorer",
    "make_srl_scorer",
    "PropsSentence",
    "SrlEvalCounter",
    "prf",
    "prf_by_type",
    "props_lines",
    "read_props",
    "score_chunks",
    "score_span_group",
    "score_srl",
    "srl_eval",
    "start_end_chunks",
    "start_end_column",
]
