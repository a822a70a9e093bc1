#!/usr/bin/env bash
# Configures and builds one flavour of ctde: build.sh DIR [cmake options...]
# Builds every target, or only those in BUILD_TARGETS (e.g. "ctde_cli").
# Compiles through ccache when it is installed (scripts/setup.sh installs it;
# CCACHE_BASEDIR and CCACHE_NOHASHDIR make clones in other folders share the cache).
set -euo pipefail
dir=$1
shift
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(cd "$(dirname "$0")/.." && pwd)}
  # With -g (the sanitizer build) ccache hashes the working folder too, unless told not
  # to: without this a clone in another folder missed on every unit of that build.
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
cmake -S "$(dirname "$0")/.." -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$dir" -j2 "${targets[@]}"
