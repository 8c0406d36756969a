"""The senna models' PyTorch shim: parameter averages are used and restored, optimizer
steps write into the parameters in place, and loading keeps an uninitialized model's
placeholder and refuses another model format."""

import numpy
import pytest
import spacy
import torch
from spacy.lang.en import English
from spacy.util import make_tempdir

import spacy_senna  # noqa: F401
from spacy_senna.models.senna_model import get_net


def test_parameter_averages_are_used_and_restored(tagger_examples):
    """`use_averages = true`: spaCy evaluates and saves model-best under the averages."""
    from thinc.api import Adam

    nlp = English()
    nlp.add_pipe("senna_tagger")
    examples = tagger_examples(nlp)
    nlp.initialize(lambda: examples)
    optimizer = Adam(0.01, use_averages=True)
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    net = get_net(nlp.get_pipe("senna_tagger").model)
    raw = {n: p.detach().clone() for n, p in net.named_parameters()}
    doc = nlp.make_doc("I like green eggs")
    raw_scores = nlp.get_pipe("senna_tagger").model.predict([doc])[0].clone()
    with nlp.use_params(optimizer.averages):
        inside = {n: p.detach().clone() for n, p in net.named_parameters()}
        avg_scores = nlp.get_pipe("senna_tagger").model.predict([doc])[0]
    assert not numpy.allclose(raw_scores.cpu().numpy(), avg_scores.cpu().numpy())
    assert any(not (inside[n] == raw[n]).all() for n in raw)
    assert all((p == raw[n]).all() for n, p in net.named_parameters())


def test_updates_do_not_accumulate_tensors(tagger_examples):
    """Optimizer steps write into the parameters in place: no per-step memory growth.

    (Thinc's PyTorchShim.finish_update chains a new tensor onto the old one per parameter
    per step; a long WSJ run grew to 21 GB.)
    """
    import gc

    from thinc.api import Adam

    nlp = English()
    nlp.add_pipe("senna_tagger")
    examples = tagger_examples(nlp)
    nlp.initialize(lambda: examples)
    net = get_net(nlp.get_pipe("senna_tagger").model)
    before = {n: p.detach().clone() for n, p in net.named_parameters()}
    optimizer = Adam(0.01, grad_clip=1.0)

    def live_tensors():
        gc.collect()
        return sum(1 for obj in gc.get_objects() if type(obj) in (torch.Tensor, torch.nn.Parameter))

    nlp.update(examples, sgd=optimizer)
    start = live_tensors()
    for _ in range(20):
        nlp.update(examples, sgd=optimizer)
    assert live_tensors() <= start
    for name, param in net.named_parameters():
        if param.requires_grad:
            assert not torch.equal(param.detach(), before[name]), f"{name} was not updated"


def test_a_pipeline_saved_before_initialize_loads_and_one_from_another_format_is_refused():
    nlp = English()
    nlp.add_pipe("senna_words")
    nlp.add_pipe("senna_tagger")
    with make_tempdir() as path:
        nlp.to_disk(path)
        loaded = spacy.load(path)  # nothing to rebuild: the placeholders stay
    for name in loaded.pipe_names:
        assert isinstance(loaded.get_pipe(name).model.shims[0]._model, torch.nn.Identity)
    model = loaded.get_pipe("senna_words").model
    model.attrs["format"] = 0
    with pytest.raises(ValueError, match="model format 0"):
        model.from_bytes(model.to_bytes())
