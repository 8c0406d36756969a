"""Assemble en_senna from the trained pipelines of projects/open, or `<lang>_senna` from those
of projects/lang.

    python scripts/assemble.py PIPELINE... OUTPUT_DIR [--metrics FILE...]
        [--card MODEL_CARD.md] [--storage float16]
        [--lang LANG --treebank TRAIN.spacy --meta META.json [--contractions TABLE.json]]

A sentencizer first (raw text holds several sentences), then every senna component of
each trained pipeline, in order: TAGGER CHUNKER NER SRL (trained separately), JOINT SRL
(senna_words and the tagger, chunker and ner that share its word table, then the srl), or
en_senna's mix, JOINT-TAGGER-CHUNKER NER SRL (the joint run without its ner). Right after
senna_tagger come spaCy's attribute_ruler and rule lemmatizer (UPOS, morphology and lemmas
from the tags; scripts/add_attributes.py, whose tables need spacy-lookups-data to build).
The LM vectors are left out (the word tables keep their rows), the weights are stored as
float16 unless told otherwise, the vocab keeps only the strings the components hold
(scripts/prune_strings.py), and the model card and scores go into meta.json and
README.md. Another language (`--lang`) takes its attributes from its treebank instead
(scripts/treebank_attributes.py: `pos_` from the tags, lemmas from tables learnt from the
treebank's lemmas), its name, description, licence and sources from `--meta`, and with
`--contractions` the tokenizer that splits contractions into the treebank's syntactic words
(spacy_senna/pipeline/syntactic_words.py). Loading it sets the process's malloc thresholds so
that batches reuse the memory earlier batches freed (`spacy-senna.keep_freed_memory.v1`, `[nlp]
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
from spacy.tokens import DocBin
from treebank_attributes import add_treebank_attributes

from spacy_senna.about import __version__
from spacy_senna.corpora.converters.contractions import ContractionTable
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
ENGLISH_META = {
    "description": (
        "SENNA (Collobert et al. 2011) for English, trained on openly licensed data "
        "only: PTB part-of-speech tags, chunks, PER/LOC/ORG entities and semantic "
        "roles (PropBank), with spacy-senna's window and sentence networks."
    ),
    "license": "CC BY-SA 4.0",
    "sources": SOURCES,
}
#: the fields a --meta file must give
META_FIELDS = ("description", "license", "sources")
SYNTACTIC_WORDS = {"@tokenizers": "spacy-senna.SyntacticWords.v1"}


def blank_pipeline(lang: str, contractions: Path | None) -> spacy.Language:
    """An empty pipeline of `lang`, splitting contractions by the table when one is given."""
    config: dict = {"after_pipeline_creation": AFTER_PIPELINE_CREATION}
    if contractions is not None:
        config["tokenizer"] = SYNTACTIC_WORDS
    nlp = spacy.blank(lang, config={"nlp": config})
    if contractions is not None:
        nlp.tokenizer.table = ContractionTable.from_disk(contractions)
    return nlp


def read_meta(path: Path | None, lang: str) -> dict:
    """en_senna's description, licence and sources, or another language's from `path`."""
    if path is None:
        if lang != "en":
            raise SystemExit(f"✘ --lang {lang} needs --meta (description, license, sources)")
        return ENGLISH_META
    meta = json.loads(path.read_text(encoding="utf8"))
    missing = [field for field in META_FIELDS if field not in meta]
    if missing:
        raise SystemExit(f"✘ {path} lacks {missing}")
    return meta


def assemble(
    sources: list[str],
    output: Path,
    metrics: list[Path],
    card: Path | None,
    storage: str,
    lang: str = "en",
    treebank: Path | None = None,
    meta_file: Path | None = None,
    contractions: Path | None = None,
) -> None:
    if lang != "en" and treebank is None:
        raise SystemExit(f"✘ --lang {lang} needs --treebank: its attributes are learnt from it")
    meta = read_meta(meta_file, lang)
    nlp = blank_pipeline(lang, contractions)
    nlp.add_pipe("senna_sentencizer", name="sentencizer")
    for path in sources:
        trained = spacy.load(path)
        for name in trained.pipe_names:
            if name in nlp.pipe_names:
                raise SystemExit(f"✘ {name} is in more than one of the pipelines {sources}")
            if name not in COMPONENTS:
                raise SystemExit(f"✘ {path} has {name}, not one of {COMPONENTS}")
            nlp.add_pipe(name, source=trained)
    # en_senna has every layer; another language has those its data can train (a tagger)
    required = set(COMPONENTS) - {"senna_words"} if lang == "en" else {"senna_tagger"}
    missing = required - set(nlp.pipe_names)
    if missing:
        raise SystemExit(f"✘ no pipeline has {sorted(missing)}")
    absent = sorted(set(COMPONENTS) - {"senna_words"} - set(nlp.pipe_names))
    if absent:
        print(f"ℹ {lang}_senna without {absent}: no pipeline given has them")
    set_storage_dtype(nlp, storage)
    nlp.meta.update(
        {
            "name": "senna",
            "version": __version__,
            "description": meta["description"],
            "license": meta["license"],
            "author": "spacy-senna contributors",
            "url": "https://jmlr.org/papers/v12/collobert11a.html",
            "sources": meta["sources"],
            "spacy_version": f">={spacy.__version__},<3.9.0",
            "requirements": [f"spacy-senna=={__version__}"],
            "performance": {},
        }
    )
    for path in metrics:
        nlp.meta["performance"].update(json.loads(path.read_text(encoding="utf8")))
    if treebank is None:
        add_attributes(nlp)
    else:
        add_treebank_attributes(nlp, list(DocBin().from_disk(treebank).get_docs(nlp.vocab)))
    if output.exists():
        shutil.rmtree(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    prune_strings(output)
    if treebank is None:
        write_license(output)
    if card is not None:
        shutil.copyfile(card, output / "README.md")
    size = sum(f.stat().st_size for f in output.rglob("*") if f.is_file())
    names = ", ".join(nlp.pipe_names)
    print(f"✔ {lang}_senna ({names}; {storage}) in {output}: {size / 2**20:.1f} MiB")


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
    parser.add_argument("--lang", default="en", help="the pipeline's language (default: en)")
    parser.add_argument(
        "--treebank", type=Path, help="gold training Docs (tags, UPOS, lemmas): pos_ and lemmas"
    )
    parser.add_argument("--meta", type=Path, help="JSON: description, license, sources")
    parser.add_argument(
        "--contractions", type=Path, help="the treebank's contraction table (lm.contractions.json)"
    )
    args = parser.parse_args()
    if len(args.paths) < 2:
        parser.error("give the trained pipelines and then the output folder")
    *sources, output = args.paths
    assemble(
        sources,
        Path(output),
        args.metrics,
        args.card,
        args.storage,
        lang=args.lang,
        treebank=args.treebank,
        meta_file=args.meta,
        contractions=args.contractions,
    )


if __name__ == "__main__":
    main()
