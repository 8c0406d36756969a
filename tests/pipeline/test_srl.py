"""senna_srl: the sentence network, training, frames, save/load, scorer, converter, bad input."""

import gzip

import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example
from spacy.util import make_tempdir, registry

import spacy_senna  # noqa: F401
from spacy_senna.converters import read_conll2005
from spacy_senna.layers.sentence import SentenceNetwork, _MaxOverPositions
from spacy_senna.lexicon import UNKNOWN
from spacy_senna.models import featurize_predicates
from spacy_senna.readers import copy_inputs
from spacy_senna.scoring import frame_arguments, score_srl

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


def reference_doc(vocab, words, tags, frames):
    doc = Doc(vocab, words=words, tags=tags)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1, label="x") for p in frames]
    for p, args in frames.items():
        doc.spans[f"srl:{p}"] = [Span(doc, s, e, label=lab) for lab, s, e in args]
    return doc


def make_examples(nlp):
    examples = []
    for words, tags, frames in SENTENCES:
        ref = reference_doc(nlp.vocab, words, tags, frames)
        eg = Example(Doc(nlp.vocab, words=words), ref)
        copy_inputs(eg, [], ["srl_predicates"])  # given predicates, as spacy-senna.Corpus.v1
        examples.append(eg)
    return examples


def frames_of(doc):
    return {
        f.predicate.i: sorted((s.label_, s.start, s.end) for s in f.arguments)
        for f in doc._.srl_frames
    }


def input_doc(nlp, words, predicates):
    doc = Doc(nlp.vocab, words=words)
    doc.spans["srl_predicates"] = [Span(doc, p, p + 1) for p in predicates]
    return doc


@pytest.fixture(scope="module")
def trained():
    nlp = English()
    nlp.add_pipe("senna_srl")
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    losses = []
    for _ in range(60):
        step = {}
        nlp.update(examples, sgd=optimizer, losses=step)
        losses.append(step["senna_srl"])
    return nlp, losses


def test_srl_overfits_given_predicates(trained):
    nlp, losses = trained
    assert losses[-1] < losses[0] * 0.05
    for words, _, frames in SENTENCES:
        doc = nlp(input_doc(nlp, words, list(frames)))
        assert frames_of(doc) == {p: sorted(args) for p, args in frames.items()}
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


def test_save_load_and_pipe_equal_call(trained):
    nlp, _ = trained
    inputs = [(w, list(f)) for w, _, f in SENTENCES] + [
        ([], []),
        (["Dogs"], []),
        (["bark"] * 300, [0, 299]),
    ]

    def run(pipeline, batch_size=None):
        docs = [input_doc(pipeline, w, p) for w, p in inputs]
        if batch_size is None:
            return [frames_of(pipeline(d)) for d in docs]
        return [frames_of(d) for d in pipeline.pipe(docs, batch_size=batch_size)]

    expected = run(nlp)
    assert expected[3] == {} and expected[4] == {} and set(expected[5]) == {0, 299}
    assert run(nlp, batch_size=2) == expected
    assert run(nlp, batch_size=1) == expected
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    assert run(loaded, batch_size=8) == expected


def test_predicates_fall_back_to_verb_tags(trained):
    nlp, _ = trained
    words, tags, frames = SENTENCES[0]
    doc = Doc(nlp.vocab, words=words, tags=tags)
    assert frames_of(nlp(doc)) == {2: sorted(frames[2])}


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


def test_a_batch_without_predicates_trains_as_a_no_op():
    nlp = English()
    nlp.add_pipe("senna_srl")
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    no_predicates = input_doc(nlp, "Nothing happened here .".split(), [])
    losses = nlp.update([Example(no_predicates, no_predicates.copy())], sgd=optimizer)
    assert losses["senna_srl"] == 0.0
    losses = nlp.update(examples, sgd=optimizer)
    assert losses["senna_srl"] > 0.0


def test_rerunning_replaces_old_frames(trained):
    nlp, _ = trained
    doc = input_doc(nlp, SENTENCES[2][0], [1])
    doc.spans["srl:0"] = [Span(doc, 1, 2, label="A0")]
    assert list(frames_of(nlp(doc))) == [1]


def test_predicate_outside_the_doc_is_a_clear_error(trained):
    nlp, _ = trained
    model = nlp.get_pipe("senna_srl").model
    doc = Doc(nlp.vocab, words=["Dogs", "bark"])
    with pytest.raises(ValueError, match="outside the doc"):
        featurize_predicates(model, [(doc, [2])], False)


def test_evaluate_reports_srl_scores(trained):
    nlp, _ = trained
    scores = nlp.evaluate(make_examples(nlp))
    assert scores["srl_f"] == 1.0 and set(scores["srl_per_type"]) == {"A0", "A1", "A2", "AM-TMP"}


def naive_scores(net: SentenceNetwork, ids: torch.Tensor, predicate: int) -> torch.Tensor:
    """The paper's sentence network written directly: for each word w, convolve the
    concatenated [word features, distance to predicate, distance to w] over every window."""
    n, h, m = ids.shape[0], net.half_window, net.max_distance
    pad = net.lookup(torch.zeros(1, ids.shape[1], dtype=torch.long))
    feats = torch.cat([pad.expand(h, -1), net.lookup(ids), pad.expand(h, -1)])
    weight = torch.cat([net.conv.weight, net.verb_conv, net.word_conv], dim=1)
    out = []
    for w in range(n):
        best = None
        for t in range(n):
            window = []
            for k in range(-h, h + 1):
                j = t + k
                verb = net.verb_distance.weight[max(-m, min(m, j - predicate)) + m]
                word = net.word_distance.weight[max(-m, min(m, j - w)) + m]
                window.append(torch.cat([feats[j + h], verb, word]))
            x = torch.stack(window, dim=1)  # (features, window)
            value = (weight * x[None]).sum(dim=(1, 2)) + net.conv.bias
            best = value if best is None else torch.maximum(best, value)
        out.append(net.output(torch.nn.functional.hardtanh(net.hidden(best))))
    return torch.stack(out)


def test_split_convolution_equals_the_papers_network():
    torch.manual_seed(0)
    net = SentenceNetwork(
        table_sizes=[30, 6],
        widths=[4, 2],
        n_tags=5,
        conv_width=7,
        hidden_width=6,
        distance_width=3,
        max_distance=3,
        max_block_elements=200,
    ).double()
    lengths = [9, 4, 1]
    sentences = [torch.randint(2, 6, (n, 2)) for n in lengths]
    rows = [(0, 0), (0, 8), (1, 2), (2, 0), (0, 4)]  # (sentence, predicate)
    h = net.half_window
    flat, index, start = [torch.zeros(h, 2, dtype=torch.long)], [], h
    for ids in sentences:
        flat += [ids, torch.zeros(h, 2, dtype=torch.long)]
        index.append(list(range(start - h, start - h + len(ids))) + [0] * (9 - len(ids)))
        start += len(ids) + h
    out = net(
        torch.cat(flat),
        torch.tensor(index),
        torch.tensor([s for s, _ in rows]),
        torch.tensor([p for _, p in rows]),
        torch.tensor([lengths[s] for s, _ in rows]),
    )
    for r, (s, p) in enumerate(rows):
        expected = naive_scores(net, sentences[s], p)
        assert torch.allclose(out[r, : lengths[s]], expected, atol=1e-10)
        assert (out[r, lengths[s] :] == 0).all()


def test_max_over_positions_gradient():
    torch.manual_seed(0)
    rows = torch.randn(3, 5, 4, dtype=torch.double, requires_grad=True)
    table = torch.randn(5, 4, dtype=torch.double, requires_grad=True)
    positions = torch.arange(5)
    lengths = torch.tensor([5, 2, 4])
    mask = positions[None, :] >= lengths[:, None]
    masked = rows.masked_fill(mask[:, :, None], float("-inf"))

    def f(r, t):
        return _MaxOverPositions.apply(
            r.masked_fill(mask[:, :, None], float("-inf")), t, lengths, 2, 60
        )

    assert torch.autograd.gradcheck(f, (rows, table))
    assert torch.isfinite(f(masked, table)).all()


def test_scorer_counts_continuations_as_one_argument():
    vocab = English().vocab
    words = "a b c d e f g".split()
    gold = reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("V", 2, 3), ("C-A1", 3, 4), ("AM-TMP", 5, 7)],
        },
    )
    # A1 + C-A1 right (1 argument), AM-TMP wrong boundary, an extra A0, V ignored
    guess = reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("V", 2, 3), ("C-A1", 3, 4), ("AM-TMP", 5, 6), ("A0", 1, 2)],
        },
    )
    scores = score_srl([Example(guess, gold)])
    assert scores["srl_p"] == pytest.approx(1 / 3) and scores["srl_r"] == pytest.approx(1 / 2)
    assert scores["srl_per_type"]["A1"]["f"] == 1.0
    # only half of a continued argument is wrong: the whole argument is wrong
    assert frame_arguments([("A1", 0, 1), ("C-A1", 3, 4)]) != frame_arguments(
        [("A1", 0, 1), ("C-A1", 3, 5)]
    )
    # a continuation with no head counts as the head type; a later one joins it
    assert frame_arguments([("C-A1", 0, 1), ("C-A1", 3, 4)]) == frame_arguments(
        [("A1", 0, 1), ("C-A1", 3, 4)]
    )
    # a frame for a predicate the reference does not have is skipped, as srl-eval.pl does
    extra = reference_doc(
        vocab,
        words,
        ["NN"] * 7,
        {
            2: [("A1", 0, 1), ("C-A1", 3, 4), ("AM-TMP", 5, 7)],
            6: [("A0", 0, 1)],
        },
    )
    assert score_srl([Example(extra, gold)])["srl_p"] == pytest.approx(1.0)


CONLL2005 = """\
The DT (S1(S(NP* * - - (A0* *
cat NN *) * - - *) *
chased VBD (VP* * 01 chase (V*) *
the DT (NP* * - - (A1* (A0*
mouse NN *)) * - - *) *)
barked VBD (VP*) * 01 bark * (V*)
. . *)) * - - * *

Dogs NNS (S1(S(NP*) * - -
. . *)) * - -
"""


def write(path, text):
    with gzip.open(path, "wt") as f:
        f.write(text)
    return path


def test_conll2005_converter_writes_tags_predicates_and_frames(tmp_path):
    vocab = English().vocab
    docs = list(read_conll2005(write(tmp_path / "srl.txt.gz", CONLL2005), vocab))
    assert len(docs) == 2
    doc = docs[0]
    assert doc[2].tag_ == "VBD"
    assert [(s.start, s.label_) for s in doc.spans["srl_predicates"]] == [(2, "chase"), (5, "bark")]
    assert frames_of(doc) == {
        2: [("A0", 0, 2), ("A1", 3, 5), ("V", 2, 3)],
        5: [("A0", 3, 5), ("V", 5, 6)],
    }
    assert len(docs[1].spans["srl_predicates"]) == 0 and docs[1]._.srl_frames == []
    reloaded = list(DocBin(docs=docs, store_user_data=True).get_docs(vocab))
    assert frames_of(reloaded[0]) == frames_of(doc) and "srl_predicates" in reloaded[1].spans


@pytest.mark.parametrize(
    "broken, message",
    [
        (CONLL2005.replace("(A1* (A0*", "(A1 (A0*"), "Start-End tag"),
        (CONLL2005.replace("mouse NN *)) * - - *) *)", "mouse NN *)) * - - * *)"), "never closed"),
        (CONLL2005.replace("cat NN *) * - - *) *", "cat NN *) * - - *)"), "same number"),
        (CONLL2005.replace("01 bark", "- -"), "argument columns"),
        (CONLL2005.replace("(V*) *\n", "* *\n"), "not inside the V argument"),
        (CONLL2005.replace("the DT (NP* * - - (A1*", "the DT (NP* * - - (A1*)"), "closes no open"),
    ],
)
def test_conll2005_converter_names_the_broken_line(tmp_path, broken, message):
    path = write(tmp_path / "broken.txt.gz", broken)
    with pytest.raises(ValueError, match=message):
        list(read_conll2005(path, English().vocab))


def test_max_over_positions_block_bound_does_not_change_the_result():
    torch.manual_seed(0)
    T, C = 40, 6
    rows = torch.randn(2, T, C)
    table = torch.randn(21, C)
    lengths = torch.tensor([T, 17])
    rows[1, 17:] = float("-inf")
    unbounded = _MaxOverPositions.apply(rows, table, lengths, 10, 1 << 30)
    tiny = _MaxOverPositions.apply(rows, table, lengths, 10, 100)  # < one row
    assert torch.equal(unbounded, tiny) and (unbounded[1, 17:] == 0).all()


@pytest.mark.parametrize("reach", [1, 3, 50])
def test_max_over_positions_equals_the_quadratic_max_float_for_float(reach):
    torch.manual_seed(1)
    T, C = 23, 5
    rows = torch.randn(3, T, C)
    table = torch.randn(2 * reach + 1, C)
    lengths = torch.tensor([T, 9, 1])
    for r, n in enumerate(lengths.tolist()):
        rows[r, n:] = float("-inf")
    positions = torch.arange(T)
    offsets = (positions[None, :] - positions[:, None]).clamp(-reach, reach) + reach  # (w, t)
    quadratic = (rows[:, None, :, :] + table[offsets][None]).amax(dim=2)  # (R, w, C)
    for track in (True, False):  # with positions for the gradient, or values only
        fast = _MaxOverPositions.apply(rows, table, lengths, reach, 1 << 20, track)
        for r, n in enumerate(lengths.tolist()):
            assert torch.equal(fast[r, :n], quadratic[r, :n])
            assert (fast[r, n:] == 0).all()


def test_conll2005_converter_writes_the_level0_segments_of_the_parse(tmp_path):
    doc = next(read_conll2005(write(tmp_path / "srl.txt.gz", CONLL2005), English().vocab))
    # (S1(S(NP The cat) (VP chased (NP the mouse)) (VP barked) .)): "." hangs off the top S
    assert [(s.label_, s.start, s.end) for s in doc.spans["pt0"]] == [
        ("NP", 0, 2),
        ("VP", 2, 3),
        ("NP", 3, 5),
        ("VP", 5, 6),
    ]


@pytest.mark.parametrize(
    "parse, message",
    [("(S1(S(NP(NP*", "never closed"), ("(S1*))", "closes more"), ("S1*", "parse tag")],
)
def test_level0_segments_name_a_broken_parse_line(tmp_path, parse, message):
    lines = CONLL2005.splitlines()
    columns = lines[0].split()
    columns[2] = parse
    text = "\n".join([" ".join(columns), *lines[1:]]) + "\n"
    with pytest.raises(ValueError, match=message):
        list(read_conll2005(write(tmp_path / "broken.txt.gz", text), English().vocab))


def test_span_tag_feature_reads_iobes_and_marks_a_missing_group_unknown():
    vocab = English().vocab
    feature = registry.misc.get("spacy-senna.SpanTagFeature.v1")(spans_key="pt0", width=5)
    doc = Doc(vocab, words="The big cat sat down".split())
    doc.spans["pt0"] = [Span(doc, 0, 3, "NP"), Span(doc, 3, 4, "VP")]
    assert feature.doc_strings(doc) == ["B-NP", "I-NP", "E-NP", "S-VP", "O"]
    feature.fit([doc])
    ids = feature.extract(doc)[:, 0]
    assert len(set(ids.tolist())) == 5 and UNKNOWN not in ids
    bare = Doc(vocab, words="The big cat".split())
    assert (feature.extract(bare)[:, 0] == UNKNOWN).all()


def test_srl_with_pt0_input_trains_and_warns_without_pt0_spans():
    nlp = English()
    config = {"model": {"features": {"pt0": {"@misc": "spacy-senna.SpanTagFeature.v1"}}}}
    nlp.add_pipe("senna_srl", config=config)
    examples = make_examples(nlp)
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
