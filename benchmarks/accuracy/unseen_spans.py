"""Span F1 of a pipeline over all spans, and over the spans that hold a word unseen in
training: how well a model generalises to rare words.

usage: python benchmarks/accuracy/unseen_spans.py TRAIN.spacy TEST.spacy PIPELINE...
       [--key chunks] [--copy-attrs tag_]

A span (gold or predicted) counts as unseen when one of its words, lowercased, occurs
nowhere in TRAIN. `--copy-attrs` gives the pipeline the corpus' own token attributes as
input (POS for a chunker), as `benchmarks/accuracy/evaluate.py` does; over all spans the F1 is
the one `evaluate.py` prints.
"""

import argparse
from typing import Dict, List, Set, Tuple

import spacy
from spacy.tokens import Doc, DocBin

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.scoring.counts import prf

SpanKey = Tuple[int, int, str]


def spans(doc: Doc, key: str) -> Set[SpanKey]:
    group = doc.ents if key == "ents" else doc.spans.get(key, [])
    return {(s.start, s.end, s.label_) for s in group}


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
            gold, predicted = spans(eg.reference, args.key), spans(doc, args.key)
            new = {i for i, t in enumerate(doc) if t.lower_ not in seen}
            both = gold | predicted
            unseen = {s for s in both if new.intersection(range(s[0], s[1]))}
            for name, keep in (("all", both), ("unseen", unseen)):
                counts[name][0] += len(gold & predicted & keep)
                counts[name][1] += len(gold & keep)
                counts[name][2] += len(predicted & keep)
        scores = {name: prf(*c) for name, c in counts.items()}
        print(
            f"{path}: all F1 {100 * scores['all']['f']:.2f} ({counts['all'][1]:,} gold); "
            f"with an unseen word F1 {100 * scores['unseen']['f']:.2f} "
            f"({counts['unseen'][1]:,} gold)"
        )


if __name__ == "__main__":
    main()
