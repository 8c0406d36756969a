"""SRL argument P/R/F with CoNLL-2005 `srl-eval.pl` counting (paper §1.4, §9).

Per predicate, the arguments are the labelled spans except the predicate itself (`V`);
a continuation `C-X` joins the preceding `X` into one discontinuous argument, which is
correct only when its label and every piece match; a `C-X` with no `X` before it counts
as a regular `X`. Reference-style `R-X` arguments count on their own. As in the script,
a predicted frame for a predicate that the reference does not have is skipped. This is a
re-implementation of the official script's counting (the Perl script is not bundled),
checked against hand-counted cases in the tests and against srl-eval.pl itself on
CoNLL-2005 WSJ 23 (benchmarks/accuracy/srl_eval.py: identical overall and per-type scores).
"""

from collections import Counter
from typing import Any, Collection, Dict, FrozenSet, Iterable, List, Optional, Tuple

from spacy.training import Example

from ..labels.tags import Chunk
from ..srl.frames import frame_chunks, frame_keys
from .counts import prf

Argument = Tuple[str, FrozenSet[Tuple[int, int]]]
EXCLUDED = ("V", "C-V")


def frame_arguments(chunks: Iterable[Chunk], excluded: Collection[str] = EXCLUDED) -> Counter:
    """Counter of arguments (label, pieces) of one frame, C-X joined to its X; chunks
    labelled with an `excluded` label (default: the predicate, V and C-V) are left out."""
    args: List[Tuple[str, List[Tuple[int, int]]]] = []
    for label, start, end in sorted(chunks, key=lambda c: (c[1], c[2])):
        if label in excluded:
            continue
        if label.startswith("C-"):
            base = label[2:]
            for previous in reversed(args):
                if previous[0] == base:
                    previous[1].append((start, end))
                    break
            else:  # no X before it: srl-eval.pl counts it as a regular X
                args.append((base, [(start, end)]))
            continue
        args.append((label, [(start, end)]))
    return Counter((label, frozenset(pieces)) for label, pieces in args)


def _predicted_index(example: Example, ref_index: int) -> Optional[int]:
    aligned = example.alignment.y2x[ref_index]
    return int(aligned[0]) if len(aligned) == 1 else None


def score_srl(
    examples: Iterable[Example],
    *,
    spans_key: str = "srl",
    count_unmatched_frames: bool = False,
    **_,
) -> Dict[str, Any]:
    """`srl_p`, `srl_r`, `srl_f` (0-1, like spaCy's scores) and `srl_per_type`.

    count_unmatched_frames: the arguments of a predicted frame whose predicate the
        reference does not have count as wrong (for predicates a tagger found, where
        srl-eval.pl, given the reference's predicates, skips them).
    """
    correct: Counter = Counter()
    n_gold: Counter = Counter()
    n_found: Counter = Counter()
    for eg in examples:
        found = frame_chunks(eg.predicted, spans_key)
        matched = set()
        for ref_index, key in frame_keys(eg.reference, spans_key):
            aligned = eg.get_aligned_spans_y2x(eg.reference.spans[key], allow_overlap=True)
            gold = frame_arguments((s.label_, s.start, s.end) for s in aligned)
            predicate = _predicted_index(eg, ref_index)
            matched.add(predicate)
            guess = frame_arguments(found.get(predicate, []) if predicate is not None else [])
            count_frame(gold, guess, correct, n_gold, n_found)
        if count_unmatched_frames:
            for predicate, chunks in found.items():
                if predicate not in matched:
                    count_frame(Counter(), frame_arguments(chunks), correct, n_gold, n_found)
    has_any = sum(n_gold.values()) + sum(n_found.values()) > 0
    if not has_any:
        return {"srl_p": None, "srl_r": None, "srl_f": None, "srl_per_type": None}
    per_type = {
        label: argument_prf(correct[label], n_gold[label], n_found[label])
        for label in sorted(set(n_gold) | set(n_found))
    }
    total = argument_prf(sum(correct.values()), sum(n_gold.values()), sum(n_found.values()))
    return {"srl_p": total["p"], "srl_r": total["r"], "srl_f": total["f"], "srl_per_type": per_type}


def count_frame(
    gold: Counter, guess: Counter, correct: Counter, n_gold: Counter, n_found: Counter
) -> None:
    """Add one frame's gold and guessed arguments (`frame_arguments`) to the counts per
    label: gold, found, and correct (in both)."""
    for (label, _), n in gold.items():
        n_gold[label] += n
    for (label, _), n in guess.items():
        n_found[label] += n
    for arg, n in (gold & guess).items():
        correct[arg[0]] += n


def argument_prf(n_correct: int, n_gold: int, n_found: int) -> Dict[str, float]:
    """Precision, recall and F1 (0-1) as {"p", "r", "f"}."""
    scores = prf(n_correct, n_gold, n_found)
    return {key: scores[key] for key in ("p", "r", "f")}
