"""`jsonl`: one JSON object per doc with tokens, tags, scored spans and SRL frames.

`{"text", "meta" (JSONL input's other keys), "tokens": [{"text", "start", "end", "tag",
"pos", "morph", "lemma"}],
"sents": [[start, end]], "chunks"/"ents": [{"start", "end", "label", "text", "score"}],
"frames": [{"predicate", "verb", "arguments": [...]}], "parse": [tree]}`; spans are token
offsets (end exclusive), scores the components' probabilities rounded to 4 places; "parse"
holds one bracketed tree per sentence (the whole doc without sentence boundaries), over
its non-whitespace tokens, as `span._.parse_string` writes it. Keys of layers the pipeline
does not write are left out.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from spacy.tokens import Doc

from ...syntax.constituents import parse_string
from ..annotations import ScoredSpan, read_annotations
from ..columns import kept_tokens, sentence_bounds
from .base import DocFormat

#: the token attributes written when the pipeline sets them: (key, Token attribute, column)
ATTRIBUTES = (("pos", "pos_", "POS"), ("morph", "morph", "MORPH"), ("lemma", "lemma_", "LEMMA"))


class JsonlFormat(DocFormat):
    extension = "jsonl"
    writes_scores = True
    writes_token_attributes = True

    def add(self, doc: Doc, meta: Optional[Dict[str, Any]] = None) -> bytes:
        annotations = read_annotations(doc, self.layers)
        record: Dict[str, Any] = {"text": doc.text}
        if meta is not None:
            record["meta"] = meta
        attributes = [(key, attr) for key, attr, column in ATTRIBUTES if doc.has_annotation(column)]
        tokens = []
        for token in doc:
            entry: Dict[str, Any] = {
                "text": token.text,
                "start": token.idx,
                "end": token.idx + len(token),
            }
            if annotations.tags is not None:
                entry["tag"] = annotations.tags[token.i]
            for key, attr in attributes:
                entry[key] = str(getattr(token, attr))
            tokens.append(entry)
        record["tokens"] = tokens
        if doc.has_annotation("SENT_START"):
            record["sents"] = [[s.start, s.end] for s in doc.sents]
        if annotations.chunks is not None:
            record["chunks"] = _spans(doc, annotations.chunks)
        if annotations.ents is not None:
            record["ents"] = _spans(doc, annotations.ents)
        if annotations.frames is not None:
            record["frames"] = [
                {
                    "predicate": frame.predicate,
                    "verb": doc[frame.predicate].text,
                    "arguments": _spans(doc, frame.arguments),
                }
                for frame in annotations.frames
            ]
        if annotations.constituents is not None:
            record["parse"] = [
                parse_string(doc, annotations.constituents, kept_tokens(doc, start, end))
                for start, end in sentence_bounds(doc)
            ]
        return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf8")


def _spans(doc: Doc, spans: List[ScoredSpan]) -> List[Dict[str, Any]]:
    return [
        {
            "start": span.start,
            "end": span.end,
            "label": span.label,
            "text": doc[span.start : span.end].text,
            "score": None if span.score is None else round(span.score, 4),
        }
        for span in spans
    ]
