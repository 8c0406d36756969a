"""Kept lookup outputs follow their weights however those change: in place, a parameter
or a table put in the place of another, a tensor written straight into a module's dict,
a copy of the lookup (`WatchedTensors`)."""

import copy

import torch
from torch import nn

from spacy_senna.layers.char_cnn import CharCNNSpec
from spacy_senna.layers.lookup import FeatureLookup
from spacy_senna.layers.watched_tensors import WatchedTensors

SPEC = CharCNNSpec(n_columns=4, n_chars=9, char_width=3, width=4, window=3)


def lookup_and_ids():
    torch.manual_seed(0)
    lookup = FeatureLookup(table_sizes=[7, 5], widths=[3, 2], char_cnns=[SPEC]).eval()
    ids = torch.cat(
        [torch.randint(0, 7, (6, 1)), torch.randint(0, 5, (6, 1)), torch.randint(0, 9, (6, 4))],
        dim=1,
    )
    ids[0, 2:] = 0  # a row with no characters: the CNN's padding vector
    return lookup, ids


def fresh(lookup, ids):
    """The outputs computed from the current weights, nothing kept."""
    return lookup._embed(ids)


def test_kept_rows_follow_every_kind_of_weight_change():
    lookup, ids = lookup_and_ids()
    replacement = nn.Embedding(7, 3)  # made before: only putting it in place registers
    changes = [
        lambda: lookup.tables[0].weight.mul_(2.0),  # in place
        lambda: setattr(lookup.tables[1], "weight", nn.Parameter(torch.rand(5, 2))),
        lambda: lookup.tables.__setitem__(0, replacement),  # another table
        lambda: lookup.chars[0].conv._parameters.__setitem__(  # no hook sees this one
            "bias", nn.Parameter(torch.rand(4))
        ),
        lambda: setattr(lookup.chars[0], "padding", nn.Parameter(torch.rand(4))),
    ]
    with torch.no_grad():
        before = lookup(ids)
        assert torch.equal(before, fresh(lookup, ids)) and len(lookup.kept_rows) > 0
        for change in changes:
            change()
            after = lookup(ids)
            assert torch.equal(after, fresh(lookup, ids)) and not torch.equal(after, before)
            before = after


def test_a_copy_reads_its_own_weights():
    lookup, ids = lookup_and_ids()
    with torch.no_grad():
        original = lookup(ids)
        twin = copy.deepcopy(lookup)
        twin.tables[0].weight.mul_(3.0)
        assert torch.equal(twin(ids), fresh(twin, ids)) and not torch.equal(twin(ids), original)
        assert torch.equal(lookup(ids), original)


def test_versions_name_a_missing_bias_and_move_in_place():
    linear = nn.Linear(3, 2, bias=False)
    watched = WatchedTensors()

    def sources():
        return [(linear, "weight"), (linear, "bias")]

    first = watched.versions(sources)
    assert first[1] is None and watched.versions(sources) == first
    with torch.no_grad():
        linear.weight.add_(1.0)
    assert watched.versions(sources) != first
