"""The benchmark formats (paper §1, Table 1; research use only): WSJ POS and PT0,
CoNLL-2000, CoNLL-2003, CoNLL-2005, and CoNLL-U (UD)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from spacy.parts_of_speech import IDS as UPOS_IDS
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from .rows import (
    DOCUMENT_KEY,
    Row,
    add_frames,
    check_columns,
    check_iob,
    chunk_spans,
    make_doc,
    sentence_rows,
    tab_split,
)

_CONLLU_RANGE = re.compile(r"^[0-9]+-[0-9]+$")
_CONLLU_EMPTY = re.compile(r"^[0-9]+\.[0-9]+$")


def read_wsj_pos(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """`WORD<TAB>TAG` lines, blank line between sentences -> `token.tag_`."""
    for rows in sentence_rows(path, tab_split):
        for lineno, columns in rows:
            check_columns(path, lineno, columns, ("WORD", "TAG"), "tab")
        yield make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])


def _read_segments(
    path: Path, vocab: Vocab, split, columns: tuple, separator: str, key: str
) -> Iterator[Doc]:
    """`WORD POS SEGMENT` rows (segments in IOB2) -> `token.tag_` and `doc.spans[key]`."""
    for rows in sentence_rows(path, split):
        for lineno, cols in rows:
            check_columns(path, lineno, cols, columns, separator)
            check_iob(path, lineno, cols[2], columns[2])
        doc = make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        doc.spans[key] = chunk_spans(doc, [c[2] for _, c in rows])
        yield doc


def read_wsj_pt0(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """`WORD<TAB>POS<TAB>PT0` lines (PT0 in IOB2) -> `token.tag_` and `doc.spans["pt0"]`."""
    return _read_segments(path, vocab, tab_split, ("WORD", "POS", "PT0"), "tab", "pt0")


def read_conll2000(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-2000 `WORD POS CHUNK` lines (IOB2) -> `token.tag_` and `doc.spans["chunks"]`."""
    return _read_segments(path, vocab, str.split, ("WORD", "POS", "CHUNK"), "space", "chunks")


def _is_docstart(line: str) -> bool:
    return line.split(maxsplit=1)[0] == "-DOCSTART-"


def read_conll2003(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-2003 `WORD POS CHUNK NER` lines (IOB1) -> `tag_`, `spans["chunks"]`, `ents`.

    `-DOCSTART-` lines separate documents and are dropped; each doc's
    `user_data[DOCUMENT_KEY]` numbers the document it came from.
    """
    document = 0

    def is_break(line: str) -> bool:
        nonlocal document
        if _is_docstart(line):
            document += 1
            return True
        return False

    for rows in sentence_rows(path, str.split, is_break):
        for lineno, columns in rows:
            check_columns(path, lineno, columns, ("WORD", "POS", "CHUNK", "NER"), "space")
            check_iob(path, lineno, columns[2], "CHUNK")
            check_iob(path, lineno, columns[3], "NER")
        doc = make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        doc.spans["chunks"] = chunk_spans(doc, [c[2] for _, c in rows])
        doc.ents = chunk_spans(doc, [c[3] for _, c in rows])
        doc.user_data[DOCUMENT_KEY] = document
        yield doc


_PARSE_OPEN = re.compile(r"\(([^()*\s]+)")


def _bare_phrase_label(label: str) -> str:
    """`NP-SBJ-1` -> `NP`, `NP=2` -> `NP`, `PRT|ADVP` -> `PRT` (as wsj-pt0 labels them)."""
    return re.split(r"[-=|]", label, maxsplit=1)[0] or label


def level0_segments(path: Path, rows: list[Row], col: int) -> list[tuple[str, int, int]]:
    """The parse tree level 0 (PT0) segments of a Start-End parse column (`(S1(S(NP*`).

    Each word's lowest phrase is the innermost node open at it; a segment is a maximal
    run of contiguous words with the same lowest phrase, labelled with its bare label.
    Words whose lowest phrase is the root wrapper or the top node below it are outside
    any segment (paper §7.6: "words belonging to the root node S are labelled O"), the
    rule `wsj-pt0` was derived with from the gold trees.
    """
    stack: list[tuple[int, str]] = []  # (node id, label) of the open nodes
    lowest: list[tuple[int, str] | None] = []
    n_nodes = 0
    for lineno, columns in rows:
        value = columns[col]
        star = value.find("*")
        opening, closing = value[:star], value[star + 1 :]
        labels = _PARSE_OPEN.findall(opening)
        if star < 0 or "".join(f"({lab}" for lab in labels) != opening or set(closing) - {")"}:
            raise ValueError(
                f"{path}:{lineno}: expected a parse tag like (S1(S(NP*, * or *)), found {value!r}"
            )
        for label in labels:
            stack.append((n_nodes, label))
            n_nodes += 1
        if not stack:
            raise ValueError(f"{path}:{lineno}: a word outside the parse tree ({value!r})")
        lowest.append(stack[-1] if len(stack) > 2 else None)
        if len(closing) > len(stack):
            raise ValueError(f"{path}:{lineno}: {value!r} closes more phrases than are open")
        del stack[len(stack) - len(closing) :]
    if stack:
        raise ValueError(f"{path}:{rows[-1][0]}: the parse tree is never closed")
    segments: list[tuple[str, int, int]] = []
    for i, node in enumerate(lowest):
        if node is None:
            continue
        if i and lowest[i - 1] == node:
            label, start, _ = segments[-1]
            segments[-1] = (label, start, i + 1)
        else:
            segments.append((_bare_phrase_label(node[1]), i, i + 1))
    return segments


def read_conll2005(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-2005 SRL `WORD POS PARSE NE SENSE TARGET PROPS...` lines -> `tag_`,
    `doc.spans["srl_predicates"]` (labelled with the target lemma), one frame per
    target, `doc.spans["srl:<token index>"]`, holding its arguments (V included), and,
    when the PARSE column holds a parse (not only `*`), its level-0 segments,
    `doc.spans["pt0"]` (SENNA's PT0 input)."""
    for rows in sentence_rows(path, str.split):
        width = len(rows[0][1])
        for lineno, columns in rows:
            if len(columns) != width or width < 6:
                raise ValueError(
                    f"{path}:{lineno}: expected the same number (>= 6) of space-separated "
                    f"columns on every line of a sentence (WORD POS PARSE NE SENSE TARGET "
                    f"PROPS...), found {len(columns)} (the sentence starts with {width})"
                )
        doc = make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        if any(set(c[2]) & set("()") for _, c in rows):  # a parse column, not just `*`
            segments = level0_segments(path, rows, 2)
            doc.spans["pt0"] = [Span(doc, s, e, label=lab) for lab, s, e in segments]
        add_frames(doc, path, rows, predicate_column=5, word_column=0)
        yield doc


_CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


def read_conllu(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-U (UD) -> XPOS as `tag_`, UPOS as `pos_`, `lemma_`.

    Comments, multiword-token ranges (`1-2`) and empty nodes (`1.1`) are skipped.
    """
    for rows in sentence_rows(
        path, lambda line: line.split("\t"), lambda line: line.startswith("#")
    ):
        words: list[str] = []
        lemmas: list[str] = []
        upos: list[str] = []
        xpos: list[str] = []
        for lineno, columns in rows:
            if len(columns) != len(_CONLLU_COLUMNS):
                raise ValueError(
                    f"{path}:{lineno}: expected 10 tab-separated CoNLL-U columns, "
                    f"found {len(columns)}"
                )
            token_id, form, lemma, pos, tag = columns[:5]
            if _CONLLU_RANGE.match(token_id) or _CONLLU_EMPTY.match(token_id):
                continue
            if token_id != str(len(words) + 1):
                raise ValueError(
                    f"{path}:{lineno}: expected token ID {len(words) + 1}, found {token_id!r}"
                )
            if not form:
                raise ValueError(f"{path}:{lineno}: expected a non-empty FORM column")
            if pos != "_" and pos not in UPOS_IDS:
                raise ValueError(f"{path}:{lineno}: expected a UPOS tag, found {pos!r}")
            words.append(form)
            lemmas.append("" if lemma == "_" and form != "_" else lemma)
            upos.append("" if pos == "_" else pos)
            xpos.append("" if tag == "_" else tag)
        if not words:
            raise ValueError(f"{path}:{rows[0][0]}: expected a sentence with at least one word")
        yield make_doc(vocab, words, tags=xpos, pos=upos, lemmas=lemmas)
