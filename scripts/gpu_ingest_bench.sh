#!/usr/bin/env bash
# Ingestion on a many-core GPU machine, with and without the stage overlap (issue 25), in one device call.
#
# 1. Here (network for the wheels, once):
#      scripts/gpu_ingest_bench.sh --prepare
#    - wheels for CPython 3.12 / manylinux x86_64 of what the GPU image lacks (its python3 has torch,
#      sentence-transformers, onnxruntime, opencv, numpy, matplotlib, scipy, psutil, requests, pyyaml, tqdm):
#      pdfplumber, pdfminer.six (+ cryptography, cffi, pycparser), pypdfium2, ultralytics, usearch (+ numkong),
#      platformdirs, into .whl/ (about 30 MB);
#    - into .gpu/ingest/ (about 18 MB): the packaged detector (yolov8n-doclaynet.onnx, xz), the packaged
#      embedder's folder without its weights (config, tokenizer; the weights are drawn at random there: a
#      throughput run needs the architecture and the tokenizer, not the 87 MB of trained weights, which
#      would not fit a device call's 64 MiB), and the dev filings to ingest.
#    Both folders must be ignored by git (.git/info/exclude: /.whl/ and /.gpu/), the device call carries them.
# 2. On the device, through the run tool, carry [".whl", ".gpu/ingest"], timeout ~600 s:
#      scripts/gpu_ingest_bench.sh
#    installs the wheels into /tmp/site, writes a random-weight MiniLM and a models.toml (embedder and detector
#    device "auto"; no OCR: the filings have text layers; no model server), prints the thread budget, then runs
#    benchmarks/bench_ingest.py on the filings for each of RUNS (default "cpu:off cpu:on cuda:off cuda:on":
#    the embedder on the CPU's cores or on the GPU, overlap_stages off or on), each against a bare pdfplumber
#    pass in the same run. Results: $OUT/bench_ingest-<device>-<overlap>.json and $OUT/summary.txt.
#
# Environment: PYTHON (python3), RUNS, GPU_INGEST_DIR (.gpu/ingest), GPU_INGEST_FILES (the three 10-Ks of the
#   README's ingestion figures), GPU_INGEST_SKIP_INSTALL=1 (use the packages $PYTHON already has: a dry run on
#   this machine, e.g. RUNS="cpu:off" OUT=/tmp/x scripts/gpu_ingest_bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${GPU_INGEST_DIR:-.gpu/ingest}"
files="${GPU_INGEST_FILES:-AMAZON_2017_10K.pdf NIKE_2023_10K.pdf WALMART_2020_10K.pdf}"

if [ "${1:-}" = "--prepare" ]; then
  py="${PREPARE_PYTHON:-.venv/bin/python}"
  eval_dir="${EVAL_DIR:-../shared/data/eval}"
  mkdir -p .whl "$dir/pdfs"
  plat=(--platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64
        --platform manylinux_2_26_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64)
  # The versions this project pins (pyproject.toml) and the ones its venv resolved for their dependencies.
  "$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp "${plat[@]}" \
    -d .whl pdfplumber==0.11.10 pdfminer.six==20260107 pypdfium2==5.15.2 ultralytics==8.4.190 usearch==2.26.6 \
    platformdirs==4.14.8 numkong==7.8.6 cryptography==50.0.2 cffi==2.1.1 pycparser==3.12
  PYTHONPATH="$PWD" "$py" - "$dir" <<'EOF'
import lzma, shutil, sys, tempfile
from pathlib import Path
from engine.models.packaged import resolve
out = Path(sys.argv[1])
models = Path(tempfile.mkdtemp())
det = resolve("yolov8n-doclaynet", models)
with open(det, "rb") as fin, lzma.open(out / "yolov8n-doclaynet.onnx.xz", "wb", preset=9) as fout:
    shutil.copyfileobj(fin, fout, 1 << 20)
emb = resolve("all-minilm-l6-v2", models)
if (out / "minilm").exists():
    shutil.rmtree(out / "minilm")
shutil.copytree(emb, out / "minilm", ignore=shutil.ignore_patterns("model.safetensors", "README.md", "*.onnx"))
EOF
  for f in $files; do cp "$eval_dir/financebench/pdfs/$f" "$dir/pdfs/"; done
  du -sh .whl "$dir"
  echo "total to carry (plus the repo's tracked files): $(du -cb .whl "$dir" | tail -1 | cut -f1) bytes"
  exit 0
fi

py="${PYTHON:-python3}"
out="${OUT:-/tmp/mfr-gpu-ingest}"
work="${WORK:-/tmp/mfr-gpu-ingest-work}"
mkdir -p "$out" "$work"
[ -f "$dir/yolov8n-doclaynet.onnx.xz" ] || { echo "missing $dir: run scripts/gpu_ingest_bench.sh --prepare" >&2; exit 2; }
if [ "${GPU_INGEST_SKIP_INSTALL:-0}" != "1" ]; then
  "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 MFR_MODELS_DIR="$work/models"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
echo "cpus: $(nproc), affinity $("$py" -c 'import os; print(len(os.sched_getaffinity(0)))')"

"$py" - "$dir" "$work" <<'EOF'
import lzma, shutil, sys
from pathlib import Path
src, work = Path(sys.argv[1]), Path(sys.argv[2])
det = work / "yolov8n-doclaynet.onnx"
with lzma.open(src / "yolov8n-doclaynet.onnx.xz", "rb") as fin, open(det, "wb") as fout:
    shutil.copyfileobj(fin, fout, 1 << 20)
emb = work / "minilm"
if emb.exists():
    shutil.rmtree(emb)
shutil.copytree(src / "minilm", emb)
import torch
from transformers import BertConfig, BertModel
torch.manual_seed(0)
BertModel(BertConfig.from_pretrained(str(emb))).save_pretrained(str(emb))  # random weights, same shapes
(work / "models.toml").write_text(f'''
default_profile = "bench"
[profiles.bench]
description = "issue 25 device run: random-weight MiniLM, packaged DocLayNet detector, no OCR, no model server"
[profiles.bench.embedder]
backend = "sentence-transformers"
path = "{emb}"
device = "auto"
[profiles.bench.llm]
backend = "openai"
url = "http://127.0.0.1:9"
[profiles.bench.detector]
backend = "ultralytics"
path = "{det}"
imgsz = 640
conf = 0.25
device = "auto"
[profiles.bench.ocr]
backend = "none"
''')
from engine.settings import Settings
from engine.models.provider import ModelProvider
print("thread budget:", ModelProvider(Settings(models_toml=work / "models.toml")).budget.to_json())
EOF

pdfs=()
for f in $files; do pdfs+=("$dir/pdfs/$f"); done
summary="$out/summary.txt"
: > "$summary"
for run in ${RUNS:-cpu:off cpu:on cuda:off cuda:on}; do
  device="${run%%:*}" overlap="${run##*:}"
  visible=()
  [ "$device" = "cpu" ] && visible=(env CUDA_VISIBLE_DEVICES=)
  echo "== embedder on $device, overlap_stages=$overlap"
  "${visible[@]}" "$py" benchmarks/bench_ingest.py --set "models_toml=$work/models.toml" \
    --set "overlap_stages=$overlap" --out "$out/bench_ingest-$device-$overlap.json" "${pdfs[@]}" \
    | tee "$out/bench_ingest-$device-$overlap.log" || true
  { echo "$device overlap=$overlap: $(grep -h 'ratio to the bare' "$out/bench_ingest-$device-$overlap.log")"
    grep -hE '^  [a-z]+ +[0-9.]+s ' "$out/bench_ingest-$device-$overlap.log" | tr -s ' ' | paste -sd';' -; } >> "$summary"
done
cat "$summary"
