"""How much the batch size moves the components' span probabilities.

usage: python benchmarks/accuracy/batch_invariance.py PIPELINE DATA.spacy [DATA.spacy ...]
       [--limit 600] [--batch-size 1000]

Annotates the texts of the given corpora one by one (`nlp(text)`) and in one
`nlp.pipe(texts, batch_size=...)` run, and prints, per span group prefix, the largest
absolute difference between the two runs' `attrs["scores"]` (and how many groups came
out with different spans, which should be none).
"""

import argparse
from collections import defaultdict

import numpy
import spacy
from spacy.tokens import DocBin

import spacy_senna  # noqa: F401


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("data", nargs="+")
    p.add_argument("--limit", type=int, default=600)
    p.add_argument("--batch-size", type=int, default=1000)
    args = p.parse_args()
    nlp = spacy.load(args.pipeline)
    texts = []
    for path in args.data:
        texts += [doc.text for doc in DocBin().from_disk(path).get_docs(nlp.vocab)]
    texts = texts[: args.limit]
    one_by_one = [nlp(text) for text in texts]
    batched = list(nlp.pipe(texts, batch_size=args.batch_size))
    worst, differing = defaultdict(float), defaultdict(int)
    for a, b in zip(one_by_one, batched):
        for key, group in a.spans.items():
            prefix = key.split(":")[0]
            other = b.spans.get(key)
            if other is None or [(s.start, s.end, s.label_) for s in group] != [
                (s.start, s.end, s.label_) for s in other
            ]:
                differing[prefix] += 1
                continue
            u = numpy.asarray(group.attrs.get("scores", []), dtype="float64")
            v = numpy.asarray(other.attrs.get("scores", []), dtype="float64")
            if len(u):
                worst[prefix] = max(worst[prefix], float(numpy.abs(u - v).max()))
    print(f"{len(texts)} texts, nlp() vs nlp.pipe(batch_size={args.batch_size})")
    for prefix in sorted(set(worst) | set(differing)):
        print(
            f"{prefix:>16}: max |score difference| {worst[prefix]:.2e}, "
            f"groups with different spans: {differing[prefix]}"
        )


if __name__ == "__main__":
    main()
