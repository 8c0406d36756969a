"""Constituency trees: Penn Treebank brackets <-> trees <-> words, tags and labelled spans.

A tree is read from one bracketed line (`( (S (NP-SBJ (NNP Ms.) (NNP Haag)) ...))`, the
WSJ files of ../shared/data/wsj-trees) or from a CoNLL parse column (`(TOP(S(NP*`, one
word per line). A preterminal holds a word and its tag; every other node holds children.
A *constituent* is a phrase node as `(label, start, end)` over word indices, `end`
exclusive, listed outermost first (preorder), so a unary chain lists its top node first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from ..io.text_input import open_text

Constituent = tuple[str, int, int]

#: labels of the unlabelled wrapper a treebank puts around each tree (`( (S ...))`)
ROOT_LABELS = frozenset({"", "TOP", "ROOT"})
#: the tag of empty elements (traces, null complementizers)
EMPTY_TAG = "-NONE-"

_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_PARSE_BIT = re.compile(r"\(([^()*\s]+)")


@dataclass(frozen=True)
class Tree:
    """A node: a preterminal (`word` set, `label` its tag) or a phrase (`children`)."""

    label: str
    children: tuple[Tree, ...] = ()
    word: str | None = None

    @property
    def is_preterminal(self) -> bool:
        return self.word is not None

    def preterminals(self) -> Iterator[Tree]:
        """The preterminals, left to right."""
        if self.is_preterminal:
            yield self
            return
        for child in self.children:
            yield from child.preterminals()

    @property
    def words(self) -> list[str]:
        return [leaf.word for leaf in self.preterminals()]

    @property
    def tags(self) -> list[str]:
        return [leaf.label for leaf in self.preterminals()]


def parse_tree(text: str) -> Tree:
    """One bracketed tree; ValueError when the brackets are malformed."""
    tokens = _TOKEN.findall(text)
    if not tokens or tokens[0] != "(":
        raise ValueError(f"expected a tree starting with '(', found {text[:40]!r}")
    tree, end = _parse_node(tokens, 0)
    if end != len(tokens):
        raise ValueError(f"text after the end of the tree: {' '.join(tokens[end : end + 5])!r}")
    return tree


def _parse_node(tokens: Sequence[str], i: int) -> tuple[Tree, int]:
    """The node opening at tokens[i] == '(' and the index after its ')'."""
    stack: list[tuple[str, list[Tree]]] = []
    while i < len(tokens):
        token = tokens[i]
        if token == "(":
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ")"
            label = "" if nxt in "()" else nxt
            i += 1 if nxt in "()" else 2
            if i + 1 < len(tokens) and tokens[i] not in "()" and tokens[i + 1] == ")":
                node = Tree(label, word=tokens[i])  # a preterminal: (TAG word)
                i += 2
                if not stack:
                    return node, i
                stack[-1][1].append(node)
                continue
            stack.append((label, []))
        elif token == ")":
            if not stack:
                raise ValueError("a ')' closes no open node")
            label, children = stack.pop()
            if not children:
                raise ValueError(f"node {label!r} has neither children nor a word")
            node = Tree(label, tuple(children))
            i += 1
            if not stack:
                return node, i
            stack[-1][1].append(node)
        else:
            raise ValueError(f"unexpected {token!r}: a word outside a (TAG word) node")
    raise ValueError("the tree is never closed")


def read_trees(path: Path) -> Iterator[Tree]:
    """The trees of a file with one bracketed tree per line (plain or gzipped); blank
    lines are skipped. ValueError names the file (and line) of a malformed tree, of
    bytes that are not text, and of a file without any tree."""
    with open_text(Path(path), newline="\n") as text:
        pending: tuple[int, str] | None = None
        n_trees = 0
        # each line is parsed once the next one is read, so a file that is not text is
        # named as such, not as a malformed first tree
        for lineno, line in enumerate(chain(text, [""]), 1):
            if pending is not None:
                n_trees += 1
                yield _parse_line(path, *pending)
            pending = (lineno, line) if line.strip() else None
    if not n_trees:
        raise ValueError(f"{path} contains no sentences")


def _parse_line(path: Path, lineno: int, line: str) -> Tree:
    try:
        return parse_tree(line)
    except ValueError as err:
        raise ValueError(f"{path}:{lineno}: {err}") from None


def tree_from_parse_bits(words: Sequence[str], tags: Sequence[str], bits: Sequence[str]) -> Tree:
    """The tree of a CoNLL parse column (`(TOP(S(NP*`, `*`, `*))`), one bit per word;
    words may hold brackets."""
    stack: list[tuple[str, list[Tree]]] = [("", [])]
    for word, tag, bit in zip(words, tags, bits):
        star = bit.find("*")
        opening, closing = bit[:star], bit[star + 1 :]
        labels = _PARSE_BIT.findall(opening)
        if star < 0 or "".join(f"({lab}" for lab in labels) != opening or set(closing) - {")"}:
            raise ValueError(f"expected a parse bit like (S(NP*, * or *)), found {bit!r}")
        stack.extend((label, []) for label in labels)
        stack[-1][1].append(Tree(tag, word=word))
        for _ in closing:
            if len(stack) == 1:
                raise ValueError(f"{bit!r} closes more phrases than are open")
            label, children = stack.pop()
            stack[-1][1].append(Tree(label, tuple(children)))
    if len(stack) != 1:
        raise ValueError("the parse column is never closed")
    (tree, *rest) = stack[0][1]
    if rest:
        raise ValueError("the parse column holds more than one tree")
    return tree


def tree_string(tree: Tree) -> str:
    """The tree on one line, in the WSJ files' form: `(S (NP (NNP Ms.)) ...)`; brackets in
    words are written as the treebank's `-LRB-` and `-RRB-`."""
    if tree.is_preterminal:
        word = tree.word.replace("(", "-LRB-").replace(")", "-RRB-")
        return f"({tree.label} {word})"
    inner = " ".join(tree_string(child) for child in tree.children)
    return f"({tree.label} {inner})" if tree.label else f"( {inner})"


def bare_label(label: str) -> str:
    """A label without function tags and indices, cut as EVALB cuts it (at the first `-`
    or `=` after the first character): `NP-SBJ-1` -> `NP`, `NP=2` -> `NP`, `-NONE-` and
    `-LRB-` unchanged, `PRT|ADVP` unchanged."""
    if len(label) > 1 and label[0] == label[-1] == "-":
        return label
    for i, char in enumerate(label):
        if i and char in "-=":
            return label[:i]
    return label


def without_empty(tree: Tree) -> Tree | None:
    """The tree without empty elements (`-NONE-`) and the phrases left without words;
    None when nothing is left."""
    if tree.is_preterminal:
        return None if tree.label == EMPTY_TAG else tree
    children = tuple(c for c in map(without_empty, tree.children) if c is not None)
    return Tree(tree.label, children) if children else None


def with_bare_labels(tree: Tree) -> Tree:
    """The tree with every phrase label bare (`bare_label`); tags are kept."""
    if tree.is_preterminal:
        return tree
    return Tree(bare_label(tree.label), tuple(map(with_bare_labels, tree.children)))


def unwrapped(tree: Tree) -> list[Tree]:
    """The nodes under the treebank's root wrapper (label "", TOP or ROOT), or the tree."""
    if tree.label in ROOT_LABELS and not tree.is_preterminal:
        return list(tree.children)
    return [tree]


def clean_tree(tree: Tree) -> list[Tree]:
    """What a parser learns: no empty elements, bare labels, no root wrapper (the top
    nodes, usually one)."""
    kept = without_empty(tree)
    return [] if kept is None else [with_bare_labels(t) for t in unwrapped(kept)]


def constituents(trees: Sequence[Tree]) -> list[Constituent]:
    """The phrase nodes of consecutive trees over one word sequence, outermost first."""
    out: list[Constituent] = []
    start = 0
    for tree in trees:
        start = _collect(tree, start, out)
    return out


def _collect(tree: Tree, start: int, out: list[Constituent]) -> int:
    if tree.is_preterminal:
        return start + 1
    index = len(out)
    out.append((tree.label, start, start))
    end = start
    for child in tree.children:
        end = _collect(child, end, out)
    out[index] = (tree.label, start, end)
    return end


def tree_from_spans(
    words: Sequence[str],
    tags: Sequence[str],
    spans: Sequence[Constituent],
    root: str | None = "",
) -> Tree:
    """The tree of properly nested `spans` (a span listed before another with the same
    bounds is its parent) over tagged words, under a `root` wrapper; with `root` None the
    wrapper is left out when one span covers every word."""
    ordered = sorted(enumerate(spans), key=lambda item: (item[1][1], -item[1][2], item[0]))
    leaves = [Tree(tag, word=word) for word, tag in zip(words, tags)]
    stack: list[tuple[str, int, int, list[Tree]]] = [(root or "", 0, len(words), [])]
    position = 0

    def close_until(end: int) -> None:
        nonlocal position
        while True:
            label, start, stop, children = stack[-1]
            if stop > end or len(stack) == 1:
                break
            children.extend(leaves[position:stop])
            position = stop
            stack.pop()
            stack[-1][3].append(Tree(label, tuple(children)))

    for _, (label, start, end) in ordered:
        if not 0 <= start < end <= len(words):
            raise ValueError(f"span {(label, start, end)} is empty or outside {len(words)} words")
        close_until(start)
        if end > stack[-1][2]:
            raise ValueError(f"span {(label, start, end)} crosses {stack[-1][:3]}")
        stack[-1][3].extend(leaves[position:start])
        position = start
        stack.append((label, start, end, []))
    close_until(len(words))
    label, _, _, children = stack[0]
    children.extend(leaves[position:])
    if root is None and len(children) == 1 and not children[0].is_preterminal:
        return children[0]
    return Tree(label, tuple(children))
