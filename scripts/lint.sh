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
# (run-clang-tidy 14 has no -warnings-as-errors: a finding is a line of the log)
status=0
run-clang-tidy -p "$build" -j 2 -quiet "$root/(core|domains|actors|cli|python|results|sweep|fmu_export)/" >"$build/clang-tidy.log" 2>&1 || status=$?
findings=$(sed 's/\x1b\[[0-9;]*m//g' "$build/clang-tidy.log" | grep -E "^/.*: (warning|error):" | sort -u || true)
if [[ -n $findings || $status -ne 0 ]]; then
  printf '%s\n' "$findings" | head -40
  echo "lint: clang-tidy found the above, or failed (exit $status; full log: $build/clang-tidy.log)" >&2
  exit 1
fi
echo "lint: clang-tidy: no findings"
