#!/usr/bin/env bash
# gpu tier: this card's ceilings end to end. device_report --ceilings 1 writes the card's record
# into a fresh CUPROBE_CEILINGS_DIR (timed: the mode is meant to take about 20 s), the record
# validates against its schema, and teach_ceilings' plain float4 copy, written as a user would,
# lands between 0.8 and 1.02 of the record's DRAM copy ceiling (exit 1 otherwise).
#
#   tests/gpu/ceilings_e2e.sh <build dir> <source dir>
# Exit 77 (CTest: skipped, with a sentence) without a GPU or without the example programs.
set -uo pipefail
bin="$1/examples" src="$2"
if ! [ -x "$bin/device_report" ] || ! [ -x "$bin/teach_ceilings" ]; then
  echo "SKIPPED: device_report or teach_ceilings was not built as a program (the cpu preset)"
  exit 77
fi
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIPPED: no GPU (nvidia-smi -L fails)"
  exit 77
fi
dir="$(mktemp -d /tmp/cuprobe-ceilings-e2e.XXXX)"
trap 'rm -rf "$dir"' EXIT
export CUPROBE_CEILINGS_DIR="$dir"
t0=$(date +%s.%N)
timeout 300 "$bin/device_report" --ceilings 1 || { echo "FAILED: device_report --ceilings 1"; exit 1; }
echo "ceilings_e2e: device_report --ceilings 1 took $(echo "$(date +%s.%N) - $t0" | bc) s"
record="$(ls "$dir"/GPU-*.json 2> /dev/null | head -1)"
[ -n "$record" ] || { echo "FAILED: no record was written into $dir"; exit 1; }
python3 "$src/tools/validate_results.py" "$record" || { echo "FAILED: the record is not valid"; exit 1; }
timeout 300 "$bin/teach_ceilings" --quick --min-card-fraction 0.8 --max-card-fraction 1.02 ||
  { echo "FAILED: the copy is not within 0.8 .. 1.02 of this card's record"; exit 1; }
echo "ceilings_e2e: passed"
