"""`names-from-text TEXT... OUTPUT.lst --pipeline P`: a typed gazetteer of the names that a
trained ner finds in raw text.

A language with little annotated NER data gets a name list from open text in another
language: projects/lang labels English Wikipedia with en_senna (both open) and gives the
names to pt_senna's gazetteer feature. A name is kept when it was found often enough and
mostly with one type; a one-word name that the target language mostly writes in lower
case (Portuguese `como`, `para`, `rio`) is left out, since the gazetteer matches
lowercased words.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, Optional, Sequence, Set

from spacy.language import Language

from ..annotate.loading import check_component_names, load_pipeline
from ..features.gazetteer import read_gazetteer, write_gazetteer
from ..io.text_input import open_text
from ..lm.progress import Progress
from .errors import CliError

#: a longer line is cut there
MAX_LINE_CHARS = 20_000


@dataclass
class NameFilter:
    """Which counted names make the list."""

    types: Sequence[str] = ("LOC", "ORG", "PER")
    min_count: int = 2
    min_share: float = 0.7
    max_lower: float = 0.5


def load_labeller(name: str, components: Sequence[str] = ()) -> Language:
    """The pipeline that finds the names (as it is: no sentencizer added), running only
    `components` when given."""
    nlp = load_pipeline(name, sentences="doc", max_doc_chars=MAX_LINE_CHARS)
    check_component_names(nlp, components, "--components")
    if components:
        nlp.select_pipes(enable=list(components))
    return nlp


def text_lines(paths: Iterable[Path], min_words: int, max_chars: int) -> Iterator[str]:
    """The lines of the texts with at least `min_words` words (not titles or headings),
    each cut at `max_chars` characters."""
    for path in paths:
        with open_text(path, errors="replace") as lines:
            for line in lines:
                line = line.strip()
                if len(line.split()) >= min_words:
                    yield line[:max_chars]


def count_names(
    nlp: Language, lines: Iterable[str], types: Sequence[str], batch_size: int = 64
) -> Counter:
    """{(type, name as written): times the pipeline found it} for the names of `types`."""
    counts: Counter = Counter()
    wanted = set(types)
    # a bar on a terminal, otherwise a status line a minute
    bar = Progress(True, None, 0, every=60.0)
    words = 0
    for doc in nlp.pipe(lines, batch_size=batch_size):
        words += len(doc)
        bar.update(len(doc), lambda: f"{words:,} words read, {len(counts):,} names found")
        for ent in doc.ents:
            if ent.label_ in wanted:
                counts[(ent.label_, " ".join(t.text for t in ent))] += 1
    bar.close()
    return counts


def case_counts(path: Path) -> tuple[Counter, Counter]:
    """Per lowercased word of a whitespace-tokenised text: times written in lower case,
    times written with a capital first letter."""
    lower: Counter = Counter()
    capital: Counter = Counter()
    with open_text(path, errors="replace") as lines:
        for line in lines:
            for word in line.split():
                if word.islower():
                    lower[word] += 1
                elif word[:1].isupper():
                    capital[word.lower()] += 1
    return lower, capital


def select_names(
    counts: Counter,
    rules: NameFilter,
    common: Optional[tuple[Counter, Counter]] = None,
) -> Dict[str, Set[str]]:
    """{type: lowercased names}: a name (with a capital letter and no digit, whatever its
    case) found `min_count` times or more, `min_share` of them with its most frequent type;
    with `common`, a one-word name that text writes in lower case more than `max_lower` of
    the time is left out."""
    by_name: Dict[str, Counter] = defaultdict(Counter)
    for (type_, name), n in counts.items():
        if any(c.isupper() for c in name) and not any(c.isdigit() for c in name):
            by_name[name.lower()][type_] += n
    entries: Dict[str, Set[str]] = {t: set() for t in rules.types}
    for name, types in by_name.items():
        total = sum(types.values())
        type_, n = types.most_common(1)[0]
        if total < rules.min_count or n / total < rules.min_share:
            continue
        if common is not None and " " not in name:
            lower, capital = common[0][name], common[1][name]
            if lower + capital and lower / (lower + capital) > rules.max_lower:
                continue
        entries[type_].add(name)
    return entries


def names_from_text(
    texts: Sequence[Path],
    output: Path,
    pipeline: str,
    rules: NameFilter,
    components: Sequence[str] = (),
    common_words: Optional[Path] = None,
    also: Sequence[Path] = (),
    min_words: int = 8,
) -> int:
    """Write the names `pipeline` finds in `texts` (and the entries of the lists `also`)
    to `output`; returns the number of entries written."""
    for path in (*texts, *also, *([common_words] if common_words else [])):
        if not Path(path).is_file():
            raise CliError(path, "does not exist or is not a file")
    nlp = load_labeller(pipeline, components)
    counts = count_names(nlp, text_lines(texts, min_words, MAX_LINE_CHARS), rules.types)
    common = case_counts(common_words) if common_words is not None else None
    entries = select_names(counts, rules, common)
    found = sum(map(len, entries.values()))
    if not found:
        raise ValueError(
            f"{pipeline} found no {'/'.join(rules.types)} name at least {rules.min_count} "
            f"times in {', '.join(map(str, texts))}: is it a pipeline with a ner?"
        )
    for path in also:
        for type_, names in read_gazetteer(path, rules.types).items():
            entries[type_] |= names
    n = write_gazetteer(entries, output)
    print(f"✔ Wrote {n} entries to {output}: {found} names found in the text")
    return n


def _run(args: argparse.Namespace) -> None:
    if args.min_count < 1 or not 0 < args.min_share <= 1 or not 0 <= args.max_lower <= 1:
        raise ValueError("--min-count must be >= 1, --min-share in (0, 1], --max-lower in [0, 1]")
    rules = NameFilter(args.types, args.min_count, args.min_share, args.max_lower)
    names_from_text(
        args.texts,
        args.output,
        args.pipeline,
        rules,
        args.components,
        args.common_words,
        args.also,
        args.min_words,
    )


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "names-from-text", help="a typed gazetteer of the names a ner finds in raw text"
    )
    parser.add_argument("texts", type=Path, nargs="+", help="UTF-8 text files (.gz or not)")
    parser.add_argument("output", type=Path, help="output file (TYPE word word ... lines)")
    parser.add_argument("--pipeline", required=True, help="a pipeline with a ner (en_senna)")
    parser.add_argument(
        "--components", nargs="+", default=[], help="run only these components of it"
    )
    parser.add_argument("--types", nargs="+", default=["LOC", "ORG", "PER"])
    parser.add_argument("--min-count", type=int, default=2, help="times a name was found")
    parser.add_argument(
        "--min-share", type=float, default=0.7, help="share of them with its main type"
    )
    parser.add_argument(
        "--common-words",
        type=Path,
        help="text of the gazetteer's language: a one-word name it mostly writes in lower "
        "case is left out",
    )
    parser.add_argument("--max-lower", type=float, default=0.5, help="see --common-words")
    parser.add_argument(
        "--also", type=Path, nargs="+", default=[], help="gazetteer files to merge in"
    )
    parser.add_argument(
        "--min-words", type=int, default=8, help="shorter lines (titles) are skipped"
    )
    parser.set_defaults(func=_run)
