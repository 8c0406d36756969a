"""The LM's window sampler: every window once per epoch, resumable, batches that mix."""

from types import SimpleNamespace

import numpy

from spacy_senna.layers.lexicon import PADDING
from spacy_senna.lm.sampler import WindowSampler

WIKI, NEWS = 5, 7


def _corpus(n_wiki: int = 18_000, n_news: int = 2_000) -> SimpleNamespace:
    """Two 'files' one after the other, a padding row between lines now and then."""
    words = numpy.array([WIKI] * n_wiki + [NEWS] * n_news, dtype=numpy.int32)
    words[::50] = PADDING
    return SimpleNamespace(words=words)


def _epoch(sampler: WindowSampler) -> list[numpy.ndarray]:
    """The batches of one epoch (as many windows as there are real tokens)."""
    n_real = int(numpy.sum(sampler.corpus.words != PADDING))
    batches = [sampler.next_batch()]
    while sum(len(b) for b in batches) < n_real:
        batches.append(sampler.next_batch())
    return batches


def test_every_real_position_is_a_centre_once_per_epoch():
    corpus = _corpus()
    sampler = WindowSampler(corpus, 256, seed=0, piece_tokens=100, pieces_per_block=20)
    seen = numpy.concatenate(_epoch(sampler))
    assert sorted(seen.tolist()) == numpy.flatnonzero(corpus.words != PADDING).tolist()
    second = numpy.concatenate([sampler.next_batch() for _ in range(5)])
    assert not numpy.array_equal(second, seen[: len(second)])


def test_batches_mix_text_from_all_over_the_corpus():
    corpus = _corpus()
    mixed = WindowSampler(corpus, 256, seed=0, piece_tokens=100, pieces_per_block=20)
    news_share = [float(numpy.mean(corpus.words[b] == NEWS)) for b in _epoch(mixed)]
    assert max(news_share) < 0.5
    # one contiguous chunk at a time (the old layout) gives batches of nothing but news
    chunked = WindowSampler(corpus, 256, seed=0, piece_tokens=2_000, pieces_per_block=1)
    assert max(float(numpy.mean(corpus.words[b] == NEWS)) for b in _epoch(chunked)) == 1.0


def test_resuming_from_its_state_continues_the_same_order():
    corpus = _corpus()
    straight = WindowSampler(corpus, 300, seed=3, piece_tokens=100, pieces_per_block=7)
    batches = [straight.next_batch() for _ in range(90)]
    first = WindowSampler(corpus, 300, seed=3, piece_tokens=100, pieces_per_block=7)
    for _ in range(40):
        first.next_batch()
    resumed = WindowSampler(corpus, 300, seed=3)
    resumed.load_state(first.state())
    rest = [resumed.next_batch() for _ in range(50)]
    for a, b in zip(batches[40:], rest):
        numpy.testing.assert_array_equal(a, b)


def test_a_state_without_a_layout_resumes_the_one_chunk_layout():
    corpus = _corpus()
    resumed = WindowSampler(corpus, 256, seed=0)
    resumed.load_state({"epoch": 0, "chunk": 0, "offset": 0, "consumed_in_epoch": 0})
    assert (resumed.piece_tokens, resumed.pieces_per_block) == (1 << 20, 1)
    # the old sampler: positions of the (single) chunk in the order of rng(seed, 0, 0)
    expected = numpy.random.default_rng([0, 0, 0]).permutation(len(corpus.words))
    expected = expected[corpus.words[expected] != PADDING]
    numpy.testing.assert_array_equal(resumed.next_batch(), expected[:256])
