"""`doc.noun_chunks` from a chunker's NP chunks, for pipelines without a dependency parse.

spaCy reads base noun phrases off a dependency parse (the language's `noun_chunks`
syntax iterator), so in a pipeline without one `doc.noun_chunks` raises. SENNA's chunker
finds base noun phrases directly (CoNLL-2000's NP chunks), so a `senna_chunker` makes its
vocab's iterator `ChunkerNounChunks`: a doc's noun chunks are then its NP chunks, and a
doc that does carry a dependency parse still gets the language's own.
"""

from typing import Callable, Iterator, Optional, Tuple, Union

from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

#: the chunk label of a base noun phrase (CoNLL-2000), and the label spaCy gives a noun chunk
NOUN_PHRASE = "NP"

NounChunks = Callable[[Union[Doc, Span]], Iterator[Tuple[int, int, int]]]


class ChunkerNounChunks:
    """A `Vocab.get_noun_chunks`: (start, end, label) of the NP spans of
    `doc.spans[spans_key]` inside a doc or span; a doc with a dependency parse goes to
    `parse_iterator` (the language's own, if it has one)."""

    def __init__(self, spans_key: str, parse_iterator: Optional[NounChunks]) -> None:
        self.spans_key = spans_key
        self.parse_iterator = parse_iterator

    def __call__(self, doclike: Union[Doc, Span]) -> Iterator[Tuple[int, int, int]]:
        doc = doclike.doc
        if self.parse_iterator is not None and doc.has_annotation("DEP"):
            yield from self.parse_iterator(doclike)
            return
        if self.spans_key not in doc.spans:
            raise ValueError(
                f"doc.noun_chunks reads the NP chunks of doc.spans['{self.spans_key}'] (written "
                "by senna_chunker) or a dependency parse, and this doc has neither: run the "
                f"pipeline with its chunker on it (nlp(text)), not only nlp.make_doc, and "
                "do not disable the chunker."
            )
        start, end = (0, len(doc)) if isinstance(doclike, Doc) else (doclike.start, doclike.end)
        label = doc.vocab.strings.add(NOUN_PHRASE)
        for span in doc.spans[self.spans_key]:
            if span.label == label and start <= span.start and span.end <= end:
                yield span.start, span.end, label


def read_noun_chunks_from(vocab: Vocab, spans_key: str) -> None:
    """Make `doc.noun_chunks` of this vocab's docs read the NP chunks of
    `doc.spans[spans_key]` (the first chunker of a pipeline sets it; later ones keep it)."""
    if not isinstance(vocab.get_noun_chunks, ChunkerNounChunks):
        vocab.get_noun_chunks = ChunkerNounChunks(spans_key, vocab.get_noun_chunks)
