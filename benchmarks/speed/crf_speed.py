"""Same-run CPU throughput of spacy_senna's CRF against pytorch-crf 0.7.2.

usage: python benchmarks/speed/crf_speed.py [--batch 64] [--time 40] [--tags 17 45 120] [--rounds 7]
       [--threads 1]

Both compute the same quantity: pytorch-crf's end transitions are zeroed (SENNA has no
end score) and its transitions/start are copied from ours. For each tag count it prints
NLL forward+backward and Viterbi decode sequences/s (median of alternating rounds), the
median per-round speed ratio, and the largest NLL difference. Needs `pip install
pytorch-crf==0.7.2` (the `bench` extra).
"""

import argparse
import platform
import statistics
import time

import torch
from torchcrf import CRF as TorchCRF

from spacy_senna.layers.crf import CRF


def timed(fn, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--time", type=int, default=40)
    p.add_argument("--tags", type=int, nargs="+", default=[17, 45, 120])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--threads", type=int, default=1, help="torch threads for both CRFs")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    B, T = args.batch, args.time
    cpu = platform.processor() or platform.machine()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {cpu}")
    print(f"B={B} T={T} (lengths uniform in [{T // 2}, {T}]), {args.rounds} alternating rounds")
    print(
        "| C | NLL fwd+bwd senna (seq/s) | pytorch-crf | ratio | decode senna (seq/s) "
        "| pytorch-crf | ratio | max NLL diff | max err vs float64: senna / pytorch-crf |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for C in args.tags:
        ours = CRF(C)
        theirs = TorchCRF(C, batch_first=True)
        with torch.no_grad():
            ours.transitions.normal_(0, 0.5)
            ours.start.normal_(0, 0.5)
            theirs.transitions.copy_(ours.transitions)
            theirs.start_transitions.copy_(ours.start)
            theirs.end_transitions.zero_()
        emissions = torch.randn(B, T, C) * 3
        lengths = torch.randint(T // 2, T + 1, (B,))
        lengths[0] = T
        mask = torch.arange(T)[None] < lengths[:, None]
        tags = torch.randint(0, C, (B, T))

        def ours_nll():
            em = emissions.detach().requires_grad_(True)
            ours.nll(em, tags, lengths).sum().backward()

        def theirs_nll():
            em = emissions.detach().requires_grad_(True)
            (-theirs(em, tags, mask, reduction="none")).sum().backward()

        def ours_decode():
            ours.decode(emissions, lengths).tolist()

        def theirs_decode():
            theirs.decode(emissions, mask)

        with torch.no_grad():
            a = ours.nll(emissions, tags, lengths)
            b = -theirs(emissions, tags, mask, reduction="none")
            ref = ours.double().nll(emissions.double(), tags, lengths)
            ours.float()
        diff = (a - b).abs().max().item()
        err_ours = (a.double() - ref).abs().max().item()
        err_theirs = (b.double() - ref).abs().max().item()
        paths = ours.decode(emissions, lengths)
        agree = all(
            paths[i, : lengths[i]].tolist() == q
            for i, q in enumerate(theirs.decode(emissions, mask))
        )
        for fn in (ours_nll, theirs_nll, ours_decode, theirs_decode):
            fn()
        rows = {k: [] for k in ("on", "tn", "od", "td")}
        for _ in range(args.rounds):
            rows["on"].append(timed(ours_nll, args.repeats))
            rows["tn"].append(timed(theirs_nll, args.repeats))
            rows["od"].append(timed(ours_decode, args.repeats))
            rows["td"].append(timed(theirs_decode, args.repeats))
        nll_ratio = statistics.median(t / o for o, t in zip(rows["on"], rows["tn"]))
        dec_ratio = statistics.median(t / o for o, t in zip(rows["od"], rows["td"]))
        sps = {k: B / statistics.median(v) for k, v in rows.items()}
        same = "" if agree else " (paths differ)"
        print(
            f"| {C} | {sps['on']:,.0f} | {sps['tn']:,.0f} | {nll_ratio:.2f}x | {sps['od']:,.0f} | "
            f"{sps['td']:,.0f} | {dec_ratio:.2f}x | {diff:.1e}{same} | "
            f"{err_ours:.1e} / {err_theirs:.1e} |"
        )


if __name__ == "__main__":
    main()
