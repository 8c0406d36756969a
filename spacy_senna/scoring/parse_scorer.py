"""The scorer spaCy calls for senna_parser: EVALB's labelled bracketing (parseval.py) of
each sentence's tree, read from the docs' constituents span group."""

from collections.abc import Iterable
from typing import Any

from spacy.training import Example
from spacy.util import registry

from ..models.sequences import sequence_bounds
from ..syntax.constituents import CONSTITUENTS_KEY, sentence_trees
from .parseval import Parseval


def score_parses(
    examples: Iterable[Example], *, spans_key: str = CONSTITUENTS_KEY, **_
) -> dict[str, Any]:
    """`parse_p`, `parse_r`, `parse_f` (fractions 0..1) over the examples whose reference
    holds a parse, EVALB (COLLINS.prm) counting; a sentence whose words differ from the
    reference's is an error sentence, left out."""
    scores = Parseval()
    for eg in examples:
        if spans_key not in eg.reference.spans:
            continue
        # the reference's sentences on both sides (docs of different lengths: one tree each)
        if len(eg.predicted) == len(eg.reference):
            gold_bounds = test_bounds = sequence_bounds(eg.reference)
        else:
            gold_bounds, test_bounds = [(0, len(eg.reference))], [(0, len(eg.predicted))]
        gold = sentence_trees(eg.reference, spans_key, gold_bounds)
        test = sentence_trees(eg.predicted, spans_key, test_bounds)
        for gold_tree, test_tree in zip(gold, test):
            scores.add(gold_tree, test_tree)
    totals = scores.all
    return {
        "parse_p": totals.precision / 100,
        "parse_r": totals.recall / 100,
        "parse_f": totals.fscore / 100,
    }


@registry.scorers("spacy-senna.parse_scorer.v1")
def make_parse_scorer():
    """Labelled bracketing P/R/F of senna_parser's trees (`parse_f`), EVALB counting."""
    return score_parses
