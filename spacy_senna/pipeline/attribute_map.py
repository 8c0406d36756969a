"""senna_attribute_ruler: spaCy's AttributeRuler (same patterns, serialization and outputs)
that sets the attributes of a whole batch of docs with array lookups.

spaCy's AttributeRuler runs a Matcher over every doc and sets each match's attributes token by
token in Python; on en_senna that cost as much as the tagger. This subclass compiles its
patterns (attribute_tables.py) once they change and applies them to `Doc.to_array` columns,
writing POS, TAG, MORPH and LEMMA back with `Doc.from_array`. Rules it cannot compile (other
predicates or attributes, "!" operators, extension attributes) go through a Matcher of their
own, and the rule added last still wins wherever several set an attribute of a token.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

import numpy as np
from spacy.attrs import ORTH
from spacy.errors import Errors
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc, Span
from spacy.tokens._retokenize import set_token_attrs
from spacy.vocab import Vocab

from .attribute_tables import AttributeTables, compile_rules
from .batched import annotate_doc, annotate_stream


@Language.factory(
    "senna_attribute_ruler",
    default_config={
        "validate": False,
        "scorer": {"@scorers": "spacy.attribute_ruler_scorer.v1"},
    },
)
def make_senna_attribute_ruler(
    nlp: Language, name: str, validate: bool, scorer: Optional[Callable]
) -> "SennaAttributeRuler":
    """spaCy's `attribute_ruler`, applied with arrays."""
    return SennaAttributeRuler(nlp.vocab, name, validate=validate, scorer=scorer)


class SennaAttributeRuler(AttributeRuler):
    """An AttributeRuler whose rules run as array operations over batches of docs."""

    def __init__(self, vocab: Vocab, name: str = "attribute_ruler", **kwargs) -> None:
        super().__init__(vocab, name, **kwargs)
        self._compiled: Optional[tuple[AttributeTables, Optional[Matcher], list[int]]] = None

    def clear(self) -> None:
        """Reset all patterns."""
        super().clear()
        self._compiled = None

    def add(self, patterns: Iterable, attrs: dict, index: int = 0) -> None:
        """Add rules as `AttributeRuler.add` does (they are compiled on the next doc)."""
        super().add(patterns, attrs, index)
        self._compiled = None

    def __call__(self, doc: Doc) -> Doc:
        """Set the attributes the rules give the tokens of `doc`."""
        return annotate_doc(self, self._annotate, doc)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Annotate the docs of `stream` a batch at a time."""
        return annotate_stream(self, self._annotate, stream, batch_size)

    def _compile(self) -> tuple[AttributeTables, Optional[Matcher], list[int]]:
        if self._compiled is None:
            rules = [
                (self.matcher.get(str(i))[1], attrs, self.indices[i])
                for i, attrs in enumerate(self.attrs)
            ]
            tables, fallback = compile_rules(rules)
            matcher = None
            if fallback:
                matcher = Matcher(self.vocab, validate=self.validate)
                for i in fallback:
                    matcher.add(self.vocab.strings.add(str(i)), rules[i][0])
            reads = list(dict.fromkeys([*tables.columns, *tables.writes])) or [ORTH]
            columns = np.array([reads.index(a) for a in tables.columns], dtype=np.int64)
            writes = np.array([reads.index(a) for a in tables.writes], dtype=np.int64)
            self._compiled = (tables, matcher, np.array(reads, dtype="i"), columns, writes)
        return self._compiled

    def _annotate(self, docs: list[Doc]) -> None:
        tables, matcher, reads, columns, writes = self._compile()
        lengths = [len(doc) for doc in docs]
        if 0 in lengths:
            docs = [doc for doc, length in zip(docs, lengths) if length]
            lengths = [length for length in lengths if length]
        if not docs:
            return
        arrays = [doc.to_array(reads) for doc in docs]
        data = (np.concatenate(arrays) if len(arrays) > 1 else arrays[0]).reshape(-1, len(reads))
        win, val = tables.resolve(data[:, columns], lengths, self.vocab.strings)
        later = []
        if matcher is not None:
            later = self._match(matcher, docs, lengths, tables, win, val)
        if tables.writes:
            values = np.where(win >= 0, val, data[:, writes])
            starts = np.cumsum([0, *lengths])
            for doc, start, end in zip(docs, starts[:-1], starts[1:]):
                doc.from_array(tables.writes, values[start:end])
        for token, attrs in later:
            set_token_attrs(token, attrs)

    def _match(
        self,
        matcher: Matcher,
        docs: list[Doc],
        lengths: list[int],
        tables: AttributeTables,
        win: np.ndarray,
        val: np.ndarray,
    ) -> list:
        """Apply the rules left to `matcher` as AttributeRuler.set_annotations does: the
        compiled attributes into `win` and `val`, the others returned to set in order."""
        later = []
        offset = 0
        for doc, length in zip(docs, lengths):
            matches = matcher(doc, allow_missing=True, as_spans=False)
            found = sorted((int(self.vocab.strings[m]), m, s, e) for m, s, e in matches)
            for rule, match_id, start, end in found:
                span = Span(doc, start, end, label=match_id)
                index = self.indices[rule]
                try:
                    token = span[index]
                except IndexError:
                    raise ValueError(
                        Errors.E1001.format(
                            patterns=matcher.get(span.label),
                            span=[t.text for t in span],
                            index=index,
                        )
                    ) from None
                attrs = self.attrs[rule]
                i = offset + token.i
                for column, attr in enumerate(tables.writes):
                    if attr in attrs and win[i, column] < rule:
                        win[i, column], val[i, column] = rule, attrs[attr]
                rest = {a: v for a, v in attrs.items() if a not in tables.writes}
                if rest:
                    later.append((token, rest))
            offset += length
        return later
