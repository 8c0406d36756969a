"""Score a pipeline on EWT test with its own cascade inputs (nothing gold but the tokens).

    python scripts/evaluate_open.py PIPELINE --output metrics/NAME.json

POS (PTB tags) on UD EWT test, PER/LOC/ORG on Universal NER's EWT test, chunks and SRL on
propbank-ewt's test sentences; each task only when the pipeline has its component. SRL is
scored twice: on the predicates the tagger finds (every V* token; a frame for a predicate
the reference lacks counts its arguments as wrong) and on the given predicates. `--other`
adds POS and NER on another corpus (`pos_other`, `ner_other`; GUM dev in the project),
`--tweets` NER on tweets (`ner_tweets`; the Broad Twitter Corpus' dev part), `--trees`
labelled brackets (`parse`, EVALB's counting) on propbank-ewt's gold trees, by the
pipeline's senna_parser (enabled for this, as en_senna keeps it disabled) reading the
pipeline's own tags.
`--srl-test` scores SRL on another file than the chunks (projects/lang: Universal PropBank's
test sentences). Lemma accuracy (`lemma`) comes with POS when the pipeline has a lemmatizer.
`--inference-dtype float32` scores as a CPU without native bfloat16 computes (the model
card's figures), whatever the pipeline's config says.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.training import Example

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.scoring.srl import score_srl


def _examples(nlp: Language, path: Path, copy_spans=()) -> list:
    if not Path(path).is_file():
        raise SystemExit(
            f"✘ {path} not found: give this pipeline's test files (--ud-test, --uner-test, "
            "--ewt-test, --srl-test; the defaults are en_senna's EWT files in projects/open)"
        )
    corpus = create_corpus_with_inputs(
        str(path), copy_attrs=[], copy_spans=list(copy_spans), gold_preproc=True
    )
    return list(corpus(nlp))


def _evaluate(nlp: Language, examples: list) -> dict:
    scores = nlp.evaluate(examples)
    return {k: v for k, v in scores.items() if k.endswith(("_f", "_p", "_r", "_acc"))}


def _annotated(nlp: Language, path: Path) -> list[Example]:
    """The test sentences of `path`, annotated by `nlp`, beside their references."""
    examples = _examples(nlp, path)
    docs = nlp.pipe(eg.predicted for eg in examples)
    return [Example(doc, eg.reference) for doc, eg in zip(docs, examples)]


def _inference_dtype_overrides(pipeline: str, inference_dtype: str | None) -> dict:
    """Config overrides that set `inference_dtype` on every model that has the setting."""
    if inference_dtype is None:
        return {}
    config = spacy.util.load_config(Path(pipeline) / "config.cfg", interpolate=False)
    return {
        "components": {
            name: {"model": {"inference_dtype": inference_dtype}}
            for name, component in config["components"].items()
            if "inference_dtype" in (component.get("model") or {})  # the lemmatizer: null
        }
    }


def evaluate(
    pipeline: str,
    ud_test: Path,
    uner_test: Path,
    ewt_test: Path,
    other: Path | None = None,
    tweets: Path | None = None,
    inference_dtype: str | None = None,
    trees: Path | None = None,
    srl_test: Path | None = None,
) -> dict:
    """Every score the pipeline's components give, keyed by task; with `other` (a corpus
    with tags and entities, e.g. GUM dev) also POS and NER there, with `tweets` (entities
    only) NER there, with `trees` the parse there; `inference_dtype` overrides every
    component's that has one."""
    nlp = spacy.load(pipeline, config=_inference_dtype_overrides(pipeline, inference_dtype))
    names = set(nlp.pipe_names)
    results: dict = {"pipeline": pipeline}
    if names & {"senna_tagger", "tagger"}:
        scores = _evaluate(nlp, _examples(nlp, ud_test))
        results["pos"] = scores["tag_acc"]
        if "lemmatizer" in names:
            results["lemma"] = scores["lemma_acc"]
        if other is not None:
            results["pos_other"] = _evaluate(nlp, _examples(nlp, other))["tag_acc"]
    if names & {"senna_ner", "ner"}:
        scores = _evaluate(nlp, _examples(nlp, uner_test))
        results["ner"] = {k: scores[k] for k in ("ents_p", "ents_r", "ents_f")}
        if other is not None:
            results["ner_other"] = _evaluate(nlp, _examples(nlp, other))["ents_f"]
        if tweets is not None:
            results["ner_tweets"] = _evaluate(nlp, _examples(nlp, tweets))["ents_f"]
    srl_test = ewt_test if srl_test is None else srl_test
    if names & {"senna_chunker", "senna_srl"}:
        # one pass over the test sentences serves the chunks and SRL on found predicates
        annotated = _annotated(nlp, ewt_test)
    if "senna_chunker" in names:
        scores = nlp.get_pipe("senna_chunker").score(annotated)
        results["chunk"] = {
            k: scores[k] for k in ("spans_chunks_p", "spans_chunks_r", "spans_chunks_f")
        }
    if "senna_srl" in names:
        if srl_test != ewt_test:
            annotated = _annotated(nlp, srl_test)
        predicted = score_srl(annotated, count_unmatched_frames=True)
        given = _evaluate(nlp, _examples(nlp, srl_test, ["srl_predicates"]))
        results["srl_predicted_predicates"] = {k: predicted[k] for k in ("srl_p", "srl_r", "srl_f")}
        results["srl_given_predicates"] = {k: given[k] for k in ("srl_p", "srl_r", "srl_f")}
    if trees is not None and "senna_parser" in nlp.component_names:
        nlp.enable_pipe("senna_parser")
        scores = _evaluate(nlp, _examples(nlp, trees))
        results["parse"] = {k: scores[k] for k in ("parse_p", "parse_r", "parse_f")}
    return results


def write_results(results: dict, output: Path) -> None:
    """Write `results` to `output` as JSON, and print them."""
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
    print(json.dumps(results, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("--ud-test", type=Path, default=Path("corpus/ud/en_ewt-ud-test.spacy"))
    parser.add_argument("--uner-test", type=Path, default=Path("corpus/uner/en_ewt-ud-test.spacy"))
    parser.add_argument("--ewt-test", type=Path, default=Path("corpus/ewt/test.spacy"))
    parser.add_argument("--other", type=Path, help="also POS and NER on this corpus")
    parser.add_argument("--tweets", type=Path, help="also NER on this corpus")
    parser.add_argument("--trees", type=Path, help="also the parse on these trees")
    parser.add_argument("--srl-test", type=Path, help="SRL on this file (default: --ewt-test)")
    parser.add_argument(
        "--inference-dtype", choices=["float32", "bfloat16"], help="override the configs'"
    )
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    results = evaluate(
        args.pipeline,
        args.ud_test,
        args.uner_test,
        args.ewt_test,
        args.other,
        args.tweets,
        args.inference_dtype,
        args.trees,
        args.srl_test,
    )
    write_results(results, args.output)


if __name__ == "__main__":
    main()
