#!/usr/bin/env bash
# gpu tier: every example's defaults finish within a minute (device_report within 30 s), bounded
# from each program's own plan, never from a wall clock. Each example runs once at its defaults
# in plan mode (CUPROBE_PLAN=1, measure/plan.cuh): every measurement one call, timed, and the
# program prints what its measurements would cost at their own options (warm-up, the samples
# the stopping rule takes, batch, rests) plus the time it spent outside sampling. That sum must
# stay within the bound. The bound is the examples' documented promise (README.md), so it
# holds on any card; a slower card shows as a larger plan.
#
#   tests/gpu/plan_runtime.sh <build dir> [example ...]
#   tests/gpu/plan_runtime.sh --parse LINE    prints the line's five numbers (host.plan_runtime_parse)
# Exit 77 (CTest: skipped, with a sentence) without a GPU or without the example programs.
set -uo pipefail
# cuprobe plan: measurements=M calls=C sampling_s=S other_s=O expected_s=E -> "M C S O E"
parse() {
  sed -nE 's/.*measurements=([0-9]+) calls=([0-9.]+) sampling_s=([0-9.]+) other_s=([0-9.]+) expected_s=([0-9.]+).*/\1 \2 \3 \4 \5/p' <<< "$1"
}
if [ "${1:-}" = --parse ]; then parse "${2:-}"; exit 0; fi
bin="$1/examples"; shift
if ! [ -x "$bin/device_report" ]; then
  echo "SKIPPED: the examples were not built as programs (the cpu preset)"
  exit 77
fi
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no GPU (nvidia-smi -L fails)"
  exit 77
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$bin"/*; do
    n="$(basename "$f")"
    # test_my_ptx is a doctest program (a user's own wrapper test), not a benchmark
    [ -f "$f" ] && [ -x "$f" ] && [ "$n" != test_my_ptx ] && names+=("$n")
  done
fi
dir="$(mktemp -d /tmp/cuprobe-plan.XXXX)"
trap 'rm -rf "$dir"' EXIT
echo "plan_runtime on $(nvidia-smi --query-gpu=name,uuid --format=csv,noheader | head -1)"
printf "%-22s %6s %8s %10s %9s %10s %7s  %s\n" example bound measure calls sampling_s other_s \
  expected verdict
fail=0
for n in "${names[@]}"; do
  bound=60; [ "$n" = device_report ] && bound=30
  CUPROBE_PLAN=1 timeout 600 "$bin/$n" > "$dir/$n.out" 2> "$dir/$n.err"
  rc=$?
  line="$(grep -m1 '^cuprobe plan:' "$dir/$n.err")"
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    printf "%-22s %6s  FAILED: exit %d%s\n" "$n" "$bound" $rc "$([ -z "$line" ] && echo ', no plan line')"
    tail -5 "$dir/$n.err" "$dir/$n.out"
    fail=1
    continue
  fi
  read -r m c s o e <<< "$(parse "$line")"
  if [ -z "${e:-}" ]; then
    printf "%-22s %6s  FAILED: a plan line this script cannot read: %s\n" "$n" "$bound" "$line"
    fail=1
    continue
  fi
  verdict=ok
  awk -v e="$e" -v b="$bound" 'BEGIN { exit !(e <= b) }' || { verdict="OVER"; fail=1; }
  printf "%-22s %6s %8s %10s %9s %10s %7s  %s\n" "$n" "$bound" "$m" "$c" "$s" "$o" "$e" "$verdict"
done
[ $fail = 0 ] && echo "plan_runtime: every example's defaults are planned within their bound" ||
  echo "FAILED: an example's defaults are planned over their bound, or its plan run failed"
exit $fail
