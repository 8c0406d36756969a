"""senna_srl: training, frames, save/load, the length limit, PT0 input, bad input."""

import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example
from spacy.util import fix_random_seed, make_tempdir

import spacy_senna  # noqa: F401
from spacy_senna.corpora.readers import copy_inputs
from spacy_senna.models import senna_model
from spacy_senna.models.senna_model import get_net
from spacy_senna.models.sequences import featurize_predicates

# words, POS, {predicate index: [(label, start, end), ...]} (V included, as in CoNLL-2005)
SENTENCES = [
    (
        "The cat chased the mouse yesterday .".split(),
        ["DT", "NN", "VBD", "DT", "NN", "NN", "."],
        {2: [("A0", 0, 2), ("V", 2, 3), ("A1", 3, 5), ("AM-TMP", 5, 6)]},
    ),
    (
        "Mary gave John a book and then left .".split(),
        ["NNP", "VBD", "NNP", "DT", "NN", "CC", "RB", "VBD", "."],
        {
            1: [("A0", 0, 1), ("V", 1, 2), ("A2", 2, 3), ("A1", 3, 5)],
            7: [("A0", 0, 1), ("AM-TMP", 6, 7), ("V", 7, 8)],
        },
    ),
    ("Dogs bark .".split(), ["NNS", "VBP", "."], {1: [("A0", 0, 1), ("V", 1, 2)]}),
]


def make_examples(nlp, reference_doc):
    examples = []
    for words, tags, frames in SENTENCES:
        ref = reference_doc(nlp.vocab, words, tags, frames)
        eg = Example(Doc(nlp.vocab, words=words), ref)
        copy_inputs(eg, [], ["srl_predicates"])  # given predicates, as spacy-senna.Corpus.v1
        examples.append(eg)
    return examples


def input_doc(nlp, words, predicates):
    doc = Doc(nlp.vocab, words=words)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1) for p in predicates]
    return doc


#: senna_srl's model configs: SENNA's sentence network (the default), the predicate BiLSTM
#: and the sentence encoded once with predicate heads (learning rate 0.01 instead of Adam's
#: default 0.001: they fit the three sentences slower)
LEARN_RATES = {"sentence": 0.001, "bilstm": 0.01, "heads": 0.01}
WORD_CAPS = {
    "word": {"@misc": "spacy-senna.WordFeature.v1"},
    "caps": {"@misc": "spacy-senna.CapsFeature.v1"},
}
MODELS = {
    "heads": {
        "model": {
            "@architectures": "spacy-senna.PredicateHeads.v1",
            "lstm_width": 16,
            "projection_width": 16,
            "head_width": 16,
            "features": WORD_CAPS,
        }
    },
    "sentence": {},
    "bilstm": {
        "model": {
            "@architectures": "spacy-senna.PredicateBiLSTM.v1",
            "lstm_width": 16,
            "features": {
                "word": {"@misc": "spacy-senna.WordFeature.v1"},
                "caps": {"@misc": "spacy-senna.CapsFeature.v1"},
            },
        }
    },
}


@pytest.fixture(scope="module", params=sorted(MODELS))
def trained(request, srl_reference_doc):
    fix_random_seed(0)  # the same weights whatever ran before (the order of tests)
    nlp = English()
    nlp.add_pipe("senna_srl", config=MODELS[request.param])
    examples = make_examples(nlp, srl_reference_doc)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = LEARN_RATES[request.param]
    losses = []
    for _ in range(60):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_srl"])
    return nlp, losses


def test_srl_overfits_given_predicates(trained, srl_frames_of):
    nlp, losses = trained
    assert losses[-1] < losses[0] * 0.05
    for words, _, frames in SENTENCES:
        doc = nlp(input_doc(nlp, words, list(frames)))
        assert srl_frames_of(doc) == {p: sorted(args) for p, args in frames.items()}
        for frame in doc._.srl_frames:
            scores = frame.arguments.attrs["scores"]
            assert len(scores) == len(frame.arguments) and (scores > 0.5).all()
            assert frame.arguments.attrs["predicate"] == frame.predicate.i


def test_each_predicate_gets_its_own_frame(trained):
    nlp, _ = trained
    words, _, frames = SENTENCES[1]
    doc = nlp(input_doc(nlp, words, [1, 7]))
    assert set(doc.spans) >= {"srl:1", "srl:7"}
    gave, left = doc.spans["srl:1"], doc.spans["srl:7"]
    assert ("A2", 2, 3) in [(s.label_, s.start, s.end) for s in gave]
    assert ("AM-TMP", 6, 7) in [(s.label_, s.start, s.end) for s in left]


def test_save_load_and_pipe_equal_call(trained, srl_frames_of):
    nlp, _ = trained
    inputs = [(w, list(f)) for w, _, f in SENTENCES] + [
        ([], []),
        (["Dogs"], []),
        (["bark"] * 300, [0, 299]),
    ]

    def run(pipeline, batch_size=None):
        docs = [input_doc(pipeline, w, p) for w, p in inputs]
        if batch_size is None:
            return [srl_frames_of(pipeline(d)) for d in docs]
        return [srl_frames_of(d) for d in pipeline.pipe(docs, batch_size=batch_size)]

    expected = run(nlp)
    assert expected[3] == {} and expected[4] == {} and set(expected[5]) == {0, 299}
    assert run(nlp, batch_size=2) == expected
    assert run(nlp, batch_size=1) == expected
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    assert run(loaded, batch_size=8) == expected


def test_span_scores_off_gives_the_same_frames_without_probabilities(trained, srl_frames_of):
    nlp, _ = trained
    with make_tempdir() as d:
        nlp.to_disk(d)
        fast = spacy.load(d, config={"components": {"senna_srl": {"span_scores": False}}})
    for words, _, frames in SENTENCES:
        doc = fast(input_doc(fast, words, list(frames)))
        assert srl_frames_of(doc) == srl_frames_of(nlp(input_doc(nlp, words, list(frames))))
        assert doc._.srl_frames and all(
            "scores" not in frame.arguments.attrs for frame in doc._.srl_frames
        )


def test_predicates_fall_back_to_verb_tags(trained, srl_frames_of):
    nlp, _ = trained
    words, tags, frames = SENTENCES[0]
    doc = Doc(nlp.vocab, words=words, tags=tags)
    assert srl_frames_of(nlp(doc)) == {2: sorted(frames[2])}


def test_verb_tags_follow_the_predicate_prefix_setting(trained):
    srl = trained[0].get_pipe("senna_srl")
    words = ["Ann", "sold", "the", "house", "quickly"]
    doc = Doc(srl.vocab, words=words, tags=["NNP", "VBD", "DT", "NN", "RB"])
    assert srl.predicates(doc) == [1]
    srl.cfg["predicate_tag_prefix"] = "NN"
    try:
        assert srl.predicates(doc) == [0, 3]
    finally:
        srl.cfg["predicate_tag_prefix"] = "V"
    assert srl.predicates(doc) == [1]


def test_no_predicates_and_no_tags_warns_on_each_run_and_writes_nothing(trained):
    nlp, _ = trained
    for _ in range(2):
        with pytest.warns(UserWarning, match="senna_tagger"):
            doc = nlp("Dogs bark .")
        assert doc._.srl_frames == []


def test_sentences_over_the_length_limit_get_no_frame_and_a_warning(trained):
    nlp, _ = trained
    srl = nlp.get_pipe("senna_srl")
    words = SENTENCES[2][0]
    long = ["word"] * 30
    starts = [True] + [False] * (len(words) - 1) + [True] + [False] * 29
    doc = Doc(nlp.vocab, words=words + long, sent_starts=starts)
    doc.spans["srl_predicates"] = [Span(doc, 1, 2), Span(doc, len(words) + 5, len(words) + 6)]
    limit = srl.cfg["max_sentence_length"]
    srl.cfg["max_sentence_length"] = 10
    try:
        with pytest.warns(UserWarning, match="over max_sentence_length = 10"):
            doc = nlp(doc)
    finally:
        srl.cfg["max_sentence_length"] = limit
    assert [f.predicate.i for f in doc._.srl_frames] == [1]
    assert [f.predicate.i for f in nlp(doc)._.srl_frames] == [1, len(words) + 5]


def test_a_batch_without_predicates_trains_as_a_no_op(srl_reference_doc):
    nlp = English()
    nlp.add_pipe("senna_srl")
    examples = make_examples(nlp, srl_reference_doc)
    optimizer = nlp.initialize(lambda: examples)
    no_predicates = input_doc(nlp, "Nothing happened here .".split(), [])
    losses = nlp.update([Example(no_predicates, no_predicates.copy())], sgd=optimizer)
    assert losses["senna_srl"] == 0.0
    losses = nlp.update(examples, sgd=optimizer)
    assert losses["senna_srl"] > 0.0


def test_rerunning_replaces_old_frames(trained, srl_frames_of):
    nlp, _ = trained
    doc = input_doc(nlp, SENTENCES[2][0], [1])
    doc.spans["srl:0"] = [Span(doc, 1, 2, label="A0")]
    assert list(srl_frames_of(nlp(doc))) == [1]


def test_predicate_outside_the_doc_is_a_clear_error(trained):
    nlp, _ = trained
    model = nlp.get_pipe("senna_srl").model
    doc = Doc(nlp.vocab, words=["Dogs", "bark"])
    with pytest.raises(ValueError, match="outside the doc"):
        featurize_predicates(model, [(doc, [2])], False)


def test_evaluate_reports_srl_scores(trained, srl_reference_doc):
    nlp, _ = trained
    scores = nlp.evaluate(make_examples(nlp, srl_reference_doc))
    assert scores["srl_f"] == 1.0 and set(scores["srl_per_type"]) == {"A0", "A1", "A2", "AM-TMP"}


def test_srl_with_pt0_input_trains_and_warns_without_pt0_spans(srl_reference_doc):
    nlp = English()
    config = {"model": {"features": {"pt0": {"@misc": "spacy-senna.SpanTagFeature.v1"}}}}
    nlp.add_pipe("senna_srl", config=config)
    examples = make_examples(nlp, srl_reference_doc)
    for eg in examples:
        eg.reference.spans["pt0"] = [Span(eg.reference, 0, 1, "NP")]
        copy_inputs(eg, [], ["srl_predicates", "pt0"])
    optimizer = nlp.initialize(lambda: examples)
    first = nlp.update(examples, sgd=optimizer)["senna_srl"]
    for _ in range(30):
        last = nlp.update(examples, sgd=optimizer, losses={})["senna_srl"]
    assert last < first * 0.5
    doc = input_doc(nlp, SENTENCES[0][0], [2])
    with pytest.warns(UserWarning, match=r"doc.spans\['pt0'\]"):
        assert [f.predicate.i for f in nlp(doc)._.srl_frames] == [2]


def test_one_token_sentences_get_a_frame(trained):
    nlp, _ = trained
    doc = Doc(nlp.vocab, words=["Go", "Dogs", "bark", "."], sent_starts=[True, True, False, False])
    doc.spans["srl_predicates"] = [Span(doc, 0, 1), Span(doc, 2, 3)]
    frames = nlp(doc)._.srl_frames
    assert [f.predicate.i for f in frames] == [0, 2]
    assert all(0 <= s.start < s.end <= 1 for s in frames[0].arguments)  # inside its sentence
    assert all(1 <= s.start < s.end <= 4 for s in frames[1].arguments)


def test_a_sentence_of_300_tokens_gets_every_frame_and_batching_changes_nothing(
    trained, srl_frames_of
):
    nlp, _ = trained
    words = (SENTENCES[1][0][:-1] * 40)[:320] + ["."]
    predicates = [1, 150, 311]  # "gave" / "then" / ...: far apart, beyond the clipping
    doc = input_doc(nlp, words, predicates)
    frames = srl_frames_of(nlp(doc))
    assert sorted(frames) == predicates
    for args in frames.values():
        assert all(0 <= s < e <= len(words) for _, s, e in args)
    short = input_doc(nlp, SENTENCES[2][0], [1])
    batched = [srl_frames_of(d) for d in nlp.pipe([short, input_doc(nlp, words, predicates)])]
    assert batched[1] == frames and batched[0] == srl_frames_of(
        nlp(input_doc(nlp, SENTENCES[2][0], [1]))
    )


def test_a_doc_over_the_call_bound_is_labelled_in_parts_as_its_sentences_alone(
    trained, srl_frames_of, monkeypatch, call_bound
):
    """A doc whose sentences do not fit one model call is read in parts (each call
    featurizes a few of its sentences, not the whole doc), and every sentence gets the
    frames it gets labelled alone."""
    nlp, _ = trained
    srl = nlp.get_pipe("senna_srl")
    sentences = [SENTENCES[i % len(SENTENCES)] for i in range(12)]
    words = [w for sentence, _, _ in sentences for w in sentence]
    starts = [i == 0 for sentence, _, _ in sentences for i in range(len(sentence))]
    offsets = numpy.cumsum([0] + [len(sentence) for sentence, _, _ in sentences])
    predicates = [p + offset for (_, _, frames), offset in zip(sentences, offsets) for p in frames]
    call_bound(2 * srl.row_cost(9))
    read = []

    def recorded(model, pairs, train):
        read.extend(len(doc) for doc, _ in pairs)
        return featurize_predicates(model, pairs, train)

    monkeypatch.setattr(senna_model, "featurize_predicates", recorded)
    doc = Doc(nlp.vocab, words=words, sent_starts=starts)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1) for p in predicates]
    doc = nlp(doc)
    assert len(read) > 1 and max(read) <= 2 * 9
    expected = {}
    for (sentence, _, frames), offset in zip(sentences, offsets):
        alone = srl_frames_of(nlp(input_doc(nlp, sentence, list(frames))))
        for p, args in alone.items():
            expected[p + offset] = sorted((label, s + offset, e + offset) for label, s, e in args)
    assert srl_frames_of(doc) == expected


def test_a_tagged_doc_without_verbs_gets_no_frames_and_no_warning(trained, recwarn):
    nlp, _ = trained
    doc = Doc(nlp.vocab, words=["The", "big", "dog", "."], tags=["DT", "JJ", "NN", "."])
    assert nlp(doc)._.srl_frames == []
    assert not [w for w in recwarn if "senna" in str(w.message)]


def test_docs_without_predicates_cost_no_network_call(trained, network_calls):
    nlp, _ = trained
    calls = network_calls(nlp.get_pipe("senna_srl").model)
    docs = [
        Doc(nlp.vocab, words=["The", "big", "dog", "."], tags=["DT", "JJ", "NN", "."]),
        Doc(nlp.vocab, words=[]),
    ]
    assert [doc._.srl_frames for doc in nlp.pipe(docs)] == [[], []]
    assert calls == []


def test_given_predicates_are_labelled_even_when_not_tagged_as_verbs(trained, srl_frames_of):
    nlp, _ = trained
    words, tags, _ = SENTENCES[0]
    tags = ["DT", "NN", "NN", "DT", "NN", "NN", "."]  # "chased" mistagged as a noun
    doc = Doc(nlp.vocab, words=words, tags=tags)
    doc.spans["srl_predicates"] = [Span(doc, 2, 3)]
    assert list(srl_frames_of(nlp(doc))) == [2]
    untagged = Doc(nlp.vocab, words=words, tags=tags)
    assert nlp(untagged)._.srl_frames == []  # without given predicates: no verb, no frame


def test_gold_frames_with_overlaps_orphan_continuations_and_references_train(srl_reference_doc):
    nlp = English()
    nlp.add_pipe("senna_srl")
    words, tags = (
        "Mary , who left , saw the man .".split(),
        [
            "NNP",
            ",",
            "WP",
            "VBD",
            ",",
            "VBD",
            "DT",
            "NN",
            ".",
        ],
    )
    frames = {
        3: [("R-A0", 2, 3), ("V", 3, 4)],  # a reference argument with no A0 in the frame
        5: [("A0", 0, 5), ("A0", 0, 1), ("V", 5, 6), ("C-A1", 6, 8)],  # overlap, orphan C-A1
    }
    ref = srl_reference_doc(nlp.vocab, words, tags, frames)
    eg = Example(Doc(nlp.vocab, words=words), ref)
    copy_inputs(eg, [], ["srl_predicates"])
    with pytest.warns(UserWarning, match="overlapping gold spans"):  # once per run
        optimizer = nlp.initialize(lambda: [eg])
        first = nlp.update([eg], sgd=optimizer)["senna_srl"]
        for _ in range(40):
            last = nlp.update([eg], sgd=optimizer, losses={})["senna_srl"]
        scores = nlp.evaluate([eg])
    assert {"R-A0", "C-A1", "A0"} <= set(nlp.get_pipe("senna_srl").labels)
    assert last < first * 0.2
    assert 0.0 <= scores["srl_f"] <= 1.0 and "R-A0" in scores["srl_per_type"]


@pytest.mark.slow
def test_spacy_train_runs_the_streamed_srl_pt0_config_and_its_continuation(
    tmp_path, srl_reference_doc
):
    """configs/srl-pt0.cfg streams its corpus and reads labels from all of it;
    configs/srl-pt0-netpt0.cfg resumes the trained component (same labels, new weights)."""
    nlp = English()
    docs = []
    for words, tags, frames in SENTENCES:
        doc = srl_reference_doc(nlp.vocab, words, tags, frames)
        doc.spans["pt0"] = [Span(doc, 0, 1, label="NP")]
        docs.append(doc)
    # a label only in the last of 901 docs: spaCy alone would initialize from 100 of them
    rare = srl_reference_doc(
        nlp.vocab, ["Go", "home"], ["VB", "NN"], {0: [("V", 0, 1), ("AM-DIR", 1, 2)]}
    )
    rare.spans["pt0"] = [Span(rare, 0, 1, label="VP")]
    DocBin(docs=docs * 300 + [rare]).to_disk(tmp_path / "srl.spacy")
    out = tmp_path / "out"
    config = Path(__file__).resolve().parents[2] / "configs" / "srl-pt0.cfg"
    options = {
        "paths.train": tmp_path / "srl.spacy",
        "paths.dev": tmp_path / "srl.spacy",
        "training.max_steps": 4,
        "training.eval_frequency": 2,
        "output": out,
    }
    cmd = [sys.executable, "-m", "spacy", "train", str(config)]
    cmd += [arg for key, value in options.items() for arg in (f"--{key}", str(value))]
    subprocess.run(cmd, check=True, capture_output=True, cwd=tmp_path)
    labels = {label for _, _, frames in SENTENCES for f in frames.values() for label, *_ in f}
    labels.add("AM-DIR")
    trained = spacy.load(out / "model-last").get_pipe("senna_srl")
    assert set(trained.labels) == labels
    continued = tmp_path / "continued"
    options.update({"paths.source": out / "model-last", "output": continued})
    cmd = [sys.executable, "-m", "spacy", "train", str(config.parent / "srl-pt0-netpt0.cfg")]
    cmd += [arg for key, value in options.items() for arg in (f"--{key}", str(value))]
    subprocess.run(cmd, check=True, capture_output=True, cwd=tmp_path)
    resumed = spacy.load(continued / "model-last").get_pipe("senna_srl")
    assert resumed.labels == trained.labels
    before, after = (get_net(c.model).state_dict() for c in (trained, resumed))
    assert before.keys() == after.keys()
    assert any(not torch.equal(before[k], after[k]) for k in before)
