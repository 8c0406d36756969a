"""One training step: the backward on the windows with a positive hinge term alone."""

import copy

import pytest
import torch

from spacy_senna.layers.lexicon import PADDING
from spacy_senna.lm.corpus import N_CAPS, CorpusSettings, load_or_encode
from spacy_senna.lm.negatives import sample_candidates
from spacy_senna.lm.optimizers import make_optimizers
from spacy_senna.lm.ranking_model import RankingLM, hinge_terms, ranking_loss
from spacy_senna.lm.trainer import train_step


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, corpus_path):
    directory = tmp_path_factory.mktemp("encoded") / "corpus"
    return load_or_encode([corpus_path], directory, CorpusSettings(vocab_size=20))


def _whole_batch_step(model, optimizers, corpus, positions, n_rows, negatives, generator):
    """The reference: autograd through every window of the batch."""
    words, caps = (torch.from_numpy(a) for a in corpus.windows(positions, n_rows))
    candidates = sample_candidates(words, model.centre, n_rows, negatives, generator)
    loss, pairs = ranking_loss(model.score_candidates(words, caps, candidates), candidates)
    for opt in optimizers:
        opt.zero_grad()
    loss.backward()
    for opt in optimizers:
        opt.step()
    return loss.detach(), pairs


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_step_equals_the_whole_batch_update(corpus, config, optimizer):
    settings = config(optimizer=optimizer, learning_rate=0.1)
    torch.manual_seed(0)
    model = RankingLM(corpus.n_rows, N_CAPS, embed_init=0.1)
    reference = copy.deepcopy(model)
    optimizers = make_optimizers(model, settings)
    reference_optimizers = make_optimizers(reference, settings)
    generator = torch.Generator().manual_seed(1)
    reference_generator = torch.Generator().manual_seed(1)
    positions = torch.randperm(corpus.n_train_tokens)[:4096].numpy()
    inactive = []
    for start in range(0, 4096, 128):  # several steps: the model moves between them
        batch = positions[start : start + 128]
        batch = batch[corpus.words[batch] != PADDING]  # centres on real tokens
        with torch.no_grad():
            words, caps = (torch.from_numpy(a) for a in corpus.windows(batch, corpus.n_rows))
            same_draws = torch.Generator().set_state(generator.get_state())
            probe = sample_candidates(words, model.centre, corpus.n_rows, 4, same_draws)
            terms = hinge_terms(model.score_candidates(words, caps, probe), probe)
        inactive.append(float((terms.sum(1) == 0).float().mean()))
        loss, pairs = train_step(model, optimizers, corpus, batch, corpus.n_rows, 4, generator)
        ref_loss, ref_pairs = _whole_batch_step(
            reference, reference_optimizers, corpus, batch, corpus.n_rows, 4, reference_generator
        )
        assert int(pairs) == int(ref_pairs)
        assert float(loss) == pytest.approx(float(ref_loss), rel=1e-5)
        for (name, param), ref in zip(model.named_parameters(), reference.parameters()):
            assert torch.allclose(param, ref, atol=1e-6), name
    assert max(inactive) > 0.1  # the shortcut was taken
