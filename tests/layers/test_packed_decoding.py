"""Decoding the rows of several model calls in one packed Viterbi pass gives each call
the paths it gets alone, whatever the calls' lengths and padding."""

import pytest
import torch

from spacy_senna.labels.tags import allowed_transitions
from spacy_senna.layers import crf_viterbi
from spacy_senna.layers.crf import CRF
from spacy_senna.layers.packed_chains import PackedChains


def _crf(n_labels: int = 6) -> CRF:
    tags = ["O"] + [f"{p}-L{i}" for i in range(n_labels) for p in "BILU"]
    trans, start, end = (torch.tensor(a) for a in allowed_transitions(tags, "BILUO"))
    crf = CRF(len(tags), allowed_transitions=trans, allowed_start=start, allowed_end=end)
    with torch.no_grad():
        crf.transitions.copy_(
            torch.randn(len(tags), len(tags), generator=torch.Generator().manual_seed(0))
        )
    return crf


def _calls(C: int):
    g = torch.Generator().manual_seed(1)
    shapes = [(3, 9, [9, 4, 0]), (1, 2, [2]), (0, 0, []), (5, 14, [1, 14, 6, 14, 3])]
    calls = []
    for rows, T, lengths in shapes:
        emissions = torch.randn(rows, T, C, generator=g) * 3
        emissions[:, :, 0] += 2.0  # peaked, as a trained network's
        if rows:
            emissions[0, lengths[0] :] = float("nan")  # padding never matters
        calls.append((emissions, torch.tensor(lengths, dtype=torch.long)))
    return calls


def test_calls_decoded_together_get_the_paths_they_get_alone():
    crf = _crf()
    calls = _calls(crf.n_tags)
    together = crf.decode_chunks(calls)
    for (emissions, lengths), paths in zip(calls, together):
        assert paths.shape == emissions.shape[:2]
        alone = crf.decode(emissions, lengths)
        assert torch.equal(paths, alone)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("rows", [1, 2, 7])
def test_small_problems_decode_in_numpy_as_in_torch(monkeypatch, dtype, rows):
    # one doc at a time decodes in NumPy: the same paths and scores, ties broken alike
    crf = _crf().to(dtype)
    g = torch.Generator().manual_seed(rows)
    emissions = torch.randint(-2, 3, (rows, 11, crf.n_tags), generator=g).to(dtype)  # ties
    lengths = torch.randint(0, 12, (rows,), generator=g)
    lengths[0] = 11
    results = {}
    for limit in (0, 1 << 30):
        monkeypatch.setattr(crf_viterbi, "SMALL_VITERBI_FLOATS", limit)
        results[limit] = crf.kbest(emissions, lengths, 1), crf.decode(emissions, lengths)
    (paths, scores), decoded = results[0]
    (small_paths, small_scores), small_decoded = results[1 << 30]
    assert torch.equal(paths, small_paths) and torch.equal(decoded, small_decoded)
    assert torch.equal(scores, small_scores) and scores.dtype == small_scores.dtype


def test_packing_lays_rows_out_position_by_position_longest_first():
    emissions = torch.arange(2 * 3 * 1, dtype=torch.float32).reshape(2, 3, 1)
    packed = PackedChains.pack([(emissions, torch.tensor([2, 3]))])
    assert packed.batch_sizes == [2, 2, 1]
    assert packed.offsets == [0, 2, 4]
    # position 0 of the longest row (row 1), then of row 0; ...; position 2 of row 1 only
    assert packed.data[:, 0].tolist() == [3.0, 0.0, 4.0, 1.0, 5.0]
    assert packed.last_positions().tolist() == [4, 3]
    restored = packed.unpack(torch.tensor([[7, 8, 9], [1, 2, 3]]))
    assert restored.tolist() == [[1, 2, -1], [7, 8, 9]]
