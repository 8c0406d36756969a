"""inference_dtype = "bfloat16": the largest layers of the window, sentence and parser
heads networks label in bfloat16 where the device computes it natively, train in float32,
give the labels of float32, and the setting is read from the config (so a load-time
override applies).

bfloat16 runs everywhere, emulated where the CPU lacks it; the tests that must see it
run force `computes_bfloat16` on, so they test the same path on any machine."""

import numpy
import pytest
import spacy
import torch

from spacy_senna.layers import precision
from spacy_senna.layers.level_heads import LevelHeadsNetwork
from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.sentence import SentenceNetwork
from spacy_senna.layers.window import WindowNetwork, flatten_windows
from spacy_senna.models.senna_model import get_net

SENNA = ("senna_tagger", "senna_chunker", "senna_ner", "senna_srl")
TEXTS = ["John Smith visited Paris today.", "Mary saw the big house in Berlin."]
SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[2], [4]])]


@pytest.fixture
def native_bfloat16(monkeypatch):
    monkeypatch.setattr(precision, "computes_bfloat16", lambda device_type: True)


def _window_net(inference_dtype: str, lstm_window: bool) -> WindowNetwork:
    torch.manual_seed(0)
    return WindowNetwork(
        lookup=LookupSpec(table_sizes=[10], widths=[8]),
        n_tags=3,
        hidden_width=16,
        lstm_width=4,
        lstm_window=lstm_window,
        inference_dtype=inference_dtype,
    )


def _scores(net: WindowNetwork) -> torch.Tensor:
    flat, index = flatten_windows(SENTENCES, net.half_window)
    lengths = torch.tensor([len(s) for s in SENTENCES])
    return net(torch.from_numpy(flat), torch.from_numpy(index), None, lengths)


@pytest.mark.parametrize("lstm_window", [True, False])
def test_window_network_labels_in_bfloat16_and_trains_in_float32(native_bfloat16, lstm_window):
    exact, reduced = _window_net("float32", lstm_window), _window_net("bfloat16", lstm_window)
    with torch.no_grad():
        exact_scores, reduced_scores = _scores(exact.eval()), _scores(reduced.eval())
    assert reduced_scores.dtype == torch.float32
    assert not torch.equal(reduced_scores, exact_scores)  # bfloat16 did run
    torch.testing.assert_close(reduced_scores, exact_scores, atol=0.05, rtol=0.05)
    # training computes in float32 whatever the setting: the same scores, bit for bit
    assert torch.equal(_scores(reduced.train()), _scores(exact.train()))


def test_sentence_network_labels_in_bfloat16(native_bfloat16):
    def run(inference_dtype: str) -> torch.Tensor:
        torch.manual_seed(0)
        net = SentenceNetwork(
            lookup=LookupSpec(table_sizes=[10], widths=[8]),
            n_tags=3,
            conv_width=16,
            hidden_width=12,
            inference_dtype=inference_dtype,
        ).eval()
        flat, _ = flatten_windows(SENTENCES[:1], net.half_window)
        sentence_index = torch.arange(6)[None]
        with torch.no_grad():
            return net(
                torch.from_numpy(flat),
                sentence_index,
                torch.tensor([0, 0]),
                torch.tensor([1, 4]),
                torch.tensor([6, 6]),
            )

    exact, reduced = run("float32"), run("bfloat16")
    assert reduced.dtype == torch.float32 and not torch.equal(reduced, exact)
    torch.testing.assert_close(reduced, exact, atol=0.05, rtol=0.05)


def test_the_parser_heads_label_in_bfloat16_and_train_in_float32(native_bfloat16):
    def run(inference_dtype: str, train: bool) -> torch.Tensor:
        torch.manual_seed(0)
        net = LevelHeadsNetwork(
            lookup=LookupSpec(table_sizes=[10, 9], widths=[4, 2]),
            level_tables=[False, True],
            n_tags=3,
            lstm_width=3,
            projection_width=4,
            head_width=3,
            hidden_width=16,
            inference_dtype=inference_dtype,
        ).train(train)
        sentence_flat, sentence_index = flatten_windows(SENTENCES[:1], net.half_window)
        level_flat, level_index = flatten_windows([numpy.array([[2], [3], [2], [4], [2], [5]])], 2)
        inputs = [sentence_flat, sentence_index, level_flat, level_index]
        with torch.no_grad():
            return net(*map(torch.from_numpy, inputs), torch.tensor([0]), torch.tensor([6]))

    exact, reduced = run("float32", train=False), run("bfloat16", train=False)
    assert reduced.dtype == torch.float32 and not torch.equal(reduced, exact)
    torch.testing.assert_close(reduced, exact, atol=0.05, rtol=0.05)
    assert torch.equal(run("bfloat16", train=True), run("float32", train=True))


def test_float32_is_exact_where_bfloat16_is_not_native(monkeypatch):
    monkeypatch.setattr(precision, "computes_bfloat16", lambda device_type: False)
    with torch.no_grad():
        exact = _scores(_window_net("float32", True).eval())
        assert torch.equal(_scores(_window_net("bfloat16", True).eval()), exact)


def _inference_dtype(nlp, name: str) -> str:
    return get_net(nlp.get_pipe(name).model).emission_net.inference_dtype


def _bfloat16_overrides(names=SENNA) -> dict:
    return {"components": {name: {"model": {"inference_dtype": "bfloat16"}} for name in names}}


def _labels(doc) -> tuple:
    """A doc's tags, entities and span groups."""
    return (
        [t.tag_ for t in doc],
        [(e.start, e.end, e.label_) for e in doc.ents],
        {key: [(s.start, s.end, s.label_) for s in doc.spans[key]] for key in doc.spans},
    )


def _batch_labels(nlp) -> list:
    return [_labels(doc) for doc in nlp.pipe(TEXTS)]


def test_a_trained_pipeline_gives_the_same_labels_in_bfloat16(native_bfloat16, pipeline_dir):
    exact = spacy.load(pipeline_dir)
    reduced = spacy.load(pipeline_dir, config=_bfloat16_overrides())
    assert _inference_dtype(reduced, "senna_ner") == "bfloat16"
    assert _batch_labels(reduced) == _batch_labels(exact)
    # one text at a time or in a batch: the same labels
    assert _batch_labels(reduced) == [_labels(reduced(text)) for text in TEXTS]


def test_the_setting_is_saved_in_the_config_and_read_back(pipeline_dir, tmp_path):
    spacy.load(pipeline_dir, config=_bfloat16_overrides()).to_disk(tmp_path / "reduced")
    nlp = spacy.load(tmp_path / "reduced")
    for name in SENNA:
        assert nlp.config["components"][name]["model"]["inference_dtype"] == "bfloat16"
        assert _inference_dtype(nlp, name) == "bfloat16"
    # and a load-time override wins over what was saved
    back = spacy.load(
        tmp_path / "reduced",
        config={"components": {"senna_tagger": {"model": {"inference_dtype": "float32"}}}},
    )
    assert _inference_dtype(back, "senna_tagger") == "float32"


def test_an_unknown_inference_dtype_is_named(pipeline_dir):
    overrides = {"components": {"senna_ner": {"model": {"inference_dtype": "int8"}}}}
    with pytest.raises(ValueError, match=r"inference_dtype must be one of .*got 'int8'"):
        spacy.load(pipeline_dir, config=overrides)


def _autocast(layer: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return layer(x).float()


def test_the_window_layer_in_bfloat16_is_the_convolution(native_bfloat16):
    # dense runs a plain Conv1d as one product over the windows: oneDNN's numbers but
    # for the order of the float32 sums, so within a bfloat16 step of autocast's
    torch.manual_seed(0)
    conv = torch.nn.Conv1d(7, 11, 5).eval()
    x = torch.randn(1, 7, 23)
    with torch.no_grad():
        product = precision.dense(conv, x, "bfloat16")
        assert product.shape == (1, 11, 19) and product.dtype == torch.float32
        torch.testing.assert_close(product, _autocast(conv, x), atol=0.02, rtol=0.01)
        clipped = precision.dense(conv, x, "bfloat16", hardtanh=True)
        assert torch.equal(clipped, product.clamp(-1, 1))


@pytest.mark.parametrize("make", [lambda: torch.nn.Linear(6, 4), lambda: torch.nn.Conv1d(6, 4, 3)])
def test_the_bfloat16_weights_follow_an_update_in_place(native_bfloat16, make):
    torch.manual_seed(0)
    layer = make().eval()
    x = torch.randn(5, 6) if isinstance(layer, torch.nn.Linear) else torch.randn(1, 6, 9)
    with torch.no_grad():
        before = precision.dense(layer, x, "bfloat16")
        layer.weight.mul_(-2.0)  # what an optimizer step does to the same tensor
        after = precision.dense(layer, x, "bfloat16")
        assert not torch.allclose(after, before, atol=0.1)
        torch.testing.assert_close(after, _autocast(layer, x), atol=0.05, rtol=0.02)


def _outputs(nlp) -> list:
    """Every label and span probability of the pipeline on TEXTS, one text at a time."""
    out = []
    for text in TEXTS:
        doc = nlp(text)
        scores = {key: list(group.attrs.get("scores", [])) for key, group in doc.spans.items()}
        out.append((_labels(doc), scores))
    return out


def test_labelling_after_an_update_reads_the_updated_weights(native_bfloat16, pipeline_dir):
    """What labelling keeps per set of weights (bfloat16 copies, the compiled LSTM's and
    CRF's layouts, character encodings) is made again after an optimizer step, which
    writes the parameters in place: the updated pipeline labels as its saved copy does."""
    from senna_fixtures.examples import _pipeline_examples

    from spacy_senna.corpora.readers import copy_inputs

    nlp = spacy.load(pipeline_dir, config=_bfloat16_overrides())
    before = _outputs(nlp)  # fills what labelling keeps
    examples = _pipeline_examples(nlp)
    for eg in examples:
        copy_inputs(eg, ["tag_"])
    optimizer = nlp.resume_training()
    optimizer.learn_rate = 0.05
    for _ in range(3):
        nlp.update(examples, sgd=optimizer)
    after = _outputs(nlp)
    saved = spacy.load(pipeline_dir, config=_bfloat16_overrides()).from_bytes(nlp.to_bytes())
    assert after == _outputs(saved)
    assert after != before  # the steps did change the weights


@pytest.mark.skipif(not precision.packs_bfloat16(), reason="no packed bfloat16 product here")
@pytest.mark.parametrize("rows", [1, 17, 300])
def test_the_packed_bfloat16_product_gives_the_plain_products_numbers(native_bfloat16, rows):
    # the weights packed once for oneDNN: the same numbers as the plain layout, bit for bit
    torch.manual_seed(0)
    layer = torch.nn.Linear(45, 30).eval()
    x = torch.randn(rows, 45)
    with torch.no_grad():
        weight, bias = layer.weight.to(torch.bfloat16), layer.bias.to(torch.bfloat16)
        plain = torch.nn.functional.linear(x.to(torch.bfloat16), weight, bias).float()
        assert torch.equal(precision.dense(layer, x, "bfloat16"), plain)
        assert torch.equal(precision.dense(layer, x, "bfloat16", hardtanh=True), plain.clamp(-1, 1))


def test_a_short_float32_window_is_one_product_and_a_long_one_the_convolution(monkeypatch):
    """At inference on the CPU a window layer over one short input (a text alone) is one
    matrix product of its windows, the convolution's numbers up to the order of the sums;
    a longer input, and training, run the convolution itself."""
    torch.manual_seed(0)
    conv = torch.nn.Conv1d(7, 5, 5).eval()
    products = []
    product = precision._float32_windows_product
    monkeypatch.setattr(
        precision, "_float32_windows_product", lambda *a: products.append(1) or product(*a)
    )
    for positions, expected in ((1, 1), (precision.SHORT_WINDOW_POSITIONS, 1), (65, 0)):
        products.clear()
        x = torch.randn(1, 7, positions + 4)
        with torch.no_grad():
            out = precision.dense(conv, x, "float32", hardtanh=True)
            torch.testing.assert_close(out, conv(x).clamp(-1, 1), atol=1e-6, rtol=0)
        assert out.shape == (1, 5, positions) and len(products) == expected
    conv.train()
    precision.dense(conv, torch.randn(1, 7, 9), "float32").sum().backward()
    assert conv.weight.grad is not None and not products
