#!/usr/bin/env bash
# Fuzzes ctde with libFuzzer: installs clang and libFuzzer if missing, builds
# the target with clang in its own build folder (ASan + UBSan + coverage; not
# part of the normal build or CI), seeds a corpus and runs a bounded campaign.
#
#   scripts/fuzz.sh [TARGET] [RUNS] [more libFuzzer options...]
#
# TARGET is one of
#   loader   (the default) bench/fuzz/model_loader_fuzzer.cpp: the model
#            loader, validation and the director options, given any bytes;
#   command  bench/fuzz/command_fuzzer.cpp: the whole path of ctde validate
#            and run: `--set` lines and a model file, what validate and run
#            check (set_up_run), then a short run (0.2 s at most) into an
#            in-memory results CSV and trace (input format: its header comment).
# RUNS defaults to 1000000 executions; FUZZ_MAX_TIME (s, default 1800) and a
# per-input timeout (10 s for loader, 3 s for command) bound it. The corpus
# grows in build/fuzz/corpus (loader) or build/fuzz/corpus-command; crashes,
# hangs and leaks are written to build/fuzz/artifacts/ (loader) or
# build/fuzz/artifacts-command/ (reproduce one with, e.g.:
# build/fuzz/command_fuzzer build/fuzz/artifacts-command/crash-...).
# The run stops at the first finding; to go on past known ones (each is still
# written out): scripts/fuzz.sh loader 1000000 -fork=1 -ignore_crashes=1
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# clang and its runtime libraries (libFuzzer, sanitizers) come from Debian; they
# are needed here only, so setup.sh installs them only when asked to.
scripts/setup.sh clang libclang-rt-dev  # and the libraries ctde itself needs

target=loader
case ${1:-} in
  loader | command) target=$1; shift ;;
esac
runs=${1:-1000000}
shift || true
build=build/fuzz
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
      -DCMAKE_CXX_FLAGS="$flags" -DCTDE_FUZZ=ON -DCTDE_BUILD_TESTS=OFF -DCTDE_BUILD_BENCH=OFF \
      -DCTDE_WERROR=OFF >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [[ $target == loader ]]; then
  cmake --build "$build" -j2 --target model_loader_fuzzer
  mkdir -p "$build/corpus" "$build/artifacts"
  cp -n examples/models/*.json tests/cli/data/*.json "$build/corpus/" 2>/dev/null || true
  exec "$build/model_loader_fuzzer" -runs="$runs" -max_total_time="${FUZZ_MAX_TIME:-1800}" -timeout=10 \
       -rss_limit_mb=2048 -dict=bench/fuzz/model.dict -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/" "$@" "$build/corpus"
fi

cmake --build "$build" -j2 --target command_fuzzer
corpus=$build/corpus-command
mkdir -p "$corpus" "$build/artifacts-command"
# Seeds: the example models as they are and with --set lines (each parameter's
# value doubled; the first one zero, or a list; written with python3, when there
# is one), the loader's inputs and the command target's regression inputs.
cp -n examples/models/*.json tests/cli/data/*.json tests/cli/data/fuzz/*.json tests/cli/data/fuzz/command/* \
      "$corpus/" 2>/dev/null || true
command -v python3 >/dev/null && python3 - "$corpus" examples/models/*.json <<'PY'
import json, pathlib, sys
corpus = pathlib.Path(sys.argv[1])
for path in map(pathlib.Path, sys.argv[2:]):
    text = path.read_text()
    params = list(json.loads(text).get("parameters", {}).items())[:4]
    if not params:
        continue
    variants = {
        "set-double": [f"{k}={json.dumps(v * 2 if isinstance(v, (int, float)) else v)}" for k, v in params],
        "set-zero": [f"{params[0][0]}=0"],
        "set-list": [f"{params[0][0]}=[1,2]"],
    }
    for name, sets in variants.items():
        (corpus / f"{path.stem}-{name}").write_text("".join(f"--set {s}\n" for s in sets) + text)
PY
exec "$build/command_fuzzer" -runs="$runs" -max_total_time="${FUZZ_MAX_TIME:-1800}" -timeout=3 \
     -rss_limit_mb=2048 -dict=bench/fuzz/model.dict -print_final_stats=1 \
     -artifact_prefix="$build/artifacts-command/" "$@" "$corpus"
