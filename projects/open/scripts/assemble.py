"""Assemble en_senna from the trained pipelines of projects/open.

    python scripts/assemble.py PIPELINE... OUTPUT_DIR [--metrics FILE...]
        [--card MODEL_CARD.md] [--storage float16]

A sentencizer first (raw text holds several sentences), then every senna component of
each trained pipeline, in order: TAGGER CHUNKER NER SRL (trained separately), JOINT SRL
(senna_words and the tagger, chunker and ner that share its word table, then the srl), or
en_senna's mix, JOINT-TAGGER-CHUNKER NER SRL (the joint run without its ner). Right after
senna_tagger come spaCy's attribute_ruler and rule lemmatizer (UPOS, morphology and lemmas
from the tags; scripts/add_attributes.py, whose tables need spacy-lookups-data to build).
The LM vectors are left out (the word tables keep their rows), the weights are stored as
float16 unless told otherwise, the vocab keeps only the strings the components hold
(scripts/prune_strings.py), and the model card and scores go into meta.json and
README.md. Loading it sets the process's malloc thresholds so that batches reuse the
memory earlier batches freed (`spacy-senna.keep_freed_memory.v1`, `[nlp]
after_pipeline_creation`).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import spacy
from add_attributes import add_attributes, write_license
from prune_strings import prune_strings

from spacy_senna.about import __version__
from spacy_senna.models.storage import STORAGE_DTYPES, set_storage_dtype

SOURCES = [
    "UD English-EWT (Silveira et al. 2014; Universal Dependencies, CC BY-SA 4.0): words and "
    "PTB tags",
    "PropBank over EWT (propbank-release, University of Colorado, CC BY-SA 4.0): semantic roles, "
    "and chunks derived from its gold EWT trees",
    "Universal NER English-EWT (Mayhew et al. 2024, CC BY-SA 4.0): PER, LOC, ORG",
    "GUM, openly licensed genres only (Zeldes 2017; annotations CC BY 4.0, texts CC BY, "
    "CC BY-SA or public domain as listed by GUM): more tags and entities",
    "Broad Twitter Corpus (Derczynski, Bontcheva & Roberts 2016; GateNLP, CC BY 4.0): PER, LOC, "
    "ORG on tweets, for the entity recognizer",
    "English Wikipedia text, 2015 dump (CC BY-SA 3.0): the language model behind the word tables",
]
#: what loading en_senna runs once its components exist (spacy_senna/runtime/allocator.py)
AFTER_PIPELINE_CREATION = {"@callbacks": "spacy-senna.keep_freed_memory.v1"}
COMPONENTS = ("senna_words", "senna_tagger", "senna_chunker", "senna_ner", "senna_srl")


def assemble(
    sources: list[str], output: Path, metrics: list[Path], card: Path | None, storage: str
) -> None:
    nlp = spacy.blank("en", config={"nlp": {"after_pipeline_creation": AFTER_PIPELINE_CREATION}})
    nlp.add_pipe("senna_sentencizer", name="sentencizer")
    for path in sources:
        trained = spacy.load(path)
        for name in trained.pipe_names:
            if name in nlp.pipe_names:
                raise SystemExit(f"✘ {name} is in more than one of the pipelines {sources}")
            if name not in COMPONENTS:
                raise SystemExit(f"✘ {path} has {name}, not one of {COMPONENTS}")
            nlp.add_pipe(name, source=trained)
    missing = set(COMPONENTS) - {"senna_words"} - set(nlp.pipe_names)
    if missing:
        raise SystemExit(f"✘ no pipeline has {sorted(missing)}")
    set_storage_dtype(nlp, storage)
    nlp.meta.update(
        {
            "name": "senna",
            "version": __version__,
            "description": (
                "SENNA (Collobert et al. 2011) for English, trained on openly licensed data "
                "only: PTB part-of-speech tags, chunks, PER/LOC/ORG entities and semantic "
                "roles (PropBank), with spacy-senna's window and sentence networks."
            ),
            "license": "CC BY-SA 4.0",
            "author": "spacy-senna contributors",
            "url": "https://jmlr.org/papers/v12/collobert11a.html",
            "sources": SOURCES,
            "spacy_version": f">={spacy.__version__},<3.9.0",
            "requirements": [f"spacy-senna=={__version__}"],
            "performance": {},
        }
    )
    for path in metrics:
        nlp.meta["performance"].update(json.loads(path.read_text(encoding="utf8")))
    add_attributes(nlp)
    if output.exists():
        shutil.rmtree(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    prune_strings(output)
    write_license(output)
    if card is not None:
        shutil.copyfile(card, output / "README.md")
    size = sum(f.stat().st_size for f in output.rglob("*") if f.is_file())
    names = ", ".join(nlp.pipe_names)
    print(f"✔ en_senna ({names}; {storage}) in {output}: {size / 2**20:.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PIPELINE",
        help="tagger chunker ner srl, joint srl, or joint-tagger-chunker ner srl; then OUTPUT_DIR",
    )
    parser.add_argument("--metrics", type=Path, nargs="*", default=[])
    parser.add_argument("--card", type=Path)
    parser.add_argument("--storage", choices=STORAGE_DTYPES, default="float16")
    args = parser.parse_args()
    if len(args.paths) < 2:
        parser.error("give the trained pipelines and then the output folder")
    *sources, output = args.paths
    assemble(sources, Path(output), args.metrics, args.card, args.storage)


if __name__ == "__main__":
    main()
