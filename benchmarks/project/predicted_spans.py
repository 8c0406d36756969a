"""Replace one span group of a corpus with a pipeline's predictions (e.g. SRL training
data whose PT0 input comes from the PT0 network instead of the Charniak parse).

usage: python benchmarks/project/predicted_spans.py PIPELINE IN.spacy OUT.spacy --key pt0
       [--copy-attrs tag_]

Runs PIPELINE on bare copies of IN's documents (gold tokens; `--copy-attrs` gives it the
corpus' own token attributes as input, e.g. POS for the PT0 chunker) and writes IN's
documents with `doc.spans[KEY]` replaced by what the pipeline wrote there; everything else
is kept. Prints how well the predictions agree with the replaced spans (P/R/F1).
"""

import argparse
from pathlib import Path

import spacy
from spacy.tokens import DocBin, Span
from spacy.training import Example

from spacy_senna.corpora.readers import copy_inputs, gold_tokens
from spacy_senna.scoring.chunks import score_chunks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("input", type=Path)
    p.add_argument("output", type=Path)
    p.add_argument("--key", required=True)
    p.add_argument("--copy-attrs", nargs="*", default=[])
    args = p.parse_args()
    nlp = spacy.load(args.pipeline)
    references = list(DocBin().from_disk(args.input).get_docs(nlp.vocab))
    inputs = []
    for ref in references:
        eg = Example(gold_tokens(ref), ref)
        copy_inputs(eg, args.copy_attrs)
        inputs.append(eg.predicted)
    gold, predicted = [], []
    out = DocBin(store_user_data=True)
    for ref, doc in zip(references, nlp.pipe(inputs)):
        spans = doc.spans.get(args.key, [])
        gold.append([(s.label_, s.start, s.end) for s in ref.spans.get(args.key, [])])
        predicted.append([(s.label_, s.start, s.end) for s in spans])
        ref.spans[args.key] = [Span(ref, s.start, s.end, label=s.label_) for s in spans]
        out.add(ref)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    out.to_disk(args.output)
    scores = score_chunks(gold, predicted)
    print(f"wrote {args.output}: {len(references):,} docs")
    print(
        f"agreement with the replaced '{args.key}' spans: P {100 * scores['p']:.2f} "
        f"R {100 * scores['r']:.2f} F1 {100 * scores['f']:.2f}"
    )


if __name__ == "__main__":
    main()
