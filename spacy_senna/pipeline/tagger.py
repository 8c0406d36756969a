"""`senna_tagger`: SENNA's POS tagger (word + caps + suffix-2 window network, CRF) -> token.tag_."""

from typing import Callable, Iterable, List, Optional

import numpy
from spacy.attrs import TAG
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Model

from .defaults import default_model_config
from .rows import Row, same_tokens
from .sequence_labeler import SequenceLabeler
from .whitespace import SPACE_TAG

DEFAULT_TAGGER_MODEL = default_model_config(
    """
[model.features.suffix]
@misc = "spacy-senna.SuffixFeature.v1"
width = 5
length = 2
"""
)


@Language.factory(
    "senna_tagger",
    assigns=["token.tag"],
    default_config={
        "model": DEFAULT_TAGGER_MODEL,
        "overwrite": False,
        "scorer": {"@scorers": "spacy.tagger_scorer.v1"},
    },
    default_score_weights={"tag_acc": 1.0},
)
def make_senna_tagger(
    nlp: Language, name: str, model: Model, overwrite: bool, scorer: Optional[Callable]
) -> "SennaTagger":
    """SENNA POS tagger.

    model (Model): a spacy-senna window tagger (e.g. spacy-senna.WindowTagger.v1).
    overwrite (bool): replace tags that are already set (default: keep them).
    scorer (Optional[Callable]): scores `tag_acc` (spaCy's tagger scorer).
    """
    return SennaTagger(nlp.vocab, model, name, overwrite=overwrite, scorer=scorer)


class SennaTagger(SequenceLabeler):
    """Assigns `token.tag_` with SENNA's window network and a CRF over the tag sequence."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "senna_tagger",
        *,
        overwrite: bool = False,
        scorer: Optional[Callable] = None,
    ) -> None:
        super().__init__(vocab, model, name, scorer=scorer, overwrite=overwrite)
        self._hashes: tuple = ((), numpy.zeros(0, dtype="uint64"))

    def labels_from_references(self, docs: Iterable[Doc]) -> List[str]:
        """The tags of the reference tokens."""
        tags = set()
        for doc in docs:
            tags.update(t.tag_ for t in doc if t.tag_)
        return sorted(tags)

    def gold_tags(self, example: Example) -> List[Optional[str]]:
        """The reference tags on the predicted tokens (None: untagged or misaligned)."""
        if same_tokens(example):
            strings = self.vocab.strings
            return [strings[h] if h else None for h in example.y.to_array(TAG).tolist()]
        return example.get_aligned("TAG", as_string=True)

    def doc_prediction(
        self, doc: Doc, rows: List[Row], results: List[numpy.ndarray]
    ) -> numpy.ndarray:
        """The tag ids of the whole doc: its rows' Viterbi paths end to end."""
        return numpy.concatenate(results) if results else numpy.zeros(0, dtype="int64")

    def prediction_on_doc(
        self, tag_ids: numpy.ndarray, kept: numpy.ndarray, n_tokens: int
    ) -> numpy.ndarray:
        """The tag ids on every token; -1 (SPACE_TAG) on whitespace tokens."""
        out = numpy.full(n_tokens, -1, dtype="int64")
        out[kept] = tag_ids
        return out

    def set_annotations(self, docs: Iterable[Doc], tag_ids: List[numpy.ndarray]) -> None:
        """Write token.tag_ (keeping tags already set unless overwrite); id -1 is
        SPACE_TAG, the tag of whitespace tokens."""
        hashes = self._tag_hashes()
        for doc, ids in zip(docs, tag_ids):
            if not len(doc):
                continue
            new = hashes[ids]
            if not self.cfg["overwrite"] and doc.has_annotation("TAG"):
                old = doc.to_array([TAG]).astype("uint64").reshape(-1)
                new = numpy.where(old != 0, old, new)
            doc.from_array([TAG], new.reshape(-1, 1))

    def _tag_hashes(self) -> numpy.ndarray:
        """The hash of each tag name, then SPACE_TAG's (id -1), made again when the labels
        or the StringStore change: the names are added for good (not as a memory zone's
        transient strings), so the hashes stay readable as `token.tag_`."""
        key = (self.labels, id(self.vocab.strings))
        if self._hashes[0] != key:
            add = self.vocab.strings.add
            names = [*self.tag_names, SPACE_TAG]
            hashes = numpy.array([add(n, allow_transient=False) for n in names], dtype="uint64")
            self._hashes = (key, hashes)
        return self._hashes[1]
