#!/usr/bin/env bash
# The checks that need a GPU, on a machine with CUDA, PyTorch and CuPy (CI has none):
# 1. the test suite with every model on the GPU (SPACY_SENNA_TEST_GPU=1);
# 2. `annotate` of TEXT with the bundled pipeline on the CPU (one thread, the default) and
#    with --gpu-id 0:
#    the same bytes?, and the seconds of each (load included);
#    2b. the same with 8 processes sharing the GPU, and with 8 CPU processes;
# 3. `spacy train --gpu-id 0` of configs/open/joint.cfg for 200 steps on TRAIN;
# 4. `nlp.pipe` of en_senna over TEXT's lines, one CPU thread against the GPU, each in
#    its own process (benchmarks/speed/pipe_speed.py), all four layers and the three without SRL;
#    4b. the GPU at batches of 256, 1000 and 4096 docs (a model call holds a batch there).
# Run from the repository root with spacy-senna and en_senna importable:
#   benchmarks/speed/gpu_check.sh TEXT TRAIN OUT_DIR
set -u
text=$1
train=$2
out=$3
mkdir -p "$out"
python3 -c "import torch, cupy, spacy; print('torch', torch.__version__, torch.cuda.get_device_name(0), 'cupy', cupy.__version__, 'spacy', spacy.__version__)"

echo "== 1. tests on the GPU"
SPACY_SENNA_TEST_GPU=1 timeout 200 python3 -m pytest tests -q -p no:cacheprovider -n 8 \
    > "$out/pytest-gpu.log" 2>&1
echo "pytest rc=$?"
grep -E "^(FAILED|ERROR)|passed|failed" "$out/pytest-gpu.log" | head -40

echo "== 2. annotate, CPU (one thread) vs GPU"
words=$(wc -w < "$text")
for device in cpu gpu; do
    flag=()
    [ "$device" = gpu ] && flag=(--gpu-id 0)
    start=$(date +%s%N)
    python3 -m spacy_senna annotate "$text" "${flag[@]}" --progress lines \
        > "$out/annotate-$device.txt" 2> "$out/annotate-$device.err"
    rc=$?
    echo "$device rc=$rc ms=$((($(date +%s%N) - start) / 1000000)) words=$words"
    tail -n 2 "$out/annotate-$device.err"
done
if cmp -s "$out/annotate-cpu.txt" "$out/annotate-gpu.txt"; then
    echo "annotate: GPU output identical to CPU"
else
    echo "annotate: GPU output differs in $(diff "$out/annotate-cpu.txt" "$out/annotate-gpu.txt" | grep -c '^<') lines"
fi

echo "== 2b. annotate with 8 processes: 8 sharing the GPU, and 8 CPU cores (16 shards)"
mb=$(python3 -c "import os, sys; print(max(1e-4, os.path.getsize(sys.argv[1]) / 2**20 / 16))" "$text")
for device in cpu gpu; do
    flag=()
    [ "$device" = gpu ] && flag=(--gpu-id 0)
    start=$(date +%s%N)
    timeout 240 python3 -m spacy_senna annotate "$text" "${flag[@]}" --n-process 8 \
        --shard-size "$mb" --progress lines --output "$out/annotate-$device-8" \
        > "$out/annotate-$device-8.log" 2>&1
    echo "$device x8 rc=$? ms=$((($(date +%s%N) - start) / 1000000))"
    tail -n 4 "$out/annotate-$device-8.log"
done

echo "== 3. spacy train --gpu-id 0"
start=$(date +%s%N)
timeout 90 python3 -m spacy train configs/open/joint.cfg -o /tmp/gpu-train --gpu-id 0 \
    --paths.train "$train" --paths.dev "$train" --training.max_steps 200 \
    --training.eval_frequency 100 > "$out/train-gpu.log" 2>&1
echo "train rc=$? ms=$((($(date +%s%N) - start) / 1000000))"
tail -n 8 "$out/train-gpu.log"

echo "== 4. nlp.pipe, one CPU thread vs GPU (median of 3 rounds, batches of 256)"
for layers in all three; do
    exclude=()
    [ "$layers" = three ] && exclude=(--exclude senna_srl)
    timeout 240 python3 benchmarks/speed/pipe_speed.py "$text" "${exclude[@]}" \
        --json "$out/pipe-$layers-cpu.json" 2> "$out/pipe-$layers-cpu.err" | tail -n 1
    timeout 240 python3 benchmarks/speed/pipe_speed.py "$text" --gpu-id 0 "${exclude[@]}" \
        --against "$out/pipe-$layers-cpu.json" 2> "$out/pipe-$layers-gpu.err" | tail -n 2
    tail -n 2 "$out/pipe-$layers-gpu.err"
done

echo "== 4b. nlp.pipe on the GPU, all layers, batches of 256, 1000 (en_senna's, annotate's default) and 4096 docs"
for size in 256 1000 4096; do
    timeout 240 python3 benchmarks/speed/pipe_speed.py "$text" --gpu-id 0 --batch-size "$size" \
        --against "$out/pipe-all-cpu.json" 2> "$out/pipe-batch-$size-gpu.err" | tail -n 1
done
