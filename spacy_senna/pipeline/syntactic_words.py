"""A tokenizer that gives a `<lang>_senna` pipeline the treebank's syntactic words.

UD, Universal NER and Universal PropBank label syntactic words (Portuguese `do` is `de o`);
spaCy's tokenizers keep such contractions whole. This tokenizer runs the language's own
spaCy tokenizer, then splits each token as the treebank would (`ContractionTable`, learnt
from the treebank's training multiword tokens), so raw text reaches the components in the
units they were trained and scored on. The Doc's tokens are those words (`doc.text` reads
`de o governo` where the input had `do governo`); each split token's surface form and
word range stay in `doc.user_data["spacy_senna.multiword_tokens"]` ([start, end, form]),
so a caller can show or score surface tokens.

In a config: `[nlp.tokenizer] @tokenizers = "spacy-senna.SyntacticWords.v1"`; the table is
set on `nlp.tokenizer.table` when assembling and saved with the pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import srsly
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab

from ..corpora.converters.contractions import ContractionTable
from ..corpora.converters.ud import MULTIWORD_KEY

_TABLE_FILE = "contractions.json"
_BASE_DIR = "base"


class SyntacticWordTokenizer:
    """The language's spaCy tokenizer, then contractions split into syntactic words."""

    def __init__(self, vocab: Vocab, base: Tokenizer, table: ContractionTable) -> None:
        self.vocab = vocab
        self.base = base
        self.table = table

    def __call__(self, text: str) -> Doc:
        return self._split(self.base(text))

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Doc]:
        for doc in self.base.pipe(texts, batch_size=batch_size):
            yield self._split(doc)

    def _split(self, doc: Doc) -> Doc:
        words: list[str] = []
        spaces: list[bool] = []
        multiword: list[list[Any]] = []
        for token in doc:
            parts = self.table.split(token.text) if not token.is_space else [token.text]
            if len(parts) > 1:
                multiword.append([len(words), len(words) + len(parts), token.text])
            words.extend(parts)
            spaces.extend([True] * (len(parts) - 1) + [bool(token.whitespace_)])
        if not multiword:
            doc.user_data[MULTIWORD_KEY] = []
            return doc
        out = Doc(self.vocab, words=words, spaces=spaces)
        out.user_data[MULTIWORD_KEY] = multiword
        return out

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        table = {"forms": self.table.forms, "clitics": self.table.clitics}
        return srsly.msgpack_dumps({"base": self.base.to_bytes(exclude=exclude), "table": table})

    def from_bytes(
        self, data: bytes, *, exclude: Iterable[str] = tuple()
    ) -> SyntacticWordTokenizer:
        msg = srsly.msgpack_loads(data)
        self.base.from_bytes(msg["base"], exclude=exclude)
        self.table = ContractionTable(msg["table"]["forms"], msg["table"]["clitics"])
        return self

    def to_disk(self, path: Path | str, *, exclude: Iterable[str] = tuple()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.base.to_disk(path / _BASE_DIR, exclude=exclude)
        self.table.to_disk(path / _TABLE_FILE)

    def from_disk(
        self, path: Path | str, *, exclude: Iterable[str] = tuple()
    ) -> SyntacticWordTokenizer:
        path = Path(path)
        table = path / _TABLE_FILE
        if not table.is_file():
            raise FileNotFoundError(f"{table}: the tokenizer's contraction table is missing")
        self.base.from_disk(path / _BASE_DIR, exclude=exclude)
        self.table = ContractionTable.from_disk(table)
        return self


@registry.tokenizers("spacy-senna.SyntacticWords.v1")
def create_syntactic_word_tokenizer() -> Callable[[Language], SyntacticWordTokenizer]:
    """The language's default spaCy tokenizer with an (empty until set) contraction table."""
    make_base = registry.tokenizers.get("spacy.Tokenizer.v1")()

    def make(nlp: Language) -> SyntacticWordTokenizer:
        return SyntacticWordTokenizer(nlp.vocab, make_base(nlp), ContractionTable({}, {}))

    return make
