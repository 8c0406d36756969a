"""The character CNN: the plain convolution + max it computes, batch independence, padding
rows, distinct rows (and its fallback), gradients, and its place in FeatureLookup."""

import pytest
import torch
from torch import nn

from spacy_senna.layers import char_cnn
from spacy_senna.layers.char_cnn import CharCNN, CharCNNSpec, distinct_rows
from spacy_senna.layers.char_cnn_compiled import compiled_encodings
from spacy_senna.layers.lookup import FeatureLookup

SPEC = CharCNNSpec(n_columns=8, n_chars=12, char_width=6, width=5, window=3)

# words as character ids: real ids from column 0 on, PADDING (0) after
WORDS = torch.tensor(
    [
        [2, 4, 5, 6, 3, 0, 0, 0],
        [2, 6, 5, 4, 3, 0, 0, 0],  # the same characters in another order
        [2, 1, 1, 3, 0, 0, 0, 0],  # unknown characters
        [2, 3, 0, 0, 0, 0, 0, 0],  # the empty word: marks only
        [2, 7, 8, 9, 10, 11, 4, 3],  # full row
        [0, 0, 0, 0, 0, 0, 0, 0],  # sentence padding
        [2, 4, 5, 6, 3, 0, 0, 0],  # a repeat of the first word
    ]
)


def make_cnn(spec=SPEC, seed=0):
    torch.manual_seed(seed)
    cnn = CharCNN(spec)
    with torch.no_grad():
        cnn.padding.uniform_(-1, 1)  # not zero, so that a wrong row would show
    return cnn


def reference(cnn, words):
    """nn.Conv1d over the zero-padded embeddings, then the max over non-PADDING positions."""
    hidden = cnn.conv(cnn.embed(words).transpose(1, 2))  # (n, width, L)
    masked = hidden.masked_fill((words == 0)[:, None, :], float("-inf")).amax(dim=2)
    empty = (words == 0).all(dim=1)
    return torch.where(empty[:, None], cnn.padding, masked)


def test_equals_the_plain_convolution_and_max():
    cnn = make_cnn()
    out = cnn(WORDS)
    assert out.shape == (len(WORDS), SPEC.width)
    assert torch.allclose(out, reference(cnn, WORDS), atol=1e-6)
    assert torch.equal(out[5], cnn.padding.detach())
    assert torch.equal(out[0], out[6])
    assert not torch.allclose(out[0], out[1])  # character order matters


@pytest.mark.parametrize("window", [1, 5])
def test_other_windows_equal_the_plain_convolution(window):
    cnn = make_cnn(SPEC._replace(window=window))
    assert torch.allclose(cnn(WORDS), reference(cnn, WORDS), atol=1e-6)


def test_a_words_vector_does_not_depend_on_the_rest_of_the_batch():
    cnn = make_cnn()
    together = cnn(WORDS)
    for i, word in enumerate(WORDS):
        assert torch.allclose(cnn(word[None]), together[i : i + 1], atol=1e-6)
    # leading dimensions are kept: (batch, time, columns) -> (batch, time, width)
    assert torch.allclose(cnn(WORDS.reshape(7, 1, 8)).reshape(7, -1), together, atol=1e-6)


def test_only_padding_and_no_rows():
    cnn = make_cnn()
    assert torch.equal(cnn(torch.zeros(3, 8, dtype=torch.long)), cnn.padding.expand(3, 5))
    assert cnn(torch.zeros(0, 8, dtype=torch.long)).shape == (0, 5)


def test_gradients_reach_characters_filters_and_padding_but_not_the_padding_row():
    cnn = make_cnn()
    cnn(WORDS).pow(2).sum().backward()
    for name, param in cnn.named_parameters():
        assert param.grad is not None and param.grad.abs().sum() > 0, name
    assert torch.equal(cnn.embed.weight.grad[0], torch.zeros(SPEC.char_width))


def test_gradient_equals_the_plain_convolutions():
    cnn = make_cnn()
    cnn(WORDS).pow(2).sum().backward()
    ours = {n: p.grad.clone() for n, p in cnn.named_parameters()}
    cnn.zero_grad()
    reference(cnn, WORDS).pow(2).sum().backward()
    for name, param in cnn.named_parameters():
        assert torch.allclose(ours[name], param.grad, atol=1e-5), name


def test_wrong_number_of_columns_and_bad_specs_are_named():
    cnn = make_cnn()
    with pytest.raises(ValueError, match="8 character columns"):
        cnn(WORDS[:, :5])
    with pytest.raises(ValueError, match="odd"):
        CharCNN(SPEC._replace(window=2))
    with pytest.raises(ValueError, match="width"):
        CharCNN(SPEC._replace(width=0))


def test_distinct_rows_and_its_fallback_on_hash_collisions(monkeypatch):
    rows = torch.randint(0, 4, (300, 3))
    distinct, inverse = distinct_rows(rows)
    assert torch.equal(distinct[inverse], rows)
    assert len(distinct) == len(torch.unique(rows, dim=0))
    # every key collides: the check catches it and torch.unique answers instead
    monkeypatch.setattr(char_cnn, "_HASH_MODULI", (1, 1))
    distinct, inverse = distinct_rows(rows)
    assert torch.equal(distinct[inverse], rows)
    assert len(distinct) == len(torch.unique(rows, dim=0))


def test_lookup_concatenates_tables_then_character_cnns():
    torch.manual_seed(0)
    lookup = FeatureLookup(table_sizes=[10, 6], widths=[4, 2], char_cnns=[SPEC])
    assert lookup.width == 4 + 2 + SPEC.width
    ids = torch.cat([torch.randint(0, 6, (len(WORDS), 2)), WORDS], dim=1)
    out = lookup(ids)
    assert out.shape == (len(WORDS), lookup.width)
    assert torch.equal(out[:, :4], lookup.tables[0](ids[:, 0]))
    assert torch.equal(out[:, 6:], lookup.chars[0](WORDS))
    with pytest.raises(ValueError, match="10 feature columns"):
        lookup(ids[:, :3])


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_lookup_at_inference_gives_the_tables_rows(dtype):
    torch.manual_seed(0)
    lookup = FeatureLookup(table_sizes=[10, 6], widths=[4, 2]).to(dtype)
    ids = torch.stack([torch.randint(0, 10, (2, 7)), torch.randint(0, 6, (2, 7))], dim=2)
    with torch.no_grad():
        out = lookup(ids)
        flat = lookup(ids.reshape(14, 2))  # a short call: kept where NumPy holds the dtype
        assert torch.equal(flat, out.reshape(14, 6)) and torch.equal(lookup(ids[0]), out[0])
        assert len(lookup.kept_rows) == (
            len(torch.unique(ids.reshape(14, 2), dim=0)) if dtype == torch.float32 else 0
        )
    assert out.dtype == dtype and out.shape == (2, 7, 6)
    assert torch.equal(out[..., :4], lookup.tables[0].weight[ids[..., 0]])
    assert torch.equal(out[..., 4:], lookup.tables[1].weight[ids[..., 1]])
    with torch.enable_grad():
        assert torch.equal(lookup(ids).detach(), out)


def test_lookup_without_character_cnns_is_unchanged():
    torch.manual_seed(0)
    lookup = FeatureLookup(table_sizes=[10, 6], widths=[4, 2])
    assert [n for n, _ in lookup.named_parameters()] == ["tables.0.weight", "tables.1.weight"]
    torch.manual_seed(0)
    tables = [nn.Embedding(10, 4), nn.Embedding(6, 2)]
    for table in tables:
        nn.init.uniform_(table.weight, -1.0, 1.0)
    assert torch.equal(lookup.tables[1].weight, tables[1].weight)


def test_words_kept_at_inference_give_the_encodings_computed_afresh():
    cnn = make_cnn().eval()
    with torch.no_grad():
        first = cnn(WORDS)
        assert len(cnn.kept) == 6  # the distinct rows, the padding row included
        again = cnn(WORDS[[6, 0, 3]])  # known words, in another batch (narrower once trimmed)
        assert torch.equal(again, first[[6, 0, 3]])
        assert torch.equal(cnn(WORDS), first)
        assert torch.equal(first[:5], cnn.encode(WORDS[:5]))


def test_kept_words_are_forgotten_when_the_weights_change():
    cnn = make_cnn().eval()
    with torch.no_grad():
        before = cnn(WORDS)
        cnn.conv.weight.mul_(2.0)  # an in-place change (e.g. averaged weights swapped in)
        after = cnn(WORDS)
    assert not torch.equal(before, after) and torch.equal(after[:5], cnn.encode(WORDS[:5]))
    cnn.train()
    cnn(WORDS).sum().backward()  # a training step is about to change the weights
    assert len(cnn.kept) == 0


def test_a_short_call_at_inference_takes_its_rows_from_the_kept_outputs():
    torch.manual_seed(0)
    words = FeatureLookup(table_sizes=[10], widths=[3], char_cnns=[SPEC])
    lookup = FeatureLookup(table_sizes=[6], widths=[2], shared=lambda: words)
    ids = torch.cat(
        [torch.randint(0, 6, (len(WORDS), 1)), torch.randint(0, 10, (len(WORDS), 1)), WORDS], 1
    )
    with torch.no_grad():
        first = lookup(ids)
        assert len(lookup.kept_rows) == len(torch.unique(ids, dim=0))
        assert torch.equal(first, lookup._embed(ids))
        assert torch.equal(lookup(ids[[4, 0]]), first[[4, 0]])  # gathered, not computed
        words.tables[0].weight.mul_(2.0)  # the shared table changed in place
        assert torch.equal(lookup(ids), lookup._embed(ids)) and not torch.equal(lookup(ids), first)
        long_call = ids.repeat(40, 1)  # beyond a short call: computed, nothing kept
        lookup.kept_rows.clear()
        assert torch.equal(lookup(long_call), lookup._embed(long_call))
        assert len(lookup.kept_rows) == 0


def test_new_words_at_inference_are_encoded_compiled_to_the_same_numbers(monkeypatch):
    cnn = make_cnn(SPEC._replace(window=5)).eval()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(20):
            rows = torch.randint(0, SPEC.n_chars, (9, SPEC.n_columns), generator=generator)
            rows[0] = 0  # no real position: the padding vector
            rows[1, 3:] = 0
            assert torch.equal(compiled_encodings(cnn, rows), cnn.encode(rows))
        assert compiled_encodings(cnn, WORDS.clone().fill_(SPEC.n_chars)) is None
        with torch.enable_grad():
            assert compiled_encodings(cnn, WORDS) is None
        calls = []
        monkeypatch.setattr(cnn, "_encode_rows", lambda rows: calls.append(rows))
        assert torch.equal(cnn(WORDS), cnn.encode(WORDS))  # new words: compiled
        assert calls == []
