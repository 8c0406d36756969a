"""The shared sequence-labeling core of every senna component.

A component is a `SequenceLabeler` that only says how to read gold tag strings from an
Example (`gold_tags`) and how to write decoded tags to a Doc (`set_annotations`), plus
its tag inventory (`tag_names`). Featurizing, the network, the CRF loss, decoding,
initialization and serialization live here once.
"""

import warnings
from itertools import islice
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy
import torch
from spacy.attrs import ORTH
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.util import minibatch
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate

from ..models import Sequences, get_net
from ..threads import torch_threads

# SENNA's two base features (Table 5), the [model.features] of every default model
WORD_CAPS_FEATURES = """
[model.features]

[model.features.word]
@misc = "spacy-senna.WordFeature.v1"
width = 50
max_size = 100000
min_freq = 2

[model.features.caps]
@misc = "spacy-senna.CapsFeature.v1"
width = 5
"""


def default_model_config(extra_features: str) -> Config:
    """A component's default model: SENNA's window network (Table 5) over word + caps
    (+ `extra_features`, config sections under [model.features])."""
    return Config().from_str(
        f"""
[model]
@architectures = "spacy-senna.WindowTagger.v1"
window_size = 5
hidden_width = 300
criterion = "sll"
constrain_training = false
{WORD_CAPS_FEATURES}
{extra_features}
"""
    )["model"]


# token attributes a cascade feature may read, and the Doc annotation that sets them
INPUT_ANNOTATIONS = {"tag_": "TAG", "pos_": "POS", "lemma_": "LEMMA", "ent_type_": "ENT_TYPE"}


def per_doc(rows: List, bounds: List[List[Tuple[int, int]]]) -> List[List]:
    """Group per-sequence rows back into one list per doc."""
    out, i = [], 0
    for doc_bounds in bounds:
        out.append(rows[i : i + len(doc_bounds)])
        i += len(doc_bounds)
    return out


def doc_of_row(bounds: List[List[Tuple[int, int]]]) -> List[int]:
    return [d for d, doc_bounds in enumerate(bounds) for _ in doc_bounds]


def same_tokens(example: Example) -> bool:
    """True when predicted and reference docs have identical tokens (no alignment needed)."""
    x, y = example.x, example.y
    return len(x) == len(y) and numpy.array_equal(x.to_array(ORTH), y.to_array(ORTH))


class SequenceLabeler(TrainablePipe):
    """Base class: tags every token of a sequence with a CRF (or WLL) over SENNA scores."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str,
        *,
        scorer: Optional[Callable] = None,
        **cfg,
    ) -> None:
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg: Dict = {"labels": [], **cfg}
        self._tag_index: Optional[Dict[str, int]] = None
        self._warned_inputs = False

    # -- labels ---------------------------------------------------------------------------

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(self.cfg["labels"])

    @property
    def label_data(self) -> List[str]:
        return list(self.labels)

    @property
    def tag_names(self) -> List[str]:
        """The CRF's tag inventory (the labels themselves, or their BILUO expansion)."""
        return list(self.labels)

    def tag_constraints(self) -> Optional[tuple]:
        """(transitions, start, end) bool masks for the CRF, or None."""
        return None

    @property
    def tag_index(self) -> Dict[str, int]:
        if self._tag_index is None:
            self._tag_index = {tag: i for i, tag in enumerate(self.tag_names)}
        return self._tag_index

    def add_label(self, label: str) -> int:
        if not isinstance(label, str) or not label:
            raise ValueError(f"{self.name}: labels must be non-empty strings, got {label!r}")
        if label in self.cfg["labels"]:
            return 0
        self._allow_extra_label()
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        self._tag_index = None
        return 1

    def labels_from_examples(self, examples: Iterable[Example]) -> List[str]:
        raise NotImplementedError

    # -- the two things a component defines ----------------------------------------------

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """Gold tag names on the predicted tokens; None where missing or misaligned."""
        raise NotImplementedError

    def set_annotations(self, docs: Iterable[Doc], tag_ids: List[numpy.ndarray]) -> None:
        raise NotImplementedError

    def model_input(self, docs: List[Doc]) -> List:
        """What the model reads: the docs (one sequence per sentence); SRL pairs each doc
        with its predicates (one sequence per predicate)."""
        return docs

    # -- prediction -----------------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        with torch_threads():
            return super().__call__(doc)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        for docs in minibatch(stream, size=batch_size):
            with torch_threads():
                predictions = self.predict(docs)
                self.set_annotations(docs, predictions)
            yield from docs

    def predict(self, docs: Iterable[Doc]) -> List[numpy.ndarray]:
        """The best tag sequence of every doc (sentence by sentence), as tag id arrays."""
        docs = list(docs)
        self._check_inputs(docs)
        if not any(len(doc) for doc in docs):
            return [numpy.zeros(0, dtype="int64") for _ in docs]
        scores = self.model.predict(self.model_input(docs))
        paths = get_net(self.model).criterion.decode(scores.emissions, scores.lengths).numpy()
        rows = [paths[i, :n] for i, n in enumerate(scores.lengths.tolist())]
        return [
            numpy.concatenate(seqs) if seqs else numpy.zeros(0, dtype="int64")
            for seqs in per_doc(rows, scores.bounds)
        ]

    def _check_inputs(self, docs: List[Doc]) -> None:
        """Warn (once) when a cascade input such as token.tag_ is missing on the docs."""
        if self._warned_inputs:
            return
        for feature in self.model.attrs["featurizer"].features.values():
            name = INPUT_ANNOTATIONS.get(getattr(feature, "attr", None))
            if name and any(len(d) and not d.has_annotation(name) for d in docs):
                self._warned_inputs = True
                warnings.warn(
                    f"[{self.name}] reads token.{feature.attr} as an input feature, but the "
                    f"docs have no {feature.attr} annotation: put a component that sets it "
                    "(e.g. senna_tagger) before this one; without it accuracy drops sharply."
                )
                return

    # -- training -------------------------------------------------------------------------

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, f"{type(self).__name__}.update")
        if not any(len(eg.predicted) for eg in examples):
            return losses
        set_dropout_rate(self.model, drop)
        with torch_threads():
            docs = [eg.predicted for eg in examples]
            scores, backprop = self.model.begin_update(self.model_input(docs))
            loss, d_scores = self.get_loss(examples, scores)
            backprop(d_scores)
            if sgd is not None:
                self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def gold_tag_ids(self, examples: Sequence[Example], scores: Sequences) -> torch.Tensor:
        """(n_sequences, T) gold tag ids; -1 where missing, misaligned or an unknown label."""
        index = self.tag_index
        out = numpy.full(tuple(scores.emissions.shape[:2]), -1, dtype="int64")
        unknown = set()
        row = 0
        for eg, bounds in zip(examples, scores.bounds):
            ids = numpy.full(len(eg.predicted), -1, dtype="int64")
            for i, tag in enumerate(self.gold_tags(eg)):
                if tag is None or tag == "":
                    continue
                tag_id = index.get(tag)
                if tag_id is None:
                    unknown.add(tag)
                else:
                    ids[i] = tag_id
            for start, end in bounds:
                out[row, : end - start] = ids[start:end]
                row += 1
        if unknown:
            warnings.warn(
                f"[{self.name}] gold labels not in the component's label set are treated "
                f"as missing: {sorted(unknown)[:10]}. Add them with add_label or "
                "initialize on data that contains them."
            )
        return torch.from_numpy(out)

    def get_loss(
        self, examples: Sequence[Example], scores: Sequences
    ) -> Tuple[float, torch.Tensor]:
        """Summed NLL of the gold tags, and its gradient w.r.t. the emissions."""
        if not len(scores.lengths):  # e.g. SRL docs without predicates: nothing to learn
            return 0.0, torch.zeros_like(scores.emissions)
        gold = self.gold_tag_ids(examples, scores)
        criterion = get_net(self.model).criterion
        leaf = scores.emissions.detach().requires_grad_(True)
        nll = criterion.nll(leaf, gold, scores.lengths)
        bad = ~torch.isfinite(nll)
        if bool(bad.any()):
            row = int(bad.nonzero()[0, 0])
            doc = examples[doc_of_row(scores.bounds)[row]].predicted
            raise ValueError(
                f"[{self.name}] non-finite loss for the doc '{doc.text[:80]}': "
                "its gold tags are impossible under the training constraints "
                "(set constrain_training = false) or the model diverged (lower the learn rate)."
            )
        loss = nll.sum()
        loss.backward()
        return float(loss.detach()), leaf.grad

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[List[str]] = None,
    ) -> None:
        """Labels (given, or read from the data), feature dictionaries, then the network."""
        validate_get_examples(get_examples, f"{type(self).__name__}.initialize")
        examples = list(get_examples())
        if labels is not None:
            for label in labels:
                self.add_label(label)
        else:
            for label in self.labels_from_examples(examples):
                self.add_label(label)
        self._require_labels()
        vocab = nlp.vocab if nlp is not None else self.vocab
        self.model.attrs["featurizer"].fit([eg.reference for eg in examples], vocab)
        self.model.set_dim("nO", len(self.tag_names))
        self.model.attrs["tag_constraints"] = self.tag_constraints()
        self.model.initialize(X=[eg.predicted for eg in islice(examples, 10)])

    def _allow_extra_label(self) -> None:
        if self.model.has_dim("nO") and self.model.get_dim("nO") is not None:
            raise ValueError(
                f"[{self.name}] cannot add labels after the model is initialized: add "
                "them before nlp.initialize() (or pass them to initialize via labels)."
            )

    def finish_update(self, sgd: Optimizer) -> None:
        self.model.finish_update(sgd)

    def from_bytes(self, bytes_data, *, exclude=tuple()):
        self._tag_index = None
        return super().from_bytes(bytes_data, exclude=exclude)

    def from_disk(self, path, *, exclude=tuple()):
        self._tag_index = None
        return super().from_disk(path, exclude=exclude)
