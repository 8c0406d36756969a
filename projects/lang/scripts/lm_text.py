"""Text for the language model in the treebank's syntactic words: raw text cut by spaCy's
tokenizer for the language, then split like the treebank (ContractionTable learnt from its
training file), one line per input line, plus the words of the given treebank files, one
sentence a line; the table is written beside the text.

    python scripts/lm_text.py LANG TRAIN.conllu OUT.txt.gz --raw RAW.gz... --treebank TB.conllu...
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

import spacy

from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.corpora.converters.ud import read_ud_sentences
from spacy_senna.lm.raw_text import open_corpus_text


def write_lm_text(
    lang: str, train: Path, output: Path, raw: list[Path], treebanks: list[Path]
) -> None:
    """Write OUTPUT (gzipped, whitespace-tokenised) and OUTPUT's table (`.contractions.json`)."""
    table = ContractionTable.learn(read_ud_sentences(train))
    output.parent.mkdir(parents=True, exist_ok=True)
    table.to_disk(output.with_name(output.name.split(".")[0] + ".contractions.json"))
    tokenizer = spacy.blank(lang).tokenizer
    n_words = 0
    with gzip.open(output, "wt", encoding="utf8") as out:
        for path in raw:
            with open_corpus_text(path) as text:
                lines = (line.strip() for line in text)
                for doc in tokenizer.pipe(line for line in lines if line):
                    words = table.split_all([t.text for t in doc if not t.is_space])
                    n_words += len(words)
                    out.write(" ".join(words) + "\n")
        for path in treebanks:
            for sentence in read_ud_sentences(path):
                n_words += len(sentence.words)
                out.write(" ".join(w.replace(" ", "_") for w in sentence.words) + "\n")
    learnt = f"{len(table.forms)} contractions, {len(table.clitics)} clitics"
    print(f"✔ {n_words} words: {output} ({learnt})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lang")
    parser.add_argument("train", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--raw", type=Path, nargs="*", default=[])
    parser.add_argument("--treebank", type=Path, nargs="*", default=[])
    parser.add_argument("--data-dir", type=Path, default=Path("."), help="base of relative inputs")
    args = parser.parse_args()
    raw = [path if path.is_absolute() else args.data_dir / path for path in args.raw]
    treebanks = [path if path.is_absolute() else args.data_dir / path for path in args.treebank]
    if not raw:
        print("ℹ no raw text given: the LM learns from the treebanks' words only")
    write_lm_text(args.lang, args.train, args.output, raw, treebanks)


if __name__ == "__main__":
    main()
