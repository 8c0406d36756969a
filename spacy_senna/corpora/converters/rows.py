"""What every converter shares: numbered lines of a (gzipped) file, sentences as rows of
columns, checks that name the file and line, and Docs with their spans and SRL frames."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from ...io.text_input import open_text
from ...labels.tags import conlleval_chunks
from ...srl.frames import frame_key

Row = tuple[int, list[str]]  # (line number, columns)
# user_data key of the document (0, 1, ...) a sentence belongs to, in formats that mark
# documents (CoNLL-2003's -DOCSTART- lines); `convert --documents` groups on it
DOCUMENT_KEY = "spacy_senna.document"
# user_data key of a sentence's id in formats that give one (`# sent_id = ...`)
SENT_ID_KEY = "spacy_senna.sent_id"


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without line break) for each line of a UTF-8 file, gzipped or not."""
    with open_text(path, newline="\n") as text:
        for lineno, line in enumerate(text, 1):
            if lineno == 1:
                line = line.lstrip("\ufeff")
            yield lineno, line.rstrip("\r\n")


def sentence_rows(
    path: Path,
    split: Callable[[str], list[str]],
    is_break: Callable[[str], bool] = lambda line: False,
) -> Iterator[list[Row]]:
    """Rows of each sentence; blank lines, and lines for which `is_break` holds, end sentences."""
    rows: list[Row] = []
    n_sentences = 0
    for lineno, line in numbered_lines(path):
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


def tab_split(line: str) -> list[str]:
    return [column.strip(" ") for column in line.split("\t")]


def check_columns(
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


def check_iob(path: Path, lineno: int, tag: str, column: str) -> str:
    if tag != "O" and not (len(tag) > 2 and tag[0] in "BI" and tag[1] == "-"):
        raise ValueError(
            f"{path}:{lineno}: expected an IOB {column} tag (O, B-TYPE or I-TYPE), found {tag!r}"
        )
    return tag


def make_doc(vocab: Vocab, words: list[str], **annotations: list[str] | None) -> Doc:
    n = len(words)
    return Doc(
        vocab,
        words=words,
        spaces=[True] * (n - 1) + [False],
        sent_starts=[True] + [False] * (n - 1),
        **annotations,
    )


def chunk_spans(doc: Doc, tags: Sequence[str]) -> list[Span]:
    return [Span(doc, start, end, label=label) for label, start, end in conlleval_chunks(tags)]


def start_end_spans(path: Path, rows: list[Row], col: int) -> list[tuple[str, int, int]]:
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


def add_frames(
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
        arguments = start_end_spans(path, rows, first_argument + k)
        # a split verb ("flip - flopped") marks its predicate inside the C-V part
        if not any(lab in ("V", "C-V") and start <= target < end for lab, start, end in arguments):
            raise ValueError(
                f"{path}:{rows[target][0]}: predicate {rows[target][1][word_column]!r} is not "
                f"inside the V (or C-V) argument of its column ({first_argument + k + 1})"
            )
        doc.spans[frame_key("srl", target)] = [
            Span(doc, s, e, label=lab) for lab, s, e in arguments
        ]


def _sent_id(comment: str) -> str | None:
    key, _, value = comment[1:].partition("=")
    return value.strip() if key.strip() == "sent_id" else None


def commented_sentences(
    path: Path, sentence_id: Callable[[str], str | None] = _sent_id
) -> Iterator[tuple[str | None, list[Row]]]:
    """(id, rows) of each sentence of a file whose comment lines name it: by default
    `# sent_id = ...`; `sentence_id` reads another comment (None: not an id)."""
    sent_id: str | None = None
    rows: list[Row] = []
    n_sentences = 0
    for lineno, line in numbered_lines(path):
        if line.startswith("#"):
            found = sentence_id(line)
            if found is not None and not rows:
                sent_id = found
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


def check_ids(path: Path, rows: list[Row]) -> None:
    for i, (lineno, columns) in enumerate(rows, 1):
        if columns[0] != str(i):
            raise ValueError(f"{path}:{lineno}: expected token ID {i}, found {columns[0]!r}")
