"""Generate the quickstart's demo corpus: seeded, template-built English news sentences.

Every sentence comes from a small hand-written grammar and vocabulary (no external data),
so its Penn Treebank POS tags, CoNLL-2000 chunks and CoNLL-2003 entities are correct by
construction. This is *generated* data for a smoke test and demo, not a benchmark.

    python scripts/make_data.py assets --seed 0 --n-train 800 --n-dev 200

writes, under OUTPUT_DIR, in the formats `python -m spacy_senna convert` reads:

    pos/{train,dev}.tsv     WORD<TAB>TAG                      (--converter wsj-pos)
    chunk/{train,dev}.txt   WORD POS CHUNK, chunks in IOB2    (--converter conll2000)
    ner/{train,dev}.conll   WORD POS CHUNK NER, IOB1 tags,    (--converter conll2003)
                            -DOCSTART- between stories
    srl/{train,dev}.txt     CoNLL-2005 columns, one frame     (--converter conll2005)
                            (A0/A1/A2/AM-* roles and V) per sentence

The SRL sentences are a separate, simpler set (one predicate per clause: transitive,
meeting, passive, movement and sports templates, each with its PropBank roles) drawn from
their own random stream, so they do not change the other files.

The grammar is in news_grammar.py and srl_grammar.py, its word lists in vocabulary/ (read
by lexicon.py); tag conversions come from spacy_senna.labels.tags.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Iterator, Sequence

from news_grammar import Grammar, Sentence
from srl_grammar import SrlSentence, generate_srl

from spacy_senna.labels.tags import OUTSIDE, Chunk, chunks_to_iob2, conlleval_chunks

# the PTB tags an entity's words may have
ENTITY_TAGS = {
    "PER": {"NNP"},
    "LOC": {"NNP", "NNPS"},
    "ORG": {"NNP", "NNPS"},
    "MISC": {"NNP", "NNPS", "JJ"},
}


def iob2_to_iob1(tags: Sequence[str]) -> list[str]:
    """IOB2 -> IOB1: every chunk's tags are I-, except B- where a chunk directly follows one
    of the same type."""
    out = [OUTSIDE] * len(tags)
    previous: Chunk = ("", -1, -1)
    for chunk in conlleval_chunks(tags):
        type_, start, end = chunk
        out[start:end] = [f"I-{type_}"] * (end - start)
        if (previous[0], previous[2]) == (type_, start):
            out[start] = f"B-{type_}"
        previous = chunk
    return out


def check(sentence: Sentence) -> None:
    """Raise ValueError if the sentence's annotation is inconsistent."""
    s = sentence
    n = len(s.words)
    if not n or not (len(s.tags) == len(s.chunks) == len(s.ents) == n):
        raise ValueError(f"length mismatch in {s.words}")
    for column in (s.chunks, s.ents):
        if chunks_to_iob2(conlleval_chunks(column), n) != column:
            raise ValueError(f"tags {column} are not valid IOB2 in {s.words}")
    chunks = conlleval_chunks(s.chunks)
    for label, start, end in conlleval_chunks(s.ents):
        allowed = ENTITY_TAGS[label]
        if any(t not in allowed for t in s.tags[start:end]):
            raise ValueError(f"{label} entity with tags {s.tags[start:end]} in {s.words}")
        if not any(c == "NP" and cs <= start and end <= ce for c, cs, ce in chunks):
            raise ValueError(f"{label} entity {s.words[start:end]} outside an NP chunk")
    for label, start, end in chunks:
        tags = s.tags[start:end]
        if label == "PP" and tags not in (["IN"], ["TO"]):
            raise ValueError(f"PP chunk with tags {tags} in {s.words}")
        if label == "NP" and any(t.startswith(("VB", "MD", "IN")) for t in tags):
            raise ValueError(f"NP chunk with tags {tags} in {s.words}")
        if label == "VP" and not any(t.startswith(("VB", "MD")) for t in tags):
            raise ValueError(f"VP chunk without a verb: {tags} in {s.words}")
    for word in s.words:
        if not word or any(c.isspace() for c in word):
            raise ValueError(f"bad word {word!r}")


def generate(seed: int, n_sentences: int) -> Iterator[list[Sentence]]:
    """Stories (lists of sentences) until `n_sentences` distinct sentences are produced."""
    grammar = Grammar(random.Random(seed))
    seen: set[tuple[str, ...]] = set()
    produced = 0
    while produced < n_sentences:
        story = []
        for sentence in grammar.story():
            key = tuple(sentence.words)
            if key in seen or produced + len(story) >= n_sentences:
                continue
            seen.add(key)
            check(sentence)
            story.append(sentence)
        produced += len(story)
        if story:
            yield story


def split(seed: int, n_train: int, n_dev: int) -> tuple[list[list[Sentence]], list[list[Sentence]]]:
    """Train and dev stories, with no sentence in both."""
    train: list[list[Sentence]] = []
    dev: list[list[Sentence]] = []
    count = 0
    for story in generate(seed, n_train + n_dev):
        if count < n_train:
            train.append(story[: n_train - count])
            rest = story[n_train - count :]
            if rest:
                dev.append(rest)
        else:
            dev.append(story)
        count += len(story)
    return train, dev


def write(stories: list[list[Sentence]], output_dir: Path, name: str) -> None:
    """Write one split in the three converter formats."""
    sentences = [s for story in stories for s in story]
    paths = {
        "pos": output_dir / "pos" / f"{name}.tsv",
        "chunk": output_dir / "chunk" / f"{name}.txt",
        "ner": output_dir / "ner" / f"{name}.conll",
    }
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    with paths["pos"].open("w", encoding="utf8") as f:
        for s in sentences:
            f.writelines(f"{x}\t{t}\n" for x, t in zip(s.words, s.tags))
            f.write("\n")
    with paths["chunk"].open("w", encoding="utf8") as f:
        for s in sentences:
            f.writelines(f"{x} {t} {c}\n" for x, t, c in zip(s.words, s.tags, s.chunks))
            f.write("\n")
    with paths["ner"].open("w", encoding="utf8") as f:
        for story in stories:
            f.write("-DOCSTART- -X- -X- O\n\n")
            for s in story:
                rows = zip(s.words, s.tags, iob2_to_iob1(s.chunks), iob2_to_iob1(s.ents))
                f.writelines(f"{x} {t} {c} {e}\n" for x, t, c, e in rows)
                f.write("\n")
    n_words = sum(len(s.words) for s in sentences)
    print(
        f"✔ {name}: {len(sentences)} sentences, {n_words} words, {len(stories)} stories "
        f"-> {', '.join(str(p) for p in paths.values())}"
    )


def srl_column(sentence: SrlSentence) -> list[str]:
    """The frame in CoNLL-2005 Start-End format: `(A0*`, `*`, `*)`, `(V*)`."""
    column = ["*"] * len(sentence.words)
    for role, start, end in sentence.arguments:
        column[start] = f"({role}" + column[start]
        column[end - 1] += ")"
    return column


def write_srl(sentences: list[SrlSentence], output_dir: Path, name: str) -> None:
    """WORD POS PARSE NE SENSE TARGET PROPS lines (parse and NE left empty: `*`)."""
    path = output_dir / "srl" / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf8") as f:
        for s in sentences:
            for i, (x, t, prop) in enumerate(zip(s.words, s.tags, srl_column(s))):
                target = s.lemma if i == s.predicate else "-"
                f.write(f"{x} {t} * * - {target} {prop}\n")
            f.write("\n")
    n_words = sum(len(s.words) for s in sentences)
    print(f"✔ {name}: {len(sentences)} SRL sentences, {n_words} words -> {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-train", type=int, default=800)
    parser.add_argument("--n-dev", type=int, default=200)
    parser.add_argument("--n-srl-train", type=int, default=500)
    parser.add_argument("--n-srl-dev", type=int, default=100)
    args = parser.parse_args()
    train, dev = split(args.seed, args.n_train, args.n_dev)
    write(train, args.output_dir, "train")
    write(dev, args.output_dir, "dev")
    srl_train, srl_dev = generate_srl(args.seed, args.n_srl_train, args.n_srl_dev)
    write_srl(srl_train, args.output_dir, "train")
    write_srl(srl_dev, args.output_dir, "dev")


if __name__ == "__main__":
    main()
