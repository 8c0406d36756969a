"""LookupSpec: one value for a network's lookup, built as FeatureLookup's arguments say,
and split into a sentence's tables and its level tables (the parser's level heads)."""

import numpy
import pytest
import torch

from spacy_senna.layers.char_cnn import CharCNNSpec
from spacy_senna.layers.lookup import FeatureLookup
from spacy_senna.layers.lookup_spec import LookupSpec

CHARS = CharCNNSpec(n_chars=9, n_columns=4, char_width=3, width=5, window=3)


def test_build_gives_the_lookup_its_arguments_give():
    initial = numpy.full((6, 2), numpy.nan, dtype="float32")
    initial[3] = [0.5, -0.5]
    spec = LookupSpec(
        table_sizes=[10, 6], widths=[4, 2], initial_tables=[None, initial], char_cnns=[CHARS]
    )
    torch.manual_seed(0)
    built = spec.build()
    torch.manual_seed(0)
    direct = FeatureLookup(
        table_sizes=[10, 6], widths=[4, 2], initial_tables=[None, initial], char_cnns=[CHARS]
    )
    assert built.width == direct.width == 4 + 2 + 5
    for (name, a), (_, b) in zip(built.state_dict().items(), direct.state_dict().items()):
        assert torch.equal(a, b), name
    assert built.tables[1].weight[3].tolist() == [0.5, -0.5]


def test_split_keeps_each_tables_rows_and_flags_on_its_side():
    initial = [numpy.zeros((10, 4), dtype="float32"), None, numpy.ones((7, 3), dtype="float32")]
    spec = LookupSpec(
        table_sizes=[10, 9, 7],
        widths=[4, 2, 3],
        initial_tables=initial,
        keep_initial=[True, False, False],
        char_cnns=[CHARS],
        shared=lambda: None,
    )
    words, levels = spec.split([False, True, False])
    assert (words.table_sizes, words.widths, words.keep_initial) == ([10, 7], [4, 3], [True, False])
    assert words.initial_tables[0] is initial[0] and words.initial_tables[1] is initial[2]
    assert words.char_cnns == [CHARS] and words.shared is spec.shared
    assert (levels.table_sizes, levels.widths, levels.initial_tables) == ([9], [2], [None])
    assert levels.keep_initial == [False] and levels.char_cnns == () and levels.shared is None
    plain_words, _ = LookupSpec(table_sizes=[10, 9], widths=[4, 2]).split([False, True])
    assert plain_words.initial_tables == [None] and plain_words.keep_initial == [False]


def test_split_needs_one_flag_per_table():
    with pytest.raises(ValueError, match="one flag per lookup table"):
        LookupSpec(table_sizes=[10, 9], widths=[4, 2]).split([True])
