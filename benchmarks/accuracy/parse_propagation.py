"""How much of a parser's error comes from building on its own wrong levels.

    python benchmarks/accuracy/parse_propagation.py training/wsj-heads/model-best \
        corpus/wsj-trees/dev.mrg.spacy --sentences 600

Two labelled-span scores over the same trees (spans as the parser writes them, unary
chains collapsed, no EVALB rules, so not `score parse`'s F1): each level predicted from
the gold levels below it against the gold level's nodes ("given gold levels", the way it
is trained without `explore`), and the trees the parser builds itself. The gap is what
its errors cost the levels above them.
"""

import argparse
from pathlib import Path
from typing import Dict, List, Tuple

import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_senna.corpora.readers import copy_inputs, gold_tokens
from spacy_senna.pipeline.parser import LEVEL_KEY
from spacy_senna.scoring.chunks import score_chunks
from spacy_senna.syntax.parse_levels import collapse_unary


def propagation(nlp, references: List[Doc], name: str = "senna_parser") -> Dict[str, Dict]:
    """The scores given gold levels and on the parser's own trees (`references`: gold
    trees with tags, read as the parser's input)."""
    parser = nlp.get_pipe(name)
    examples = []
    for reference in references:
        example = Example(gold_tokens(reference), reference)
        copy_inputs(example, ["tag_"])
        examples.append(example)
    levels = [doc for eg in examples for doc in parser._training_levels(eg)]
    frontiers = [parser._history_nodes(doc) for doc in levels]
    decoded = parser._decode(parser.model_calls(levels), frontiers)
    gold_levels = [[(s.label_, s.start, s.end) for s in doc.spans[LEVEL_KEY]] for doc in levels]
    trees = parser.pipe([eg.predicted for eg in examples])
    key = parser.spans_key

    def nodes(doc: Doc) -> List[Tuple[str, int, int]]:
        return collapse_unary([(s.label_, s.start, s.end) for s in doc.spans[key]])

    return {
        "given_gold_levels": score_chunks(gold_levels, decoded),
        "own_trees": score_chunks(
            [nodes(ref) for ref in references], [nodes(doc) for doc in trees]
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path, help="a pipeline with a trained senna_parser")
    parser.add_argument("trees", type=Path, help="a .spacy corpus of gold trees (with tags)")
    parser.add_argument("--sentences", type=int, default=0, help="the first N docs (0: all)")
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    references = list(DocBin().from_disk(args.trees).get_docs(nlp.vocab))
    if args.sentences:
        references = references[: args.sentences]
    scores = propagation(nlp, references)
    for name, score in scores.items():
        p, r, f = (100 * score[k] for k in "prf")
        print(f"{name:18} P {p:.2f}  R {r:.2f}  F {f:.2f}  ({score['n_gold']} gold nodes)")


if __name__ == "__main__":
    main()
