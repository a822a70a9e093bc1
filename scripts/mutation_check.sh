#!/usr/bin/env bash
# Does the suite bite? (issue 36; not run by CI: it takes a while.) Plants a
# handful of deliberate bugs, one at a time, in a scratch git worktree of HEAD
# under /tmp, builds ctde_tests there and runs it: each bug must fail at least
# one test case (or run over the per-case time limit, which names the case).
# The unmutated suite runs first and must pass, or the verdicts mean nothing.
#
#   scripts/mutation_check.sh [NAME...]   # the mutations named, or all
#
# Environment: MUTATION_CASE_LIMIT, the per-case limit in s (default 120;
# CTDE_TEST_CASE_LIMIT, tests/main.cpp); MUTATION_BASELINE=0 skips the
# unmutated run. Prints one line per mutation; exits 1 when one survived.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
limit=${MUTATION_CASE_LIMIT:-120}

# name|file|perl substitution (perl -0pi -e) that plants the bug
mutations=(
  "event-one-tick-late|domains/de/event_queue.hpp|s/static_cast<std::uint64_t>\(tag\.time\) \^ kSignBit/static_cast<std::uint64_t>(tag.time + 1) ^ kSignBit/"
  "depth-before-microstep|domains/de/event_queue.hpp|s/\(std::uint64_t\{tag\.microstep\} << 32\) \| actor\.value\(\)/(std::uint64_t{actor.value()} << 32) | tag.microstep/; s/\{time\(\), static_cast<std::uint32_t>\(order_key >> 32\)\}/{time(), static_cast<std::uint32_t>(order_key)}/; s/ActorId\{static_cast<std::uint32_t>\(order_key\)\}/ActorId{static_cast<std::uint32_t>(order_key >> 32)}/"
  "dormand-prince-error-sign|domains/ct/dormand_prince_tableau.hpp|s/kE7 = -kBh7;/kE7 = kBh7;/"
  "random-actor-default-seed|actors/discrete/random_source.cpp|s/declare_parameter\(\"seed\", ParamKind::kScalar, 1\.0\)/declare_parameter(\"seed\", ParamKind::kScalar, 2.0)/"
  "sweep-default-seed|sweep/sweep_spec.hpp|s/std::uint64_t seed = 0;/std::uint64_t seed = 1;/"
)

wanted=("$@")
scratch=$(mktemp -d /tmp/ctde-mutation.XXXXXX)
src=$scratch/src
build=$scratch/build
cleanup() {
  git -C "$repo" worktree remove --force "$src" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
git -C "$repo" worktree add --detach "$src" HEAD >/dev/null 2>&1

# Builds ctde_tests in the scratch tree; runs it until its first failing case.
# Prints the verdict: "passes", "fails: CASE", "hangs: CASE" or "does not build".
verdict() {
  if ! BUILD_TARGETS=ctde_tests "$src/scripts/build.sh" "$build" >"$scratch/build.log" 2>&1; then
    echo "does not build"
    return
  fi
  local status=0
  (cd "$build" && CTDE_TEST_CASE_LIMIT=$limit timeout 3600 tests/ctde_tests --abort-after=1 \
    >"$scratch/test.log" 2>&1) || status=$?
  local case
  case=$(grep -m1 -A1 '^TEST CASE:' "$scratch/test.log" | head -1 | sed 's/^TEST CASE: *//')
  if [ "$status" = 0 ]; then
    echo "passes"
  elif [ "$status" = 124 ]; then
    echo "hangs: $(grep -m1 'ran over the limit' "$scratch/test.log" || echo 'the whole run timed out')"
  else
    echo "fails: ${case:-exit status $status}"
  fi
}

if [ "${MUTATION_BASELINE:-1}" != 0 ]; then
  baseline=$(verdict)
  echo "unmutated: $baseline"
  if [ "$baseline" != passes ]; then
    echo "the unmutated suite does not pass: no verdict" >&2
    exit 2
  fi
fi

survived=0
for m in "${mutations[@]}"; do
  IFS='|' read -r name file substitution <<<"$m"
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
  perl -0pi -e "$substitution" "$src/$file"
  if git -C "$src" diff --quiet -- "$file"; then
    echo "$name: NOT PLANTED (the code changed: update the substitution)"
    survived=1
    continue
  fi
  result=$(verdict)
  git -C "$src" checkout -q -- "$file"
  case $result in
    fails:* | hangs:*) echo "$name: caught ($result)" ;;
    *)
      echo "$name: SURVIVED ($result)"
      survived=1
      ;;
  esac
done
exit $survived
