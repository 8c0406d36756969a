"""The shared core of every senna component: rows -> gold ids -> loss; rows -> decode ->
per-doc results.

A *row* is one sequence the network scores: a sentence (window network) or a
(sentence, predicate) pair (sentence network, SRL). A component says only

- what the model reads (`model_input`: the docs, or docs with their predicates),
- its gold tags (`gold_tags` for a whole doc, or `gold_rows` row by row),
- how a decoded row becomes a result (`row_result`) and the rows of a doc one
  prediction (`doc_prediction`), and how a prediction is written (`set_annotations`),

plus its tag inventory (`tag_names`). Featurizing, the network, the CRF loss, decoding,
initialization, warnings, error handling and serialization live here once; the default
model config is in `defaults`, rows in `rows`.
"""

import warnings
from abc import abstractmethod
from itertools import islice
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import numpy
import torch
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.util import minibatch
from spacy.vocab import Vocab
from thinc.api import Model, Optimizer, set_dropout_rate

from ..labels.annotations import TOKEN_ANNOTATIONS
from ..models.senna_model import get_net
from ..models.sequences import Sequences, sequence_bounds, sequence_bounds_kept, sequence_bounds_of
from ..runtime.collector import collector_paused
from ..runtime.threads import inference_lock, labelling, torch_threads
from .batching import bounded_batches, call_floats, decode_calls, decode_groups, row_cost
from .defaults import WORD_CAPS_FEATURES, default_model_config
from .model_file import ChecksModelFile
from .parts import DocPart, doc_parts, fits_one_call, in_doc_offsets, part_doc
from .rows import Row, initialize_examples, rows_per_doc, same_tokens
from .whitespace import example_words_only, words_only

__all__ = [
    "WORD_CAPS_FEATURES",
    "Row",
    "SennaWarning",
    "SequenceLabeler",
    "default_model_config",
    "rows_per_doc",
    "same_tokens",
]


class SennaWarning(UserWarning):
    """A senna component's warning; shown once per `nlp()` call or `nlp.pipe()` run."""


warnings.filterwarnings("always", category=SennaWarning)


class SequenceLabeler(ChecksModelFile, TrainablePipe):
    """Base class: tags every token of a row with a CRF (or WLL) over SENNA scores."""

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
        self._warned: Set[str] = set()

    # -- labels ---------------------------------------------------------------------------

    @property
    def labels(self) -> Tuple[str, ...]:
        """The component's labels, in the order they were added."""
        return tuple(self.cfg["labels"])

    @property
    def label_data(self) -> List[str]:
        """The labels, for `spacy init labels`."""
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
        """Tag name -> CRF tag id."""
        if self._tag_index is None:
            self._tag_index = {tag: i for i, tag in enumerate(self.tag_names)}
        return self._tag_index

    def add_label(self, label: str) -> int:
        """Add a label before initialization; 0 if it was there already, else 1."""
        if not isinstance(label, str) or not label:
            raise ValueError(f"[{self.name}] labels must be non-empty strings, got {label!r}")
        if label in self.cfg["labels"]:
            return 0
        self._check_new_label(label)
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        self._tag_index = None
        return 1

    def _check_new_label(self, label: str) -> None:
        """Raise when `label` cannot be added (after initialize, or not representable)."""
        if self.model.has_dim("nO") and self.model.get_dim("nO") is not None:
            raise ValueError(
                f"[{self.name}] cannot add labels after the model is initialized: add "
                "them before nlp.initialize() (or pass them to initialize via labels)."
            )

    @abstractmethod
    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The labels found in reference (gold) docs."""
        raise NotImplementedError

    # -- what the model reads and the gold rows -------------------------------------------

    @property
    def input_attrs(self) -> Tuple[str, ...]:
        """The token attributes the features read besides the text (e.g. "tag_")."""
        features = self.model.attrs["featurizer"].features.values()
        return tuple(f.attr for f in features if isinstance(getattr(f, "attr", None), str))

    def model_input(self, docs: List[Doc]) -> List[Any]:
        """What the model reads: the docs (one row per sentence); SRL pairs each doc with
        its predicates (one row per predicate)."""
        return docs

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """Gold tag names on the predicted tokens; None where missing or misaligned.

        A component implements this, or `gold_rows` when its rows are not slices of one
        tag sequence per doc (SRL: one row per predicate).
        """
        name = type(self).__name__
        raise NotImplementedError(f"{name} implements neither gold_tags nor gold_rows")

    def gold_rows(self, example: Example, rows: List[Row]) -> List[List[Optional[str]]]:
        """Gold tag names of each row of the example's doc (default: slices of `gold_tags`)."""
        tags = self.gold_tags(example)
        return [tags[row.start : row.end] for row in rows]

    def gold_tag_ids(self, examples: Sequence[Example], scores: Sequences) -> torch.Tensor:
        """(n_rows, T) gold tag ids; -1 where missing, misaligned or an unknown label."""
        index = self.tag_index
        out = numpy.full(tuple(scores.emissions.shape[:2]), -1, dtype="int64")
        unknown = set()
        row_id = 0
        for eg, rows in zip(examples, rows_per_doc(scores)):
            for tags in self.gold_rows(eg, rows):
                for i, tag in enumerate(tags):
                    if tag is None or tag == "":
                        continue
                    tag_id = index.get(tag)
                    if tag_id is None:
                        unknown.add(tag)
                    else:
                        out[row_id, i] = tag_id
                row_id += 1
        if unknown:
            warnings.warn(
                f"[{self.name}] gold labels not in the component's label set are treated "
                f"as missing: {sorted(unknown)[:10]}. Add them with add_label or "
                "initialize on data that contains them.",
                SennaWarning,
            )
        return torch.from_numpy(out)

    # -- prediction -----------------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        """Annotate one doc (errors go to the pipeline's error handler)."""
        error_handler = self.get_error_handler()
        try:
            with inference_lock(self), labelling():
                self._warned = set()
                self.set_annotations([doc], self.predict([doc]))
            return doc
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Annotate a stream of docs in batches (errors go to the error handler)."""
        error_handler = self.get_error_handler()
        self._warned = set()
        for docs in minibatch(stream, size=batch_size):
            try:
                with inference_lock(self), labelling(), collector_paused():
                    self.set_annotations(docs, self.predict(docs))
                yield from docs
            except Exception as e:
                error_handler(self.name, self, docs, e)

    def predict(self, docs: Iterable[Doc]) -> List[Any]:
        """One prediction per doc (`doc_prediction`), from the decoded rows of the batch.

        The batch goes through the model in calls of bounded size (`input_batches`), and
        the rows of consecutive calls are decoded together (see batching.py).
        Docs with whitespace tokens are labelled without them (see whitespace.py).
        """
        originals = list(docs)
        copies = [words_only(doc, self.input_attrs) for doc in originals]
        docs = [words for words, _ in copies]
        self._check_inputs(docs)
        rows_of: List[List[Row]] = [[] for _ in docs]
        results_of: List[List[Any]] = [[] for _ in docs]
        with sequence_bounds_kept():  # read to batch the docs, then to featurize them
            for calls in decode_groups(self.model_calls(docs)):
                results = iter(self.row_results([scores for _, scores in calls]))
                for batch, scores in calls:
                    for (d, _), rows in zip(batch, rows_per_doc(scores)):
                        rows_of[d].extend(rows)
                        results_of[d].extend(next(results) for _ in rows)
        predictions = [self.doc_prediction(*args) for args in zip(docs, rows_of, results_of)]
        return [
            prediction if kept is None else self.prediction_on_doc(prediction, kept, len(doc))
            for prediction, doc, (_, kept) in zip(predictions, originals, copies)
        ]

    def model_calls(self, docs: List[Doc]) -> Iterator[Tuple[List[Tuple[int, Any]], Sequences]]:
        """The network's scores of `docs`, call by call: each input batch (doc index,
        item) with its Sequences, whose rows are in their docs' token offsets."""
        for batch in self.input_batches(docs):
            inputs = [self.item_input(item) for _, item in batch]
            scores = self.model.predict([model_input for model_input, _ in inputs])
            yield batch, in_doc_offsets(scores, [offset for _, offset in inputs])

    def input_items(
        self, doc: Doc, bounds: List[Tuple[int, int]]
    ) -> List[Tuple[Any, Tuple[int, int]]]:
        """The model inputs of one doc at prediction time, each with its (rows, longest
        row): the doc itself, or when its sentences `bounds` do not fit one model call,
        its parts (`parts.py`; not for a network that reads the whole doc's context)."""
        shape = (len(bounds), max((end - start for start, end in bounds), default=0))
        whole = self.model.attrs.get("doc_context") or len(bounds) < 2
        if whole or fits_one_call(shape, self.row_cost, call_floats(self.model)):
            return [(doc, shape)]
        return [(part, part.shape) for part in self.doc_parts(doc, bounds)]

    def doc_parts(self, doc: Doc, bounds: List[Tuple[int, int]]) -> List[DocPart]:
        """The doc's sentences `bounds` in parts that each fit one model call."""
        features = self.model.attrs["featurizer"].features.values()
        keys = [f.spans_key for f in features if getattr(f, "spans_key", None)]
        return doc_parts(doc, bounds, self.row_cost, call_floats(self.model), keys)

    def item_input(self, item: Any) -> Tuple[Any, int]:
        """What the model reads of an input item, and the doc offset of its first token."""
        if isinstance(item, DocPart):
            return part_doc(item, self.input_attrs), item.start
        return item, 0

    def row_cost(self, length: int) -> int:
        """Working floats of one row of `length` tokens while predicting (an estimate)."""
        return row_cost(self.model.attrs, len(self.tag_index), length)

    def input_batches(self, docs: List[Doc]) -> Iterator[List[Tuple[int, Any]]]:
        """(doc index, item) groups in doc order, each within one call's floats
        (`batching.call_floats`; a group holds at least one item). An item with no row to
        score (an empty doc, SRL's doc without a predicate) goes to no model call: its doc
        gets the prediction of no rows."""
        items, shapes = [], []
        for d, (doc, bounds) in enumerate(zip(docs, sequence_bounds_of(docs))):
            for item, shape in self.input_items(doc, bounds):
                if shape[0]:
                    items.append((d, item))
                    shapes.append(shape)
        return bounded_batches(items, shapes, self.row_cost, call_floats(self.model))

    def row_results(self, calls: List[Sequences]) -> List[Any]:
        """One result per row of the calls, in order: its best tag ids (Viterbi), as an
        int64 array."""
        return [
            path[:n]
            for scores, paths in zip(calls, decode_calls(self.model, calls))
            for path, n in zip(paths, scores.lengths.tolist())
        ]

    @abstractmethod
    def doc_prediction(self, doc: Doc, rows: List[Row], results: List[Any]) -> Any:
        """The prediction for one doc from the results of its rows."""
        raise NotImplementedError

    @abstractmethod
    def prediction_on_doc(self, prediction: Any, kept: numpy.ndarray, n_tokens: int) -> Any:
        """A prediction made without the doc's whitespace tokens, in the doc's token
        offsets (`kept`: the doc index of each token the prediction saw)."""
        raise NotImplementedError

    @abstractmethod
    def set_annotations(self, docs: Iterable[Doc], predictions: List[Any]) -> None:
        """Write the predictions onto the docs."""
        raise NotImplementedError

    def warn_once(self, key: str, message: str) -> None:
        """Warn with `message` once per `nlp()` call or `nlp.pipe()` run."""
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, SennaWarning)

    def _check_inputs(self, docs: List[Doc], own_spans: Sequence[str] = ()) -> None:
        """Warn when a cascade input (token.tag_, a span group such as PT0) is missing;
        `own_spans`: span groups the component writes itself for its network."""
        for feature in self.model.attrs["featurizer"].features.values():
            attr = getattr(feature, "attr", None)
            name = TOKEN_ANNOTATIONS.get(attr)
            if name and any(len(d) and not d.has_annotation(name) for d in docs):
                self.warn_once(
                    f"input:{attr}",
                    f"[{self.name}] reads token.{attr} as an input feature, but the "
                    f"docs have no {attr} annotation: put a component that sets it "
                    "(e.g. senna_tagger) before this one; without it accuracy drops sharply.",
                )
            key = getattr(feature, "spans_key", None)
            if key and key not in own_spans and any(len(d) and key not in d.spans for d in docs):
                self.warn_once(
                    f"spans:{key}",
                    f"[{self.name}] reads doc.spans['{key}'] as an input feature, but a doc "
                    f"has no such span group: put the component that writes it (e.g. a "
                    f'senna_chunker with spans_key = "{key}") before this one; without it '
                    "the feature is unknown at every token and accuracy drops.",
                )

    # -- training -------------------------------------------------------------------------

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """One training step on a batch of examples; adds the loss to `losses`."""
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, f"{type(self).__name__}.update")
        # the networks learn from words only, as they label them (whitespace.py)
        examples = [example_words_only(eg, self.input_attrs) for eg in examples]
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

    def get_loss(
        self, examples: Sequence[Example], scores: Sequences
    ) -> Tuple[float, torch.Tensor]:
        """Summed NLL of the gold tags, and its gradient w.r.t. the emissions."""
        if not len(scores.lengths):  # e.g. SRL docs without predicates: nothing to learn
            return 0.0, torch.zeros_like(scores.emissions)
        gold = self.gold_tag_ids(examples, scores).to(scores.emissions.device)
        criterion = get_net(self.model).criterion
        leaf = scores.emissions.detach().requires_grad_(True)
        nll = criterion.nll(leaf, gold, scores.lengths)
        bad = ~torch.isfinite(nll)
        if bool(bad.any()):
            row = int(bad.nonzero()[0, 0])
            doc_of_row = [d for d, bounds in enumerate(scores.bounds) for _ in bounds]
            doc = examples[doc_of_row[row]].predicted
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
        corpus: Optional[Callable[[Language], Iterable[Example]]] = None,
    ) -> None:
        """Labels (given, or read from the data), feature dictionaries, then the network.

        corpus: a reader (e.g. `${corpora.train}` under `[initialize.components.NAME]`)
            to read labels and dictionaries from instead of `get_examples`: with
            `[training] max_epochs = -1` (a streamed corpus) spaCy passes only its first
            100 training examples.
        """
        validate_get_examples(get_examples, f"{type(self).__name__}.initialize")
        get_examples = initialize_examples(self.name, get_examples, nlp, corpus)
        # only the gold docs are kept: the predicted copies go as they come
        references = [eg.reference for eg in get_examples()]
        for label in labels if labels is not None else self.labels_from_references(references):
            self.add_label(label)
        self._require_labels()
        vocab = nlp.vocab if nlp is not None else self.vocab
        self.model.attrs["featurizer"].fit(references, vocab)
        if self.model.attrs.get("doc_context") and all(
            len(sequence_bounds(doc)) <= 1 for doc in references
        ):
            warnings.warn(
                f"[{self.name}] doc_context is on, but every training Doc holds one "
                "sentence, so the network never sees a word's other mentions: train on Docs "
                "that hold whole documents (e.g. `python -m spacy_senna convert ... "
                "--documents`, read with spacy-senna.Corpus.v1).",
                SennaWarning,
            )
        del references
        self.model.set_dim("nO", len(self.tag_names))
        self.model.attrs["tag_constraints"] = self.tag_constraints()
        self.model.initialize(X=[eg.predicted for eg in islice(get_examples(), 10)])

    def finish_update(self, sgd: Optimizer) -> None:
        """Apply the accumulated gradients with `sgd`."""
        self.model.finish_update(sgd)

    def from_bytes(self, bytes_data, *, exclude=tuple()):
        """Load the component from bytes."""
        self._tag_index = None
        return super().from_bytes(bytes_data, exclude=exclude)

    def from_disk(self, path, *, exclude=tuple()):
        """Load the component from a directory."""
        self._tag_index = None
        return super().from_disk(path, exclude=exclude)
