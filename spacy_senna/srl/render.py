"""Every SRL frame of a doc at once, as HTML: one row per predicate, built on displaCy's span style.

Each row shows the predicate's sentence with the frame's arguments underlined and labelled
(A0, A1, AM-TMP, ..., V). A label has the same colour in every row; `R-A0` is a lighter tint
of `A0`'s colour and `C-A0` has `A0`'s own.
"""

import html
import math
import zlib
from typing import Any, Dict, List, Optional, Tuple

from spacy import displacy
from spacy.displacy.templates import TPL_SPAN, TPL_SPAN_SLICE
from spacy.tokens import Doc, SpanGroup
from spacy.util import is_in_jupyter

from .frames import frame_keys

CORE_COLORS = {
    "V": "#ffd54f",
    "A0": "#f48fb1",
    "A1": "#81d4fa",
    "A2": "#a5d6a7",
    "A3": "#ffab91",
    "A4": "#ce93d8",
    "A5": "#80cbc4",
    "AA": "#e6ee9c",
}
MODIFIER_COLORS = {
    "AM-TMP": "#b0bec5",
    "AM-LOC": "#bcaaa4",
    "AM-MNR": "#c5e1a5",
    "AM-ADV": "#b39ddb",
    "AM-DIS": "#ffe082",
    "AM-NEG": "#ef9a9a",
    "AM-MOD": "#9fa8da",
    "AM-DIR": "#80deea",
    "AM-EXT": "#fff59d",
    "AM-PNC": "#f8bbd0",
    "AM-CAU": "#ffcc80",
    "AM-PRD": "#dce775",
    "AM-REC": "#d7ccc8",
    "AM-TM": "#cfd8dc",
}
FALLBACK_COLORS = ["#e1bee7", "#b2dfdb", "#ffe0b2", "#c8e6c9", "#bbdefb", "#f0f4c3", "#d1c4e9"]

TPL_ROW = """
<div class="srl-frame" data-predicate="{index}" style="margin-bottom: 1.5rem">
<div class="srl-frame-predicate" \
style="font-size: 0.85em; color: #555; border-bottom: 1px solid #eee">
token {index}: <b style="color: #000">{predicate}</b></div>
{spans}
</div>
"""
TPL_FRAMES = '<div class="srl-frames" style="direction: {dir}">{rows}</div>'
TPL_EMPTY = (
    '<div class="srl-frames srl-frames-empty" style="color: #555; font-style: italic">'
    "No SRL frames on this doc: no span groups '{key}:&lt;token&gt;' {found}.</div>"
)
TPL_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head><meta charset="utf-8"><title>SRL frames</title></head>
<body style="font-size: 16px; font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', \
Helvetica, Arial, sans-serif; padding: 2rem; direction: {dir}">{content}</body>
</html>
"""
# displaCy's span start with the label kept on one line ("AM-TMP 0.88" would wrap at a short token).
TPL_SPAN_START = """
<span style="background: {bg}; top: {top_offset}px; height: 4px; border-top-left-radius: 3px; \
border-bottom-left-radius: 3px; left: -1px; width: calc(100% + 2px); position: absolute;">
    <span style="background: {bg}; z-index: 10; color: #000; top: -0.5em; padding: 2px 3px; \
position: absolute; font-size: 0.6em; font-weight: bold; line-height: 1; border-radius: 3px; \
white-space: nowrap">
        {label}{kb_link}
    </span>
</span>
"""
ELLIPSIS = "\u2026"
NBSP = "\u00a0"
# Rough widths in units of one bold lower-case letter: narrow letters and punctuation are half
# of one, capitals and m/w 1.3, a space 0.5, a label character (0.6em capitals) 0.62, and a
# label's padding plus a gap to the next label 1.5.
NARROW_CHARS = frozenset("fijlrtI.,;:'!|()[]")
WIDE_CHARS = frozenset("mwMW")
SPACE_WIDTH = 0.5
LABEL_CHAR_WIDTH = 0.62
LABEL_PADDING = 1.5


def label_color(label: str, colors: Optional[Dict[str, str]] = None) -> str:
    """The colour of an SRL label: `colors` first, then the palette; R-X is a tint of X."""
    colors = {k.upper(): v for k, v in (colors or {}).items()}
    label = label.upper()
    if label in colors:
        return colors[label]
    if label in CORE_COLORS:
        return CORE_COLORS[label]
    if label in MODIFIER_COLORS:
        return MODIFIER_COLORS[label]
    if label.startswith("C-"):
        return label_color(label[2:], colors)
    if label.startswith("R-"):
        return _tint(label_color(label[2:], colors))
    return FALLBACK_COLORS[zlib.crc32(label.encode("utf8")) % len(FALLBACK_COLORS)]


def render_frames(
    doc: Doc,
    *,
    spans_key: str = "srl",
    sentence_only: bool = True,
    show_scores: bool = False,
    page: bool = False,
    jupyter: Optional[bool] = None,
    options: Optional[Dict[str, Any]] = None,
) -> Optional[str]:
    """Render every SRL frame of `doc` as HTML, one row per predicate in token order.

    doc (Doc): a doc with frames in `doc.spans["<spans_key>:<token>"]` (as `senna_srl` writes).
    spans_key (str): the frames' key prefix.
    sentence_only (bool): show only the predicate's sentence (widened to any argument outside
        it) instead of the whole doc; needs sentence boundaries, otherwise the whole doc shows.
    show_scores (bool): add each argument's probability (`attrs["scores"]`) to its label,
        e.g. "A0 0.93"; frames without scores keep bare labels.
    page (bool): return a whole HTML page (to save as a file) instead of a fragment.
    jupyter (Optional[bool]): display in the notebook and return None, like `displacy.render`;
        None detects a notebook.
    options (Optional[Dict[str, Any]]): displaCy span options; `colors` overrides the palette.
    RETURNS (Optional[str]): the HTML, or None when displayed in a notebook.
    """
    if not isinstance(doc, Doc):
        raise TypeError(f"render_frames expects a spaCy Doc, got {type(doc).__name__}")
    if not isinstance(spans_key, str) or not spans_key:
        raise ValueError(f"spans_key must be a non-empty string, got {spans_key!r}")
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options must be a dict of displaCy options, got {type(options).__name__}")
    options = dict(options or {})
    user_colors = options.pop("colors", {})
    direction = doc.vocab.writing_system.get("direction", "ltr")
    if direction == "ltr" and "template" not in options:
        options["template"] = {"span": TPL_SPAN, "slice": TPL_SPAN_SLICE, "start": TPL_SPAN_START}
    rows = []
    for index, key in frame_keys(doc, spans_key):
        if index >= len(doc):
            raise ValueError(
                f"doc.spans[{key!r}] names predicate token {index}, but the doc has "
                f"{len(doc)} tokens"
            )
        start, end = _window(doc, index, doc.spans[key], sentence_only)
        row, colors = _row(doc, doc.spans[key], key, start, end, show_scores, user_colors)
        spans = displacy.render(
            row, style="span", manual=True, jupyter=False, options={**options, "colors": colors}
        )
        rows.append(
            TPL_ROW.format(index=index, predicate=html.escape(doc[index].text), spans=spans)
        )
    if rows:
        markup = TPL_FRAMES.format(dir=direction, rows="".join(rows))
    else:
        markup = TPL_EMPTY.format(key=html.escape(spans_key), found=_found_keys(doc))
    if page:
        markup = TPL_PAGE.format(lang=html.escape(doc.lang_), dir=direction, content=markup)
    if jupyter or (jupyter is None and is_in_jupyter()):
        from IPython.display import HTML, display

        display(HTML(f'<span class="tex2jax_ignore">{markup}</span>'))
        return None
    return markup


def _window(doc: Doc, index: int, arguments: SpanGroup, sentence_only: bool) -> Tuple[int, int]:
    """The token range a row shows: the predicate's sentence plus all its arguments."""
    if not sentence_only or not doc.has_annotation("SENT_START"):
        return 0, len(doc)
    sent = doc[index].sent
    start = min([sent.start] + [span.start for span in arguments])
    end = max([sent.end] + [span.end for span in arguments])
    return start, end


def _row(
    doc: Doc,
    arguments: SpanGroup,
    key: str,
    start: int,
    end: int,
    show_scores: bool,
    user_colors: Dict[str, str],
) -> Tuple[Dict[str, Any], Dict[str, str]]:
    """displaCy's manual span input for one frame over doc[start:end], and its label colours."""
    labels = _labels(arguments, key, show_scores)
    tokens = [token.text for token in doc[start:end]]
    shift = -start
    if start > 0:
        tokens.insert(0, ELLIPSIS)
        shift += 1
    if end < len(doc):
        tokens.append(ELLIPSIS)
    spans = []
    colors = {}
    for span, label in zip(arguments, labels):
        shown = html.escape(label)
        colors[shown] = label_color(span.label_, user_colors)
        spans.append(
            {"start_token": span.start + shift, "end_token": span.end + shift, "label": shown}
        )
    _make_room_for_labels(tokens, spans, labels)
    settings = {"lang": doc.lang_, "direction": doc.vocab.writing_system.get("direction", "ltr")}
    row = {"text": doc[start:end].text, "tokens": tokens, "spans": spans, "settings": settings}
    return row, colors


def _make_room_for_labels(
    tokens: List[str], spans: List[Dict[str, Any]], labels: List[str]
) -> None:
    """Pad the text before each span start with no-break spaces where the previous label is
    wider than the text it sits on, so labels of adjacent arguments do not overlap."""
    placed = sorted(zip((span["start_token"] for span in spans), labels))
    for (start, label), (next_start, _) in zip(placed, placed[1:]):
        room = sum(_text_width(token) + SPACE_WIDTH for token in tokens[start:next_start])
        needed = LABEL_CHAR_WIDTH * len(label) + LABEL_PADDING
        if next_start > start and room < needed:
            tokens[next_start - 1] += NBSP * math.ceil((needed - room) / SPACE_WIDTH)


def _text_width(text: str) -> float:
    """The rough rendered width of `text` in bold lower-case letters."""
    return sum(
        0.5 if c in NARROW_CHARS else 1.3 if c.isupper() or c in WIDE_CHARS else 1.0 for c in text
    )


def _labels(arguments: SpanGroup, key: str, show_scores: bool) -> List[str]:
    """Each argument's label, with its probability when asked for and available."""
    labels = [span.label_ for span in arguments]
    scores = arguments.attrs.get("scores")
    if not show_scores or scores is None:
        return labels
    if len(scores) != len(labels):
        raise ValueError(
            f"doc.spans[{key!r}] has {len(labels)} arguments but "
            f"{len(scores)} scores in attrs['scores']"
        )
    return [f"{label} {float(score):.2f}" for label, score in zip(labels, scores)]


def _found_keys(doc: Doc) -> str:
    """The doc's span group keys, for the no-frames note."""
    if not doc.spans:
        return "(the doc has no span groups)"
    keys = ", ".join(repr(key) for key in sorted(doc.spans))
    return f"(span groups on the doc: {html.escape(keys)})"


def _tint(color: str, amount: float = 0.5) -> str:
    """`color` (#rrggbb) mixed with white by `amount`; other colour notations are kept."""
    if len(color) != 7 or not color.startswith("#"):
        return color
    try:
        rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    except ValueError:
        return color
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)
