"""Surface tokens split into a treebank's syntactic words (`do` -> `de o`,
`tornou-se` -> `tornou se`), learnt from the treebank's own multiword tokens, the same way
in every language.

`ContractionTable.learn` counts, for every lowercased surface form, how often the
training treebank writes it as a multiword token (and as which words) and how often as a
single word: a form is split when the split is the majority reading (`nos` is `em os`
more often than the pronoun `nos` in Bosque: split). A hyphenated form seen in no
multiword token is split at its last hyphen when the part after it is a clitic the
treebank splits off (`-se`, `-lhe`, `-lo`...) and the host is kept as written, as the
treebank does for `tornou-se`. The words take the surface token's case pattern (`DO` ->
`DE O`, `Do` -> `De o`).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from .ud import UdSentence


class ContractionTable:
    """Lowercased surface form -> its syntactic words, and clitic suffixes -> word."""

    def __init__(self, forms: dict[str, list[str]], clitics: dict[str, str]) -> None:
        self.forms = forms
        self.clitics = clitics

    @classmethod
    def learn(cls, sentences: Iterable[UdSentence]) -> ContractionTable:
        """The table of a treebank's sentences (training split only: no test leakage)."""
        split: dict[str, Counter] = defaultdict(Counter)
        whole: Counter = Counter()
        clitics: dict[str, Counter] = defaultdict(Counter)
        for sentence in sentences:
            inside = set()
            for start, end, form in sentence.multiword:
                words = tuple(w.lower() for w in sentence.words[start:end])
                surface = form.lower()
                split[surface][words] += 1
                inside.update(range(start, end))
                host, dash, suffix = surface.rpartition("-")
                if dash and host and end - start == 2 and words[0] == host:
                    clitics[suffix][words[1]] += 1
            whole.update(w.lower() for i, w in enumerate(sentence.words) if i not in inside)
        forms = {
            surface: list(readings.most_common(1)[0][0])
            for surface, readings in split.items()
            if sum(readings.values()) > whole[surface]
        }
        return cls(forms, {s: c.most_common(1)[0][0] for s, c in clitics.items()})

    def split(self, token: str) -> list[str]:
        """The syntactic words of one surface token (itself when it is not split)."""
        lower = token.lower()
        words = self.forms.get(lower)
        if words is None:
            host, dash, suffix = token.rpartition("-")
            clitic = self.clitics.get(suffix.lower()) if dash and host else None
            if clitic is None or "-" in host:
                return [token]
            return [host, _cased(clitic, suffix)]
        if token.isupper() and len(token) > 1:
            return [w.upper() for w in words]
        if token[:1].isupper():
            return [words[0][:1].upper() + words[0][1:]] + words[1:]
        return list(words)

    def split_all(self, tokens: Sequence[str]) -> list[str]:
        """The syntactic words of a token sequence."""
        return [word for token in tokens for word in self.split(token)]

    def to_disk(self, path: Path) -> None:
        path.write_text(
            json.dumps(
                {"forms": self.forms, "clitics": self.clitics}, ensure_ascii=False, indent=0
            ),
            encoding="utf8",
        )

    @classmethod
    def from_disk(cls, path: Path) -> ContractionTable:
        data = json.loads(path.read_text(encoding="utf8"))
        return cls(data["forms"], data["clitics"])


def _cased(word: str, like: str) -> str:
    return word.upper() if like.isupper() and len(like) > 1 else word
