#!/usr/bin/env bash
# gpu-check: on a machine with the GPU (the lent H200), build for sm_90a, run every test tier,
# run every example, and collect the results.
#
#   scripts/gpu-check.sh [quick|full] [example ...]
#
#   quick (default)  every example in its --quick setting
#   full             the examples' full settings; results and plots as committed under
#                    docs/results/h200/ (unpack results.tgz there)
#   example ...      only these examples (default: all)
#
# Writes into $OUT (default ./gpu-check-out): gpu-check.log (everything), results.tgz (JSON,
# CSV, Markdown and PNG of every example), and prints a short table last. Set CUPROBE_GIT_SHA
# to the commit when the tree travels without .git. Never changes the GPU's settings.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
mode="${1:-quick}"
shift || true
OUT="${OUT:-$PWD/gpu-check-out}"
mkdir -p "$OUT"
log="$OUT/gpu-check.log"
# Results collect outside $OUT and are packed into $OUT/results.tgz after every step, so a run
# cut short still returns what it made (the device tool returns at most 8 files).
res="$(mktemp -d /tmp/cuprobe-results.XXXX)"
pack() { tar -czf "$OUT/results.tgz" -C "$res" . 2>/dev/null; }
: > "$log"
say() { echo "$@" | tee -a "$log"; }

# The GPU machine has no doctest: .deps/ carries Debian's package (shared/tools/device-prep.sh).
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" / ; done

say "gpu-check: mode=$mode commit=${CUPROBE_GIT_SHA:-$(git rev-parse HEAD 2>/dev/null || echo unknown)} date=$(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> "$log" 2>&1

t0=$(date +%s)
build_ok=1
{ cmake --preset h200 -DCUPROBE_FETCH_DOCTEST=OFF ${CUPROBE_TEST_AREAS:+"-DCUPROBE_TEST_AREAS=$CUPROBE_TEST_AREAS"} && cmake --build --preset h200 -j "$(nproc)"; } >> "$log" 2>&1 || build_ok=0
t_build=$(( $(date +%s) - t0 ))
say "build: $([ $build_ok = 1 ] && echo ok || echo FAILED) in ${t_build}s"

declare -A tier
if [ $build_ok = 1 ]; then
  ctest --preset h200 -j 8 --output-junit "$res/ctest.xml" > "$res/ctest.log" 2>&1
  cat "$res/ctest.log" >> "$log"
  for label in host sass gpu; do
    n=$(ctest --test-dir build/h200 -N -L "^$label\$" | sed -n 's/^Total Tests: //p')
    tier[$label]="$n tests"
  done
  tier_summary=$(grep -E "tests passed|tests failed" "$res/ctest.log" | tail -1)
fi

examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  examples=(device_report timers)
  for e in fma_throughput instruction_table dram_bandwidth latency_ladder cache_bandwidth memory_ordering; do
    [ -x "build/h200/examples/$e" ] && examples+=("$e")
  done
fi
flag=(); [ "$mode" = quick ] && flag=(--quick)
declare -A ex_rc ex_time
for e in "${examples[@]}"; do
  [ $build_ok = 1 ] || break
  # Run inside the results folder, so that the command lines recorded in the results name
  # their files as they are committed (timers.json, not /tmp/.../timers.json).
  args=("${flag[@]}" --json "$e.json")
  case "$e" in
    device_report) args=("${flag[@]}" --summary summary.json --json device_report.json) ;;
    timers) args+=(--markdown timers.md) ;;
  esac
  s=$(date +%s)
  say "== $e ${args[*]}"
  (cd "$res" && "$root/build/h200/examples/$e" "${args[@]}" > "$e.txt" 2>&1)
  ex_rc[$e]=$?
  ex_time[$e]=$(( $(date +%s) - s ))
  cat "$res/$e.txt" >> "$log"
  pack
done

# The cache story of the DRAM kernels from the hardware counters (full mode only).
if [ "$mode" = full ] && [ $build_ok = 1 ] && [ -x build/h200/examples/dram_bandwidth ]; then
  say "== tools/ncu_dram.sh"
  tools/ncu_dram.sh build/h200 "$res/ncu_dram.csv" >> "$log" 2>&1 && ncu_state=ok || ncu_state="FAILED (see log)"
  pack
fi

# Schema check of everything written, then the plots each example's docs use.
python3 tools/validate_results.py "$res"/*.json >> "$log" 2>&1 && valid=ok || valid=FAILED
[ -x scripts/plots.sh ] && scripts/plots.sh "$res" >> "$log" 2>&1
[ "$mode" = full ] && python3 tools/results_md.py "$res" >> "$log" 2>&1

pack && rm -rf "$res"

echo
echo "==================== gpu-check summary ($mode) ===================="
printf "%-22s %s\n" "build" "$([ $build_ok = 1 ] && echo "ok (${t_build}s)" || echo FAILED)"
for label in host sass gpu; do printf "%-22s %s\n" "tier $label" "${tier[$label]:-not run}"; done
printf "%-22s %s\n" "ctest" "${tier_summary:-not run}"
for e in "${examples[@]}"; do
  printf "%-22s rc=%s %ss\n" "$e" "${ex_rc[$e]:-not run}" "${ex_time[$e]:-0}"
done
printf "%-22s %s\n" "JSON schema" "${valid:-not run}"
[ "$mode" = full ] && printf "%-22s %s\n" "ncu (DRAM counters)" "${ncu_state:-not run}"
grep -A30 "The following tests FAILED" "$log" | head -30 || true
