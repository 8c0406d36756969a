"""Scores on raw text for pipelines whose tokens are a treebank's syntactic words.

The gold Docs hold syntactic words and their multiword tokens
(`user_data["spacy_senna.multiword_tokens"]`), so their surface text can be rebuilt; the
pipeline reads that text through its own tokenizer. Both sides are then compared through
*surface tokens* located by character offsets in the one text:

- tags: a gold word counts as right when its surface token has the same offsets on the
  predicted side, is split into as many words, and the word at its position has its tag;
  accuracy is over all gold words (a word the tokenizer cut differently is wrong);
- lemmas: as tags, where the pipeline lemmatizes;
- entities, and chunks where the pipeline has a chunker: each span becomes (first surface
  token's start, last one's end, label) on each side, compared as sets (precision, recall,
  F1), so a span is right when it covers the same surface tokens, whether or not a
  contraction at its edge was split as the treebank splits it;
- SRL frames (`score_raw_srl`): a predicate is its surface token and its word's place in
  it, its arguments spans of surface tokens as above, counted as `scoring.srl` counts them
  for predicates a tagger found (a predicted frame whose predicate the gold lacks counts
  as wrong).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from ..corpora.converters.ud import MULTIWORD_KEY
from ..srl.frames import frame_chunks
from .srl import argument_prf, count_frame, frame_arguments

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


CHUNKS = "chunks"


def _word_places(tokens: Sequence[Surface]) -> dict[int, tuple[int, int, int]]:
    """Each word's surface token (start, end offsets) and its place in that token."""
    return {w: (s, e, w - first) for s, e, first, end in tokens for w in range(first, end)}


def _surface_spans(spans: Iterable, tokens: Sequence[Surface]) -> set[tuple[int, int, str]]:
    of_word = _word_places(tokens)
    return {(of_word[sp.start][0], of_word[sp.end - 1][1], sp.label_) for sp in spans}


class _SpanCounts:
    """Gold, predicted and matching spans, summed over docs."""

    def __init__(self) -> None:
        self.gold = self.pred = self.both = 0

    def add(self, gold: set, pred: set) -> None:
        self.gold += len(gold)
        self.pred += len(pred)
        self.both += len(gold & pred)

    def prf(self, prefix: str) -> dict[str, float]:
        precision = self.both / self.pred if self.pred else 0.0
        recall = self.both / self.gold if self.gold else 0.0
        f_score = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {f"{prefix}_p": precision, f"{prefix}_r": recall, f"{prefix}_f": f_score}


def score_raw_text(nlp: Language, gold_docs: Iterable[Doc], batch_size: int = 64) -> dict:
    """Tag and lemma accuracy (`tag_acc`, `lemma_acc`, over gold words), entity P/R/F
    (`ents_p/r/f`) and chunk P/R/F (`chunks_p/r/f`, where the pipeline writes
    doc.spans["chunks"]) of `nlp` on the surface text of the gold docs, with the share of
    gold words whose surface token the tokenizer split as the treebank
    (`words_split_as_gold`)."""
    gold_docs = list(gold_docs)
    predicted = nlp.pipe((surface_text(doc) for doc in gold_docs), batch_size=batch_size)
    n_words = right_split = right_tags = right_lemmas = 0
    ents, chunks = _SpanCounts(), _SpanCounts()
    has_chunks = False
    for gold, pred in zip(gold_docs, predicted):
        gold_tokens, pred_tokens = surface_tokens(gold), surface_tokens(pred)
        by_offsets = {(s, e): (first, end) for s, e, first, end in pred_tokens}
        n_words += len(gold)
        for s, e, first, end in gold_tokens:
            match = by_offsets.get((s, e))
            if match is None or match[1] - match[0] != end - first:
                continue
            right_split += end - first
            pairs = [(gold[first + k], pred[match[0] + k]) for k in range(end - first)]
            right_tags += sum(g.tag_ == p.tag_ for g, p in pairs)
            right_lemmas += sum(g.lemma_ == p.lemma_ for g, p in pairs)
        ents.add(_surface_spans(gold.ents, gold_tokens), _surface_spans(pred.ents, pred_tokens))
        if CHUNKS in pred.spans:
            has_chunks = True
            chunks.add(
                _surface_spans(gold.spans.get(CHUNKS, []), gold_tokens),
                _surface_spans(pred.spans[CHUNKS], pred_tokens),
            )
    scores = {
        "words": n_words,
        "words_split_as_gold": right_split / n_words if n_words else 0.0,
        "tag_acc": right_tags / n_words if n_words else 0.0,
        "lemma_acc": right_lemmas / n_words if n_words else 0.0,
        **ents.prf("ents"),
    }
    if has_chunks:
        scores.update(chunks.prf("chunks"))
    return scores


def score_raw_srl(nlp: Language, gold_docs: Iterable[Doc], batch_size: int = 64) -> dict:
    """SRL argument P/R/F (`srl_p/r/f`) of `nlp` on the surface text of gold docs that hold
    SRL frames (`doc.spans["srl:<i>"]`) and their multiword tokens, with how many gold
    predicates (`predicates`) got a frame at the same place (`predicates_found`)."""
    gold_docs = list(gold_docs)
    predicted = nlp.pipe((surface_text(doc) for doc in gold_docs), batch_size=batch_size)
    correct: Counter = Counter()
    n_gold: Counter = Counter()
    n_found: Counter = Counter()
    n_predicates = n_placed = 0
    for gold, pred in zip(gold_docs, predicted):
        gold_frames = _surface_frames(gold, surface_tokens(gold))
        found = _surface_frames(pred, surface_tokens(pred))
        n_predicates += len(gold_frames)
        for place, chunks in gold_frames.items():
            n_placed += place in found
            guess = found.pop(place, [])
            count_frame(frame_arguments(chunks), frame_arguments(guess), correct, n_gold, n_found)
        for chunks in found.values():  # predicates the gold does not have
            count_frame(Counter(), frame_arguments(chunks), correct, n_gold, n_found)
    total = argument_prf(sum(correct.values()), sum(n_gold.values()), sum(n_found.values()))
    return {
        "predicates": n_predicates,
        "predicates_found": n_placed,
        "srl_p": total["p"],
        "srl_r": total["r"],
        "srl_f": total["f"],
    }


def _surface_frames(doc: Doc, tokens: Sequence[Surface]) -> dict:
    """{(predicate's surface start, end, word's place in it): [(label, start, end), ...]}
    with each argument's span as surface offsets."""
    place = _word_places(tokens)
    return {
        place[predicate]: [
            (label, place[start][0], place[end - 1][1]) for label, start, end in chunks
        ]
        for predicate, chunks in frame_chunks(doc).items()
    }
