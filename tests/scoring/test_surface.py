"""Raw-text scores for syntactic-word pipelines: the surface text rebuilt from gold words
and their multiword tokens, tags and lemmas compared per surface token, entities and chunks
by surface offsets."""

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_senna.corpora.converters.contractions import ContractionTable
from spacy_senna.corpora.converters.ud import MULTIWORD_KEY
from spacy_senna.pipeline.syntactic_words import SyntacticWordTokenizer
from spacy_senna.scoring.surface import score_raw_text, surface_text, surface_tokens


def gold_doc(vocab):
    words = ["A", "Ana", "mora", "em", "o", "Porto", "."]
    doc = Doc(vocab, words=words, spaces=[True, True, True, True, True, False, False])
    for token, tag in zip(doc, ["DET", "PROPN", "VERB", "ADP", "DET", "PROPN", "PUNCT"]):
        token.tag_ = tag
    for token, lemma in zip(doc, ["o", "Ana", "morar", "em", "o", "Porto", "."]):
        token.lemma_ = lemma
    doc.ents = [Span(doc, 1, 2, "PER"), Span(doc, 5, 6, "LOC")]
    chunks = [(0, 2, "NP"), (2, 3, "VP"), (3, 4, "PP"), (4, 6, "NP")]
    doc.spans["chunks"] = [Span(doc, start, end, label) for start, end, label in chunks]
    doc.user_data[MULTIWORD_KEY] = [[3, 5, "no"]]
    return doc


def test_surface_text_and_tokens_come_from_the_multiword_tokens():
    doc = gold_doc(spacy.blank("pt").vocab)
    assert surface_text(doc) == "A Ana mora no Porto."
    assert surface_tokens(doc)[3:] == [(11, 13, 3, 5), (14, 19, 5, 6), (19, 20, 6, 7)]


def tagging_pipeline(table):
    nlp = spacy.blank("pt")
    nlp.tokenizer = SyntacticWordTokenizer(nlp.vocab, nlp.tokenizer, table)
    tags = {"A": "DET", "Ana": "PROPN", "mora": "VERB", "em": "ADP", "o": "DET"}

    @Language.component("fake_tags")
    def fake_tags(doc):
        for token in doc:
            token.tag_ = tags.get(token.text, "PROPN" if token.text[0].isupper() else "PUNCT")
            token.lemma_ = token.text.lower()
        doc.ents = [Span(doc, t.i, t.i + 1, "LOC") for t in doc if t.text == "Porto"]
        doc.spans["chunks"] = [Span(doc, 0, 2, "NP"), Span(doc, 3, 4, "PP")]
        return doc

    nlp.add_pipe("fake_tags")
    return nlp


def test_raw_text_scores_count_surface_tokens():
    table = ContractionTable({"no": ["em", "o"]}, {})
    nlp = tagging_pipeline(table)
    scores = score_raw_text(nlp, [gold_doc(nlp.vocab)])
    assert scores["words"] == 7 and scores["words_split_as_gold"] == 1.0
    assert scores["tag_acc"] == 1.0
    assert (scores["ents_p"], scores["ents_r"]) == (1.0, 0.5)
    assert scores["lemma_acc"] == 3 / 7  # em, o, .: the others are not lowercase
    assert (scores["chunks_p"], scores["chunks_r"]) == (1.0, 0.5)
    # without the table "no" stays whole: its two gold words count as wrong
    unsplit = score_raw_text(tagging_pipeline(ContractionTable({}, {})), [gold_doc(nlp.vocab)])
    assert unsplit["words_split_as_gold"] == 5 / 7 and unsplit["tag_acc"] == 5 / 7


def test_raw_text_srl_matches_predicates_and_arguments_by_surface_offsets():
    from spacy_senna.scoring.surface import score_raw_srl

    table = ContractionTable({"no": ["em", "o"]}, {})
    nlp = spacy.blank("pt")
    nlp.tokenizer = SyntacticWordTokenizer(nlp.vocab, nlp.tokenizer, table)

    @Language.component("fake_srl")
    def fake_srl(doc):
        # "mora": A0 right, AM-LOC "Porto" (gold: "no Porto"); "Porto" is no gold predicate
        doc.spans["srl:2"] = [
            Span(doc, 0, 2, "A0"),
            Span(doc, 2, 3, "V"),
            Span(doc, 5, 6, "AM-LOC"),
        ]
        doc.spans["srl:5"] = [Span(doc, 5, 6, "V"), Span(doc, 0, 2, "A1")]
        return doc

    nlp.add_pipe("fake_srl")
    gold = gold_doc(nlp.vocab)
    frame = [(0, 2, "A0"), (2, 3, "V"), (3, 6, "AM-LOC")]
    gold.spans["srl:2"] = [Span(gold, start, end, label) for start, end, label in frame]
    scores = score_raw_srl(nlp, [gold])
    assert (scores["predicates"], scores["predicates_found"]) == (1, 1)
    assert (scores["srl_p"], scores["srl_r"]) == (1 / 3, 1 / 2)
