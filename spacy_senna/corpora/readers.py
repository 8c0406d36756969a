"""A corpus reader for cascades: gold token attributes (e.g. `tag_`) stay on the input docs.

SENNA's chunker, PT0 and SRL networks read POS (or PT0) tags as input features, and SRL
labels given predicates. The paper trained and evaluated them on what the CoNLL data
provides (§6.3, §9); `spacy.Corpus.v1` hands components bare words, so this reader copies
the named attributes and span groups from each reference doc onto its predicted doc.
At run time a preceding component (e.g. senna_tagger) supplies them.

With `shuffle = true` the corpus stays in memory as its DocBins (compact arrays) and each
pass builds its docs one at a time in a new random order, so a streamed training run
(`[training] max_epochs = -1`) never holds the whole training set as Docs.
"""

import copy
import random
from pathlib import Path
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Corpus, Example
from spacy.training.corpus import FILE_TYPE, walk_corpus
from spacy.util import registry
from spacy.vocab import Vocab

from ..io.docbin_decoding import get_docs
from ..labels.annotations import TOKEN_ANNOTATIONS


@registry.readers("spacy-senna.Corpus.v1")
def create_corpus_with_inputs(
    path: Union[str, Path],
    copy_attrs: List[str] = ["tag_"],
    copy_spans: List[str] = [],
    gold_preproc: bool = False,
    max_length: int = 0,
    limit: int = 0,
    augmenter: Optional[Callable] = None,
    shuffle: bool = False,
) -> Callable[[Language], Iterable[Example]]:
    """spacy.Corpus.v1 that keeps `copy_attrs` (e.g. ["tag_"]) on the predicted docs.

    path (Union[str, Path]): a .spacy file or a directory of them.
    copy_attrs (List[str]): token attributes to copy: any of tag_, pos_, lemma_, morph,
        ent_type_.
    copy_spans (List[str]): span groups to copy, e.g. ["srl_predicates"] for SRL.
    gold_preproc (bool): keep the corpus' own tokens instead of re-tokenizing its text
        (use it for pre-tokenized benchmark data). Unlike spacy.Corpus.v1's option, docs
        are not split into sentences, so span groups (e.g. chunks) survive.
    max_length (int): skip documents longer than this (0: no limit).
    limit (int): read at most this many documents (0: all).
    augmenter (Optional[Callable]): a spaCy data augmenter.
    shuffle (bool): a new random order of the documents on every pass, read from the
        DocBins kept in memory (use it with `[training] max_epochs = -1`).
    """
    unknown = [a for a in copy_attrs if a not in TOKEN_ANNOTATIONS]
    if unknown:
        choices = sorted(TOKEN_ANNOTATIONS)
        raise ValueError(f"copy_attrs {unknown} unsupported; choose from {choices}")
    corpus_type = ShuffledCorpus if shuffle else DocBinCorpus
    corpus = corpus_type(path, max_length=max_length, limit=limit, augmenter=augmenter)

    def read(nlp: Language) -> Iterable[Example]:
        for eg in corpus(nlp):
            if gold_preproc:
                eg = Example(gold_tokens(eg.reference), eg.reference)
            copy_inputs(eg, copy_attrs, copy_spans)
            yield eg

    return read


def gold_tokens(reference: Doc) -> Doc:
    """A bare doc with the reference's tokens, whitespace and sentence starts."""
    doc = Doc(
        reference.vocab,
        words=[t.text for t in reference],
        spaces=[bool(t.whitespace_) for t in reference],
    )
    if reference.has_annotation("SENT_START"):
        for token, ref in zip(doc, reference):
            token.is_sent_start = ref.is_sent_start
    return doc


def copy_inputs(example: Example, attrs: List[str], span_keys: Sequence[str] = ()) -> None:
    """Copy reference token attributes and span groups onto the aligned predicted doc."""
    for key in span_keys:
        if key in example.reference.spans:
            group = example.reference.spans[key]
            example.predicted.spans[key] = example.get_aligned_spans_y2x(group, allow_overlap=True)
    for attr in attrs:
        if not example.reference.has_annotation(TOKEN_ANNOTATIONS[attr]):
            continue
        name = TOKEN_ANNOTATIONS[attr]
        values = example.get_aligned(name, as_string=True)
        for token, value in zip(example.predicted, values):
            if value:
                setattr(token, attr, value)


class DocBinCorpus(Corpus):
    """spacy.Corpus whose docs come out of their DocBins with srsly's msgpack decoders
    looked up once per file, not per doc (`docbin_decoding`: `get_docs` about 15x faster).
    It stops at `limit` docs (spacy.Corpus reads one more from each further file)."""

    def read_docbin(self, vocab: Vocab, locs: Iterable[Union[str, Path]]) -> Iterator[Doc]:
        for docbin in _docbins(locs, self.limit):
            yield from get_docs(docbin, vocab)


class ShuffledCorpus(Corpus):
    """spacy.Corpus that yields its documents in a new random order on every call.

    spaCy's own `shuffle` makes a list of every Doc first; this keeps the DocBins read on
    the first call and builds one Doc at a time. `limit` and empty documents are applied
    in file order before shuffling, as spacy.Corpus does.
    """

    def __init__(self, path, **kwargs) -> None:
        super().__init__(path, **kwargs)
        self._bins: Optional[List[DocBin]] = None

    def read_docbin(self, vocab: Vocab, locs: Iterable[Union[str, Path]]) -> Iterator[Doc]:
        if self._bins is None:
            self._bins = list(_docbins(walk_corpus(self.path, FILE_TYPE), self.limit))
        order = [(b, i) for b, docbin in enumerate(self._bins) for i in range(len(docbin))]
        random.shuffle(order)
        streams = [
            get_docs(_subset(docbin, [i for b2, i in order if b2 == b]), vocab)
            for b, docbin in enumerate(self._bins)
        ]
        for b, _ in order:
            yield next(streams[b])


def _docbins(locs: Iterable[Union[str, Path]], limit: int) -> Iterator[DocBin]:
    """The DocBins at `locs`, one file at a time, without empty docs, cut after `limit`
    docs (0: all)."""
    total = 0
    for loc in locs:
        if limit >= 1 and total >= limit:
            return
        docbin = DocBin().from_disk(loc)
        keep = [i for i, tokens in enumerate(docbin.tokens) if len(tokens)]
        if limit >= 1:
            keep = keep[: limit - total]
        total += len(keep)
        yield _subset(docbin, keep)


def _subset(docbin: DocBin, indices: Sequence[int]) -> DocBin:
    """A DocBin of `docbin`'s docs at `indices`, in that order (arrays shared, not copied)."""
    out = copy.copy(docbin)
    user_data = docbin.user_data + [None] * (len(docbin.tokens) - len(docbin.user_data))
    columns: Tuple[str, ...] = ("tokens", "spaces", "cats", "span_groups", "flags")
    for name in columns:
        values = getattr(docbin, name)
        setattr(out, name, [values[i] for i in indices])
    out.user_data = [user_data[i] for i in indices]
    return out
