"""A parse tree as SENNA's stack of levels (Collobert 2011, AISTATS), and back.

Each level is a chunking of the current *frontier*: the units a sentence is made of so
far, that is the nodes already built (outermost ones) and the words no node covers yet.
Level 0 chunks words; a node goes to the level one above its highest child node (its
height: 0 when all its children are words), so every child of a level-l node is a unit
of the frontier at level l, and a node is always whole (SENNA's parser prints each
level's chunk as one bracket). A unary chain (`(S (VP ...))`, one node over exactly
one other) is one node whose label joins the chain's labels top first (`S::VP`).
A sentence is finished when one node spans it, or when a level adds no node.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy

from .trees import Constituent

#: joins the labels of a unary chain, top first: `S::VP`
UNARY_JOIN = "::"

#: where a word lies in the frontier: a word no node holds, a node of one word, or the
#: first, an inner or the last word of a longer node
FREE, ONE_WORD_NODE, NODE_START, NODE_INSIDE, NODE_END = range(5)
#: the BILUO prefixes a word's tag may take at a level, per position class: a new node
#: holds whole units (BILUO's transitions keep a node's words together once its first
#: word is tagged) and a node is not alone in a new one (no U on a node)
ALLOWED_PREFIXES = ("OBILU", "OBIL", "OBI", "OI", "OIL")


class Unit(NamedTuple):
    """A frontier unit: a node's span and label, or one word (label None)."""

    start: int
    end: int
    label: str | None = None


class LevelStep(NamedTuple):
    """One level to learn: the frontier before it and the nodes it adds."""

    frontier: list[Unit]
    nodes: list[Constituent]


def collapse_unary(spans: Sequence[Constituent]) -> list[Constituent]:
    """Properly nested spans (outermost first) with each unary chain as one span, sorted
    by start, then longest first."""
    ordered = sorted(enumerate(spans), key=lambda item: (item[1][1], -item[1][2], item[0]))
    out: list[Constituent] = []
    for _, (label, start, end) in ordered:
        if out and out[-1][1:] == (start, end):
            out[-1] = (f"{out[-1][0]}{UNARY_JOIN}{label}", start, end)
        else:
            out.append((label, start, end))
    return out


def expand_unary(spans: Sequence[Constituent]) -> list[Constituent]:
    """Each joined label (`S::VP`) back as its chain of spans, top first."""
    return [(part, start, end) for label, start, end in spans for part in label.split(UNARY_JOIN)]


def tree_levels(spans: Sequence[Constituent]) -> list[list[Constituent]]:
    """The levels of a tree given as its properly nested constituents: level l holds the
    nodes of height l (unary chains collapsed), left to right."""
    nodes = collapse_unary(spans)
    heights = [0] * len(nodes)
    parent: list[int] = [-1] * len(nodes)
    stack: list[int] = []
    for i, (_, start, end) in enumerate(nodes):
        while stack and nodes[stack[-1]][2] <= start:
            stack.pop()
        if stack and end > nodes[stack[-1]][2]:
            raise ValueError(f"constituent {nodes[i]} crosses {nodes[stack[-1]]}")
        parent[i] = stack[-1] if stack else -1
        stack.append(i)
    for i in range(len(nodes) - 1, -1, -1):  # children come after their parent
        if parent[i] >= 0:
            heights[parent[i]] = max(heights[parent[i]], heights[i] + 1)
    levels: list[list[Constituent]] = [[] for _ in range(max(heights, default=-1) + 1)]
    for node, height in zip(nodes, heights):
        levels[height].append(node)
    return levels


def words_frontier(n_words: int) -> list[Unit]:
    """The frontier before level 0: every word."""
    return [Unit(i, i + 1) for i in range(n_words)]


def is_finished(frontier: Sequence[Unit], n_words: int) -> bool:
    """Whether one node spans the sentence (SENNA's stopping rule, with no new node)."""
    return len(frontier) == 1 and frontier[0].label is not None and frontier[0][:2] == (0, n_words)


def position_classes(rows: Sequence[Sequence[tuple[int, int]]], length: int) -> numpy.ndarray:
    """The position class of every word of each row, given the (start, end) of the
    frontier's nodes in each row, for rows padded to `length` words (FREE beyond).

    *Shape:* ``(len(rows), length)``
    """
    classes = numpy.full((len(rows), length), FREE, dtype="int64")
    bounds = numpy.array(
        [(row, start, end) for row, nodes in enumerate(rows) for start, end in nodes],
        dtype="int64",
    ).reshape(-1, 3)
    row, start, end = bounds.T
    inside = numpy.zeros((len(rows), length + 1), dtype="int64")  # a node's inner words
    numpy.add.at(inside, (row, start + 1), 1)
    numpy.add.at(inside, (row, numpy.maximum(end - 1, start + 1)), -1)
    classes[inside.cumsum(axis=1)[:, :length] > 0] = NODE_INSIDE
    classes[row, start] = NODE_START
    classes[row, end - 1] = NODE_END
    one_word = end - start == 1
    classes[row[one_word], start[one_word]] = ONE_WORD_NODE
    return classes


def add_level(
    frontier: Sequence[Unit], chunks: Sequence[Constituent]
) -> tuple[list[Unit], list[Constituent]]:
    """The frontier after a level's chunks (over words), and the nodes kept: a chunk
    whose bounds are not unit bounds, or that is one node alone (a unary node, which
    the levels never hold), is dropped."""
    starts = {unit.start: k for k, unit in enumerate(frontier)}
    ends = {unit.end: k for k, unit in enumerate(frontier)}
    replaced: dict[int, tuple[int, Unit]] = {}
    kept: list[Constituent] = []
    for label, start, end in sorted(chunks, key=lambda c: c[1]):
        first, last = starts.get(start), ends.get(end)
        if first is None or last is None or last < first:
            continue
        if first == last and frontier[first].label is not None:
            continue
        replaced[first] = (last, Unit(start, end, label))
        kept.append((label, start, end))
    out: list[Unit] = []
    k = 0
    while k < len(frontier):
        if k in replaced:
            last, unit = replaced[k]
            out.append(unit)
            k = last + 1
        else:
            out.append(frontier[k])
            k += 1
    return out, kept


def level_steps(n_words: int, spans: Sequence[Constituent]) -> list[LevelStep]:
    """The levels a parser learns for one tree: each level's frontier and nodes, and a
    last level with no node when no node spans the sentence (the parser learns to stop)."""
    frontier = words_frontier(n_words)
    steps: list[LevelStep] = []
    for nodes in tree_levels(spans):
        steps.append(LevelStep(frontier, nodes))
        frontier, _ = add_level(frontier, nodes)
    if n_words and not is_finished(frontier, n_words):
        steps.append(LevelStep(frontier, []))
    return steps


def oracle_level(frontier: Sequence[Unit], gold: Sequence[Constituent]) -> list[Constituent]:
    """The nodes the next level should add to a frontier that may hold wrong nodes (the
    parser's own lower levels): the gold nodes (unary chains collapsed) that can still be
    built, their bounds unit bounds and their span no node's, and that hold no other such
    node (it goes first). With the gold frontier these are the gold level (`level_steps`);
    none when nothing can be built (the parser learns to stop)."""
    starts = {unit.start for unit in frontier}
    ends = {unit.end for unit in frontier}
    built = {(unit.start, unit.end) for unit in frontier if unit.label is not None}
    open_nodes = [
        (label, start, end)
        for label, start, end in gold
        if start in starts and end in ends and (start, end) not in built
    ]
    return [
        node
        for node in open_nodes
        if not any(
            node[1] <= other[1] and other[2] <= node[2] and other[1:] != node[1:]
            for other in open_nodes
        )
    ]


def spans_from_levels(levels: Sequence[Sequence[Constituent]]) -> list[Constituent]:
    """The constituents (unary chains expanded, outermost first) of a stack of levels."""
    ranked = [
        (start, -end, -level, label)
        for level, nodes in enumerate(levels)
        for label, start, end in nodes
    ]
    return expand_unary([(label, start, -neg_end) for start, neg_end, _, label in sorted(ranked)])
