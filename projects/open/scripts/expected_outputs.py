"""Write a shipped pipeline's annotations of a few sentences in its language to the JSON file
its tests compare against (run it after every retraining): tests/test_bundled.py for
en_senna, tests/test_pt_senna.py for pt_senna.

    python scripts/expected_outputs.py ../../spacy_senna/pipelines/en_senna \
        ../../tests/data/en_senna_expected.json
    python scripts/expected_outputs.py ../../packages/pt_senna/pt_senna/pipeline \
        ../../tests/data/pt_senna_expected.json

The sentences were written for this project (no third-party text). The parser, which
en_senna keeps disabled, is enabled here, so the file records every layer.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spacy
from spacy.tokens import Doc

PARSER = "senna_parser"
#: the span group senna_parser writes
PARSE_KEY = "constituents"
#: the pipeline's language -> its sentences
SENTENCES = {
    "en": [
        "Barack Obama was born in Hawaii.",
        "He visited Paris with Angela Merkel on Monday.",
        "The European Commission fined Google 2.4 billion euros in June.",
        "Maria bought a small red car from her neighbour in Toronto.",
        "Can you send me the report before the meeting tomorrow?",
    ],
    "pt": [
        "O presidente do Brasil visitou Lisboa na segunda-feira.",
        "A Maria comprou um carro vermelho ao vizinho em Coimbra.",
        "A Comissão Europeia multou a Google em 2,4 mil milhões de euros.",
        "Podes enviar-me o relatório antes da reunião de amanhã?",
        "Os alunos da Universidade de São Paulo chegaram ao Rio de Janeiro.",
    ],
}


def annotations(doc: Doc) -> dict:
    """Every layer of the doc as plain JSON: tokens, tags, chunks, entities, frames, and
    each sentence's tree where the parser ran."""
    out = {
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
    if PARSE_KEY in doc.spans:
        out["parse"] = [sent._.parse_string for sent in doc.sents]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline")
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    if PARSER in nlp.component_names:
        nlp.enable_pipe(PARSER)  # en_senna keeps it disabled
    expected = [annotations(doc) for doc in nlp.pipe(SENTENCES[nlp.lang])]
    args.output.write_text(json.dumps(expected, indent=1) + "\n", encoding="utf8")
    for item in expected:
        print(item["text"], item["tags"], item["ents"], item["frames"], sep="\n  ")


if __name__ == "__main__":
    main()
