#!/usr/bin/env bash
# run-tests: configure, build and test one preset (default: cpu), timing each phase and each
# test tier, then list the ten slowest tests. README.md's test command runs it after
# scripts/setup-tests.sh; CI runs that command.
#
#   bash scripts/run-tests.sh [cpu|hopper]
#
# Prints "run-tests: <phase> <seconds> s" for configure, build and test, the wall time of each
# tier's tests (the sum of their times, and how many passed, failed or were skipped) and, last,
# the ten slowest tests. The exit code is the first failing phase's.
set -uo pipefail
cd "$(dirname "$0")/.."
preset="${1:-cpu}"
bin="build/$preset"
now() { date +%s.%N; }
phase() {  # phase <name> <command...>
  local name="$1" t0 rc
  shift
  t0=$(now)
  "$@"
  rc=$?
  printf 'run-tests: %-9s %6.0f s\n' "$name" "$(echo "$(now) - $t0" | bc)" | tee -a "$bin.phases"
  return $rc
}
mkdir -p build && : > "$bin.phases"
rc=0
phase configure cmake --preset "$preset" || rc=$?
[ $rc = 0 ] && { phase build cmake --build --preset "$preset" || rc=$?; }
[ $rc = 0 ] && { phase test ctest --preset "$preset" || rc=$?; }

log="$bin/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
  # LastTest.log: "<i>/<n> Test: <name>", the test's output, then "Test time = <s> sec".
  awk '/^[0-9]+\/[0-9]+ Test: /{name=$3}
       /^Test time = /{ if (name != "") { print $4, name; name="" } }' "$log" |
    sort -rn > "$bin.test-times"
  echo "run-tests: time per tier (sum of the tests' times):"
  awk '{split($2, p, "."); s[p[1]] += $1; n[p[1]]++} END {for (k in s) printf "  %-6s %4d tests %8.1f s\n", k, n[k], s[k]}' \
    "$bin.test-times" | sort
  echo "run-tests: the ten slowest tests:"
  head -10 "$bin.test-times" | awk '{printf "  %8.2f s  %s\n", $1, $2}'
fi
exit $rc
