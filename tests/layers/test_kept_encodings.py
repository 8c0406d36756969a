"""KeptEncodings: a row's encoding is the one `encode` gave it, computed once per set of
weights, whatever batch the row comes back in."""

import torch

from spacy_senna.layers.kept_encodings import KeptEncodings


class CountingEncoder:
    """An encoding that tells rows apart (their ids weighted by position), counting the
    rows it was asked to encode."""

    def __init__(self) -> None:
        self.encoded = 0

    def __call__(self, rows: torch.Tensor) -> torch.Tensor:
        self.encoded += len(rows)
        weights = torch.arange(1, rows.shape[1] + 1, dtype=torch.float32)
        return torch.stack([(rows.float() * weights).sum(1), rows.float().max(1).values], 1)


def _rows(*words):
    """Words as rows of character ids, PADDING (0) after them, 5 columns wide."""
    return torch.tensor([list(w) + [0] * (5 - len(w)) for w in words], dtype=torch.long)


def test_each_row_gets_its_own_encoding_and_a_seen_row_is_not_encoded_again():
    store, encode = KeptEncodings(), CountingEncoder()
    first = _rows((3, 4), (5,), (3, 4), (6, 7, 8))
    got = store.encodings(first, encode, weights=(0,))
    assert torch.equal(got, encode(first))
    encode.encoded = 0
    again = _rows((6, 7, 8), (9, 9), (3, 4), (9, 9))  # two rows seen, one new (twice)
    got = store.encodings(again[1::2], encode, weights=(0,))  # a strided view
    assert torch.equal(got, CountingEncoder()(again[1::2]))
    assert encode.encoded == 1  # only (9, 9), once
    assert torch.equal(store.encodings(again, encode, weights=(0,)), CountingEncoder()(again))
    assert encode.encoded == 1 and len(store) == 4


def test_new_weights_or_a_full_store_forget_every_encoding():
    store, encode = KeptEncodings(max_rows=3), CountingEncoder()
    store.encodings(_rows((1,), (2,)), encode, weights=(0,))
    store.encodings(_rows((1,), (2,)), encode, weights=(1,))  # the weights moved
    assert encode.encoded == 4 and len(store) == 2
    got = store.encodings(_rows((3,), (4,)), encode, weights=(1,))  # 2 + 2 > 3 rows
    assert encode.encoded == 6 and len(store) == 2
    assert torch.equal(got, CountingEncoder()(_rows((3,), (4,))))


def test_a_store_filled_while_labelling_grows_outside_inference_mode():
    store, encode = KeptEncodings(), CountingEncoder()
    with torch.inference_mode():
        store.encodings(_rows((1, 2)), encode, weights=(0,))
    with torch.no_grad():
        got = store.encodings(_rows((1, 2), (2, 1)), encode, weights=(0,))
    assert torch.equal(got, CountingEncoder()(_rows((1, 2), (2, 1))))


def test_whole_encodes_every_row_of_a_call_with_a_new_one_and_keeps_the_new():
    store, encode = KeptEncodings(), CountingEncoder()
    store.encodings(_rows((1,), (2,)), encode, weights=(0,), whole=True)
    encode.encoded = 0
    rows = _rows((2,), (3,), (1,), (3,))
    got = store.encodings(rows, encode, weights=(0,), whole=True)
    assert encode.encoded == 4 and len(store) == 3  # all four encoded, (3,) kept once
    assert torch.equal(got, CountingEncoder()(rows))
    assert torch.equal(store.encodings(rows, encode, weights=(0,), whole=True), got)
    assert encode.encoded == 4  # all kept now: gathered
