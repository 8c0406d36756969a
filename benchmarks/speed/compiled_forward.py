"""What one compiled call would save over PyTorch's operations for a short text: en_senna's
tagger network after its lookup (the sentence BiLSTM, the window and centre layers in
bfloat16 rounding, HardTanh, the output layer) as one Numba call, against the network's
own forward, on one-sentence texts labelled one at a time.

usage: python benchmarks/speed/compiled_forward.py TEXTS.txt [--docs 300] [--rounds 3]
       [--pipeline en_senna]

For each of the first `--docs` texts (one per line) that is one sentence, the tagger's
inputs are made as it makes them, then timed on one thread, best of `--rounds` per text:
the network's forward (lookup included), its lookup alone, and the compiled estimate of
the rest. The estimate rounds the window layers' inputs, weights and outputs to bfloat16
as a CPU's bfloat16 product does, so its argmax is compared with the network's too. This
measures the overhead of a long series of small framework calls (issue #63); it is not a
labelling path.
"""

from __future__ import annotations

import argparse
import time
from typing import Dict, List

import numpy
import spacy
import torch
from numba import njit
from spacy.language import Language

from spacy_senna.layers.lstm_compiled import recurrence
from spacy_senna.models.senna_model import get_net
from spacy_senna.models.sequences import featurize

F32 = numpy.float32


@njit(cache=True)
def bfloat16_rounded(values):
    """`values` (float32, contiguous) rounded to the nearest bfloat16, ties to even."""
    bits = values.reshape(-1).view(numpy.uint32)
    out = numpy.empty(values.size, dtype=numpy.uint32)
    for i in range(values.size):
        b = bits[i]
        out[i] = (b + numpy.uint32(0x7FFF) + ((b >> numpy.uint32(16)) & numpy.uint32(1))) & (
            numpy.uint32(0xFFFF0000)
        )
    return out.view(numpy.float32).reshape(values.shape)


@njit(cache=True, fastmath=True)
def product(rows, weight_t, bias, out):
    """out = rows @ weight_t + bias, one input column at a time (its weight row read once
    for every row)."""
    for r in range(rows.shape[0]):
        for j in range(weight_t.shape[1]):
            out[r, j] = bias[j]
    for k in range(rows.shape[1]):
        for r in range(rows.shape[0]):
            value = rows[r, k]
            for j in range(weight_t.shape[1]):
                out[r, j] += value * weight_t[k, j]


@njit(cache=True)
def windows(rows, half, out):
    """out[r] = rows[r : r + 2 * half + 1] laid end to end."""
    width = rows.shape[1]
    for r in range(rows.shape[0] - 2 * half):
        for k in range(2 * half + 1):
            for c in range(width):
                out[r, k * width + c] = rows[r + k, c]


def tagger_weights(net: torch.nn.Module) -> Dict[str, numpy.ndarray]:
    """The tagger network's weights as the estimate reads them (bfloat16-rounded where the
    network computes in bfloat16)."""

    def f32(t: torch.Tensor) -> numpy.ndarray:
        return numpy.ascontiguousarray(t.detach().float().numpy(), dtype=F32)

    def bf16(t: torch.Tensor) -> numpy.ndarray:
        return f32(t.detach().to(torch.bfloat16))

    lstm = net.lstm.lstm
    conv = net.hidden.weight  # (out, channels, window): the windows' order is window-major
    return {
        "input_t": f32(torch.cat([lstm.weight_ih_l0, lstm.weight_ih_l0_reverse]).T),
        "input_bias": f32(torch.cat([lstm.bias_ih_l0, lstm.bias_ih_l0_reverse])),
        "forward_t": f32(lstm.weight_hh_l0.T),
        "forward_bias": f32(lstm.bias_hh_l0),
        "backward_t": f32(lstm.weight_hh_l0_reverse.T),
        "backward_bias": f32(lstm.bias_hh_l0_reverse),
        "window_t": bf16(conv.permute(0, 2, 1).reshape(conv.shape[0], -1).T),
        "window_bias": bf16(net.hidden.bias),
        "centre_t": bf16(net.lstm_centre.weight.T),
        "output_t": f32(net.output.weight.T),
        "output_bias": f32(net.output.bias),
    }


def compiled_rest(rows: numpy.ndarray, w: Dict[str, numpy.ndarray], half: int) -> numpy.ndarray:
    """The tagger network's scores for one sentence from its lookup `rows` (the sentence
    with `half` padding rows each side), computed by the compiled pieces above."""
    words = numpy.ascontiguousarray(rows[half : len(rows) - half])
    n = len(words)
    hidden = w["forward_t"].shape[0]
    gates = numpy.empty((n, w["input_t"].shape[1]), F32)
    product(words, w["input_t"], w["input_bias"], gates)
    sizes = numpy.ones(n, dtype=numpy.int64)
    offsets = numpy.arange(n + 1, dtype=numpy.int64)
    states = numpy.empty((n, 2 * hidden), F32)
    recurrence(gates, sizes, offsets, w["forward_t"], w["forward_bias"], False, 0, 0, states)
    recurrence(
        gates, sizes, offsets, w["backward_t"], w["backward_bias"], True, 4 * hidden, hidden, states
    )
    laid = numpy.empty((n, rows.shape[1] * (2 * half + 1)), F32)
    windows(bfloat16_rounded(rows), half, laid)
    out = numpy.empty((n, w["window_t"].shape[1]), F32)
    product(laid, w["window_t"], w["window_bias"], out)
    centre = numpy.empty_like(out)
    product(bfloat16_rounded(states), w["centre_t"], numpy.zeros(out.shape[1], F32), centre)
    layer = numpy.clip(bfloat16_rounded(out) + bfloat16_rounded(centre), -1.0, 1.0)
    scores = numpy.empty((n, w["output_t"].shape[1]), F32)
    product(numpy.ascontiguousarray(layer, dtype=F32), w["output_t"], w["output_bias"], scores)
    return scores


def compare(nlp: Language, texts: List[str], rounds: int) -> Dict[str, float]:
    """Mean microseconds a one-sentence text: the forward, its lookup, the estimate; and
    the share of tokens whose best tag the estimate and the network agree on."""
    tagger = nlp.get_pipe("senna_tagger")
    net = get_net(tagger.model).emission_net.eval()
    if net.lstm is None or net.lstm_centre is None or net.doc_context:
        raise SystemExit("✘ the estimate covers a tagger with a sentence BiLSTM read at the centre")
    before = nlp.pipe_names[: nlp.pipe_names.index("senna_tagger")]
    with nlp.select_pipes(enable=before):
        docs = [doc for doc in map(nlp, texts) if len(doc) and len(list(doc.sents)) == 1]
    if not docs:
        raise ValueError("No one-sentence text to time")
    weights = tagger_weights(net)
    half = net.half_window
    totals = {"forward_us": 0.0, "lookup_us": 0.0, "compiled_us": 0.0}
    agree = tokens = 0
    with torch.inference_mode():
        flat, *_ = featurize(tagger.model, docs[:1], False)
        compiled_rest(net.lookup(flat).numpy(), weights, half)  # compile once
        for doc in docs:
            flat, index, lengths, _, context = featurize(tagger.model, [doc], False)
            best = {key: float("inf") for key in totals}
            for _ in range(rounds):
                start = time.perf_counter()
                scores = net(flat, index, context, lengths)
                looked_up = time.perf_counter()
                rows = net.lookup(flat).numpy()
                compiled_start = time.perf_counter()
                estimate = compiled_rest(rows, weights, half)
                end = time.perf_counter()
                for key, seconds in (
                    ("forward_us", looked_up - start),
                    ("lookup_us", compiled_start - looked_up),
                    ("compiled_us", end - compiled_start),
                ):
                    best[key] = min(best[key], seconds)
            for key in totals:
                totals[key] += 1e6 * best[key] / len(docs)
            n = len(doc)
            agree += int((scores[0, :n].argmax(-1).numpy() == estimate.argmax(-1)).sum())
            tokens += n
    return {**totals, "docs": len(docs), "words": tokens / len(docs), "agree": agree / tokens}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts")
    parser.add_argument("--docs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pipeline", default="en_senna")
    args = parser.parse_args()
    torch.set_num_threads(1)
    texts = [line.strip() for line in open(args.texts, encoding="utf8") if line.strip()]
    result = compare(spacy.load(args.pipeline), texts[: args.docs], args.rounds)
    print(
        f"{result['docs']} one-sentence texts, {result['words']:.1f} words each: the tagger's "
        f"forward {result['forward_us']:.0f} us (its lookup {result['lookup_us']:.0f} us); "
        f"the rest as one compiled call {result['compiled_us']:.0f} us; best tags agree on "
        f"{100 * result['agree']:.2f}% of tokens"
    )


if __name__ == "__main__":
    main()
