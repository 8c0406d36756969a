"""Span F1 of a pipeline over all spans, and over the spans that hold a word unseen in
training: how well a model generalises to rare words.

usage: python benchmarks/unseen_spans.py TRAIN.spacy TEST.spacy PIPELINE...
       [--key chunks] [--copy-attrs tag_]

A span (gold or predicted) counts as unseen when one of its words, lowercased, occurs
nowhere in TRAIN. `--copy-attrs` gives the pipeline the corpus' own token attributes as
input (POS for a chunker), as `benchmarks/evaluate.py` does; over all spans the F1 is
the one `evaluate.py` prints.
"""

import argparse
from typing import Callable, Dict, List, Set, Tuple

import spacy
from spacy.tokens import Doc, DocBin

from spacy_senna.readers import create_corpus_with_inputs

SpanKey = Tuple[int, int, str]


def spans(doc: Doc, key: str) -> Set[SpanKey]:
    group = doc.ents if key == "ents" else doc.spans.get(key, [])
    return {(s.start, s.end, s.label_) for s in group}


def f1(counts: List[int]) -> float:
    correct, gold, predicted = counts
    return 200.0 * correct / (gold + predicted) if gold + predicted else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("train")
    p.add_argument("test")
    p.add_argument("pipelines", nargs="+")
    p.add_argument("--key", default="chunks", help="span group, or 'ents' for doc.ents")
    p.add_argument("--copy-attrs", nargs="*", default=["tag_"])
    args = p.parse_args()
    vocab = spacy.blank("en").vocab
    seen = {t.lower_ for doc in DocBin().from_disk(args.train).get_docs(vocab) for t in doc}
    for path in args.pipelines:
        nlp = spacy.load(path)
        corpus = create_corpus_with_inputs(args.test, copy_attrs=args.copy_attrs, gold_preproc=True)
        examples = list(corpus(nlp))
        counts: Dict[str, List[int]] = {"all": [0, 0, 0], "unseen": [0, 0, 0]}
        for eg, doc in zip(examples, nlp.pipe(eg.predicted for eg in examples)):

            def unseen(span: SpanKey, doc: Doc = doc) -> bool:
                return any(t.lower_ not in seen for t in doc[span[0] : span[1]])

            selections: Dict[str, Callable[[SpanKey], bool]] = {"all": bool, "unseen": unseen}
            for name, keep in selections.items():
                gold = {s for s in spans(eg.reference, args.key) if keep(s)}
                predicted = {s for s in spans(doc, args.key) if keep(s)}
                counts[name][0] += len(gold & predicted)
                counts[name][1] += len(gold)
                counts[name][2] += len(predicted)
        print(
            f"{path}: all F1 {f1(counts['all']):.2f} ({counts['all'][1]:,} gold); "
            f"with an unseen word F1 {f1(counts['unseen']):.2f} ({counts['unseen'][1]:,} gold)"
        )


if __name__ == "__main__":
    main()
