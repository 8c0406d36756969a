"""`senna_parser`: SENNA's syntactic parser (PSG; Collobert 2011, AISTATS) -> a tree of
constituents per sentence, `doc.spans["constituents"]`.

One network labels a sentence level after level (parse_levels.py): each level is a
chunking (BILUO tags over the words, a CRF) of the units built so far, and the network
reads them as SENNA's PSG network does, each word's tag in the highest node that holds
it so far (`doc.spans["senna_parse_history"]` of a per-level copy of the sentence, read
by spacy-senna.SpanTagFeature.v1; a network that encodes each sentence once reads the same
tags from arrays when labelling, without the copies: sentence_parses.py). Decoding is
constrained so that a level's nodes hold whole units (SENNA's trellis built "with
segmentation"); the same constraint holds in training, where each level reads the gold
levels below it (or, with `explore`, the parser's own, not in SENNA). A sentence is done
when one node spans it or a level adds no node; a sentence left without a spanning node
gets a root labelled with the training data's most frequent top label (SENNA adds `S`).
"""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Dict, List, Optional, Tuple

import numpy
import torch
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Model, Optimizer

from ..features import SpanTagFeature
from ..labels.annotations import TOKEN_ANNOTATIONS
from ..labels.tags import BiluoTagSet, Chunk, biluo_paths_to_chunks, chunks_to_biluo
from ..models.senna_model import level_scores
from ..models.sentence_encodings import encodings_kept, kept_encodings
from ..models.sequences import Sequences, sequence_bounds
from ..scoring import parse_scorer  # noqa: F401  (registers spacy-senna.parse_scorer.v1)
from ..syntax.constituents import CONSTITUENTS_KEY, KEY_USER_DATA, register_span_attributes, within
from ..syntax.parse_levels import (
    ALLOWED_PREFIXES,
    UNARY_JOIN,
    Unit,
    collapse_unary,
    level_steps,
    position_classes,
)
from .batching import bounded_batches, call_floats, decode_calls, decode_groups
from .defaults import default_model_config
from .rows import initialize_examples, same_tokens
from .sentence_parses import HISTORY_KEY, LevelReader, SentenceParse
from .sequence_labeler import SequenceLabeler
from .whitespace import example_words_only, to_doc_chunks, words_only

#: the span group of a level copy holding the level's gold nodes (training)
LEVEL_KEY = "senna_parse_level"

DEFAULT_PARSER_MODEL = default_model_config(
    f"""
[model.features.pos]
@misc = "spacy-senna.AttrFeature.v1"
attr = "tag_"
width = 5

[model.features.levels]
@misc = "spacy-senna.SpanTagFeature.v1"
spans_key = "{HISTORY_KEY}"
width = 5
"""
)

register_span_attributes()


@Language.factory(
    "senna_parser",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_PARSER_MODEL,
        "spans_key": CONSTITUENTS_KEY,
        "scorer": {"@scorers": "spacy-senna.parse_scorer.v1"},
        "explore": 0.0,
    },
    default_score_weights={"parse_f": 1.0, "parse_p": 0.0, "parse_r": 0.0},
)
def make_senna_parser(
    nlp: Language,
    name: str,
    model: Model,
    spans_key: str,
    scorer: Optional[Callable],
    explore: float,
) -> "SennaParser":
    """SENNA's parser (Collobert 2011): constituents of each sentence, level by level.

    model (Model): a spacy-senna window or sentence tagger whose features include
        spacy-senna.SpanTagFeature.v1 with spans_key "senna_parse_history" (the levels
        below); the default reads word, caps, `token.tag_` and the levels.
    spans_key (str): the span group to learn the trees from and write them to: every
        constituent, outermost first, a unary chain as spans of the same bounds.
    scorer (Optional[Callable]): labelled bracketing P/R/F, EVALB counting (`parse_f`).
    explore (float): the share of training examples whose levels read the parser's own
        lower levels rather than the gold ones (0: every level reads the gold levels).
    """
    return SennaParser(nlp.vocab, model, name, spans_key=spans_key, scorer=scorer, explore=explore)


class SennaParser(BiluoTagSet, SequenceLabeler):
    """Constituency trees, one level of chunks at a time, into a span group."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_parser",
        *,
        spans_key: str = CONSTITUENTS_KEY,
        scorer: Optional[Callable] = None,
        explore: float = 0.0,
    ) -> None:
        if not 0.0 <= explore <= 1.0:
            raise ValueError(
                f"[{name}] explore is the share of training examples learnt from the "
                f"parser's own levels: a number from 0 to 1, not {explore}."
            )
        super().__init__(vocab, model, name, scorer=scorer, spans_key=spans_key, root_label="S")
        self.explore = explore

    # -- tags -----------------------------------------------------------------------------

    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The node labels of the gold trees (unary chains joined), and the most frequent
        label of a node spanning a sentence, the root of a sentence left without one."""
        labels, tops = set(), Counter()
        for doc in docs:
            for start, end, spans in self._gold_sentences(doc, doc.spans.get(self.spans_key)):
                nodes = collapse_unary(spans)
                labels.update(label for label, _, _ in nodes)
                tops.update(
                    lab.split(UNARY_JOIN)[0] for lab, s, e in nodes if (s, e) == (0, end - start)
                )
        if tops:
            self.cfg["root_label"] = tops.most_common(1)[0][0]
        return sorted(labels)

    @property
    def spans_key(self) -> str:
        """The span group holding the trees."""
        return self.cfg["spans_key"]

    def _gold_sentences(
        self, doc: Doc, group: Optional[Iterable[Span]]
    ) -> Iterator[Tuple[int, int, List[Chunk]]]:
        """(start, end, constituents in sentence offsets) of each sentence of a doc whose
        parse is `group` (nothing when it is None)."""
        if group is None:
            return
        spans = [(span.label_, span.start, span.end) for span in group]
        for start, end in sequence_bounds(doc):
            yield start, end, within(spans, start, end)

    # -- level copies of a sentence -------------------------------------------------------

    def _sentence_doc(self, doc: Doc, start: int, end: int) -> Doc:
        """The sentence as a doc of its own, with the token attributes the network reads."""
        tokens = doc[start:end]
        words = Doc(
            doc.vocab, words=[t.text for t in tokens], spaces=[bool(t.whitespace_) for t in tokens]
        )
        names = [TOKEN_ANNOTATIONS[a] for a in self.input_attrs if a in TOKEN_ANNOTATIONS]
        names = [name for name in names if doc.has_annotation(name)]
        if names:
            words.from_array(names, doc.to_array(names)[start:end].reshape(end - start, -1))
        return words

    def _level_doc(
        self, sentence: Doc, frontier: Sequence[Unit], nodes: Optional[Sequence[Chunk]] = None
    ) -> Doc:
        """A copy of a sentence doc holding the frontier's nodes (and a level's nodes)."""
        level = sentence.copy()
        level.spans[HISTORY_KEY] = [
            Span(level, u.start, u.end, label=u.label) for u in frontier if u.label is not None
        ]
        if nodes is not None:
            level.spans[LEVEL_KEY] = [Span(level, s, e, label=lab) for lab, s, e in nodes]
        return level

    def _units_kept_whole(
        self,
        frontiers: Sequence[Sequence[Tuple[int, int]]],
        emissions: torch.Tensor,
        in_place: bool = False,
    ) -> torch.Tensor:
        """`emissions` (rows, T, tags) with -inf where a level's tag would cut a unit or put
        a node alone in a new one, given each row's frontier nodes (start, end)."""
        prefixes = [tag[0] for tag in self.tag_names]
        disallowed = torch.tensor(
            [[p not in allowed for p in prefixes] for allowed in ALLOWED_PREFIXES]
        )
        classes = torch.from_numpy(position_classes(frontiers, emissions.shape[1]))
        mask = disallowed[classes].to(emissions.device)
        if in_place:
            return emissions.masked_fill_(mask, float("-inf"))
        return emissions.masked_fill(mask, float("-inf"))

    @staticmethod
    def _history_nodes(doc: Doc) -> List[Tuple[int, int]]:
        """The (start, end) of the frontier's nodes that a level copy holds."""
        return [(span.start, span.end) for span in doc.spans[HISTORY_KEY]]

    # -- what the model reads -------------------------------------------------------------

    @property
    def _reads_pairs(self) -> bool:
        """A sentence network (SRL's) reads (doc, predicates) pairs: one row per level
        copy, its predicate pinned at the first word."""
        return "conv_width" in self.model.attrs

    def model_input(self, docs: List[Doc]) -> List[Any]:
        """The level copies (window network), or each with its pinned predicate."""
        return [(doc, [0] if len(doc) else []) for doc in docs] if self._reads_pairs else docs

    def input_items(
        self, doc: Doc, bounds: List[Tuple[int, int]]
    ) -> List[Tuple[Any, Tuple[int, int]]]:
        """A level copy's one model input, with its (rows, longest row): one row."""
        shape = (1, len(doc)) if len(doc) else (0, 0)
        if not self._reads_pairs:
            shape = (len(bounds), max((end - start for start, end in bounds), default=0))
        return [(self.model_input([doc])[0], shape)]

    # -- training -------------------------------------------------------------------------

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """One step on every level of every sentence of the examples, each level reading
        the gold levels below it; or, for a share `explore` of the examples, the levels
        the parser decodes itself, each with the nodes a dynamic oracle gives it
        (`parse_levels.oracle_level`), so that it learns to go on from its own errors."""
        examples = [example_words_only(eg, self.input_attrs) for eg in examples]
        explored = [eg for eg in examples if self.explore and random.random() < self.explore]
        own = dict(zip(map(id, explored), self._parse([eg.predicted for eg in explored])))
        levels = [
            Example(doc, doc)
            for eg in examples
            for doc in self._training_levels(eg, own.get(id(eg)))
        ]
        return super().update(levels, drop=drop, sgd=sgd, losses=losses)

    def _training_levels(
        self, example: Example, own: Optional[List[SentenceParse]] = None
    ) -> Iterator[Doc]:
        """The level copies of an example's sentences, with their gold nodes; with `own`
        (the parser's parse of each sentence), its own levels with the oracle's nodes."""
        example = example_words_only(example, self.input_attrs)
        doc = example.predicted
        group = example.reference.spans.get(self.spans_key)
        if group is not None and not same_tokens(example):
            group = example.get_aligned_spans_y2x(group, allow_overlap=True)
        for k, (start, end, spans) in enumerate(self._gold_sentences(doc, group)):
            try:  # also the check of the gold tree (crossing brackets), explored or not
                steps = level_steps(end - start, spans)
            except ValueError as err:
                raise ValueError(f"[{self.name}] '{doc[start:end].text[:60]}': {err}") from None
            if own is not None:
                steps = own[k].oracle_steps(collapse_unary(spans))
            sentence = self._sentence_doc(doc, start, end)
            for step in steps:
                yield self._level_doc(sentence, step.frontier, step.nodes)

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """A level copy's gold nodes as BILUO tags."""
        return chunks_to_biluo(
            [(s.label_, s.start, s.end) for s in example.reference.spans[LEVEL_KEY]],
            len(example.predicted),
        )

    def get_loss(
        self, examples: Sequence[Example], scores: Sequences
    ) -> Tuple[float, torch.Tensor]:
        """The NLL of each level's gold tags among the paths that keep units whole."""
        docs = [eg.predicted for eg in examples if len(eg.predicted)]
        nodes = [self._history_nodes(doc) for doc in docs]
        emissions = self._units_kept_whole(nodes, scores.emissions)
        return super().get_loss(examples, scores._replace(emissions=emissions))

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[List[str]] = None,
        corpus: Optional[Callable[[Language], Iterable[Example]]] = None,
    ) -> None:
        """Labels, feature dictionaries and network (see SequenceLabeler.initialize); the
        level feature learns its tags from the level copies of the examples (counting
        words on those copies would count each word once per level)."""
        levels = [
            f
            for f in self.model.attrs["featurizer"].features.values()
            if isinstance(f, SpanTagFeature) and f.spans_key == HISTORY_KEY
        ]
        if not levels:
            raise ValueError(
                f"[{self.name}] the model reads no levels: add a feature "
                f'spacy-senna.SpanTagFeature.v1 with spans_key = "{HISTORY_KEY}".'
            )
        super().initialize(get_examples, nlp=nlp, labels=labels, corpus=corpus)
        examples = initialize_examples(self.name, get_examples, nlp, corpus)
        for feature in levels:
            feature.fit(doc for eg in examples() for doc in self._training_levels(eg))
        self.model.initialize(X=[eg.predicted for eg in islice(examples(), 10)])  # new sizes

    # -- prediction -----------------------------------------------------------------------

    def predict(self, docs: Iterable[Doc]) -> List[List[Chunk]]:
        """Every doc's constituents (doc offsets, outermost first), all sentences of the
        batch level after level."""
        originals = list(docs)
        copies = [words_only(doc, self.input_attrs) for doc in originals]
        words = [doc for doc, _ in copies]
        self._check_inputs(words, own_spans=(HISTORY_KEY,))
        parses = self._parse(words)
        root = self.cfg["root_label"]
        predictions = [
            [c for p in doc_parses for c in p.constituents(root)] for doc_parses in parses
        ]
        return [
            chunks if kept is None else self.prediction_on_doc(chunks, kept, len(doc))
            for chunks, doc, (_, kept) in zip(predictions, originals, copies)
        ]

    def _parse(self, docs: List[Doc]) -> List[List[SentenceParse]]:
        """Each doc's sentences parsed (docs without whitespace tokens), all sentences of
        the batch level after level."""
        parses = [
            [SentenceParse(self._sentence_doc(doc, s, e), s) for s, e in sequence_bounds(doc)]
            for doc in docs
        ]
        active = [parse for doc_parses in parses for parse in doc_parses]
        reader = LevelReader(self.model, active) if LevelReader.reads(self.model) else None
        with encodings_kept(self.model):  # a level-heads network encodes each sentence once
            while active:
                nodes = [p.frontier_nodes() for p in active]
                if reader is None:
                    levels = [self._level_doc(p.sentence, p.frontier) for p in active]
                    decoded = self._decode(self.model_calls(levels), nodes)
                else:
                    decoded = self._decode(self._level_calls(reader, active), nodes)
                active = [p for p, chunks in zip(active, decoded) if p.add(chunks)]
        return parses

    def _level_calls(
        self, reader: LevelReader, active: List[SentenceParse]
    ) -> Iterator[Tuple[List[Tuple[int, Any]], Sequences]]:
        """The level-heads network's scores of the next level of the `active` sentences,
        call by call (as `model_calls` gives them for their level copies), from arrays."""
        encodings = kept_encodings(self.model)
        items = list(enumerate(active))
        shapes = [(1, len(parse.sentence)) for parse in active]
        for batch in bounded_batches(items, shapes, self.row_cost, call_floats(self.model)):
            yield batch, level_scores(self.model, reader.batch([p for _, p in batch]), encodings)

    def _decode(
        self,
        calls: Iterable[Tuple[List[Tuple[int, Any]], Sequences]],
        nodes: List[List[Tuple[int, int]]],
    ) -> List[List[Chunk]]:
        """The best chunks of each level copy scored by `calls` ((copy index, input) of
        each row, scores), among those that keep units whole (`nodes`: each copy's frontier
        nodes)."""
        out: List[List[Chunk]] = [[] for _ in nodes]
        for group in decode_groups(calls):
            masked = [
                scores._replace(
                    emissions=self._units_kept_whole(
                        [nodes[d] for d, _ in batch], scores.emissions, in_place=True
                    )
                )
                for batch, scores in group
            ]
            for (batch, _), scores, paths in zip(group, masked, decode_calls(self.model, masked)):
                chunks = biluo_paths_to_chunks(paths, scores.lengths.tolist(), self.tag_names)
                for (d, _), row_chunks in zip(batch, chunks):
                    out[d] = row_chunks
        return out

    def prediction_on_doc(
        self, chunks: List[Chunk], kept: numpy.ndarray, n_tokens: int
    ) -> List[Chunk]:
        """The constituents in the doc's offsets (over any whitespace inside)."""
        return to_doc_chunks(chunks, kept)

    def set_annotations(self, docs: Iterable[Doc], predictions: List[List[Chunk]]) -> None:
        """Write each doc's constituents to `doc.spans[spans_key]`."""
        for doc, chunks in zip(docs, predictions):
            doc.spans[self.spans_key] = SpanGroup(
                doc, spans=[Span(doc, s, e, label=lab) for lab, s, e in chunks]
            )
            if self.spans_key != CONSTITUENTS_KEY:
                doc.user_data[KEY_USER_DATA] = self.spans_key
