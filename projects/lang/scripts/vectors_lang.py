"""Give a vectors pipeline written by `pretrain-lm` (a blank English pipeline) the language
it was trained for, so that `[initialize] vectors` can load it into that language's pipeline
(spaCy refuses a vocab of another language).

    python scripts/vectors_lang.py VECTORS_DIR LANG
"""

from __future__ import annotations

import argparse
from pathlib import Path

import spacy


def set_vectors_lang(path: Path, lang: str) -> None:
    """Rewrite the pipeline at `path` as a blank `lang` pipeline with the same vectors."""
    source = spacy.load(path)
    if source.lang == lang:
        print(f"✔ {path} is already '{lang}'")
        return
    nlp = spacy.blank(lang)
    nlp.vocab.vectors = source.vocab.vectors
    for key in source.vocab.vectors.keys():
        nlp.vocab.strings.add(source.vocab.strings[key])
    nlp.to_disk(path)
    print(
        f"✔ {path}: {source.vocab.vectors.shape[0]} vectors, language '{source.lang}' -> '{lang}'"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("lang")
    args = parser.parse_args()
    set_vectors_lang(args.path, args.lang)


if __name__ == "__main__":
    main()
