"""The shared core: error handler, per-run warnings, bounded model calls, long documents."""

import gc
import warnings
from functools import partial
from types import SimpleNamespace

import numpy
import pytest
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, Span
from spacy.training import Example

import spacy_senna  # noqa: F401
from spacy_senna import SennaWarning
from spacy_senna.models.senna_model import get_net
from spacy_senna.pipeline import batching

SENTENCES = [
    ("John Smith visited Paris today", "NNP NNP VBD NNP NN", [(0, 2, "PER"), (3, 4, "LOC")]),
    ("Mary saw the big house in Berlin", "NNP VBD DT JJ NN IN NNP", [(0, 1, "PER"), (6, 7, "LOC")]),
]


def examples_for(nlp):
    out = []
    for text, tag_string, ents in SENTENCES:
        words, tags = text.split(), tag_string.split()
        ref = Doc(nlp.vocab, words=words, tags=tags)
        ref.ents = [Span(ref, s, e, label=label) for s, e, label in ents]
        ref.spans["chunks"] = [Span(ref, s, e, label=label) for s, e, label in ents]
        pred = Doc(nlp.vocab, words=words, tags=tags)
        out.append(Example(pred, ref))
    return out


def trained(component, steps=40):
    nlp = English()
    nlp.add_pipe(component)
    examples = examples_for(nlp)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(steps):
        nlp.update(examples, sgd=optimizer)
    return nlp


@pytest.fixture(scope="module")
def ner_nlp():
    return trained("senna_ner")


@pytest.fixture(scope="module")
def chunker_nlp():
    return trained("senna_chunker")


def long_words(n):
    base = "John Smith visited Paris today and Mary saw Berlin .".split()
    return (base * (n // len(base) + 1))[:n]


def test_pipe_and_call_honour_the_error_handler(ner_nlp, monkeypatch):
    ner = ner_nlp.get_pipe("senna_ner")

    def broken(docs):
        raise RuntimeError("boom")

    monkeypatch.setattr(ner, "predict", broken)
    seen = []
    ner_nlp.set_error_handler(lambda name, proc, docs, e: seen.append((name, len(docs), str(e))))
    try:
        docs = list(ner_nlp.pipe(["John Smith visited Paris", "Mary saw Berlin"], batch_size=2))
        ner_nlp("Mary saw Berlin")
    finally:
        ner_nlp.set_error_handler(lambda name, proc, docs, e: (_ for _ in ()).throw(e))
    assert len(docs) == 0  # the failed batch is handed to the handler, not yielded
    assert seen == [("senna_ner", 2, "boom"), ("senna_ner", 1, "boom")]


def test_missing_input_warns_on_every_run_not_once_per_process(chunker_nlp):
    """A chunker without a tagger before it: each nlp() call and each nlp.pipe() run warns
    (a component reused in another pipeline is not silenced by an earlier warning)."""
    for _ in range(2):
        with pytest.warns(SennaWarning, match="reads token.tag_"):
            chunker_nlp("John Smith visited Paris")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(chunker_nlp.pipe(["John visited Paris"] * 6, batch_size=2))
    assert sum("reads token.tag_" in str(w.message) for w in caught) == 1


def test_a_call_holds_more_rows_on_a_gpu_as_its_memory_allows(ner_nlp, monkeypatch):
    """One call's bound: the CPU's on a CPU; on a GPU every call makes the host wait, so a
    batch is one call where a sixteenth of the device's memory holds it."""
    model = ner_nlp.get_pipe("senna_ner").model
    assert batching.call_floats(model) == batching.MAX_PREDICT_FLOATS
    weight_on_gpu = SimpleNamespace(device=torch.device("cuda", 0), is_cuda=True)
    net_on_gpu = SimpleNamespace(criterion=SimpleNamespace(transitions=weight_on_gpu))
    monkeypatch.setattr(batching, "get_net", lambda _: net_on_gpu)
    for memory, expected in [
        (141 << 30, batching.GPU_PREDICT_FLOATS),
        (4 << 30, (4 << 30) // 64),
        (1 << 30, batching.MAX_PREDICT_FLOATS),
    ]:
        monkeypatch.setattr(batching, "_device_bytes", lambda _, m=memory: m)
        assert batching.call_floats(model) == expected


def test_bounded_model_calls_give_the_same_annotations(ner_nlp, monkeypatch, call_bound):
    texts = [" ".join(long_words(n)) for n in (3, 40, 7, 120, 1)]
    whole = list(ner_nlp.pipe(texts, batch_size=10))
    call_bound(2000)  # one doc per call
    ner = ner_nlp.get_pipe("senna_ner")
    original = ner.input_batches
    calls = []

    def recorded(docs):
        for batch in original(docs):
            calls.append(len(batch))
            yield batch

    monkeypatch.setattr(ner, "input_batches", recorded)
    split = list(ner_nlp.pipe(texts, batch_size=10))
    assert calls == [1] * len(texts)
    for a, b in zip(whole, split):
        assert [(e.start, e.end, e.label_) for e in a.ents] == [
            (e.start, e.end, e.label_) for e in b.ents
        ]
        numpy.testing.assert_allclose(
            a.spans["senna_ents"].attrs["scores"], b.spans["senna_ents"].attrs["scores"], atol=1e-5
        )


@pytest.mark.parametrize("component", ["senna_ner", "senna_chunker"])
def test_a_doc_over_the_call_bound_is_labelled_in_bounded_calls_as_its_sentences_alone(
    component, request, call_bound
):
    """A doc whose sentences do not fit one model call goes through the network in
    several calls, each within the call bound, and every sentence gets the spans and
    probabilities it gets labelled alone (a newline token inside one included)."""
    nlp = request.getfixturevalue("ner_nlp" if component == "senna_ner" else "chunker_nlp")
    labeler = nlp.get_pipe(component)
    sentences = [long_words(n) for n in (12, 30, 7, 45, 20, 9) * 3]
    sentences[4][5] = "\n"
    words = [w for sentence in sentences for w in sentence]
    starts = [i == 0 for sentence in sentences for i in range(len(sentence))]
    bound = 3 * labeler.row_cost(45)  # three of the longest sentence
    call_bound(bound)

    def tagged(words, sent_starts=None):
        return Doc(nlp.vocab, words=words, tags=["NNP"] * len(words), sent_starts=sent_starts)

    doc = tagged(words, starts)
    shapes = [tuple(scores.emissions.shape[:2]) for _, scores in labeler.model_calls([doc])]
    assert len(shapes) > 1
    assert all(rows * labeler.row_cost(longest) <= bound for rows, longest in shapes)
    key = "senna_ents" if component == "senna_ner" else "chunks"
    group = nlp(doc).spans[key]
    spans, scores, offset = [], [], 0
    for alone in nlp.pipe(tagged(sentence) for sentence in sentences):
        spans += [(s.start + offset, s.end + offset, s.label_) for s in alone.spans[key]]
        scores.append(alone.spans[key].attrs["scores"])
        offset += len(alone)
    assert spans and [(s.start, s.end, s.label_) for s in group] == spans
    numpy.testing.assert_allclose(group.attrs["scores"], numpy.concatenate(scores), atol=1e-5)


@pytest.mark.parametrize("component", ["senna_ner", "senna_chunker"])
def test_span_probabilities_of_a_long_sequence_are_exact(component, request):
    """One 5,000-token row (no sentence boundaries): the spans' probabilities from the
    linear forward-backward pass equal exact log-space clamped partition functions."""
    nlp = request.getfixturevalue("ner_nlp" if component == "senna_ner" else "chunker_nlp")
    labeler = nlp.get_pipe(component)
    words = long_words(5000)
    doc = nlp(Doc(nlp.vocab, words=words, tags=["NNP"] * len(words)))
    key = "senna_ents" if component == "senna_ner" else "chunks"
    spans = list(doc.spans[key])
    scores = doc.spans[key].attrs["scores"]
    assert spans and len(scores) == len(spans)
    scores_of = labeler.model.predict([doc])
    crf = get_net(labeler.model).criterion
    index = labeler.tag_index
    one = [s.end - s.start == 1 for s in spans]
    device = scores_of.emissions.device
    as_long = partial(torch.tensor, dtype=torch.long, device=device)
    lengths = scores_of.lengths.to(device)
    folded, transitions = crf._folded(scores_of.emissions.double(), lengths, True)
    exact = crf._clamped_span_log_probs(
        folded,
        transitions.double(),
        lengths,
        as_long([0] * len(spans)),
        as_long([s.start for s in spans]),
        as_long([s.end for s in spans]),
        as_long([index[("U-" if u else "B-") + s.label_] for s, u in zip(spans, one)]),
        as_long([index.get("I-" + s.label_, 0) for s in spans]),
        as_long([index[("U-" if u else "L-") + s.label_] for s, u in zip(spans, one)]),
    )
    numpy.testing.assert_allclose(scores, torch.exp(exact).detach().cpu().numpy(), atol=1e-5)


def test_pipe_pauses_the_collector_while_labelling_and_never_while_the_caller_runs(ner):
    """The garbage collector is paused while a batch is labelled (runtime/collector.py)
    and running whenever the caller's loop body runs."""
    gc.enable()
    nlp, _ = ner
    component = nlp.get_pipe("senna_ner")
    seen = []
    predict = component.predict

    def recording_predict(docs):
        seen.append(gc.isenabled())
        return predict(docs)

    component.predict = recording_predict
    try:
        texts = [f"Alice met Bob{i} in Paris ." for i in range(6)]
        for doc in nlp.pipe(texts, batch_size=2):
            assert gc.isenabled(), "the caller's loop body ran with the collector paused"
            assert len(doc)
    finally:
        del component.predict
    assert seen == [False, False, False]
    assert gc.isenabled()
