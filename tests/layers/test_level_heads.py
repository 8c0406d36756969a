"""LevelHeadsNetwork, the parser network that encodes each sentence once for all its levels:
a level copy reads its whole sentence and its own level tags, never its neighbours in the
batch; the encoder runs once per distinct sentence; bad settings are clear errors."""

import numpy
import pytest
import torch

from spacy_senna.layers.level_heads import LevelHeadsNetwork, level_table_flags
from spacy_senna.layers.lookup_spec import LookupSpec
from spacy_senna.layers.window import flatten_windows

SENTENCES = [numpy.array([[2], [3], [2], [5], [6], [7]]), numpy.array([[4], [2]])]
# (sentence, level tags of each word): two levels of sentence 0, one of sentence 1
ROWS = [(0, [2, 2, 3, 4, 2, 2]), (1, [5, 6]), (0, [2, 7, 7, 7, 7, 2])]


def _network(**settings) -> LevelHeadsNetwork:
    torch.manual_seed(0)
    small = {"lstm_width": 3, "projection_width": 4, "head_width": 3, "hidden_width": 5}
    lookup = LookupSpec(table_sizes=[10, 9], widths=[4, 2])
    layout = {"lookup": lookup, "level_tables": [False, True]}
    return LevelHeadsNetwork(n_tags=3, **{**layout, **small, **settings}).eval()


def _scores(net, sentences, rows) -> torch.Tensor:
    """Scores of `rows`, each (sentence, level tags), of a batch of `sentences`."""
    h = net.half_window
    sentence_flat, sentence_index = flatten_windows(sentences, h)
    levels = [numpy.array(tags)[:, None] for _, tags in rows]
    level_flat, level_index = flatten_windows(levels, h)
    inputs = (
        torch.from_numpy(sentence_flat),
        torch.from_numpy(sentence_index),
        torch.from_numpy(level_flat),
        torch.from_numpy(level_index),
        torch.tensor([s for s, _ in rows], dtype=torch.long),
        torch.tensor([len(tags) for _, tags in rows], dtype=torch.long),
    )
    with torch.no_grad():
        return net(*inputs)


def test_a_level_scores_the_same_alone_and_in_a_batch():
    net = _network()
    batch = _scores(net, SENTENCES, ROWS)
    assert batch.shape == (3, 6, 3)
    for r, (s, tags) in enumerate(ROWS):
        alone = _scores(net, [SENTENCES[s]], [(0, tags)])[0]
        n = len(tags)
        torch.testing.assert_close(batch[r, :n], alone[:n])
        assert not batch[r, n:].any()  # padding positions score 0


def test_scores_depend_on_the_level_tags_and_on_words_far_away():
    net = _network()
    base = _scores(net, SENTENCES[:1], ROWS[:1])[0]
    other_levels = _scores(net, SENTENCES[:1], [(0, [2, 2, 3, 4, 2, 5])])[0]
    far_word = SENTENCES[0].copy()
    far_word[5, 0] = 8
    other_word = _scores(net, [far_word], ROWS[:1])[0]
    for changed in (other_levels, other_word):
        assert not torch.allclose(changed[0], base[0])  # the first word sees the last


def test_the_sentence_is_encoded_once_for_all_its_levels():
    net = _network()
    encoded = []
    net.encoder[0].register_forward_hook(lambda _, inputs, out: encoded.append(inputs[1].shape))
    _scores(net, SENTENCES, ROWS)
    assert encoded == [(2, 6)]  # two sentences, not three level copies


def test_an_empty_batch_scores_nothing():
    net = _network()
    empty = torch.zeros(0, 1, dtype=torch.long)
    index = torch.zeros(0, 0, dtype=torch.long)
    none = torch.zeros(0, dtype=torch.long)
    assert net(empty, index, empty, index, none, none).shape == (0, 0, 3)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"window_size": 4}, "window_size"),
        ({"head_depth": 0}, "head_depth"),
        ({"level_tables": [False, False]}, "no level feature"),
        ({"level_tables": [True]}, "one level_tables flag per lookup table"),
    ],
)
def test_bad_settings_are_clear_errors(settings, message):
    with pytest.raises(ValueError, match=message):
        _network(**settings)


def test_a_level_feature_must_have_its_own_table():
    assert level_table_flags([False, True, False], 2) == [False, True]
    with pytest.raises(ValueError, match="lookup-table feature"):
        level_table_flags([False, False, True], 2)  # a character feature's column
