"""The sentences a senna_parser labels, level after level: each one's frontier and the
levels decoded so far (`SentenceParse`; in training, those levels replayed with the
oracle's nodes), and what a network that encodes each sentence once reads of them at
each level, as arrays (`LevelReader`)."""

from typing import List, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc
from thinc.api import Model

from ..features import SpanTagFeature
from ..labels.tags import Chunk
from ..models.sequences import LevelBatch, batch_of_levels
from ..syntax.parse_levels import (
    LevelStep,
    add_level,
    is_finished,
    oracle_level,
    spans_from_levels,
    words_frontier,
)

#: the span group of a level copy holding the frontier's nodes (the network's input)
HISTORY_KEY = "senna_parse_history"


class SentenceParse:
    """One sentence being parsed: its frontier and the levels decoded so far."""

    def __init__(self, sentence: Doc, offset: int) -> None:
        self.sentence = sentence
        self.offset = offset
        self.frontier = words_frontier(len(sentence))
        self.levels: List[List[Chunk]] = []
        self.ids: Optional[numpy.ndarray] = None  # the sentence's ids (`LevelReader`)

    def frontier_nodes(self) -> List[Tuple[int, int]]:
        """The (start, end) of the nodes of the frontier."""
        return [(start, end) for _, start, end in self.frontier_spans()]

    def frontier_spans(self) -> List[Chunk]:
        """The (label, start, end) of the nodes of the frontier (a level copy's history)."""
        return [(u.label, u.start, u.end) for u in self.frontier if u.label is not None]

    def add(self, chunks: List[Chunk]) -> bool:
        """Add a decoded level; whether the sentence needs another."""
        self.frontier, kept = add_level(self.frontier, chunks)
        self.levels.append(kept)
        return bool(kept) and not is_finished(self.frontier, len(self.sentence))

    def oracle_steps(self, gold: Sequence[Chunk]) -> List[LevelStep]:
        """Its decoded levels as levels to learn: each one's frontier as the parser built
        it, with the nodes the oracle gives that frontier for the `gold` tree (its nodes,
        unary chains collapsed; `parse_levels.oracle_level`)."""
        frontier = words_frontier(len(self.sentence))
        steps = []
        for level in self.levels:
            steps.append(LevelStep(frontier, oracle_level(frontier, gold)))
            frontier, _ = add_level(frontier, level)
        return steps

    def constituents(self, root: str) -> List[Chunk]:
        """The tree's constituents in doc offsets, with a `root` over a sentence that no
        node spans."""
        n = len(self.sentence)
        spans = spans_from_levels(self.levels)
        if n and not is_finished(self.frontier, n):
            spans.insert(0, (root, 0, n))
        return [(lab, s + self.offset, e + self.offset) for lab, s, e in spans]


class LevelReader:
    """What a level-heads network reads of the sentences being parsed, as arrays: each
    sentence's ids without the level columns, featurized once, and at each level the tags
    of its frontier's nodes (`SpanTagFeature.span_ids`); the same ids as a level copy of
    the sentence gives, without making one per level."""

    def __init__(self, model: Model, parses: Sequence[SentenceParse]) -> None:
        featurizer = model.attrs["featurizer"]
        names = model.attrs["level_features"]
        levels = numpy.asarray(featurizer.columns_of(names), dtype=bool)
        first_column = {name: featurizer.columns_of([name]).index(True) for name in names}
        self.features = [featurizer.features[name] for name in sorted(names, key=first_column.get)]
        for parse, ids in zip(parses, featurizer.extract_docs([p.sentence for p in parses])):
            parse.ids = ids[:, ~levels]

    @staticmethod
    def reads(model: Model) -> bool:
        """Whether `model` encodes each sentence once and reads levels only through the
        frontier's tags (SpanTagFeatures of the history)."""
        names = model.attrs.get("level_features")
        features = model.attrs["featurizer"].features
        return bool(names) and all(
            isinstance(features[name], SpanTagFeature) and features[name].spans_key == HISTORY_KEY
            for name in names
        )

    def batch(self, parses: Sequence[SentenceParse]) -> LevelBatch:
        """The next level of each of `parses` as the network's `LevelBatch`."""
        level_ids = [
            numpy.concatenate(
                [f.span_ids(len(p.sentence), p.frontier_spans()) for f in self.features], axis=1
            )
            for p in parses
        ]
        bounds = [[(0, len(p.sentence))] for p in parses]
        return batch_of_levels([p.ids for p in parses], level_ids, bounds)
