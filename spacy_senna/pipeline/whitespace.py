"""Whitespace tokens are not words.

spaCy makes a token of every extra run of spaces, tabs or newlines ("Acme  Corp", a
paragraph break). SENNA's networks never see one in training, and as a word in the
windows it changes its neighbours' labels. So the components label a copy of such a doc
without them (`words_only`) and map the labels back onto the doc (`to_doc_chunks`,
`to_doc_index`): a span stretches over the whitespace inside it, a whitespace token
gets no span of its own and spaCy's tag "_SP" from the tagger. Training reads the same
copies (`example_words_only`), so the networks never learn from a whitespace token.
"""

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import IS_SPACE, ORTH, SPACY, TAG
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example

from ..labels.tags import Chunk
from ..models.sequences import sequence_bounds

#: token.tag_ of whitespace tokens (spaCy's English models use the same)
SPACE_TAG = "_SP"


def words_only(doc: Doc, attrs: Sequence[str] = ()) -> Tuple[Doc, Optional[numpy.ndarray]]:
    """`(doc, None)` when no token is whitespace; else a copy without the whitespace
    tokens (with their tags, sentence boundaries and span groups, and the other token
    attributes in `attrs` that the networks read, e.g. "pos_" or "_.my_attr") and, for
    each token of the copy, its index in `doc`."""
    is_space = doc.to_array(IS_SPACE)
    if not numpy.count_nonzero(is_space):  # a C count: a fifth of any()'s reduction
        return doc, None
    is_space = is_space.astype(bool)
    kept = numpy.flatnonzero(~is_space)
    # a kept token is followed by a space when it has one or the next token is whitespace
    spaced = doc.to_array(SPACY).astype(bool) | numpy.append(is_space[1:], False)
    spaces = spaced[kept].tolist()
    words_before = numpy.concatenate([[0], numpy.cumsum(~is_space)])
    spans = {
        key: [(int(words_before[s.start]), int(words_before[s.end]), s.label) for s in group]
        for key, group in doc.spans.items()
    }
    starts = _kept_sentence_starts(doc, kept)
    return copy_tokens(doc, kept, spaces, starts, attrs, spans), kept


def copy_tokens(
    doc: Doc,
    kept: numpy.ndarray,
    spaces: List[bool],
    sent_starts: Optional[List[bool]],
    attrs: Sequence[str],
    spans: Dict[str, Iterable[Tuple[int, int, int]]],
) -> Doc:
    """A new doc of `doc`'s tokens at `kept` (ascending indices), with these `spaces`
    and `sent_starts`, their tags and the other token attributes in `attrs`, and the span
    groups `spans` (key -> (start, end, label id) in the new doc's offsets; empty spans
    are dropped)."""
    # the columns of the tokens from the first kept one to the last only
    first, last = (int(kept[0]), int(kept[-1]) + 1) if len(kept) else (0, 0)
    orths, tags = doc[first:last].to_array([ORTH, TAG])[kept - first].T
    strings = doc.vocab.strings
    words = Doc(
        doc.vocab,
        words=[strings[orth] for orth in orths.tolist()],
        spaces=spaces,
        sent_starts=sent_starts,
    )
    if len(kept) and doc.has_annotation("TAG"):
        words.from_array([TAG], tags.reshape(-1, 1))
    for attr in set(attrs) - {"tag_"}:  # tags are copied above, as one array
        _copy_attr(doc, words, kept, attr)
    for key, group in spans.items():
        found = [Span(words, start, end, label=label) for start, end, label in group if end > start]
        words.spans[key] = SpanGroup(words, spans=found)
    return words


def example_words_only(example: Example, attrs: Sequence[str] = ()) -> Example:
    """A training example whose predicted doc has no whitespace tokens (the reference is
    kept: spaCy's alignment skips whitespace, so the gold lands on the same words)."""
    words, kept = words_only(example.predicted, attrs)
    return example if kept is None else Example(words, example.reference)


def _kept_sentence_starts(doc: Doc, kept: numpy.ndarray) -> Optional[List[bool]]:
    """Per kept token, whether it starts a sentence of `doc` (the first kept token of
    each; a sentence of whitespace only disappears); None when `doc` has none."""
    if not len(kept) or not doc.has_annotation("SENT_START"):
        return None
    starts = [start for start, _ in sequence_bounds(doc)]
    sentence = numpy.searchsorted(starts, kept, side="right")
    return [True, *(sentence[1:] != sentence[:-1]).tolist()]


def _copy_attr(doc: Doc, words: Doc, kept: numpy.ndarray, attr: str) -> None:
    """Copy one token attribute (or `_.` extension) from `doc`'s kept tokens to `words`;
    attributes that cannot be set (computed from the text, or by a getter) are computed
    on the copy as on the doc."""
    for token, i in zip(words, kept.tolist()):
        try:
            if attr.startswith("_."):
                token._.set(attr[2:], doc[i]._.get(attr[2:]))
            else:
                setattr(token, attr, getattr(doc[i], attr))
        except (AttributeError, NotImplementedError, ValueError, TypeError):
            return


def to_doc_chunks(chunks: List[Chunk], kept: numpy.ndarray) -> List[Chunk]:
    """Chunks of the copy without whitespace as chunks of the doc."""
    return [(label, int(kept[start]), int(kept[end - 1]) + 1) for label, start, end in chunks]


def to_doc_index(index: Optional[int], kept: numpy.ndarray) -> Optional[int]:
    """A token index of the copy without whitespace as an index of the doc."""
    return None if index is None else int(kept[index])
