"""Add a trained senna_parser to en_senna, disabled: `nlp.enable_pipe("senna_parser")`
(or `annotate --enable senna_parser`) runs it.

    python scripts/add_parser.py PIPELINE_DIR PARSER_PIPELINE [--storage float16]
        [--metrics FILE] [--card MODEL_CARD.md]

The parser goes last (it reads senna_tagger's tags) and stays disabled, as SENNA parses
only when asked (`-psg`): the four other layers run as fast as before unless a parse is
wanted. Its weights are stored as `--storage` (en_senna's float16 by default); `--metrics`
(a JSON file with a "parse" entry, from scripts/evaluate_open.py --trees) goes into the
meta's performance, `--card` becomes the pipeline's README.md. Run again, it replaces
the parser. Only config.cfg, meta.json and the senna_parser folder of PIPELINE_DIR (and
README.md with `--card`) are written; every other file stays as it was (the parser's
labels and word dictionary live in its own folder).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import warnings
from pathlib import Path

import spacy
from spacy.language import Language

from spacy_senna.models.storage import STORAGE_DTYPES, set_storage_dtype

PARSER = "senna_parser"
AFTER = "senna_tagger"
WRITTEN = ("config.cfg", "meta.json", PARSER)
#: what the parser learned from, added to the meta's PropBank source
TREES = "; its gold EWT trees for the parser"
DESCRIPTION = (
    " The constituency parser (SENNA's PSG) is included and disabled: "
    'nlp.enable_pipe("senna_parser") runs it.'
)


def add_parser(nlp: Language, trained: Language, storage: str, metrics: dict | None) -> None:
    """Put `trained`'s senna_parser last in `nlp`, disabled, stored as `storage`."""
    if PARSER not in trained.pipe_names:
        raise SystemExit(f"✘ the parser pipeline has no {PARSER}: {trained.pipe_names}")
    if AFTER not in nlp.pipe_names:
        raise SystemExit(f"✘ the pipeline has no {AFTER} for the parser to read tags from")
    if PARSER in nlp.component_names:
        nlp.remove_pipe(PARSER)
    # the training score weights stay as they were (the parser would claim half of them)
    weights = {**nlp.config["training"]["score_weights"]}
    weights.update({name: 0.0 for name in ("parse_f", "parse_p", "parse_r")})
    with warnings.catch_warnings():  # W113: the trained pipeline's LM vectors, not kept
        warnings.filterwarnings("ignore", message=r"\[W113\]")
        nlp.add_pipe(PARSER, source=trained)
    nlp.disable_pipe(PARSER)
    nlp._config["training"]["score_weights"] = weights
    set_storage_dtype(nlp, storage)
    description = nlp.meta.get("description", "").replace(DESCRIPTION, "")
    nlp.meta["description"] = description + DESCRIPTION
    nlp.meta["sources"] = [
        source + TREES if source.startswith("PropBank") and TREES not in source else source
        for source in nlp.meta.get("sources", [])
    ]
    if metrics is not None:
        nlp.meta.setdefault("performance", {})["parse"] = metrics["parse"]


def add_parser_to_disk(
    path: Path, parser_path: Path, storage: str, metrics: Path | None
) -> Language:
    """Add the parser to the pipeline saved in `path`, writing only the files it changes."""
    nlp = spacy.load(path)
    scores = json.loads(metrics.read_text(encoding="utf8")) if metrics is not None else None
    add_parser(nlp, spacy.load(parser_path), storage, scores)
    with tempfile.TemporaryDirectory() as tmp:
        saved = Path(tmp) / "pipeline"
        nlp.to_disk(saved)
        for name in WRITTEN:
            target = path / name
            if target.is_dir():
                shutil.rmtree(target)
            if (saved / name).is_dir():
                shutil.copytree(saved / name, target)
            else:
                shutil.copyfile(saved / name, target)
    return nlp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path)
    parser.add_argument("parser", type=Path, help="a trained pipeline with a senna_parser")
    parser.add_argument("--storage", choices=STORAGE_DTYPES, default="float16")
    parser.add_argument("--metrics", type=Path, help="JSON with a 'parse' entry")
    parser.add_argument("--card", type=Path, help="the model card, written as README.md")
    args = parser.parse_args()
    nlp = add_parser_to_disk(args.pipeline, args.parser, args.storage, args.metrics)
    if args.card is not None:
        shutil.copyfile(args.card, args.pipeline / "README.md")
    size = sum(f.stat().st_size for f in args.pipeline.rglob("*") if f.is_file())
    names = ", ".join(nlp.component_names)
    print(f"✔ {names} ({PARSER} disabled) in {args.pipeline}: {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
