"""Score senna_srl with the official CoNLL-2005 `srl-eval.pl`, beside the built-in scorer.

usage: python benchmarks/accuracy/srl_eval.py PIPELINE DATA.spacy OUT_DIR [--srl-eval SCRIPT]
       [--copy-spans srl_predicates [pt0]] [--copy-attrs tag_] [--before PIPELINE ...]
       [--output FILE]

Runs the pipeline on DATA's given predicates (gold tokens; `--copy-spans` also gives it
other input spans from the data, e.g. the Charniak level-0 `pt0` segments, and `--before`
puts other pipelines' components first, e.g. the PT0 chunker) and writes OUT_DIR/gold.props
and OUT_DIR/pred.props in the CoNLL-2005 props format (a target column, then one
Start-End column per predicate), and the report of `score conll05` on them to
OUT_DIR/score-conll05.txt. With `--srl-eval` (the script from srlconll-1.1, whose `lib/`
is put on PERL5LIB, or a standalone copy) it runs `perl SCRIPT gold pred`, keeps its
report in OUT_DIR/srl-eval.txt and checks that every row of it (overall and each argument
type, P/R/F1) equals spacy-senna's scorer and that its text equals `score conll05`'s; the
exit status is 1 when one differs.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import spacy
from pipelines import put_before
from spacy.tokens import Doc
from spacy.training import Example

from spacy_senna.corpora.readers import create_corpus_with_inputs
from spacy_senna.scoring import props as props_format
from spacy_senna.scoring import score_srl, srl_eval
from spacy_senna.srl.frames import frame_chunks, frame_keys

ROW = re.compile(
    r"^\s*(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", re.MULTILINE
)


def props_lines(reference: Doc, frames: Dict[int, list]) -> List[str]:
    """A sentence's props lines: the target column and one column per gold predicate."""
    predicates = [i for i, _ in frame_keys(reference)]
    lemmas = {s.start: s.label_ for s in reference.spans.get("srl_predicates", [])}
    targets = ["-"] * len(reference)
    for i in predicates:
        targets[i] = lemmas.get(i) or reference[i].text
    return props_format.props_lines(targets, [frames.get(i, []) for i in predicates])


def run_srl_eval(script: Path, gold: Path, pred: Path) -> str:
    env = dict(os.environ)
    lib = script.resolve().parent.parent / "lib"
    if lib.is_dir():
        env["PERL5LIB"] = os.pathsep.join(filter(None, [str(lib), env.get("PERL5LIB")]))
    done = subprocess.run(
        ["perl", str(script), str(gold), str(pred)], capture_output=True, text=True, env=env
    )
    if done.returncode != 0 or "Overall" not in done.stdout:
        sys.exit(f"{script} failed (exit {done.returncode}):\n{done.stderr or done.stdout}")
    return done.stdout


def official_rows(report: str) -> Dict[str, List[float]]:
    """{"Overall" or argument type: [P, R, F1]} from srl-eval.pl's report (V left out)."""
    rows = {m[0]: [float(v) for v in m[4:]] for m in ROW.findall(report)}
    rows.pop("V", None)
    return rows


def our_rows(scores: dict) -> Dict[str, List[float]]:
    """The same table from spacy-senna's scores, in percent rounded like the script."""
    rows = {"Overall": [scores["srl_p"], scores["srl_r"], scores["srl_f"]]}
    for label, prf in scores["srl_per_type"].items():
        rows[label] = [prf["p"], prf["r"], prf["f"]]
    return {label: [round(100 * v, 2) for v in prf] for label, prf in rows.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pipeline")
    p.add_argument("data")
    p.add_argument("out_dir", type=Path)
    p.add_argument("--srl-eval", default="", help="path to srl-eval.pl")
    p.add_argument("--output", type=Path, help="write both tables as JSON")
    p.add_argument("--copy-spans", nargs="*", default=["srl_predicates"])
    p.add_argument("--copy-attrs", nargs="*", default=[])
    p.add_argument("--before", nargs="*", default=[], help="pipelines whose components run first")
    args = p.parse_args()
    nlp = put_before(spacy.load(args.pipeline), args.before)
    corpus = create_corpus_with_inputs(
        args.data, copy_attrs=args.copy_attrs, copy_spans=args.copy_spans, gold_preproc=True
    )
    examples = list(corpus(nlp))
    predicted = nlp.pipe(eg.predicted for eg in examples)
    scored = [Example(doc, eg.reference) for doc, eg in zip(predicted, examples)]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    gold_path, pred_path = args.out_dir / "gold.props", args.out_dir / "pred.props"
    gold_lines, pred_lines = [], []
    for eg in scored:
        gold_lines += props_lines(eg.reference, frame_chunks(eg.reference))
        pred_lines += props_lines(eg.reference, frame_chunks(eg.predicted))
    gold_path.write_text("\n".join(gold_lines) + "\n", encoding="utf8")
    pred_path.write_text("\n".join(pred_lines) + "\n", encoding="utf8")
    print(f"wrote {gold_path} and {pred_path} ({len(scored)} sentences)")
    ours = srl_eval(gold_path, pred_path).report()
    (args.out_dir / "score-conll05.txt").write_text(ours, encoding="utf8")
    result = {"spacy_senna": our_rows(score_srl(scored))}
    print(
        "spacy-senna scorer: P {:.2f}  R {:.2f}  F1 {:.2f}".format(
            *result["spacy_senna"]["Overall"]
        )
    )
    same = True
    script = Path(args.srl_eval)
    if not args.srl_eval or not script.is_file():
        print(f"srl-eval.pl not found at {args.srl_eval!r}: wrote the props files only")
    else:
        report = run_srl_eval(script, gold_path, pred_path)
        (args.out_dir / "srl-eval.txt").write_text(report, encoding="utf8")
        result["srl_eval"] = official_rows(report)
        print(
            "srl-eval.pl:        P {:.2f}  R {:.2f}  F1 {:.2f}".format(
                *result["srl_eval"]["Overall"]
            )
        )
        differ = sorted(
            label
            for label in set(result["srl_eval"]) | set(result["spacy_senna"])
            if result["srl_eval"].get(label) != result["spacy_senna"].get(label)
        )
        result["identical"] = not differ
        result["report_identical"] = report == ours
        same = result["identical"] and result["report_identical"]
        print(
            "identical overall and per-type P/R/F1" if not differ else f"DIFFERENT rows: {differ}"
        )
        print(
            "score conll05 report: "
            + ("identical text" if report == ours else "DIFFERENT text (see score-conll05.txt)")
        )
    if args.output:
        args.output.write_text(json.dumps(result, indent=2), encoding="utf8")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
