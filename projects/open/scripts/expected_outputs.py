"""Write the bundled pipeline's annotations of a few sentences to the JSON file that
tests/test_bundled.py compares against (run it after every retraining of en_senna).

    python scripts/expected_outputs.py ../../spacy_senna/pipelines/en_senna \
        ../../tests/data/en_senna_expected.json

The sentences were written for this project (no third-party text).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy
from spacy.tokens import Doc

SENTENCES = [
    "Barack Obama was born in Hawaii.",
    "He visited Paris with Angela Merkel on Monday.",
    "The European Commission fined Google 2.4 billion euros in June.",
    "Maria bought a small red car from her neighbour in Toronto.",
    "Can you send me the report before the meeting tomorrow?",
]


def annotations(doc: Doc) -> dict:
    """Every layer of the doc as plain JSON: tokens, tags, chunks, entities, frames."""
    return {
        "text": doc.text,
        "tokens": [t.text for t in doc],
        "tags": [t.tag_ for t in doc],
        "chunks": [[s.start, s.end, s.label_] for s in doc.spans["chunks"]],
        "ents": [[e.start, e.end, e.label_] for e in doc.ents],
        "frames": {
            str(frame.predicate.i): [[a.start, a.end, a.label_] for a in frame.arguments]
            for frame in doc._.srl_frames
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    expected = [annotations(doc) for doc in nlp.pipe(SENTENCES)]
    args.output.write_text(json.dumps(expected, indent=1) + "\n", encoding="utf8")
    for item in expected:
        print(item["text"], item["tags"], item["ents"], item["frames"], sep="\n  ")


if __name__ == "__main__":
    main()
