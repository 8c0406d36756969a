"""Score a pipeline on text from other sources than EWT: newswire from the research-only
benchmark sets, with the pipeline's own cascade inputs (nothing gold but the tokens).

    python scripts/evaluate_other_sources.py PIPELINE --wsj-pos FILE --conll2000 FILE \
        --conll2003 FILE --conll2005 FILE --output metrics/NAME.json

Each set is optional and scored only where the pipeline has the component: POS on WSJ
22-24 (PTB tags), chunks on CoNLL-2000's test (WSJ 20), PER/LOC/ORG on CoNLL-2003's testb
(Reuters; its MISC entities are removed from the reference, as en_senna has no MISC) and
SRL on CoNLL-2005's WSJ 23, on the predicates the tagger finds and on the given ones. The
sets are read only to score a finished pipeline: nothing here trains on them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import spacy
from evaluate_open import _evaluate, _examples, _inference_dtype_overrides, write_results
from spacy.language import Language
from spacy.training import Example

from spacy_senna.scoring.srl import score_srl

#: the entity types en_senna labels (CoNLL-2003's MISC has no counterpart)
ENTITY_TYPES = ("PER", "LOC", "ORG")


def _annotated(nlp: Language, examples: list) -> list:
    """The examples with the pipeline's whole analysis as the prediction."""
    docs = nlp.pipe(eg.predicted for eg in examples)
    return [Example(doc, eg.reference) for doc, eg in zip(docs, examples)]


def _without_other_types(examples: list) -> list:
    """The examples with only PER/LOC/ORG entities left in the reference."""
    for eg in examples:
        eg.reference.ents = [e for e in eg.reference.ents if e.label_ in ENTITY_TYPES]
    return examples


def _rounded(scores: dict, keys) -> dict:
    return {k: round(scores[k] * 100, 2) for k in keys}


def evaluate(
    pipeline: str,
    wsj_pos: Path | None = None,
    conll2000: Path | None = None,
    conll2003: Path | None = None,
    conll2005: Path | None = None,
    inference_dtype: str | None = None,
) -> dict:
    """Every score the pipeline's components give on the sets given (F1 and accuracy in %)."""
    nlp = spacy.load(pipeline, config=_inference_dtype_overrides(pipeline, inference_dtype))
    names = set(nlp.pipe_names)
    results: dict = {"pipeline": pipeline}
    if wsj_pos and names & {"senna_tagger", "tagger"}:
        accuracy = _evaluate(nlp, _examples(nlp, wsj_pos))["tag_acc"]
        results["pos_wsj_22_24"] = round(accuracy * 100, 2)
    if conll2000 and "senna_chunker" in names:
        scores = nlp.get_pipe("senna_chunker").score(_annotated(nlp, _examples(nlp, conll2000)))
        keys = ("spans_chunks_p", "spans_chunks_r", "spans_chunks_f")
        results["chunk_conll2000_test"] = _rounded(scores, keys)
    if conll2003 and names & {"senna_ner", "ner"}:
        scores = nlp.evaluate(_without_other_types(_examples(nlp, conll2003)))
        results["ner_conll2003_testb"] = _rounded(scores, ("ents_p", "ents_r", "ents_f"))
        results["ner_conll2003_testb_per_type"] = {
            label: _rounded(values, ("p", "r", "f"))
            for label, values in sorted((scores["ents_per_type"] or {}).items())
        }
    if conll2005 and "senna_srl" in names:
        found = score_srl(_annotated(nlp, _examples(nlp, conll2005)), count_unmatched_frames=True)
        given = nlp.evaluate(_examples(nlp, conll2005, ["srl_predicates"]))
        keys = ("srl_p", "srl_r", "srl_f")
        results["srl_wsj23_predicted_predicates"] = _rounded(found, keys)
        results["srl_wsj23_given_predicates"] = _rounded(given, keys)
        results["srl_wsj23_given_predicates_per_type"] = {
            label: _rounded(values, ("p", "r", "f"))
            for label, values in sorted((given["srl_per_type"] or {}).items())
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("--wsj-pos", type=Path, help="WSJ 22-24 with PTB tags (.spacy)")
    parser.add_argument("--conll2000", type=Path, help="CoNLL-2000's test (.spacy)")
    parser.add_argument("--conll2003", type=Path, help="CoNLL-2003's testb (.spacy)")
    parser.add_argument("--conll2005", type=Path, help="CoNLL-2005's WSJ 23 (.spacy)")
    parser.add_argument(
        "--inference-dtype", choices=["float32", "bfloat16"], help="override the configs'"
    )
    parser.add_argument("--output", type=Path, required=True)
    args = vars(parser.parse_args())
    output = args.pop("output")
    write_results(evaluate(**args), output)


if __name__ == "__main__":
    main()
