"""Readers turning the benchmark formats (paper §1, Table 1) into spaCy Docs, one per sentence.

Every reader streams its file (plain or gzip), and raises ValueError naming the file and
the 1-based line number on malformed input. See the dataset READMEs under ../shared/data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from spacy.parts_of_speech import IDS as UPOS_IDS
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from .frames import frame_key
from .tags import conlleval_chunks
from .text_input import open_text

Row = tuple[int, list[str]]  # (line number, columns)
# user_data key of the document (0, 1, ...) a sentence belongs to, in formats that mark
# documents (CoNLL-2003's -DOCSTART- lines); `convert --documents` groups on it
DOCUMENT_KEY = "spacy_senna.document"
# user_data key of a sentence's id in formats that give one (`# sent_id = ...`)
SENT_ID_KEY = "spacy_senna.sent_id"

_CONLLU_RANGE = re.compile(r"^[0-9]+-[0-9]+$")
_CONLLU_EMPTY = re.compile(r"^[0-9]+\.[0-9]+$")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without line break) for each line of a UTF-8 file, gzipped or not."""
    with open_text(path, newline="\n") as text:
        for lineno, line in enumerate(text, 1):
            if lineno == 1:
                line = line.lstrip("\ufeff")
            yield lineno, line.rstrip("\r\n")


def _sentences(
    path: Path,
    split: Callable[[str], list[str]],
    is_break: Callable[[str], bool] = lambda line: False,
) -> Iterator[list[Row]]:
    """Rows of each sentence; blank lines, and lines for which `is_break` holds, end sentences."""
    rows: list[Row] = []
    n_sentences = 0
    for lineno, line in _lines(path):
        if not line.strip() or is_break(line):
            if rows:
                n_sentences += 1
                yield rows
                rows = []
            continue
        rows.append((lineno, split(line)))
    if rows:
        n_sentences += 1
        yield rows
    if n_sentences == 0:
        raise ValueError(f"{path} contains no sentences")


def _tab_split(line: str) -> list[str]:
    return [column.strip(" ") for column in line.split("\t")]


def _check_columns(
    path: Path, lineno: int, columns: list[str], expected: Sequence[str], sep: str
) -> None:
    if len(columns) != len(expected):
        raise ValueError(
            f"{path}:{lineno}: expected {len(expected)} {sep}-separated columns "
            f"({' '.join(expected)}), found {len(columns)}"
        )
    for name, value in zip(expected, columns):
        if not value:
            raise ValueError(f"{path}:{lineno}: expected a non-empty {name} column")


def _check_iob(path: Path, lineno: int, tag: str, column: str) -> str:
    if tag != "O" and not (len(tag) > 2 and tag[0] in "BI" and tag[1] == "-"):
        raise ValueError(
            f"{path}:{lineno}: expected an IOB {column} tag (O, B-TYPE or I-TYPE), found {tag!r}"
        )
    return tag


def _make_doc(vocab: Vocab, words: list[str], **annotations: list[str] | None) -> Doc:
    n = len(words)
    return Doc(
        vocab,
        words=words,
        spaces=[True] * (n - 1) + [False],
        sent_starts=[True] + [False] * (n - 1),
        **annotations,
    )


def _spans(doc: Doc, tags: Sequence[str]) -> list[Span]:
    return [Span(doc, start, end, label=label) for label, start, end in conlleval_chunks(tags)]


def read_wsj_pos(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """`WORD<TAB>TAG` lines, blank line between sentences -> `token.tag_`."""
    for rows in _sentences(path, _tab_split):
        for lineno, columns in rows:
            _check_columns(path, lineno, columns, ("WORD", "TAG"), "tab")
        yield _make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])


def _read_segments(
    path: Path, vocab: Vocab, split, columns: tuple, separator: str, key: str
) -> Iterator[Doc]:
    """`WORD POS SEGMENT` rows (segments in IOB2) -> `token.tag_` and `doc.spans[key]`."""
    for rows in _sentences(path, split):
        for lineno, cols in rows:
            _check_columns(path, lineno, cols, columns, separator)
            _check_iob(path, lineno, cols[2], columns[2])
        doc = _make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        doc.spans[key] = _spans(doc, [c[2] for _, c in rows])
        yield doc


def read_wsj_pt0(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """`WORD<TAB>POS<TAB>PT0` lines (PT0 in IOB2) -> `token.tag_` and `doc.spans["pt0"]`."""
    return _read_segments(path, vocab, _tab_split, ("WORD", "POS", "PT0"), "tab", "pt0")


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

    for rows in _sentences(path, str.split, is_break):
        for lineno, columns in rows:
            _check_columns(path, lineno, columns, ("WORD", "POS", "CHUNK", "NER"), "space")
            _check_iob(path, lineno, columns[2], "CHUNK")
            _check_iob(path, lineno, columns[3], "NER")
        doc = _make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        doc.spans["chunks"] = _spans(doc, [c[2] for _, c in rows])
        doc.ents = _spans(doc, [c[3] for _, c in rows])
        doc.user_data[DOCUMENT_KEY] = document
        yield doc


def _start_end_spans(path: Path, rows: list[Row], col: int) -> list[tuple[str, int, int]]:
    """Spans of one Start-End column (`(A0*`, `*`, `*)`, `(V*)`); non-nested, as in props."""
    spans: list[tuple[str, int, int]] = []
    open_label, open_start = None, 0
    for i, (lineno, columns) in enumerate(rows):
        value = columns[col]
        star = value.find("*")
        opening, closing = value[:star], value[star + 1 :]
        if star < 0 or closing not in ("", ")") or (opening and not opening.startswith("(")):
            raise ValueError(
                f"{path}:{lineno}: expected a Start-End tag like (A0*, * or *), found {value!r}"
            )
        if opening:
            if open_label is not None:
                raise ValueError(
                    f"{path}:{lineno}: argument {opening[1:]!r} opens inside {open_label!r}"
                )
            open_label, open_start = opening[1:], i
            if not open_label:
                raise ValueError(f"{path}:{lineno}: argument without a label in {value!r}")
        if closing:
            if open_label is None:
                raise ValueError(f"{path}:{lineno}: `*)` closes no open argument")
            spans.append((open_label, open_start, i + 1))
            open_label = None
    if open_label is not None:
        raise ValueError(f"{path}:{rows[-1][0]}: argument {open_label!r} is never closed")
    return spans


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
    for rows in _sentences(path, str.split):
        width = len(rows[0][1])
        for lineno, columns in rows:
            if len(columns) != width or width < 6:
                raise ValueError(
                    f"{path}:{lineno}: expected the same number (>= 6) of space-separated "
                    f"columns on every line of a sentence (WORD POS PARSE NE SENSE TARGET "
                    f"PROPS...), found {len(columns)} (the sentence starts with {width})"
                )
        doc = _make_doc(vocab, [c[0] for _, c in rows], tags=[c[1] for _, c in rows])
        if any(set(c[2]) & set("()") for _, c in rows):  # a parse column, not just `*`
            segments = level0_segments(path, rows, 2)
            doc.spans["pt0"] = [Span(doc, s, e, label=lab) for lab, s, e in segments]
        _add_frames(doc, path, rows, predicate_column=5, word_column=0)
        yield doc


def _add_frames(
    doc: Doc, path: Path, rows: list[Row], predicate_column: int, word_column: int
) -> None:
    """`doc.spans["srl_predicates"]` (the rows whose predicate column is not `-`, labelled
    with it) and one frame per predicate from the argument columns after that column."""
    first_line, width = rows[0][0], len(rows[0][1])
    targets = [i for i, (_, columns) in enumerate(rows) if columns[predicate_column] != "-"]
    first_argument = predicate_column + 1
    if len(targets) != width - first_argument:
        raise ValueError(
            f"{path}:{first_line}: the sentence marks {len(targets)} predicates in column "
            f"{predicate_column + 1} but has {width - first_argument} argument columns"
        )
    doc.spans["srl_predicates"] = [
        Span(doc, i, i + 1, label=rows[i][1][predicate_column]) for i in targets
    ]
    for k, target in enumerate(targets):
        arguments = _start_end_spans(path, rows, first_argument + k)
        # a split verb ("flip - flopped") marks its predicate inside the C-V part
        if not any(lab in ("V", "C-V") and start <= target < end for lab, start, end in arguments):
            raise ValueError(
                f"{path}:{rows[target][0]}: predicate {rows[target][1][word_column]!r} is not "
                f"inside the V (or C-V) argument of its column ({first_argument + k + 1})"
            )
        doc.spans[frame_key("srl", target)] = [
            Span(doc, s, e, label=lab) for lab, s, e in arguments
        ]


_CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


def read_conllu(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """CoNLL-U (UD) -> XPOS as `tag_`, UPOS as `pos_`, `lemma_`.

    Comments, multiword-token ranges (`1-2`) and empty nodes (`1.1`) are skipped.
    """
    for rows in _sentences(path, lambda line: line.split("\t"), lambda line: line.startswith("#")):
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
        yield _make_doc(vocab, words, tags=xpos, pos=upos, lemmas=lemmas)


def _comment_sentences(path: Path) -> Iterator[tuple[str | None, list[Row]]]:
    """(sent_id, rows) of each sentence of a file with `# sent_id = ...` comment lines."""
    sent_id: str | None = None
    rows: list[Row] = []
    n_sentences = 0
    for lineno, line in _lines(path):
        if line.startswith("#"):
            key, _, value = line[1:].partition("=")
            if key.strip() == "sent_id" and not rows:
                sent_id = value.strip()
            continue
        if line.strip():
            rows.append((lineno, line.split("\t")))
            continue
        if rows:
            n_sentences += 1
            yield sent_id, rows
        sent_id, rows = None, []
    if rows:
        n_sentences += 1
        yield sent_id, rows
    if n_sentences == 0:
        raise ValueError(f"{path} contains no sentences")


def _check_ids(path: Path, rows: list[Row]) -> None:
    for i, (lineno, columns) in enumerate(rows, 1):
        if columns[0] != str(i):
            raise ValueError(f"{path}:{lineno}: expected token ID {i}, found {columns[0]!r}")


def read_propbank_ewt(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """propbank-ewt's CoNLL-2005-style verbal view (`ID WORD XPOS CHUNK PRED ARG_1...`, tab)
    -> `tag_`, `doc.spans["chunks"]` (from BIO), `doc.spans["srl_predicates"]` and one
    frame per predicate, `doc.spans["srl:<token index>"]`; `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in _comment_sentences(path):
        width = len(rows[0][1])
        for lineno, columns in rows:
            if len(columns) != width or width < 5 or not all(columns[:5]):
                raise ValueError(
                    f"{path}:{lineno}: expected the same number (>= 5) of tab-separated "
                    f"columns on every line of a sentence (ID WORD XPOS CHUNK PRED ARG...), "
                    f"non-empty, found {len(columns)} (the sentence starts with {width})"
                )
            _check_iob(path, lineno, columns[3], "CHUNK")
        _check_ids(path, rows)
        doc = _make_doc(vocab, [c[1] for _, c in rows], tags=[c[2] for _, c in rows])
        doc.spans["chunks"] = _spans(doc, [c[3] for _, c in rows])
        _add_frames(doc, path, rows, predicate_column=4, word_column=1)
        if sent_id is not None:
            doc.user_data[SENT_ID_KEY] = sent_id
        yield doc


#: the entity types of Universal NER; the pre-release's OTH (about MISC) is left out, as
#: the final release left it out
UNER_TYPES = ("PER", "LOC", "ORG")


def read_uner(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """Universal NER IOB2 (`ID TOKEN TAG [...]`, tab, `# sent_id` comments) -> `doc.ents`
    (PER, LOC, ORG; OTH dropped); `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in _comment_sentences(path):
        for lineno, columns in rows:
            if len(columns) < 3 or not all(columns[:3]):
                raise ValueError(
                    f"{path}:{lineno}: expected at least 3 non-empty tab-separated columns "
                    f"(ID TOKEN TAG), found {len(columns)}"
                )
            _check_iob(path, lineno, columns[2], "NER")
        _check_ids(path, rows)
        tags = [c[2] if c[2][2:] in UNER_TYPES else "O" for _, c in rows]
        tags = [_repair_inside(tags, i) for i in range(len(tags))]
        doc = _make_doc(vocab, [c[1] for _, c in rows])
        doc.ents = _spans(doc, tags)
        if sent_id is not None:
            doc.user_data[SENT_ID_KEY] = sent_id
        yield doc


def read_gum_open(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """gum-open (`ID FORM XPOS NER CHUNK`, tab, IOB2) -> `tag_`, `doc.ents` (PER, LOC, ORG;
    MISC dropped, as Universal NER has none) and `doc.spans["chunks"]` (silver: from
    parser trees); `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in _comment_sentences(path):
        for lineno, columns in rows:
            _check_columns(path, lineno, columns, ("ID", "FORM", "XPOS", "NER", "CHUNK"), "tab")
            _check_iob(path, lineno, columns[3], "NER")
            _check_iob(path, lineno, columns[4], "CHUNK")
        _check_ids(path, rows)
        ner = [c[3] if c[3][2:] in UNER_TYPES else "O" for _, c in rows]
        ner = [_repair_inside(ner, i) for i in range(len(ner))]
        doc = _make_doc(vocab, [c[1] for _, c in rows], tags=[c[2] for _, c in rows])
        doc.ents = _spans(doc, ner)
        doc.spans["chunks"] = _spans(doc, [c[4] for _, c in rows])
        if sent_id is not None:
            doc.user_data[SENT_ID_KEY] = sent_id
        yield doc


def _repair_inside(tags: list[str], i: int) -> str:
    """An I- tag after a dropped type's tag (or O) starts its own entity: I-X -> B-X."""
    tag = tags[i]
    if tag.startswith("I-") and (i == 0 or tags[i - 1][2:] != tag[2:]):
        return "B-" + tag[2:]
    return tag


CONVERTERS: dict[str, Callable[[Path, Vocab], Iterator[Doc]]] = {
    "wsj-pos": read_wsj_pos,
    "conllu": read_conllu,
    "conll2000": read_conll2000,
    "conll2003": read_conll2003,
    "wsj-pt0": read_wsj_pt0,
    "conll2005": read_conll2005,
    "propbank-ewt": read_propbank_ewt,
    "uner": read_uner,
    "gum-open": read_gum_open,
}
