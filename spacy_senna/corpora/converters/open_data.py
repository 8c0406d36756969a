"""The openly licensed sets a shipped model may learn from (../shared/data/open):
propbank-ewt's verbal view, Universal NER and GUM's open genres, each keeping UD's sent_id,
and the Broad Twitter Corpus (tweets, no ids)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

from spacy.tokens import Doc
from spacy.vocab import Vocab

from .rows import (
    SENT_ID_KEY,
    add_frames,
    check_columns,
    check_ids,
    check_iob,
    chunk_spans,
    commented_sentences,
    make_doc,
    sentence_rows,
    tab_split,
)


def read_propbank_ewt(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """propbank-ewt's CoNLL-2005-style verbal view (`ID WORD XPOS CHUNK PRED ARG_1...`, tab)
    -> `tag_`, `doc.spans["chunks"]` (from BIO), `doc.spans["srl_predicates"]` and one
    frame per predicate, `doc.spans["srl:<token index>"]`; `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in commented_sentences(path):
        width = len(rows[0][1])
        for lineno, columns in rows:
            if len(columns) != width or width < 5 or not all(columns[:5]):
                raise ValueError(
                    f"{path}:{lineno}: expected the same number (>= 5) of tab-separated "
                    f"columns on every line of a sentence (ID WORD XPOS CHUNK PRED ARG...), "
                    f"non-empty, found {len(columns)} (the sentence starts with {width})"
                )
            check_iob(path, lineno, columns[3], "CHUNK")
        check_ids(path, rows)
        doc = make_doc(vocab, [c[1] for _, c in rows], tags=[c[2] for _, c in rows])
        doc.spans["chunks"] = chunk_spans(doc, [c[3] for _, c in rows])
        add_frames(doc, path, rows, predicate_column=4, word_column=1)
        yield _with_sent_id(doc, sent_id)


#: the entity types of Universal NER; the pre-release's OTH (about MISC) is left out, as
#: the final release left it out
UNER_TYPES = ("PER", "LOC", "ORG")


def read_uner(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """Universal NER IOB2 (`ID TOKEN TAG [...]`, tab, `# sent_id` comments) -> `doc.ents`
    (PER, LOC, ORG; OTH dropped); `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in commented_sentences(path):
        for lineno, columns in rows:
            if len(columns) < 3 or not all(columns[:3]):
                raise ValueError(
                    f"{path}:{lineno}: expected at least 3 non-empty tab-separated columns "
                    f"(ID TOKEN TAG), found {len(columns)}"
                )
            check_iob(path, lineno, columns[2], "NER")
        check_ids(path, rows)
        doc = make_doc(vocab, [c[1] for _, c in rows])
        doc.ents = chunk_spans(doc, _uner_tags([c[2] for _, c in rows]))
        yield _with_sent_id(doc, sent_id)


def read_gum_open(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """gum-open (`ID FORM XPOS NER CHUNK`, tab, IOB2) -> `tag_`, `doc.ents` (PER, LOC, ORG;
    MISC dropped, as Universal NER has none) and `doc.spans["chunks"]` (silver: from
    parser trees); `user_data[SENT_ID_KEY]`."""
    for sent_id, rows in commented_sentences(path):
        for lineno, columns in rows:
            check_columns(path, lineno, columns, ("ID", "FORM", "XPOS", "NER", "CHUNK"), "tab")
            check_iob(path, lineno, columns[3], "NER")
            check_iob(path, lineno, columns[4], "CHUNK")
        check_ids(path, rows)
        doc = make_doc(vocab, [c[1] for _, c in rows], tags=[c[2] for _, c in rows])
        doc.ents = chunk_spans(doc, _uner_tags([c[3] for _, c in rows]))
        doc.spans["chunks"] = chunk_spans(doc, [c[4] for _, c in rows])
        yield _with_sent_id(doc, sent_id)


def read_btc(path: Path, vocab: Vocab) -> Iterator[Doc]:
    """Broad Twitter Corpus (`TOKEN TAG`, tab, IOB2, a blank line after each tweet; `#` is
    a token, not a comment) -> one Doc per tweet with `doc.ents` (PER, LOC, ORG), in the
    tokens spaCy's English tokenizer makes of a tweet (`as_tweeted`).

    A few rows have an empty token (a character lost upstream): those tagged O are left
    out with a warning naming their lines; one inside an entity is an error."""
    empty: list[int] = []
    n_docs = 0
    for rows in sentence_rows(path, tab_split):
        kept = []
        for lineno, columns in rows:
            if len(columns) == 2 and not columns[0] and columns[1] == "O":
                empty.append(lineno)
                continue
            check_columns(path, lineno, columns, ("TOKEN", "TAG"), "tab")
            check_iob(path, lineno, columns[1], "NER")
            kept.append(columns)
        if kept:
            words, tags = as_tweeted([c[0] for c in kept], [c[1] for c in kept])
            doc = make_doc(vocab, words)
            doc.ents = chunk_spans(doc, _uner_tags(tags))
            n_docs += 1
            yield doc
    if n_docs == 0:
        raise ValueError(f"{path} contains no tweets with a non-empty token")
    if empty:
        lines = ", ".join(map(str, empty[:10])) + (", ..." if len(empty) > 10 else "")
        warnings.warn(
            f"{path}: left out {len(empty)} rows with an empty token, tagged O (lines {lines})"
        )


#: a token a mention's name can start with; a hashtag (`#` then a word character)
_WORD_START = re.compile(r"\w")
_HASHTAG = re.compile(r"#\w")


def as_tweeted(words: list[str], tags: list[str]) -> tuple[list[str], list[str]]:
    """BTC's tokens re-cut as spaCy's English tokenizer cuts the tweet they come from.

    BTC writes a user mention as two tokens, `@` and the name, and most of its sections
    tag both B-X: two entities, one of them `@`. In a tweet the mention is one word, which
    spaCy keeps whole (`@SportsCenter`), so trained on BTC's tokens a model never sees the
    token it meets at run time. Here `@` and a name after it are one token, tagged as `@`
    was, or as the name where `@` was O. A hashtag is the other way round: BTC keeps
    `#NewYork` whole, spaCy splits `#` off, so it is split here, the entity on the word
    (`#` stays inside only when the hashtag continues an entity, I-X).
    """
    out_words: list[str] = []
    out_tags: list[str] = []
    i = 0
    while i < len(words):
        word, tag = words[i], tags[i]
        if word == "@" and i + 1 < len(words) and _WORD_START.match(words[i + 1]):
            out_words.append("@" + words[i + 1])
            out_tags.append(tag if tag != "O" else tags[i + 1])
            i += 2
            continue
        if _HASHTAG.match(word):
            out_words += ["#", word[1:]]
            out_tags += [tag if tag.startswith("I-") else "O", tag]
        else:
            out_words.append(word)
            out_tags.append(tag)
        i += 1
    return out_words, out_tags


def _uner_tags(tags: list[str]) -> list[str]:
    """IOB2 tags with every type but UNER_TYPES set to O; an I- tag that no longer follows
    its own type (it followed a dropped one, or O) starts its entity: I-X -> B-X."""
    kept = [tag if tag[2:] in UNER_TYPES else "O" for tag in tags]
    return [
        "B-" + tag[2:] if tag.startswith("I-") and (i == 0 or kept[i - 1][2:] != tag[2:]) else tag
        for i, tag in enumerate(kept)
    ]


def _with_sent_id(doc: Doc, sent_id: str | None) -> Doc:
    if sent_id is not None:
        doc.user_data[SENT_ID_KEY] = sent_id
    return doc
