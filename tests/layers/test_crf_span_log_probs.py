"""CRF.span_log_probs: exact span probabilities from one forward-backward pass, against
partition functions with the span's tags clamped, in float32 and float64, compiled (CPU)
and as torch steps (a GPU's)."""

import numpy
import pytest
import torch

from spacy_senna.labels.tags import allowed_transitions, biluo_labels
from spacy_senna.layers import crf as crf_module
from spacy_senna.layers import crf_partition
from spacy_senna.layers.crf import CRF

TAGS = biluo_labels(["A", "B"])
INDEX = {tag: i for i, tag in enumerate(TAGS)}
SPANS = [(0, 0, 1, "A"), (0, 2, 5, "B"), (0, 10, 12, "A"), (1, 0, 7, "A"), (2, 0, 1, "B")]


def constrained_crf():
    torch.manual_seed(0)
    crf = CRF(len(TAGS))
    with torch.no_grad():
        crf.transitions.normal_()
        crf.start.normal_()
    masks = allowed_transitions(TAGS, "BILUO")
    crf.set_constraints(*(torch.tensor(numpy.array(m)) for m in masks))
    return crf.double()


def span_tensors(spans):
    def tag(prefix, label):
        return INDEX[f"{prefix}-{label}"]

    one = [e - s == 1 for _, s, e, _ in spans]
    columns = (
        [r for r, *_ in spans],
        [s for _, s, _, _ in spans],
        [e for _, _, e, _ in spans],
        [tag("U" if u else "B", lab) for (*_, lab), u in zip(spans, one)],
        [tag("I", lab) for *_, lab in spans],
        [tag("U" if u else "L", lab) for (*_, lab), u in zip(spans, one)],
    )
    return [torch.tensor(c) for c in columns]


def clamped_reference(crf, emissions, lengths, spans):
    out = []
    for r, s, e, label in spans:
        tags = torch.full((1, emissions.shape[1]), -1)
        if e - s == 1:
            tags[0, s] = INDEX[f"U-{label}"]
        else:
            tags[0, s], tags[0, s + 1 : e - 1], tags[0, e - 1] = (
                INDEX[f"B-{label}"],
                INDEX[f"I-{label}"],
                INDEX[f"L-{label}"],
            )
        out.append(float(crf.sequence_log_prob(emissions[r : r + 1], tags, lengths[r : r + 1])))
    return numpy.array(out)


@pytest.mark.parametrize("scale", [1.0, 3.0])
def test_span_log_probs_equal_clamped_partition_functions(scale):
    crf = constrained_crf()
    torch.manual_seed(1)
    emissions = torch.randn(3, 12, len(TAGS), dtype=torch.double) * scale
    lengths = torch.tensor([12, 7, 1])
    got = crf.span_log_probs(emissions, lengths, *span_tensors(SPANS))
    with torch.no_grad():
        expected = clamped_reference(crf, emissions, lengths, SPANS)
    numpy.testing.assert_allclose(got.numpy(), expected, atol=1e-9)


def test_float32_emissions_give_span_probabilities_within_1e5_of_float64s(monkeypatch):
    """Labelling's float32 emissions run the forward-backward in float32 (twice as fast);
    the probabilities stay within 1e-5 of the float64 pass over the same scores."""
    crf = constrained_crf()
    torch.manual_seed(2)
    emissions = torch.randn(3, 12, len(TAGS)) * 3.0
    lengths = torch.tensor([12, 7, 1])
    precisions = []
    recorded = crf_module.scaled_forward_backward

    def recording(packed, blocks, transitions):
        precisions.append(packed.data.dtype)
        return recorded(packed, blocks, transitions)

    monkeypatch.setattr(crf_module, "scaled_forward_backward", recording)
    single = crf.span_log_probs(emissions, lengths, *span_tensors(SPANS))
    double = crf.span_log_probs(emissions.double(), lengths, *span_tensors(SPANS))
    assert precisions == [torch.float32, torch.float64]
    assert single.dtype == double.dtype == torch.float64
    numpy.testing.assert_allclose(single.exp().numpy(), double.exp().numpy(), atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_span_log_probs_compiled_as_torch_steps_give_them(monkeypatch, dtype):
    """On the CPU the forward-backward and the spans' sums run as compiled loops; the
    torch steps a GPU takes give the same log probabilities (up to the sums' order)."""
    crf = constrained_crf()
    torch.manual_seed(3)
    emissions = (torch.randn(4, 12, len(TAGS)) * 3.0).to(dtype)
    lengths = torch.tensor([12, 7, 1, 12])
    spans = SPANS + [(3, 1, 11, "B"), (3, 11, 12, "A")]
    compiled = crf.span_log_probs(emissions, lengths, *span_tensors(spans))
    monkeypatch.setattr(crf_partition, "_runs_compiled", lambda values: False)
    stepped = crf.span_log_probs(emissions, lengths, *span_tensors(spans))
    assert numpy.isfinite(compiled.numpy()).all()
    tolerance = 1e-5 if dtype == torch.float32 else 1e-10
    numpy.testing.assert_allclose(compiled.numpy(), stepped.numpy(), rtol=tolerance, atol=tolerance)


def test_span_log_probs_survive_underflow_of_the_scaled_recursion():
    crf = constrained_crf()
    torch.manual_seed(2)
    emissions = torch.randn(3, 12, len(TAGS), dtype=torch.double) * 3
    # position 3 allows only U-A and position 4 only I-B in float64's exp: the scaled
    # recursion's mass vanishes, so the exact log-space computation takes over
    emissions[0, 3:5, :] = -1e6
    emissions[0, 3, INDEX["U-A"]] = 0.0
    emissions[0, 4, INDEX["I-B"]] = 0.0
    lengths = torch.tensor([12, 7, 1])
    got = crf.span_log_probs(emissions, lengths, *span_tensors(SPANS))
    with torch.no_grad():
        expected = clamped_reference(crf, emissions, lengths, SPANS)
    assert numpy.isfinite(got.numpy()).all()
    numpy.testing.assert_allclose(got.numpy(), expected, atol=1e-6)


def test_span_log_probs_of_rows_of_very_different_lengths():
    # the rows with spans are scored in groups of similar length, each padded to its own
    # longest row: every span must still get its row's probability, in the input order
    crf = constrained_crf()
    torch.manual_seed(3)
    lengths = torch.tensor([30, 2, 17, 0, 5, 30, 9, 1, 40])
    emissions = torch.randn(len(lengths), 40, len(TAGS), dtype=torch.double) * 2
    spans = [
        (row, start, min(start + width, n), label)
        for row, n in enumerate(lengths.tolist())
        for start, width, label in [(0, 1, "A"), (n // 2, 3, "B")]
        if start < n and (start > 0 or n > 1)
    ]
    spans.reverse()
    got = crf.span_log_probs(emissions, lengths, *span_tensors(spans))
    with torch.no_grad():
        expected = clamped_reference(crf, emissions, lengths, spans)
    numpy.testing.assert_allclose(got.numpy(), expected, atol=1e-9)


def test_no_spans_gives_an_empty_result():
    crf = constrained_crf()
    empty = [torch.zeros(0, dtype=torch.long)] * 6
    emissions = torch.randn(1, 3, len(TAGS), dtype=torch.double)
    assert crf.span_log_probs(emissions, torch.tensor([3]), *empty).shape == (0,)
