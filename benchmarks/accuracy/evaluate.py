"""Evaluate a pipeline on gold tokens, optionally with gold input attributes (cascades).

usage: python benchmarks/accuracy/evaluate.py PIPELINE DATA.spacy [--copy-attrs tag_]
       [--copy-spans srl_predicates] [--before PIPELINE ...] [--output FILE]

Like `spacy evaluate --gold-preproc`, but reads the data with spacy-senna.Corpus.v1 so
that `--copy-attrs tag_` gives a chunker the corpus' POS tags as input: the paper's
setup (§6.3, CoNLL-provided POS), and `--copy-spans srl_predicates` gives senna_srl the
given predicates. Without them a preceding senna_tagger must supply the tags.
`--before` puts the components of other pipelines first, for a cascade whose parts were
trained apart (e.g. a PT0 chunker before senna_srl: `--copy-attrs tag_ --copy-spans
srl_predicates --before training/pt0/model-best`). Prints the scores and writes them
as JSON.
"""

import argparse
import json
from pathlib import Path

import spacy
from pipelines import put_before

from spacy_senna.corpora.readers import create_corpus_with_inputs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("data")
    p.add_argument("--copy-attrs", nargs="*", default=[])
    p.add_argument("--copy-spans", nargs="*", default=[])
    p.add_argument("--before", nargs="*", default=[], help="pipelines whose components run first")
    p.add_argument("--output")
    args = p.parse_args()
    nlp = put_before(spacy.load(args.pipeline), args.before)
    corpus = create_corpus_with_inputs(
        args.data, copy_attrs=args.copy_attrs, copy_spans=args.copy_spans, gold_preproc=True
    )
    scores = nlp.evaluate(list(corpus(nlp)))
    keys = [k for k in scores if k.endswith(("_f", "_p", "_r", "_acc")) or k == "speed"]
    for key in keys:
        value = f"{scores[key]:,.0f}" if key == "speed" else f"{scores[key]:.4f}"
        print(f"{key:>20}: {value}")
    if args.output:
        Path(args.output).write_text(json.dumps(scores, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
