"""Per-type precision, recall and F1 of senna_ner pipelines on one corpus, gold tokens.

    python scripts/ner_per_type.py DATA.spacy PIPELINE [PIPELINE ...]

Each pipeline labels the corpus' words (its sentence boundaries kept) and its senna_ner
scores them against the gold entities; one line per pipeline.
"""

from __future__ import annotations

import argparse

import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example


def per_type(pipeline: str, data: str) -> dict:
    """The overall F1 and (P, R, F1) of each entity type, in percent."""
    nlp = spacy.load(pipeline)
    gold = list(DocBin().from_disk(data).get_docs(nlp.vocab))
    inputs = [
        Doc(
            nlp.vocab,
            words=[t.text for t in doc],
            spaces=[bool(t.whitespace_) for t in doc],
            sent_starts=[t.is_sent_start for t in doc],
        )
        for doc in gold
    ]
    examples = [Example(p, g) for p, g in zip(nlp.pipe(inputs), gold)]
    scores = nlp.get_pipe("senna_ner").score(examples)
    types = {
        label: tuple(round(100 * s[key], 1) for key in ("p", "r", "f"))
        for label, s in sorted(scores["ents_per_type"].items())
    }
    return {"f": round(100 * scores["ents_f"], 2), "types": types}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data")
    parser.add_argument("pipelines", nargs="+")
    args = parser.parse_args()
    for pipeline in args.pipelines:
        result = per_type(pipeline, args.data)
        print(pipeline, result["f"], result["types"])


if __name__ == "__main__":
    main()
