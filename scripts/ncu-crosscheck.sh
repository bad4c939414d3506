#!/usr/bin/env bash
# ncu-crosscheck: the library's counters against Nsight Compute's on the same launches, for every
# example (tools/ncu_counters.sh, one example after the other), on the GPU machine, from a build
# made here or carried (build/hopper; docs/development.md).
#
#   scripts/ncu-crosscheck.sh [example ...]     default: every example (scripts/gpu-check.sh list)
#
# Each example runs with CUPROBE_CROSSCHECK_ARGS where given, else with `--quick`, or the lighter
# settings below for the examples that ran past a few minutes under ncu at `--quick` (device_report,
# timers, memory_ordering, system_memory and access_patterns `--small`, dram_bandwidth one width and
# one operator); once outside ncu with
# `--profile --counters dram,l2` (the library's counter pass; CUPROBE_NCU_COUNTERS_SETS picks other
# sets) and once with `--profile` under `ncu --clock-control none --cache-control none`, each
# benchmark's counts compared by tools/ncu_counters.py (1 %, with its documented allowances).
# CUPROBE_CROSSCHECK_LIMIT (seconds, default 240) bounds one example; CUPROBE_CROSSCHECK_DEADLINE
# (epoch seconds) starts no example within 30 s of it, and the ones it did not reach are listed
# `not run`. Writes $OUT/ncu-crosscheck.md (one row per example: the verdict, the pairs that agree
# of those compared, the seconds) and $OUT/ncu-crosscheck.tgz (each example's counted JSON, ncu
# CSV and comparison). An example whose measurements ncu saw no kernel of (tools/ncu_counters.py's
# exit 3: copies, or kernels launched from another thread than the range's) is "nothing to
# compare", with tools/ncu_counters.py's sentence. Exit status: 0 when every example that ran
# agrees or had nothing to compare, 1 otherwise, 77 when every one was skipped (no GPU, no ncu or
# no access to the counters).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT="${OUT:-$PWD/gpu-check-out}"
build="${CUPROBE_BUILD_DIR:-build/hopper}"
# The arguments of one example (above).
args_of() {
  if [ -n "${CUPROBE_CROSSCHECK_ARGS:-}" ]; then echo "$CUPROBE_CROSSCHECK_ARGS"; return; fi
  case "$1" in
    device_report|timers|memory_ordering|system_memory|access_patterns) echo "--small" ;;
    dram_bandwidth) echo "--quick --widths 16 --ops cg" ;;
    *) echo "--quick" ;;
  esac
}
limit="${CUPROBE_CROSSCHECK_LIMIT:-240}"
deadline="${CUPROBE_CROSSCHECK_DEADLINE:-0}"
if [ $# -gt 0 ]; then examples=("$@"); else mapfile -t examples < <(scripts/gpu-check.sh list); fi
work="$(mktemp -d /tmp/cuprobe-crosscheck.XXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT" "$work/ncu-crosscheck"
table="$OUT/ncu-crosscheck.md"
card="$(nvidia-smi --query-gpu=name,uuid --format=csv,noheader 2>/dev/null | head -1)"
{
  echo "# The library's counters against ncu's, every example"
  echo
  echo "\`scripts/ncu-crosscheck.sh\` at commit \`${CUPROBE_GIT_SHA:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}\`" \
       "on ${card:-no GPU}, $(date -u +%FT%TZ);" \
       "counter sets \`${CUPROBE_NCU_COUNTERS_SETS:-dram,l2}\`."
  echo
  echo "| example | verdict | pairs agreeing | seconds | arguments |"
  echo "|---|---|---|---|---|"
} > "$table"
ran=0 bad=0 skipped=0 nothing=0
for e in "${examples[@]}"; do
  if [ "$deadline" != 0 ] && [ $(( $(date +%s) + 30 )) -ge "$deadline" ]; then
    echo "| $e | not run (the deadline) | | | |" >> "$table"; continue
  fi
  args="$(args_of "$e")"
  s=$(date +%s)
  # shellcheck disable=SC2086  # args: several words
  timeout -k 10 "$limit" tools/ncu_counters.sh "$build" "$work/ncu-crosscheck/$e" "$e" $args \
    > "$work/ncu-crosscheck/$e.stdout" 2> "$work/ncu-crosscheck/$e.stderr"
  rc=$?
  t=$(( $(date +%s) - s ))
  pairs="$(grep -o '[0-9]* of [0-9]* pairs agree' "$work/ncu-crosscheck/$e.stderr" | tail -1)"
  case $rc in
    0) verdict="agrees"; ran=$((ran + 1)) ;;
    3) verdict="nothing to compare: $(grep -m1 -o 'nothing to compare: .*' "$work/ncu-crosscheck/$e.stderr" | cut -c21- | tr '|' '/')"
       ran=$((ran + 1)); nothing=$((nothing + 1)) ;;
    77) verdict="skipped: $(grep -m1 -o 'skipped: .*' "$work/ncu-crosscheck/$e.stderr" | cut -c10-)"
        skipped=$((skipped + 1)) ;;
    124|137) verdict="timed out after ${limit} s"; ran=$((ran + 1)); bad=$((bad + 1)) ;;
    *) if [ -n "$pairs" ]; then verdict="DIFFERS (see $e.md)"
       else verdict="failed: $(tail -1 "$work/ncu-crosscheck/$e.stderr" | tr '|' '/')"; fi
       ran=$((ran + 1)); bad=$((bad + 1)) ;;
  esac
  echo "| $e | $verdict | ${pairs% pairs agree} | $t | \`$args\` |" >> "$table"
  echo "ncu-crosscheck: $e: $verdict (${pairs:-no pairs}) in ${t}s"
done
tar -czf "$OUT/ncu-crosscheck.tgz" -C "$work" ncu-crosscheck
echo "ncu-crosscheck: $ran examples ran, $bad differ or failed, $nothing had nothing to compare, $skipped skipped; $table"
[ "$ran" = 0 ] && [ "$skipped" -gt 0 ] && exit 77
[ "$bad" = 0 ]
