"""`senna_srl`: semantic role labeling, one frame of argument spans per predicate.

SENNA's SRL (paper §3.3.2, §9): for each predicate, the sentence network scores every
word against it and a CRF decodes an IOBES (here BILUO) argument sequence, so a word
can hold a different role for each predicate. Frames are written as span groups:
`doc.spans["srl:7"]` holds the arguments (A0, A1, AM-TMP, ..., and V itself) of the
predicate at token 7, with CRF probabilities in `attrs["scores"]`; `doc._.srl_frames`
lists them. Predicates come from `doc.spans["srl_predicates"]` when present (given
predicates, as in CoNLL-2005), otherwise from tokens whose `tag_` starts with "V"
(SENNA's `-posvbs`; needs a tagger such as senna_tagger before this component).
"""

import warnings
from typing import Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy
import torch
from spacy.language import Language
from spacy.tokens import Doc, SpanGroup, Token
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Config, Model

from ..models import Sequences, get_net
from ..tags import biluo_to_chunks, chunks_to_biluo
from .sequence_labeler import WORD_CAPS_FEATURES, same_tokens
from .span_labeler import Chunk, SpanLabeler, _non_overlapping, _span_probabilities

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

Frame = Tuple[int, List[Chunk], numpy.ndarray]  # predicate token, arguments, probabilities


class SrlFrame(NamedTuple):
    """One predicate and its arguments (V, the predicate itself, included)."""

    predicate: Token
    arguments: SpanGroup


def frame_key(spans_key: str, predicate: int) -> str:
    """The span group holding the frame of the predicate at token `predicate`."""
    return f"{spans_key}:{predicate}"


def frame_keys(doc: Doc, spans_key: str = "srl") -> List[Tuple[int, str]]:
    """(predicate token, span group key) of every frame on the doc, in token order."""
    prefix = f"{spans_key}:"
    found = []
    for key in doc.spans:
        if key.startswith(prefix) and key[len(prefix) :].isdigit():
            found.append((int(key[len(prefix) :]), key))
    return sorted(found)


def srl_frames(doc: Doc, spans_key: str = "srl") -> List[SrlFrame]:
    """The doc's frames: `[SrlFrame(predicate token, argument spans), ...]`."""
    return [SrlFrame(doc[i], doc.spans[key]) for i, key in frame_keys(doc, spans_key)]


if not Doc.has_extension("srl_frames"):
    Doc.set_extension("srl_frames", getter=srl_frames)


@Language.factory(
    "senna_srl",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_SRL_MODEL,
        "spans_key": "srl",
        "predicates_key": "srl_predicates",
        "predicate_tag_prefix": "V",
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
) -> "SennaSRL":
    """SENNA semantic role labeler (paper §3.3.2: sentence network, SLL per predicate).

    model (Model): a spacy-senna sentence tagger (word + caps by default, Table 5).
    spans_key (str): frames go to `doc.spans[f"{spans_key}:{predicate index}"]`.
    predicates_key (str): span group whose spans mark the predicates to label (given
        predicates); when a doc lacks it, predicates are tokens whose tag_ starts with
        `predicate_tag_prefix`.
    predicate_tag_prefix (str): POS prefix of predicate tokens ("V": SENNA's -posvbs).
    scorer (Optional[Callable]): CoNLL-2005 style argument P/R/F (`srl_f`).
    """
    return SennaSRL(
        nlp.vocab,
        model,
        name,
        spans_key=spans_key,
        predicates_key=predicates_key,
        predicate_tag_prefix=predicate_tag_prefix,
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
        scorer: Optional[Callable] = None,
    ) -> None:
        if not predicate_tag_prefix:
            raise ValueError(f"[{name}] predicate_tag_prefix must be non-empty, e.g. 'V'")
        super().__init__(
            vocab,
            model,
            name,
            scorer=scorer,
            spans_key=spans_key,
            predicates_key=predicates_key,
            predicate_tag_prefix=predicate_tag_prefix,
        )
        self._warned_no_tags = False

    # -- predicates -----------------------------------------------------------------------

    def predicates(self, doc: Doc) -> List[int]:
        """Token indices of the predicates to label in `doc`, in order."""
        key = self.cfg["predicates_key"]
        if key in doc.spans:
            return sorted({span.start for span in doc.spans[key]})
        if not len(doc):
            return []
        if not doc.has_annotation("TAG"):
            if not self._warned_no_tags:
                self._warned_no_tags = True
                warnings.warn(
                    f"[{self.name}] a doc has neither doc.spans['{key}'] (given predicates) "
                    "nor POS tags to find verbs: put senna_tagger before senna_srl, or mark "
                    f"the predicates in doc.spans['{key}']. No frames were written."
                )
            return []
        prefix = self.cfg["predicate_tag_prefix"]
        return [t.i for t in doc if t.tag_.startswith(prefix)]

    def model_input(self, docs: List[Doc]) -> List[Tuple[Doc, List[int]]]:
        return [(doc, self.predicates(doc)) for doc in docs]

    # -- labels and gold ------------------------------------------------------------------

    def labels_from_examples(self, examples: Iterable[Example]) -> List[str]:
        labels = set()
        for eg in examples:
            for _, key in frame_keys(eg.reference, self.cfg["spans_key"]):
                for span in eg.reference.spans[key]:
                    if not span.label_:
                        raise ValueError(
                            f"[{self.name}] argument '{span.text}' in doc.spans['{key}'] of "
                            f"'{eg.reference.text[:60]}' has no label: every span needs one."
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
        return _non_overlapping(spans, self.name, example)

    def gold_tag_ids(self, examples: Sequence[Example], scores: Sequences) -> torch.Tensor:
        """(n_rows, T) gold tag ids, one row per predicate; -1 where unknown."""
        index = self.tag_index
        out = numpy.full(tuple(scores.emissions.shape[:2]), -1, dtype="int64")
        unknown = set()
        row = 0
        for eg, bounds, predicates in zip(examples, scores.bounds, scores.predicates):
            for (start, end), predicate in zip(bounds, predicates):
                chunks = self.gold_frame(eg, predicate)
                if chunks is not None:
                    tags = chunks_to_biluo(chunks, len(eg.predicted))[start:end]
                    for i, tag in enumerate(tags):
                        if tag in index:
                            out[row, i] = index[tag]
                        else:
                            unknown.add(tag)
                row += 1
        if unknown:
            warnings.warn(
                f"[{self.name}] gold labels not in the component's label set are treated "
                f"as missing: {sorted(unknown)[:10]}. Initialize on data that contains them."
            )
        return torch.from_numpy(out)

    # -- prediction -----------------------------------------------------------------------

    def predict(self, docs: Iterable[Doc]) -> List[List[Frame]]:
        """Per doc, one (predicate, argument chunks, probabilities) per predicate."""
        docs = list(docs)
        self._check_inputs(docs)
        pairs = self.model_input(docs)
        if not any(predicates for _, predicates in pairs):
            return [[] for _ in docs]
        scores = self.model.predict(pairs)
        crf = get_net(self.model).criterion
        paths = crf.decode(scores.emissions, scores.lengths).numpy()
        tags = self.tag_names
        decoded = [
            biluo_to_chunks([tags[t] for t in paths[row, :n]])
            for row, n in enumerate(scores.lengths.tolist())
        ]
        probs = _span_probabilities(crf, scores.emissions, scores.lengths, decoded, self.tag_index)
        out, row = [], 0
        for bounds, predicates in zip(scores.bounds, scores.predicates):
            frames = []
            for (start, _), predicate in zip(bounds, predicates):
                chunks = [(label, s + start, e + start) for label, s, e in decoded[row]]
                frames.append((predicate, chunks, probs[row]))
                row += 1
            out.append(frames)
        return out

    def set_annotations(self, docs: Iterable[Doc], predictions: List[List[Frame]]) -> None:
        """Replace the docs' frames with the predicted ones."""
        for doc, frames in zip(docs, predictions):
            for _, key in frame_keys(doc, self.cfg["spans_key"]):
                del doc.spans[key]
            for predicate, chunks, probs in frames:
                group = self._span_group(doc, chunks, probs)
                group.attrs["predicate"] = predicate
                doc.spans[frame_key(self.cfg["spans_key"], predicate)] = group

    def write_spans(self, doc: Doc, chunks: List[Chunk], probs: numpy.ndarray) -> None:
        raise NotImplementedError("senna_srl writes whole frames in set_annotations")


__all__ = ["SennaSRL", "SrlFrame", "frame_key", "frame_keys", "srl_frames"]
