"""Same-run parsing speed of two parser pipelines on the same gold-tagged sentences.

usage: python benchmarks/speed/parser_speed.py PIPELINE_A PIPELINE_B DATA.spacy
       [--copy-attrs tag_] [--rounds 5] [--batch-size 256] [--limit N]

A parser reads its tags from the docs (a tagger before it, or the corpus'), so
compare_speed.py, which hands the pipelines bare words, cannot time it as it runs in a
benchmark. This reads DATA with spacy-senna.Corpus.v1 (`--copy-attrs tag_`: the corpus'
POS tags as input, as benchmarks/accuracy/evaluate.py does) and times `nlp.pipe` over fresh copies
of those docs, pipeline A and B in alternating rounds in one process after a warm-up.
Prints the median words/s of each and the median of the per-round ratios A/B.
"""

import argparse
import statistics
import time
from typing import List

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_senna.corpora.readers import create_corpus_with_inputs


def seconds(nlp: Language, docs: List[Doc], batch_size: int) -> float:
    """Time of `nlp.pipe` over copies of `docs`."""
    copies = [doc.copy() for doc in docs]
    start = time.perf_counter()
    for _ in nlp.pipe(copies, batch_size=batch_size):
        pass
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("data")
    p.add_argument("--copy-attrs", nargs="*", default=["tag_"])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--limit", type=int, default=0)
    args = p.parse_args()
    nlp_a, nlp_b = spacy.load(args.a), spacy.load(args.b)
    corpus = create_corpus_with_inputs(args.data, copy_attrs=args.copy_attrs, gold_preproc=True)
    docs = [eg.predicted for eg in corpus(nlp_a)]
    if args.limit:
        docs = docs[: args.limit]
    n = sum(len(doc) for doc in docs)
    seconds(nlp_a, docs[:200], args.batch_size)
    seconds(nlp_b, docs[:200], args.batch_size)
    ratios, words_a, words_b = [], [], []
    for _ in range(args.rounds):
        time_a = seconds(nlp_a, docs, args.batch_size)
        time_b = seconds(nlp_b, docs, args.batch_size)
        ratios.append(time_b / time_a)
        words_a.append(n / time_a)
        words_b.append(n / time_b)
    print(f"{n} words x {args.rounds} rounds")
    print(f"A {args.a}: {statistics.median(words_a):,.0f} words/s")
    print(f"B {args.b}: {statistics.median(words_b):,.0f} words/s")
    print(f"A/B speed ratio (median of rounds): {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
