"""Scores on raw text for pipelines whose tokens are a treebank's syntactic words.

The gold Docs hold syntactic words and their multiword tokens
(`user_data["spacy_senna.multiword_tokens"]`), so their surface text can be rebuilt; the
pipeline reads that text through its own tokenizer. Both sides are then compared through
*surface tokens* located by character offsets in the one text:

- tags: a gold word counts as right when its surface token has the same offsets on the
  predicted side, is split into as many words, and the word at its position has its tag;
  accuracy is over all gold words (a word the tokenizer cut differently is wrong);
- entities: each entity becomes (first surface token's start, last one's end, label) on
  each side, compared as sets (precision, recall, F1), so an entity is right when it covers
  the same surface tokens, whether or not a contraction at its edge was split as the
  treebank splits it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from ..corpora.converters.ud import MULTIWORD_KEY

Surface = tuple[int, int, int, int]  # (char start, char end, first word, end word)


def surface_tokens(doc: Doc) -> list[Surface]:
    """The doc's surface tokens with their offsets in `surface_text(doc)`."""
    ranges = {start: (end, form) for start, end, form in doc.user_data.get(MULTIWORD_KEY, [])}
    out: list[Surface] = []
    char = i = 0
    while i < len(doc):
        end, form = ranges.get(i, (i + 1, doc[i].text))
        out.append((char, char + len(form), i, end))
        char += len(form) + len(doc[end - 1].whitespace_)
        i = end
    return out


def surface_text(doc: Doc) -> str:
    """The text the doc's surface tokens make (multiword tokens written as one form)."""
    ranges = {start: (end, form) for start, end, form in doc.user_data.get(MULTIWORD_KEY, [])}
    parts: list[str] = []
    i = 0
    while i < len(doc):
        end, form = ranges.get(i, (i + 1, doc[i].text))
        parts.append(form + doc[end - 1].whitespace_)
        i = end
    return "".join(parts)


def _entities(doc: Doc, tokens: Sequence[Surface]) -> set[tuple[int, int, str]]:
    of_word = {w: (s, e) for s, e, first, end in tokens for w in range(first, end)}
    return {(of_word[e.start][0], of_word[e.end - 1][1], e.label_) for e in doc.ents}


def score_raw_text(nlp: Language, gold_docs: Iterable[Doc], batch_size: int = 64) -> dict:
    """Tag accuracy (`tag_acc`, over gold words) and entity P/R/F (`ents_p/r/f`) of `nlp`
    on the surface text of the gold docs, with the share of gold words whose surface token
    the tokenizer split as the treebank (`words_split_as_gold`)."""
    gold_docs = list(gold_docs)
    predicted = nlp.pipe((surface_text(doc) for doc in gold_docs), batch_size=batch_size)
    n_words = right_split = right_tags = 0
    n_gold = n_pred = n_both = 0
    for gold, pred in zip(gold_docs, predicted):
        gold_tokens, pred_tokens = surface_tokens(gold), surface_tokens(pred)
        by_offsets = {(s, e): (first, end) for s, e, first, end in pred_tokens}
        n_words += len(gold)
        for s, e, first, end in gold_tokens:
            match = by_offsets.get((s, e))
            if match is None or match[1] - match[0] != end - first:
                continue
            right_split += end - first
            right_tags += sum(
                gold[first + k].tag_ == pred[match[0] + k].tag_ for k in range(end - first)
            )
        gold_ents, pred_ents = _entities(gold, gold_tokens), _entities(pred, pred_tokens)
        n_gold, n_pred, n_both = (
            n_gold + len(gold_ents),
            n_pred + len(pred_ents),
            n_both + len(gold_ents & pred_ents),
        )
    precision = n_both / n_pred if n_pred else 0.0
    recall = n_both / n_gold if n_gold else 0.0
    f_score = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "words": n_words,
        "words_split_as_gold": right_split / n_words if n_words else 0.0,
        "tag_acc": right_tags / n_words if n_words else 0.0,
        "ents_p": precision,
        "ents_r": recall,
        "ents_f": f_score,
    }
