"""annotate output formats on a trained pipeline: SENNA columns, CoNLL, JSONL, DocBin."""

import json

import pytest
from spacy.lang.en import English
from spacy.tokens import DocBin

from spacy_senna.annotate.columns import span_tags
from spacy_senna.annotate.formats import get_format
from spacy_senna.annotate.layers import Layers, pipeline_layers
from spacy_senna.annotate.loading import load_pipeline
from spacy_senna.annotate.settings import AnnotateSettings
from spacy_senna.annotate.worker import load_for_annotation, unread_attribute_components

TEXT = "Acme Corp hired Anna Lee and left London."
# token, POS, CHK, NER, verb, SRL of "hired", SRL of "left" (SENNA's IOBES)
SENNA_ROWS = [
    ("Acme", "NNP", "B-NP", "B-ORG", "-", "B-A0", "B-A0"),
    ("Corp", "NNP", "E-NP", "E-ORG", "-", "E-A0", "E-A0"),
    ("hired", "VBD", "S-VP", "O", "hired", "S-V", "O"),
    ("Anna", "NNP", "B-NP", "B-PER", "-", "B-A1", "O"),
    ("Lee", "NNP", "E-NP", "E-PER", "-", "E-A1", "O"),
    ("and", "CC", "O", "O", "-", "O", "O"),
    ("left", "VBD", "S-VP", "O", "left", "O", "S-V"),
    ("London", "NNP", "S-NP", "S-LOC", "-", "O", "S-A1"),
    (".", ".", "O", "O", "-", "O", "O"),
]
CONLL_ROWS = [
    ("Acme", "NNP", "B-NP", "B-ORG", "-", "(A0*", "(A0*"),
    ("Corp", "NNP", "I-NP", "I-ORG", "-", "*)", "*)"),
    ("hired", "VBD", "B-VP", "O", "hired", "(V*)", "*"),
    ("Anna", "NNP", "B-NP", "B-PER", "-", "(A1*", "*"),
    ("Lee", "NNP", "I-NP", "I-PER", "-", "*)", "*"),
    ("and", "CC", "O", "O", "-", "*", "*"),
    ("left", "VBD", "B-VP", "O", "left", "*", "(V*)"),
    ("London", "NNP", "B-NP", "B-LOC", "-", "*", "(A1*)"),
    (".", ".", "O", "O", "-", "*", "*"),
]


def senna_line(row):
    token, *tags = row
    widths = [10, 10, 10, 15] + [10] * (len(tags) - 4)
    return "\t".join([token.rjust(15)] + [t.rjust(w) for t, w in zip(tags, widths)])


@pytest.fixture(scope="module")
def nlp(pipeline_dir):
    return load_pipeline(str(pipeline_dir))


def render(nlp, name, text, meta=None):
    doc_format = get_format(name)(pipeline_layers(nlp))
    return doc_format.add(nlp(text), meta) + doc_format.finish()


def test_layers_come_from_the_components(nlp):
    assert pipeline_layers(nlp) == Layers(True, "chunks", True, "senna_ents", "srl")
    blank = English()
    blank.add_pipe("senna_chunker", config={"spans_key": "pt0"})
    assert pipeline_layers(blank) == Layers(chunks_key="pt0")


def test_senna_format_prints_senna_columns(nlp):
    expected = "".join(senna_line(row) + "\n" for row in SENNA_ROWS) + "\n"
    assert render(nlp, "senna", TEXT).decode("utf8") == expected


def test_senna_format_blank_line_after_each_sentence(nlp):
    out = render(nlp, "senna", "The big dog barked. John Smith visited Paris today.")
    sentences = out.decode("utf8").split("\n\n")
    assert len(sentences) == 3 and sentences[-1] == ""
    first = [line.split("\t") for line in sentences[0].split("\n")]
    assert [f[0].strip() for f in first] == ["The", "big", "dog", "barked", "."]
    assert [f[-1].strip() for f in first] == ["B-A0", "I-A0", "E-A0", "S-V", "O"]
    assert all(len(f) == 6 for f in first)  # token POS CHK NER verb + one predicate


@pytest.mark.parametrize("name", ["senna", "conll"])
def test_whitespace_tokens_are_left_out_of_columns(nlp, name):
    doc = nlp("Acme  Corp hired Anna Lee and left London.")
    assert doc[1].is_space
    out = render(nlp, name, doc.text).decode("utf8")
    rows = [line.split("\t") for line in out.split("\n")[:-2]]
    assert [r[0].strip() for r in rows] == [r[0] for r in SENNA_ROWS]
    assert all(len(r) == 7 and all(f.strip() for f in r) for r in rows)


def test_only_the_pipelines_layers_are_printed(pipeline_dir):
    nlp = load_pipeline(str(pipeline_dir))
    for name in ("senna_chunker", "senna_ner", "senna_srl"):
        nlp.remove_pipe(name)
    lines = render(nlp, "senna", "John Smith visited Paris today.").decode("utf8").split("\n")
    assert lines[0] == "John".rjust(15) + "\t" + "NNP".rjust(10)


def test_conll_format(nlp):
    expected = "".join("\t".join(row) + "\n" for row in CONLL_ROWS) + "\n"
    assert render(nlp, "conll", TEXT).decode("utf8") == expected


def test_jsonl_format_has_tokens_scored_spans_and_frames(nlp):
    line = render(nlp, "jsonl", TEXT, meta={"id": "doc-1"}).decode("utf8")
    assert line.endswith("\n") and line.count("\n") == 1
    record = json.loads(line)
    assert record["text"] == TEXT and record["meta"] == {"id": "doc-1"}
    assert [(t["text"], t["tag"]) for t in record["tokens"]] == [r[:2] for r in SENNA_ROWS]
    assert record["tokens"][1] == {"text": "Corp", "start": 5, "end": 9, "tag": "NNP"}
    assert record["sents"] == [[0, 9]]
    assert [(e["text"], e["label"]) for e in record["ents"]] == [
        ("Acme Corp", "ORG"),
        ("Anna Lee", "PER"),
        ("London", "LOC"),
    ]
    assert [c["label"] for c in record["chunks"]] == ["NP", "VP", "NP", "VP", "NP"]
    left = record["frames"][1]
    assert (left["predicate"], left["verb"]) == (6, "left")
    assert [(a["start"], a["end"], a["label"]) for a in left["arguments"]] == [
        (0, 2, "A0"),
        (6, 7, "V"),
        (7, 8, "A1"),
    ]
    spans = record["ents"] + record["chunks"] + left["arguments"]
    assert all(0.5 < s["score"] <= 1.0 for s in spans)


def test_docbin_keeps_every_layer_and_the_metadata(nlp):
    data = render(nlp, "spacy", TEXT, meta={"id": 3})
    (doc,) = DocBin().from_bytes(data).get_docs(nlp.vocab)
    assert [t.tag_ for t in doc] == [r[1] for r in SENNA_ROWS]
    assert [(e.text, e.label_) for e in doc.ents][0] == ("Acme Corp", "ORG")
    assert len(doc.spans["senna_ents"].attrs["scores"]) == 3
    assert [f.predicate.text for f in doc._.srl_frames] == ["hired", "left"]
    assert doc.user_data["meta"] == {"id": 3}


def test_empty_doc_writes_nothing_in_column_formats(nlp):
    assert render(nlp, "senna", "") == b""
    assert render(nlp, "conll", "   ") == b""
    assert json.loads(render(nlp, "jsonl", ""))["tokens"] == []


@pytest.mark.parametrize(
    "scheme,expected",
    [
        ("iobes", ["B-ORG", "E-ORG", "S-V", "O", "B-A1", "I-A1", "E-A1"]),
        ("iob2", ["B-ORG", "I-ORG", "B-V", "O", "B-A1", "I-A1", "I-A1"]),
        ("brackets", ["(ORG*", "*)", "(V*)", "*", "(A1*", "*", "*)"]),
    ],
)
def test_span_tags_skip_left_out_tokens_and_overlaps(scheme, expected):
    kept = [0, 2, 3, 4, 5, 6, 7]  # token 1 is whitespace
    spans = [(0, 3, "ORG"), (3, 4, "V"), (2, 4, "X"), (5, 8, "A1")]
    assert span_tags(spans, kept, scheme) == expected


@pytest.mark.parametrize("name", ["senna", "conll", "jsonl", "spacy"])
def test_annotate_computes_span_probabilities_only_for_a_format_that_writes_them(
    pipeline_dir, nlp, name
):
    """A column format holds no probabilities: annotate's pipeline skips them and writes
    the same output; jsonl and spacy compute them with the spans (all are written)."""
    loaded = load_for_annotation(str(pipeline_dir), AnnotateSettings(format=name), gpu_id=-1)
    labelers = [c for _, c in loaded.pipeline if hasattr(c, "span_scores")]
    assert len(labelers) == 3  # chunker, ner, srl
    expected = "eager" if get_format(name).writes_scores else "off"
    assert all(c.scores_mode == expected for c in labelers)
    if name != "spacy":
        assert render(loaded, name, TEXT) == render(nlp, name, TEXT)


@pytest.mark.parametrize(
    "rule_attrs, after, skipped",
    [
        ({"POS": "NOUN", "LEMMA": "x"}, None, ["attribute_ruler"]),
        ({"TAG": "NN"}, None, []),  # a tag is written by the column formats
        ({"POS": "NOUN"}, "entity_ruler", []),  # its patterns may read POS
    ],
)
def test_annotate_skips_only_attribute_components_nothing_reads(rule_attrs, after, skipped):
    blank = English()
    blank.add_pipe("attribute_ruler").add([[{"LOWER": "acme"}]], rule_attrs)
    if after:
        blank.add_pipe(after)
    assert unread_attribute_components(blank) == skipped
