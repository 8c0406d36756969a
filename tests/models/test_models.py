"""SENNA's models without a character feature are built exactly as before it existed: the
same parameters in the same order, the same random initialisation and so the same first
losses with a fixed seed (values pinned from the code before the character feature)."""

import pytest
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import fix_random_seed

import spacy_senna  # noqa: F401
from spacy_senna.models.senna_model import get_net

WINDOW_PARAMETERS = [
    "emission_net.lookup.tables.0.weight",
    "emission_net.lookup.tables.1.weight",
    "emission_net.lookup.tables.2.weight",
    "emission_net.hidden.weight",
    "emission_net.hidden.bias",
    "emission_net.output.weight",
    "emission_net.output.bias",
    "criterion.transitions",
    "criterion.start",
]
SENTENCE_PARAMETERS = [
    "emission_net.verb_conv",
    "emission_net.word_conv",
    "emission_net.lookup.tables.0.weight",
    "emission_net.lookup.tables.1.weight",
    "emission_net.verb_distance.weight",
    "emission_net.word_distance.weight",
    "emission_net.conv.weight",
    "emission_net.conv.bias",
    "emission_net.hidden.weight",
    "emission_net.hidden.bias",
    "emission_net.output.weight",
    "emission_net.output.bias",
    "criterion.transitions",
    "criterion.start",
]


def first_losses(nlp, name, examples, steps=2):
    """(parameter names, losses of the first `steps` updates) after a seeded initialize."""
    optimizer = nlp.initialize(lambda: examples)
    names = [n for n, _ in get_net(nlp.get_pipe(name).model).named_parameters()]
    losses = []
    for _ in range(steps):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step[name])
    return names, losses


def test_default_tagger_is_built_and_trains_as_before(tagger_examples):
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_tagger")
    names, losses = first_losses(nlp, "senna_tagger", tagger_examples(nlp))
    assert names == WINDOW_PARAMETERS
    assert losses == pytest.approx([12.19473648071289, 10.099538803100586], rel=1e-5)


def test_default_srl_is_built_and_trains_as_before():
    fix_random_seed(0)
    nlp = English()
    nlp.add_pipe("senna_srl")
    words = "The cat chased the mouse yesterday .".split()
    ref = Doc(nlp.vocab, words=words, tags=["DT", "NN", "VBD", "DT", "NN", "NN", "."])
    ref.spans["srl_predicates"] = [Span(ref, 2, 3, label="x")]
    ref.spans["srl:2"] = [Span(ref, 0, 2, "A0"), Span(ref, 2, 3, "V"), Span(ref, 3, 5, "A1")]
    doc = Doc(nlp.vocab, words=words)
    doc.spans["srl_predicates"] = [Span(doc, 2, 3)]
    names, losses = first_losses(nlp, "senna_srl", [Example(doc, ref)])
    assert names == SENTENCE_PARAMETERS
    assert losses == pytest.approx([17.72403907775879, 13.907325744628906], rel=1e-5)
