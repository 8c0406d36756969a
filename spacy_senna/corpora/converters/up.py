"""Universal PropBank (CoNLL-U columns 1-8, a predicate flag `Y`, its frame, then one
head-word argument column per predicate) as Docs with SRL frames as en_senna holds them:
`doc.spans["srl_predicates"]` (labelled with the frame, `be.01`) and one span group per
predicate, `doc.spans["srl:<token index>"]` (A0, A1, AM-TMP, ... and V).

UP marks an argument by its head word; SENNA labels spans. An argument's span is the
stretch of the head's subtree around the head that holds neither the predicate nor
another argument's head (a relative clause's antecedent stops before the verb it is an
argument of); clauses coordinated with it or beside it (conj/cc of a verbal conjunct,
parataxis) are left out, and so is punctuation at its edges.

Tags (`tag_` = `pos_` = UPOS), lemmas, the tree and the chunks derived from it
(`ud_chunks`) come from UP's own columns; UD v1 names (CONJ, name, mwe, auxpass ...) are
read as UD v2's. The sentence id is the `ref="..."` of the comment line (a UD sent_id), so
sentences can be re-split by a treebank's current split (`split_by_sent_id`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.parts_of_speech import IDS as UPOS_IDS
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from ...srl.frames import frame_key
from .rows import SENT_ID_KEY, Row, commented_sentences
from .ud_chunks import chunk_spans_from_tree

#: UD v1 UPOS and relations -> UD v2, where they differ
V1_UPOS = {"CONJ": "CCONJ"}
V1_RELATIONS = {
    "name": "flat:name",
    "mwe": "fixed",
    "dobj": "obj",
    "neg": "advmod",
    "auxpass": "aux:pass",
    "nsubjpass": "nsubj:pass",
    "csubjpass": "csubj:pass",
}
_REF = re.compile(r'\bref="([^"]+)"')
_N_FIXED = 10


def _ref(comment: str) -> str | None:
    match = _REF.search(comment)
    return match[1] if match else None


def read_up(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """Universal PropBank CoNLL-U -> Docs with frames; ValueError names file and line."""
    for ref, rows in commented_sentences(path, _ref):
        yield _up_doc(path, vocab, ref, rows)


def _up_doc(path: Path, vocab: Vocab, ref: str | None, rows: list[Row]) -> Doc:
    n = len(rows)
    words, lemmas, upos, heads, deprels, targets = [], [], [], [], [], []
    width = len(rows[0][1])
    for i, (lineno, columns) in enumerate(rows):
        if columns[0] != str(i + 1):
            raise ValueError(f"{path}:{lineno}: expected word ID {i + 1}, found {columns[0]!r}")
        if len(columns) < _N_FIXED or len(columns) != width:
            raise ValueError(
                f"{path}:{lineno}: expected {width} tab-separated columns on every line of the "
                f"sentence (10 CoNLL-U-like, then one per predicate), found {len(columns)}"
            )
        pos = V1_UPOS.get(columns[3], columns[3])
        if pos not in UPOS_IDS:
            raise ValueError(f"{path}:{lineno}: expected a UPOS tag, found {columns[3]!r}")
        head = columns[6]
        if not head.isdigit() or int(head) > n:
            raise ValueError(f"{path}:{lineno}: expected a HEAD between 0 and {n}, found {head!r}")
        if columns[8] not in ("Y", "_"):
            raise ValueError(
                f"{path}:{lineno}: expected Y or _ as predicate flag, found {columns[8]!r}"
            )
        if columns[8] == "Y":
            if columns[9] in ("", "_"):
                raise ValueError(f"{path}:{lineno}: predicate without a frame in column 10")
            targets.append(i)
        words.append(columns[1])
        lemmas.append("" if columns[2] == "_" else columns[2])
        upos.append(pos)
        heads.append(int(head) - 1)
        deprels.append(V1_RELATIONS.get(columns[7], columns[7]))
    if len(targets) != width - _N_FIXED:
        raise ValueError(
            f"{path}:{rows[0][0]}: the sentence flags {len(targets)} predicates (column 9) "
            f"but has {width - _N_FIXED} argument columns"
        )
    doc = Doc(
        vocab,
        words=words,
        spaces=[True] * (n - 1) + [False],
        sent_starts=[True] + [False] * (n - 1),
        tags=upos,
        pos=upos,
        lemmas=lemmas,
        heads=[i if h < 0 else h for i, h in enumerate(heads)],
        deps=deprels,
    )
    doc.spans["chunks"] = [
        Span(doc, s, e, label=label) for label, s, e in chunk_spans_from_tree(upos, heads, deprels)
    ]
    doc.spans["srl_predicates"] = [Span(doc, i, i + 1, label=rows[i][1][9]) for i in targets]
    for k, target in enumerate(targets):
        column = _N_FIXED + k
        arguments = [(i, columns[column]) for i, (_, columns) in enumerate(rows)]
        arguments = [(i, label) for i, label in arguments if label != "_" and i != target]
        spans = argument_spans(heads, target, [i for i, _ in arguments], deprels, upos)
        frame = [Span(doc, target, target + 1, label="V")]
        frame += [Span(doc, s, e, label=label) for (_, label), (s, e) in zip(arguments, spans)]
        doc.spans[frame_key("srl", target)] = sorted(frame, key=lambda span: span.start)
    if ref is not None:
        doc.user_data[SENT_ID_KEY] = ref
    return doc


def argument_spans(
    heads: list[int],
    predicate: int,
    argument_heads: list[int],
    deprels: list[str],
    upos: list[str],
) -> list[tuple[int, int]]:
    """(start, end) of each argument: the contiguous part of its head's subtree around the
    head that holds neither the predicate nor another argument's head, without coordinated
    clauses, parataxis and edge punctuation. Where two such parts overlap (an argument's
    head inside another's subtree, its own dependents reaching back into the other's
    part), the outer one (whose head is the other's ancestor; else the longer) stops
    where the inner one starts: the spans of a frame never overlap."""
    n = len(heads)
    children: list[list[int]] = [[] for _ in range(n)]
    for i, h in enumerate(heads):
        if h >= 0 and not _clause_beside(i, heads, deprels, upos):
            children[h].append(i)
    blocked = {predicate, *argument_heads}
    spans = []
    for head in argument_heads:
        subtree, stack = set(), [head]
        while stack:
            i = stack.pop()
            subtree.add(i)
            stack.extend(children[i])
        start = head
        while start - 1 in subtree and start - 1 not in blocked:
            start -= 1
        end = head + 1
        while end in subtree and end not in blocked:
            end += 1
        while start < head and upos[start] == "PUNCT":
            start += 1
        while end - 1 > head and upos[end - 1] == "PUNCT":
            end -= 1
        spans.append((start, end))
    return _without_overlaps(spans, argument_heads, heads)


def _without_overlaps(
    spans: list[tuple[int, int]], argument_heads: list[int], heads: list[int]
) -> list[tuple[int, int]]:
    """`spans` with each overlap cut from the outer span, on the side of the inner one (a
    span never holds another argument's head, so the outer one keeps its own)."""
    spans = list(spans)
    for _ in range(len(spans) ** 2 + 1):  # each cut shrinks a span: this many at most
        pair = next(
            (
                (i, j)
                for i in range(len(spans))
                for j in range(i + 1, len(spans))
                if spans[i][0] < spans[j][1] and spans[j][0] < spans[i][1]
            ),
            None,
        )
        if pair is None:
            return spans
        i, j = pair
        if _is_ancestor(argument_heads[j], argument_heads[i], heads) or (
            not _is_ancestor(argument_heads[i], argument_heads[j], heads)
            and spans[j][1] - spans[j][0] > spans[i][1] - spans[i][0]
        ):
            i, j = j, i  # i: the outer span
        (start, end), (inner_start, inner_end) = spans[i], spans[j]
        if argument_heads[i] < inner_start:
            spans[i] = (start, inner_start)
        else:
            spans[i] = (inner_end, end)
    return spans


def _is_ancestor(a: int, b: int, heads: list[int]) -> bool:
    """Whether word `a` lies on the path from word `b` up to the root."""
    for _ in range(len(heads)):
        b = heads[b]
        if b < 0:
            return False
        if b == a:
            return True
    return False


def _clause_beside(i: int, heads: list[int], deprels: list[str], upos: list[str]) -> bool:
    """Whether word i starts a clause beside its head rather than inside its phrase:
    parataxis, a verbal conjunct, or the cc of a verbal conjunct of the same head."""
    rel = deprels[i].split(":")[0]
    if rel == "parataxis":
        return True
    if rel == "conj":
        return upos[i] in ("VERB", "AUX") or any(
            heads[k] == i and deprels[k] == "cop" for k in range(len(heads))
        )
    if rel == "cc":
        return any(
            k > i
            and heads[k] == heads[i]
            and deprels[k].split(":")[0] == "conj"
            and _clause_beside(k, heads, deprels, upos)
            for k in range(len(heads))
        )
    return False


def split_by_sent_id(
    docs: Iterable[Doc], splits: dict[str, set[str]]
) -> tuple[dict[str, list[Doc]], list[str]]:
    """The docs sorted into the named splits by sent_id; the ids found in none (or with
    no id) are returned, for the caller to report."""
    out: dict[str, list[Doc]] = {name: [] for name in splits}
    unplaced: list[str] = []
    for doc in docs:
        sent_id = doc.user_data.get(SENT_ID_KEY)
        for name, ids in splits.items():
            if sent_id in ids:
                out[name].append(doc)
                break
        else:
            unplaced.append(str(sent_id))
    return out, unplaced
