"""Universal Dependencies treebanks of any language as Docs of syntactic words.

A CoNLL-U sentence becomes one Doc whose tokens are the treebank's syntactic words (`do`
is `de o`, as UD, UNER and UP label them): `pos_` (UPOS), `tag_` (UPOS, or the coarse XPOS
where asked), `lemma_`, `morph`, `head`/`dep_`, `doc.spans["chunks"]` (derived from the
tree, see `ud_chunks`), `user_data[SENT_ID_KEY]`, and the multiword tokens the words came
from in `user_data[MULTIWORD_KEY]` (`[start, end, surface form]`, word indices).

Universal NER's IOB2 files follow the same words sentence by sentence; `join_uner` adds
their entities, checking that the words agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spacy.parts_of_speech import IDS as UPOS_IDS
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from .open_data import read_uner
from .rows import SENT_ID_KEY, Row, commented_sentences
from .ud_chunks import chunk_spans_from_tree

#: user_data key of a sentence's multiword tokens: [[start, end, form], ...] (word indices)
MULTIWORD_KEY = "spacy_senna.multiword_tokens"

_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
_EMPTY = re.compile(r"^[0-9]+\.[0-9]+$")
_N_COLUMNS = 10


@dataclass
class UdSentence:
    """One CoNLL-U sentence: its syntactic words and their columns (heads 0-based, -1 root)."""

    sent_id: str | None
    words: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)
    deprels: list[str] = field(default_factory=list)
    space_after: list[bool] = field(default_factory=list)
    multiword: list[tuple[int, int, str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


def coarse_xpos(tag: str) -> str:
    """The POS element of a structured XPOS (`<artd>|ART|M|S|@>N` -> `ART`): the first
    `|`-separated element that is not a secondary tag (`<..>`) or a function (`@..`); a
    plain tag is returned as it is, a blank one (`_`) as ``."""
    if tag in ("", "_"):
        return ""
    for part in tag.split("|"):
        if part and not part.startswith("<") and not part.startswith("@"):
            return part
    return ""


def read_ud_sentences(path: Path) -> Iterator[UdSentence]:
    """Every sentence of a CoNLL-U file (plain or gzipped); ValueError names the file and
    line of a malformed one (column count, word ids, ranges, UPOS, heads)."""
    for sent_id, rows in commented_sentences(path):
        yield _parse_sentence(path, sent_id, rows)


def _parse_sentence(path: Path, sent_id: str | None, rows: list[Row]) -> UdSentence:
    sentence = UdSentence(sent_id)
    ranges: list[tuple[int, int, int, str]] = []  # (line, first id, last id, form)
    raw_heads: list[tuple[int, str]] = []
    for lineno, columns in rows:
        if len(columns) != _N_COLUMNS:
            raise ValueError(
                f"{path}:{lineno}: expected 10 tab-separated CoNLL-U columns, found {len(columns)}"
            )
        token_id, form, lemma, upos, xpos, feats, head, deprel, _, misc = columns
        if _EMPTY.match(token_id):
            continue
        if match := _RANGE.match(token_id):
            first, last = int(match[1]), int(match[2])
            if first != len(sentence.words) + 1 or last <= first or not form:
                raise ValueError(
                    f"{path}:{lineno}: multiword token {token_id!r} ({form!r}) must start at "
                    f"the next word ({len(sentence.words) + 1}), span two words or more and "
                    f"have a form"
                )
            ranges.append((lineno, first, last, form))
            continue
        if token_id != str(len(sentence.words) + 1):
            raise ValueError(
                f"{path}:{lineno}: expected word ID {len(sentence.words) + 1}, found {token_id!r}"
            )
        if not form:
            raise ValueError(f"{path}:{lineno}: expected a non-empty FORM column")
        if upos != "_" and upos not in UPOS_IDS:
            raise ValueError(f"{path}:{lineno}: expected a UPOS tag, found {upos!r}")
        sentence.words.append(form)
        sentence.lemmas.append("" if lemma == "_" and form != "_" else lemma)
        sentence.upos.append("" if upos == "_" else upos)
        sentence.xpos.append("" if xpos == "_" else xpos)
        sentence.feats.append("" if feats == "_" else feats)
        sentence.deprels.append("" if deprel == "_" else deprel)
        sentence.space_after.append("SpaceAfter=No" not in misc.split("|"))
        sentence.lines.append(lineno)
        raw_heads.append((lineno, head))
    if not sentence.words:
        raise ValueError(f"{path}:{rows[0][0]}: expected a sentence with at least one word")
    n = len(sentence.words)
    for lineno, head in raw_heads:
        if head == "_":
            sentence.heads.append(-2)
            continue
        if not head.isdigit() or int(head) > n:
            raise ValueError(f"{path}:{lineno}: expected a HEAD between 0 and {n}, found {head!r}")
        sentence.heads.append(int(head) - 1)
    for lineno, first, last, form in ranges:
        if last > n:
            raise ValueError(
                f"{path}:{lineno}: multiword token {first}-{last} ends after the last word ({n})"
            )
        sentence.multiword.append((first - 1, last, form))
        sentence.space_after[last - 1] = sentence.space_after[last - 1] and _space_after(
            rows, lineno
        )
    return sentence


def _space_after(rows: list[Row], lineno: int) -> bool:
    """SpaceAfter of the multiword token on line `lineno` (its MISC column)."""
    for line, columns in rows:
        if line == lineno:
            return "SpaceAfter=No" not in columns[9].split("|")
    return True


def sentence_doc(vocab: Vocab, sentence: UdSentence, tag: str = "upos") -> Doc:
    """A Doc of the sentence's syntactic words; `tag_` holds UPOS (`tag="upos"`) or the
    coarse XPOS (`tag="xpos"`, blank where the treebank has none)."""
    if tag not in ("upos", "xpos"):
        raise ValueError(f"tag must be 'upos' or 'xpos', not {tag!r}")
    tags = sentence.upos if tag == "upos" else [coarse_xpos(x) for x in sentence.xpos]
    n = len(sentence.words)
    has_tree = all(h >= -1 for h in sentence.heads) and all(sentence.deprels)
    heads = [i if h == -1 else h for i, h in enumerate(sentence.heads)] if has_tree else None
    deps = sentence.deprels if has_tree else None
    doc = Doc(
        vocab,
        words=sentence.words,
        spaces=sentence.space_after[:-1] + [False],
        sent_starts=[True] + [False] * (n - 1),
        tags=tags,
        pos=sentence.upos,
        lemmas=sentence.lemmas,
        morphs=sentence.feats,
        heads=heads,
        deps=deps,
    )
    if has_tree:
        doc.spans["chunks"] = [
            Span(doc, start, end, label=label)
            for label, start, end in chunk_spans_from_tree(
                sentence.upos, sentence.heads, sentence.deprels
            )
        ]
    if sentence.sent_id is not None:
        doc.user_data[SENT_ID_KEY] = sentence.sent_id
    doc.user_data[MULTIWORD_KEY] = [list(m) for m in sentence.multiword]
    return doc


def read_ud(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-U -> Docs of syntactic words, `tag_` = UPOS (the `ud` converter)."""
    for sentence in read_ud_sentences(path):
        yield sentence_doc(vocab, sentence, "upos")


def read_ud_xpos(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-U -> Docs of syntactic words, `tag_` = coarse XPOS (the `ud-xpos` converter)."""
    for sentence in read_ud_sentences(path):
        yield sentence_doc(vocab, sentence, "xpos")


def join_uner(docs: Iterable[Doc], uner_path: Path, vocab: Vocab) -> Iterator[Doc]:
    """The docs with the entities of a Universal NER file whose sentences follow the same
    words in the same order (UNER renumbers sent_ids, so sentences pair by position).

    A sentence whose words differ, or a file with more or fewer sentences, is an error
    naming the UNER file and the sentence: nothing is dropped silently."""
    entity_docs = read_uner(uner_path, vocab)
    for n, doc in enumerate(docs, 1):
        ner_doc = next(entity_docs, None)
        sent_id = doc.user_data.get(SENT_ID_KEY)
        if ner_doc is None:
            raise ValueError(
                f"{uner_path}: ends after {n - 1} sentences, the treebank goes on "
                f"(sentence {n}, sent_id {sent_id})"
            )
        words, ner_words = [t.text for t in doc], [t.text for t in ner_doc]
        if words != ner_words:
            raise ValueError(
                f"{uner_path}: sentence {n} ({ner_doc.user_data.get(SENT_ID_KEY)}) has other "
                f"words than the treebank's sentence {n} (sent_id {sent_id}): "
                f"{' '.join(ner_words[:12])!r} vs {' '.join(words[:12])!r}"
            )
        doc.ents = [Span(doc, e.start, e.end, label=e.label_) for e in ner_doc.ents]
        yield doc
    if next(entity_docs, None) is not None:
        raise ValueError(f"{uner_path}: has more sentences than the treebank")
