#!/usr/bin/env bash
# Fuzzes the model loader (bench/fuzz/model_loader_fuzzer.cpp) with libFuzzer:
# installs clang and libFuzzer if missing, builds the target with clang in its
# own build folder (ASan + UBSan + coverage; not part of the normal build or
# CI), seeds a corpus from the example models and runs a bounded campaign.
#
#   scripts/fuzz.sh [RUNS] [more libFuzzer options...]
#
# RUNS defaults to 1000000 executions; FUZZ_MAX_TIME (s, default 1800) and a
# per-input timeout of 10 s bound it. The corpus grows in build/fuzz/corpus;
# crashes, hangs and leaks are written to build/fuzz/artifacts/ (reproduce
# one with: build/fuzz/model_loader_fuzzer build/fuzz/artifacts/crash-...).
# The run stops at the first finding; to go on past known ones (each is still
# written out): scripts/fuzz.sh 1000000 -fork=1 -ignore_crashes=1
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# clang and its runtime libraries (libFuzzer, sanitizers) come from Debian; they
# are needed here only, so setup.sh does not install them.
packages=(clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
scripts/setup.sh  # the libraries ctde itself needs

runs=${1:-1000000}
shift || true
build=build/fuzz
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
      -DCMAKE_CXX_FLAGS="$flags" -DCTDE_FUZZ=ON -DCTDE_BUILD_TESTS=OFF -DCTDE_BUILD_BENCH=OFF \
      -DCTDE_WERROR=OFF >/dev/null
cmake --build "$build" -j2 --target model_loader_fuzzer

mkdir -p "$build/corpus" "$build/artifacts"
cp -n examples/models/*.json tests/cli/data/*.json "$build/corpus/" 2>/dev/null || true

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$build/model_loader_fuzzer" -runs="$runs" -max_total_time="${FUZZ_MAX_TIME:-1800}" -timeout=10 \
     -rss_limit_mb=2048 -dict=bench/fuzz/model.dict -print_final_stats=1 \
     -artifact_prefix="$build/artifacts/" "$@" "$build/corpus"
