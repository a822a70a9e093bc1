#!/usr/bin/env bash
# Lint, as the test command runs it: clang-format in check mode over every
# tracked C++ file (.clang-format), and clang-tidy (.clang-tidy) over the
# library's, the command's and the Python module's sources with the compile commands of a build
# folder, and the structure rules of docs/architecture.md (scripts/check_structure.py: sizes of
# files, functions and classes, the layers of includes, unused functions). Fails on the first
# finding of any.
#   scripts/lint.sh [BUILD_DIR]   (default build/release, configured by scripts/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-build/release}
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run --Werror "${files[@]}"
echo "lint: clang-format: ${#files[@]} files formatted"
/usr/bin/python3 scripts/check_structure.py
# clang-tidy skips the units it passed before, unchanged (scripts/tidy_cached.py says how it knows).
if ! /usr/bin/python3 scripts/tidy_cached.py "$build" "^$root/(core|domains|actors|cli|python|results|sweep|fmu_export)/" | head -40; then
  echo "lint: clang-tidy found the above, or failed" >&2
  exit 1
fi
echo "lint: clang-tidy: no findings"
