"""Span F1 of one trained span labeler under three decoders (paper Table 4 setting).

usage: python benchmarks/accuracy/decoding_ablation.py PIPELINE DATA.spacy [--component NAME]
       [--copy-attrs tag_] [--output FILE.json]

The components decode under the tag scheme's hard constraints, which also fixes the
invalid tag sequences a word-level (WLL) model produces. The paper's WLL networks
predicted each word's best tag; this script scores the same emissions three ways:
constrained Viterbi (what the component outputs), unconstrained Viterbi (learned
transitions only), and per-token argmax (no transitions, no constraints). Tag sequences
are read leniently as conlleval does (`I-X` after `O` starts a chunk).
"""

import argparse
import json
from pathlib import Path

import spacy
import torch

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.labels.tags import biluo_to_chunks
from spacy_senna.models.senna_model import get_net
from spacy_senna.scoring import score_chunks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("data")
    p.add_argument("--component", help="span labeler name (default: the last one)")
    p.add_argument("--copy-attrs", nargs="*", default=[])
    p.add_argument("--output", help="also write the F1 of each decoder as JSON")
    args = p.parse_args()
    nlp = spacy.load(args.pipeline)
    name = args.component or nlp.pipe_names[-1]
    component = nlp.get_pipe(name)
    examples = list(create_corpus_with_inputs(args.data, args.copy_attrs, gold_preproc=True)(nlp))
    gold, docs = [], []
    for eg in examples:
        docs.append(eg.predicted)
        gold.append(biluo_to_chunks([t or "O" for t in component.gold_tags(eg)]))
    for other in nlp.pipe_names[: nlp.pipe_names.index(name)]:
        docs = list(nlp.get_pipe(other).pipe(docs))
    crf = get_net(component.model).criterion
    tags = component.tag_names
    with torch.no_grad():
        scores = [component.model.predict(docs[i : i + 256]) for i in range(0, len(docs), 256)]
        constrained = _per_doc(scores, tags, lambda s: crf.decode(s.emissions, s.lengths))
        unconstrained = _per_doc(
            scores, tags, lambda s: crf.decode(s.emissions, s.lengths, constrained=False)
        )
        argmax = _per_doc(scores, tags, lambda s: s.emissions.argmax(-1))
    results = {
        "constrained Viterbi (component output)": constrained,
        "unconstrained Viterbi": unconstrained,
        "per-token argmax": argmax,
    }
    print(f"{args.pipeline} on {args.data} ({len(docs)} sentences)")
    f1 = {label: score_chunks(gold, pred)["f"] for label, pred in results.items()}
    for label, value in f1.items():
        print(f"{label:>40}: F1 {100 * value:.2f}")
    if args.output:
        Path(args.output).write_text(json.dumps(f1, indent=2), encoding="utf8")


def _per_doc(scores, tags, paths_of):
    """Chunks per doc (sequence offsets applied) from each batch's decoded tag ids."""
    out = []
    for s in scores:
        rows = iter(zip(paths_of(s).tolist(), s.lengths.tolist()))
        for doc_bounds in s.bounds:
            chunks = []
            for start, _ in doc_bounds:
                path, n = next(rows)
                chunks.extend(
                    (label, start + b, start + e)
                    for label, b, e in biluo_to_chunks([tags[t] for t in path[:n]])
                )
            out.append(chunks)
    return out


if __name__ == "__main__":
    main()
