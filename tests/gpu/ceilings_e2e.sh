#!/usr/bin/env bash
# gpu tier: this card's ceilings end to end, on whichever Hopper card runs it. device_report
# --ceilings 1 (or, with a third argument `full`, the README's main job: device_report with no
# option) writes the card's record into a fresh CUPROBE_CEILINGS_DIR (timed), the record
# validates against its schema and holds the DRAM and L2 ceilings (a card without a reference
# set of its model has no other L2 ceiling), and in the next program, teach_ceilings' plain
# float4 copy written as a user would, every measurement's m.ceiling is placed against this
# card's record (source "card" in its JSON) and lands between 0.8 and 1.02 of the record's DRAM
# copy ceiling: the bound is the card's own record, so it holds on any card.
#
#   tests/gpu/ceilings_e2e.sh <build dir> <source dir> [full]
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
t0=$(date +%s)
mode=(--ceilings 1); [ "${3:-}" = full ] && mode=()
timeout 400 "$bin/device_report" "${mode[@]}" > "$dir/report.txt" 2>&1 ||
  { tail -30 "$dir/report.txt"; echo "FAILED: device_report ${mode[*]}"; exit 1; }
echo "ceilings_e2e: device_report ${mode[*]:-(the main job)} took $(( $(date +%s) - t0 )) s on $(nvidia-smi --query-gpu=name,uuid --format=csv,noheader | head -1)"
record="$(ls "$dir"/GPU-*.json 2> /dev/null | head -1)"
[ -n "$record" ] || { echo "FAILED: no record was written into $dir"; exit 1; }
python3 "$src/tools/validate_results.py" "$record" || { echo "FAILED: the record is not valid"; exit 1; }
python3 - "$record" << 'EOF' || { echo "FAILED: the record lacks a DRAM or L2 ceiling"; exit 1; }
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
need = ["dram.read.tbps", "dram.write.tbps", "dram.copy.tbps", "l2.read.tbps", "l2.write.tbps"]
missing = [k for k in need if not (isinstance(m.get(k), (int, float)) and m[k] > 0)]
print("ceilings_e2e: record", ", ".join(f"{k} {m[k]:.3f}" for k in need if k not in missing))
sys.exit(f"missing: {missing}" if missing else 0)
EOF
timeout 300 "$bin/teach_ceilings" --quick --min-card-fraction 0.8 --max-card-fraction 1.02 \
  --json "$dir/teach.json" || { echo "FAILED: the copy is not within 0.8 .. 1.02 of this card's record"; exit 1; }
python3 - "$dir/teach.json" << 'EOF' || { echo "FAILED: a measurement's m.ceiling is not this card's record"; exit 1; }
import json, sys
ms = json.load(open(sys.argv[1]))["benchmarks"]
src = [((m.get("ceiling") or {}).get("source"), m["name"]) for m in ms]
print("ceilings_e2e: m.ceiling sources", src)
sys.exit(0 if ms and all(s == "card" for s, _ in src) else 1)
EOF
echo "ceilings_e2e: passed"
