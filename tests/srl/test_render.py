"""render_frames: every SRL frame of a doc as HTML, one row per predicate."""

import re
import sys
import types
from html.parser import HTMLParser
from typing import Dict, List

import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span, SpanGroup

from spacy_senna import render_frames
from spacy_senna.srl.render import label_color

WORDS = (
    "The committee said yesterday that it would not approve the merger in March . "
    "Analysts expected a delay anyway ."
).split()
FRAMES = {
    2: [("A0", 0, 2), ("V", 2, 3), ("AM-TMP", 3, 4), ("A1", 4, 13)],
    8: [
        ("R-A0", 4, 5),
        ("A0", 5, 6),
        ("AM-MOD", 6, 7),
        ("AM-NEG", 7, 8),
        ("V", 8, 9),
        ("A1", 9, 11),
        ("AM-TMP", 11, 13),
    ],
    15: [("A0", 14, 15), ("V", 15, 16), ("A1", 16, 18), ("AM-ADV", 18, 19)],
}


class Rows(HTMLParser):
    """Per frame row (data-predicate): its predicate, label texts and their colours, its text."""

    def __init__(self):
        super().__init__()
        self.rows: Dict[int, Dict[str, List[str]]] = {}
        self.current = None
        self.in_label = False
        self.in_header = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        style = attrs.get("style") or ""
        if "data-predicate" in attrs:
            self.current = int(attrs["data-predicate"])
            self.rows[self.current] = {"labels": [], "colors": [], "text": [], "header": []}
        elif attrs.get("class") == "srl-frame-predicate":
            self.in_header = True
        elif tag == "span" and "z-index" in style:
            self.in_label = True
            self.rows[self.current]["colors"].append(re.search(r"background: ([^;]+);", style)[1])

    def handle_endtag(self, tag):
        if tag == "span":
            self.in_label = False
        if tag == "div":
            self.in_header = False

    def handle_data(self, data):
        if self.current is None or not data.strip():
            return
        row = self.rows[self.current]
        if self.in_label:
            row["labels"].append(data.strip())
        elif self.in_header:
            row["header"].append(data.strip())
        else:
            row["text"].extend(data.split())


def parse(markup: str) -> Dict[int, Dict[str, List[str]]]:
    parser = Rows()
    parser.feed(markup)
    return parser.rows


def set_frame(doc: Doc, predicate: int, arguments, scores=None, key: str = "srl") -> None:
    group = SpanGroup(doc, spans=[Span(doc, s, e, label=label) for label, s, e in arguments])
    if scores is not None:
        group.attrs["scores"] = numpy.asarray(scores, dtype="float32")
    doc.spans[f"{key}:{predicate}"] = group


@pytest.fixture
def doc() -> Doc:
    """Two sentences, three predicates, frames set by hand with probabilities."""
    doc = Doc(
        spacy.blank("en").vocab, words=WORDS, sent_starts=[i in (0, 14) for i in range(len(WORDS))]
    )
    for predicate, arguments in FRAMES.items():
        scores = [0.5 + 0.05 * i for i in range(len(arguments))]
        set_frame(doc, predicate, arguments, scores)
    return doc


def test_one_row_per_predicate_with_every_argument_label(doc):
    rows = parse(render_frames(doc, jupyter=False))
    assert list(rows) == [2, 8, 15]
    for predicate, arguments in FRAMES.items():
        assert doc[predicate].text in rows[predicate]["header"]
        assert sorted(rows[predicate]["labels"]) == sorted(label for label, _, _ in arguments)


def test_a_label_has_the_same_colour_in_every_row(doc):
    rows = parse(render_frames(doc, jupyter=False))
    seen: Dict[str, set] = {}
    for row in rows.values():
        for label, color in zip(row["labels"], row["colors"]):
            seen.setdefault(label, set()).add(color)
    assert all(len(colors) == 1 for colors in seen.values())
    assert len(seen["A0"] | seen["A1"] | seen["V"] | seen["AM-TMP"]) == 4


def test_palette_relates_reference_and_continuation_labels_to_their_base():
    assert label_color("C-A1") == label_color("A1")
    assert label_color("R-A0") != label_color("A0")
    assert label_color("R-A0") == label_color("r-a0")
    assert label_color("A9-NEW") == label_color("A9-NEW")
    assert label_color("A0", {"a0": "#000000"}) == "#000000"
    assert label_color("R-A0", {"A0": "#000000"}) == "#808080"


def test_sentence_only_cuts_each_row_to_the_predicates_sentence(doc):
    rows = parse(render_frames(doc, jupyter=False))
    assert "Analysts" not in rows[2]["text"] and rows[2]["text"][-1] == "\u2026"
    assert "committee" not in rows[15]["text"] and rows[15]["text"][0] == "\u2026"
    whole = parse(render_frames(doc, sentence_only=False, jupyter=False))
    for row in whole.values():
        assert [w.strip("\u00a0") for w in row["text"]] == WORDS


def test_sentence_only_keeps_arguments_outside_the_sentence(doc):
    set_frame(doc, 15, [("A0", 14, 15), ("V", 15, 16), ("AM-DIS", 11, 13)])
    rows = parse(render_frames(doc, jupyter=False))
    assert "AM-DIS" in rows[15]["labels"]
    assert rows[15]["text"][:3] == ["\u2026", "in", "March"]


def test_doc_without_sentence_boundaries_shows_the_whole_doc():
    doc = Doc(spacy.blank("en").vocab, words=WORDS)
    set_frame(doc, 15, FRAMES[15])
    rows = parse(render_frames(doc, jupyter=False))
    assert [w.strip("\u00a0") for w in rows[15]["text"]] == WORDS


def test_no_frames_gives_a_note_not_an_empty_string():
    nlp = spacy.blank("en")
    doc = nlp("No verbs here .")
    doc.spans["chunks"] = [Span(doc, 0, 2, label="NP")]
    markup = render_frames(doc, jupyter=False)
    assert "No SRL frames" in markup and "&#x27;chunks&#x27;" in markup
    assert parse(markup) == {}
    assert "No SRL frames" in render_frames(nlp(""), jupyter=False)
    page = render_frames(nlp(""), page=True, jupyter=False)
    assert page.startswith("<!DOCTYPE html>") and "No SRL frames" in page


def test_frames_under_another_key_are_found_by_spans_key(doc):
    set_frame(doc, 2, FRAMES[2], key="gold")
    assert list(parse(render_frames(doc, spans_key="gold", jupyter=False))) == [2]


def test_show_scores_puts_probabilities_in_labels(doc):
    rows = parse(render_frames(doc, show_scores=True, jupyter=False))
    assert rows[2]["labels"] == ["A0 0.50", "V 0.55", "AM-TMP 0.60", "A1 0.65"]
    assert all(" " not in label for label in parse(render_frames(doc, jupyter=False))[2]["labels"])


def test_show_scores_on_frames_without_scores_keeps_bare_labels(doc):
    set_frame(doc, 2, FRAMES[2])
    rows = parse(render_frames(doc, show_scores=True, jupyter=False))
    assert rows[2]["labels"] == ["A0", "V", "AM-TMP", "A1"]
    assert rows[8]["labels"][0] == "R-A0 0.50"


def test_scores_that_do_not_match_the_arguments_are_an_error(doc):
    set_frame(doc, 2, FRAMES[2], scores=[0.9])
    with pytest.raises(ValueError, match="srl:2.*4 arguments but 1 scores"):
        render_frames(doc, show_scores=True, jupyter=False)


def test_long_labels_on_short_words_get_room_long_words_none():
    doc = Doc(spacy.blank("en").vocab, words=["I", "did", "it"])
    set_frame(doc, 1, [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 3)], scores=[0.9, 0.9, 0.9])
    assert "\u00a0" in render_frames(doc, show_scores=True, jupyter=False)
    doc = Doc(spacy.blank("en").vocab, words=["Shareholders", "approved", "everything"])
    set_frame(doc, 1, [("A0", 0, 1), ("V", 1, 2), ("A1", 2, 3)])
    assert "\u00a0" not in render_frames(doc, jupyter=False)


def test_page_is_a_whole_html_document(doc, tmp_path):
    path = tmp_path / "frames.html"
    path.write_text(render_frames(doc, page=True, jupyter=False), encoding="utf8")
    text = path.read_text(encoding="utf8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert list(parse(text)) == [2, 8, 15]


def test_text_is_escaped():
    doc = Doc(spacy.blank("en").vocab, words=["<script>", "ran", "x"])
    set_frame(doc, 1, [("A0", 0, 1), ("V", 1, 2)])
    markup = render_frames(doc, jupyter=False)
    assert "<script>" not in markup and "&lt;script&gt;" in markup


def test_in_a_notebook_it_displays_and_returns_none(doc, monkeypatch):
    shown = []
    display_module = types.ModuleType("IPython.display")
    display_module.HTML = lambda markup: markup
    display_module.display = shown.append
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setitem(sys.modules, "IPython.display", display_module)
    assert render_frames(doc, jupyter=True) is None
    assert list(parse(shown[0])) == [2, 8, 15]


def test_bad_input_is_a_clear_error(doc):
    with pytest.raises(TypeError, match="expects a spaCy Doc"):
        render_frames("The committee said .")
    with pytest.raises(ValueError, match="spans_key"):
        render_frames(doc, spans_key="")
    with pytest.raises(TypeError, match="options"):
        render_frames(doc, options=["colors"])
    doc.spans["srl:40"] = SpanGroup(doc)
    with pytest.raises(ValueError, match="srl:40.*20 tokens"):
        render_frames(doc, jupyter=False)


def test_user_colours_override_the_palette(doc):
    rows = parse(render_frames(doc, options={"colors": {"A0": "#123456"}}, jupyter=False))
    assert rows[2]["colors"][rows[2]["labels"].index("A0")] == "#123456"
