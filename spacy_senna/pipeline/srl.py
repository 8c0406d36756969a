"""`senna_srl`: semantic role labeling, one frame of argument spans per predicate.

SENNA's SRL (paper §3.3.2, §9): for each predicate, the sentence network scores every
word against it and a CRF decodes an IOBES (here BILUO) argument sequence, so a word
can hold a different role for each predicate. Frames are written as span groups:
`doc.spans["srl:7"]` holds the arguments (A0, A1, AM-TMP, ..., and V itself) of the
predicate at token 7, with CRF probabilities in `attrs["scores"]`; `doc._.srl_frames`
lists them (see frames.py). Predicates come from `doc.spans["srl_predicates"]` when present (given
predicates, as in CoNLL-2005), otherwise from tokens whose `tag_` starts with "V"
(SENNA's `-posvbs`; needs a tagger such as senna_tagger before this component).
"""

from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

import numpy
from spacy.attrs import TAG
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Config, Model

from ..labels.tags import Chunk, chunks_to_biluo
from ..srl.frames import frame_key, frame_keys
from . import batching
from .defaults import WORD_CAPS_FEATURES
from .parts import DocPart, fits_one_call, part_doc
from .rows import Row, same_tokens
from .span_scores import RowChunks
from .spans import Ranked, SpanLabeler, non_overlapping
from .whitespace import to_doc_chunks, to_doc_index

DEFAULT_SRL_MODEL = Config().from_str(
    f"""
[model]
@architectures = "spacy-senna.SentenceTagger.v1"
window_size = 5
conv_width = 300
hidden_width = 500
distance_width = 5
max_distance = 30
criterion = "sll"
constrain_training = false
{WORD_CAPS_FEATURES}
"""
)["model"]


class Frame(NamedTuple):
    """A predicate's decoded frame: its token, its arguments (doc offsets), their
    probabilities (None until read) and the row they were decoded from."""

    predicate: int
    chunks: List[Chunk]
    probs: Optional[numpy.ndarray]
    row: RowChunks


@Language.factory(
    "senna_srl",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_SRL_MODEL,
        "spans_key": "srl",
        "predicates_key": "srl_predicates",
        "predicate_tag_prefix": "V",
        "max_sentence_length": 500,
        "span_scores": True,
        "scorer": {"@scorers": "spacy-senna.srl_scorer.v1"},
    },
    default_score_weights={"srl_f": 1.0, "srl_p": 0.0, "srl_r": 0.0, "srl_per_type": None},
)
def make_senna_srl(
    nlp: Language,
    name: str,
    model: Model,
    spans_key: str,
    predicates_key: str,
    predicate_tag_prefix: str,
    scorer: Optional[Callable],
    max_sentence_length: int = 500,
    span_scores: Union[bool, str] = True,
) -> "SennaSRL":
    """SENNA semantic role labeler (paper §3.3.2: sentence network, SLL per predicate).

    model (Model): a spacy-senna sentence tagger (word + caps by default, Table 5).
    spans_key (str): frames go to `doc.spans[f"{spans_key}:{predicate index}"]`.
    predicates_key (str): span group whose spans mark the predicates to label (given
        predicates); when a doc lacks it, predicates are tokens whose tag_ starts with
        `predicate_tag_prefix`.
    predicate_tag_prefix (str): POS prefix of predicate tokens ("V": SENNA's -posvbs).
    max_sentence_length (int): predicates in longer sentences get no frame, with a
        warning (a doc without sentence boundaries is one sentence; the work per sentence
        grows with its length squared); 0 = no limit.
    span_scores (Union[bool, str]): give each argument its CRF probability in
        `attrs["scores"]` of the frame's span group: true computes them when first read
        (for the whole batch at once), "eager" with the spans (when every one will be
        read), false never.
    scorer (Optional[Callable]): CoNLL-2005 style argument P/R/F (`srl_f`).
    """
    return SennaSRL(
        nlp.vocab,
        model,
        name,
        spans_key=spans_key,
        predicates_key=predicates_key,
        predicate_tag_prefix=predicate_tag_prefix,
        max_sentence_length=max_sentence_length,
        span_scores=span_scores,
        scorer=scorer,
    )


class SennaSRL(SpanLabeler):
    """Argument frames for every predicate of a doc, as span groups."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_srl",
        *,
        spans_key: str = "srl",
        predicates_key: str = "srl_predicates",
        predicate_tag_prefix: str = "V",
        max_sentence_length: int = 500,
        span_scores: Union[bool, str] = True,
        scorer: Optional[Callable] = None,
    ) -> None:
        if not predicate_tag_prefix:
            raise ValueError(f"[{name}] predicate_tag_prefix must be non-empty, e.g. 'V'")
        if max_sentence_length < 0:
            raise ValueError(f"[{name}] max_sentence_length must be >= 0 (0: no limit)")
        super().__init__(
            vocab,
            model,
            name,
            scorer=scorer,
            span_scores=span_scores,
            spans_key=spans_key,
            predicates_key=predicates_key,
            predicate_tag_prefix=predicate_tag_prefix,
            max_sentence_length=max_sentence_length,
        )
        #: per predicate tag prefix, {tag id: whether the tag starts with it}
        self._verb_tags: Dict[str, Dict[int, bool]] = {}

    # -- predicates -----------------------------------------------------------------------

    def predicates(self, doc: Doc) -> List[int]:
        """Token indices of the predicates to label in `doc`, in order."""
        key = self.cfg["predicates_key"]
        if key in doc.spans:
            return sorted({span.start for span in doc.spans[key]})
        if not len(doc):
            return []
        if not doc.has_annotation("TAG"):
            self.warn_once(
                "no-predicates",
                f"[{self.name}] a doc has neither doc.spans['{key}'] (given predicates) "
                "nor POS tags to find verbs: put senna_tagger before senna_srl, or mark "
                f"the predicates in doc.spans['{key}']. No frames were written.",
            )
            return []
        prefix = self.cfg["predicate_tag_prefix"]
        verb_tags = self._verb_tags.setdefault(prefix, {})
        tags = doc.to_array(TAG).tolist()
        for tag in set(tags).difference(verb_tags):
            verb_tags[tag] = doc.vocab.strings[tag].startswith(prefix)
        return [i for i, tag in enumerate(tags) if verb_tags[tag]]

    def model_input(self, docs: List[Doc]) -> List[Tuple[Doc, List[int]]]:
        """Each doc with its predicates: one row per predicate."""
        return [(doc, self.predicates(doc)) for doc in docs]

    def input_items(
        self, doc: Doc, bounds: List[Tuple[int, int]]
    ) -> List[Tuple[Any, Tuple[int, int]]]:
        """The doc's predicates in chunks that fit one model call, each with its (rows,
        longest row); a doc whose sentences `bounds` do not fit one call is cut into parts
        first (`parts.py`). Predicates in sentences longer than `max_sentence_length` are
        left without a frame (with a warning)."""
        predicates = self.predicates(doc)
        if not predicates:
            return [((doc, []), (0, 0))]
        lengths = _sentence_lengths(bounds)
        limit = self.cfg["max_sentence_length"]
        if limit:
            too_long = [p for p in predicates if lengths[p] > limit]
            if too_long:
                self.warn_once(
                    "long-sentence",
                    f"[{self.name}] {len(too_long)} predicate(s) lie in a sentence of "
                    f"{int(lengths[too_long[0]])} tokens, over max_sentence_length = {limit}: "
                    "they get no frame. Split the text into sentences first (add a "
                    "sentencizer or parser before the tagger) or raise max_sentence_length.",
                )
                predicates = [p for p in predicates if lengths[p] <= limit]
        if not predicates:
            return [((doc, []), (0, 0))]
        shape = (len(bounds), max(end - start for start, end in bounds))
        if fits_one_call(shape, self.row_cost, batching.call_floats(self.model)):
            return self._chunks(doc, predicates, lengths, 0)
        items = []
        order = numpy.array(predicates)
        for part in self.doc_parts(doc, bounds):
            first, last = numpy.searchsorted(order, [part.start, part.bounds[-1][1]])
            items.extend(self._chunks(part, predicates[first:last], lengths, part.start))
        return items

    def _chunks(
        self, source: Any, predicates: List[int], lengths: numpy.ndarray, offset: int
    ) -> List[Tuple[Any, Tuple[int, int]]]:
        """(source, predicates) items of at most one call's rows each, with their shapes:
        the predicates (doc offsets) in `source` (the doc, or a part at `offset`) as its
        offsets; `lengths`: the sentence length at each token of the doc."""
        if not predicates:
            return []
        longest = int(lengths[predicates].max())
        size = max(1, batching.call_floats(self.model) // self.row_cost(longest))
        chunks = [predicates[i : i + size] for i in range(0, len(predicates), size)]
        return [
            ((source, [p - offset for p in chunk]), (len(chunk), int(lengths[chunk].max())))
            for chunk in chunks
        ]

    def item_input(self, item: Tuple[Any, List[int]]) -> Tuple[Any, int]:
        """The (doc, predicates) the model reads of an item, and its doc offset."""
        source, predicates = item
        if isinstance(source, DocPart):
            return (part_doc(source, self.input_attrs), predicates), source.start
        return item, 0

    # -- labels and gold ------------------------------------------------------------------

    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The argument labels of every reference frame."""
        labels = set()
        for doc in docs:
            for _, key in frame_keys(doc, self.cfg["spans_key"]):
                for span in doc.spans[key]:
                    if not span.label_:
                        raise ValueError(
                            f"[{self.name}] argument '{span.text}' in doc.spans['{key}'] of "
                            f"'{doc.text[:60]}' has no label: every span needs one."
                        )
                    labels.add(span.label_)
        return sorted(labels)

    def gold_frame(self, example: Example, predicate: int) -> Optional[List[Chunk]]:
        """Gold arguments of the predicate at predicted token `predicate`, or None."""
        if same_tokens(example):
            ref_index = predicate
        else:
            aligned = example.alignment.x2y[predicate]
            if len(aligned) != 1:
                return None
            ref_index = int(aligned[0])
        key = frame_key(self.cfg["spans_key"], ref_index)
        if key not in example.reference.spans:
            return None
        spans = example.get_aligned_spans_y2x(example.reference.spans[key], allow_overlap=True)
        return non_overlapping(spans, self.name, example)

    def gold_rows(self, example: Example, rows: List[Row]) -> List[List[Optional[str]]]:
        """Per predicate row, its gold frame as BILUO tags over the row's sentence."""
        out: List[List[Optional[str]]] = []
        for row in rows:
            chunks = self.gold_frame(example, row.predicate)
            if chunks is None:
                out.append([None] * (row.end - row.start))
            else:
                out.append(chunks_to_biluo(chunks, len(example.predicted))[row.start : row.end])
        return out

    # -- prediction -----------------------------------------------------------------------

    def doc_prediction(self, doc: Doc, rows: List[Row], results: List[Ranked]) -> List[Frame]:
        """One (predicate, argument chunks with doc offsets, probabilities, decoded row)
        per row."""
        frames = []
        for row, ranked in zip(rows, results):
            chunks, probs = ranked[0]
            shifted = [(label, s + row.start, e + row.start) for label, s, e in chunks]
            decoded = RowChunks(chunks, row.end - row.start)
            frames.append(Frame(row.predicate, shifted, probs, decoded))
        return frames

    def prediction_on_doc(
        self, frames: List[Frame], kept: numpy.ndarray, n_tokens: int
    ) -> List[Frame]:
        """The frames' predicates and arguments in the doc's offsets."""
        return [
            frame._replace(
                predicate=to_doc_index(frame.predicate, kept),
                chunks=to_doc_chunks(frame.chunks, kept),
            )
            for frame in frames
        ]

    def set_annotations(self, docs: Iterable[Doc], predictions: List[List[Frame]]) -> None:
        """Replace the docs' frames with the predicted ones."""
        pending = self.pending_scores()
        for doc, frames in zip(docs, predictions):
            for _, key in frame_keys(doc, self.cfg["spans_key"]):
                del doc.spans[key]
            if pending is not None and frames:
                doc_index = pending.add(doc, [frame.row for frame in frames])
            for i, frame in enumerate(frames):
                attrs = {"predicate": frame.predicate}
                at = None if pending is None else (pending, doc_index, (i, i + 1))
                group = self.span_group(doc, frame.chunks, frame.probs, at, attrs)
                doc.spans[frame_key(self.cfg["spans_key"], frame.predicate)] = group


def _sentence_lengths(bounds: List[Tuple[int, int]]) -> numpy.ndarray:
    """The length of each token's sentence, from a doc's sentences `bounds`."""
    lengths = numpy.array([end - start for start, end in bounds], dtype="int64")
    return numpy.repeat(lengths, lengths)
