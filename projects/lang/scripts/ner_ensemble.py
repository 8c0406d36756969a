"""Several trained senna_ner pipelines as one: each word's emission scores averaged over
the models, and their transition, start and end scores too, then one Viterbi (an
experiment of issue #65, docs/lang.md "NER: what did not reach 83.0").

    python scripts/ner_ensemble.py score GOLD.spacy NER_PIPELINE... [--output M.json]
    python scripts/ner_ensemble.py label WORDS.spacy OUTPUT.spacy NER_PIPELINE...

`score` labels the gold docs' words (their sentence starts kept) and prints entity
precision, recall and F1 overall and per type; `label` writes WORDS.spacy's docs with the
ensemble's entities (silver data for self-training). The pipelines must share one tag
inventory; all label in float32.
"""

from __future__ import annotations

import argparse
import types
from pathlib import Path
from typing import Iterator, List

import spacy
import srsly
import torch
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline.sequence_labeler import in_doc_offsets

FLOAT32 = {"components": {"senna_ner": {"model": {"inference_dtype": "float32"}}}}


def ensemble(paths: List[str]) -> Language:
    """The first pipeline, its senna_ner scoring with the mean of every pipeline's."""
    nlps = [spacy.load(path, config=FLOAT32) for path in paths]
    components = [nlp.get_pipe("senna_ner") for nlp in nlps]
    lead = components[0]
    for path, other in zip(paths, components):
        if other.tag_names != lead.tag_names:
            raise SystemExit(f"✘ {path}'s ner has other tags than {paths[0]}'s")
    nets = [get_net(c.model) for c in components]
    crf = nets[0].criterion
    with torch.no_grad():
        for name in ("transitions", "start", "end"):
            if getattr(crf, name) is not None:
                mean = torch.stack([getattr(net.criterion, name) for net in nets]).mean(0)
                getattr(crf, name).copy_(mean)

    def model_calls(self, docs: List[Doc]) -> Iterator:
        for batch in self.input_batches(docs):
            inputs = [self.item_input(item) for _, item in batch]
            words = [model_input for model_input, _ in inputs]
            scores = [c.model.predict(words) for c in components]
            mean = torch.stack([s.emissions.float() for s in scores]).mean(0)
            offsets = [offset for _, offset in inputs]
            yield batch, in_doc_offsets(scores[0]._replace(emissions=mean), offsets)

    lead.model_calls = types.MethodType(model_calls, lead)
    return nlps[0]


def _examples(nlp: Language, path: Path) -> List[Example]:
    """The docs of `path` as examples whose predicted docs hold their words only
    (`create_corpus_with_inputs`, as evaluate_open.py reads its test files)."""
    return list(create_corpus_with_inputs(str(path), copy_attrs=[], gold_preproc=True)(nlp))


def score(gold: Path, paths: List[str]) -> dict:
    """Entity P/R/F (percent) overall and per type of the ensemble on the gold docs."""
    nlp = ensemble(paths)
    scores = nlp.evaluate(_examples(nlp, gold))
    result = {k: round(100 * scores[k], 2) for k in ("ents_p", "ents_r", "ents_f")}
    result["per_type"] = {
        label: {k: round(100 * v, 2) for k, v in values.items()}
        for label, values in scores["ents_per_type"].items()
    }
    return {"gold": str(gold), "pipelines": paths, **result}


def label(words: Path, output: Path, paths: List[str]) -> int:
    """Write the docs of `words` with the ensemble's entities; the number written."""
    nlp = ensemble(paths)
    examples = _examples(nlp, words)
    labelled = nlp.get_pipe("senna_ner").pipe(eg.predicted for eg in examples)
    out, n = DocBin(store_user_data=True), 0
    for example, predicted in zip(examples, labelled):
        doc = example.reference
        doc.ents = [Span(doc, e.start, e.end, label=e.label_) for e in predicted.ents]
        n += len(doc.ents)
        out.add(doc)
    out.to_disk(output)
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    scoring = modes.add_parser("score")
    scoring.add_argument("gold", type=Path)
    scoring.add_argument("pipelines", nargs="+")
    scoring.add_argument("--output", type=Path)
    labelling = modes.add_parser("label")
    labelling.add_argument("words", type=Path)
    labelling.add_argument("output", type=Path)
    labelling.add_argument("pipelines", nargs="+")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.mode == "score":
        result = score(args.gold, args.pipelines)
        print(f"{len(args.pipelines)} model(s), {args.gold}: {result}")
        if args.output:
            srsly.write_json(args.output, result)
    else:
        n = label(args.words, args.output, args.pipelines)
        print(f"✔ {n} entities -> {args.output}")


if __name__ == "__main__":
    main()
