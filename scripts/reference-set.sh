#!/usr/bin/env bash
# reference-set: one GPU model's curated reference set, docs/results/<model>/, from the results
# of scripts/gpu-check.sh full (its $OUT/results.tgz).
#
#   scripts/reference-set.sh [OUT_DIR] RESULTS.tgz [RESULTS.tgz ...]
#   CUPROBE_REFERENCE_OUT=card scripts/gpu-check.sh full     (the same, in one go)
#
# Without OUT_DIR (the first argument ends in .tgz) the set goes to docs/results/<model>, the
# folder of the GPU its summary.json names, by cuprobe::gpu_model_folder's rule
# (tools/gpu_model.py: "NVIDIA H200" -> docs/results/h200, "NVIDIA H100 80GB HBM3" ->
# docs/results/h100-80gb-hbm3). A relative OUT_DIR or archive path is taken from the repo root.
#
# Several archives are allowed (gpu-check run in parts, e.g. when one call may not run long):
# a file in a later archive replaces the same file of an earlier one. The set must come from ONE
# commit and ONE GPU: merging the summaries checks both and refuses otherwise. Then:
#   0. the sanitizer runs of every part are merged into one table (sanitizer.md; a run of a later
#      part replaces the same run of an earlier one);
#   1. every example's headline file (*_summary.json) is merged into summary.json
#      (tools/merge_summaries.py: the headline keys of every example, the GPU's UUID, the driver,
#      the clocks seen, the commit, and which command wrote which file);
#   2. every JSON file is validated (tools/validate_results.py);
#   3. the plots are drawn (scripts/plots.sh);
#   4. results files over 64 KB are stored gzip-compressed (NAME.json.gz; every cuprobe tool
#      reads them as they are), so that the set stays small;
#   5. the page is written (tools/results_md.py: it links the files as stored, and computes
#      which figures are older than this checkout's code);
#   6. OUT_DIR is replaced by the set (nothing of an older set is kept: git keeps history).
# Exit status: the first step that failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
usage="usage: scripts/reference-set.sh [OUT_DIR] RESULTS.tgz [RESULTS.tgz ...]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
out=""
case "$1" in
  *.tgz) ;;  # no OUT_DIR: the folder of the summary's GPU, below
  *) out="$1"; shift; [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; } ;;
esac
work="$(mktemp -d /tmp/cuprobe-reference.XXXX)"
trap 'rm -rf "$work"' EXIT
# Each part's sanitizer runs (sanitizer/table.txt) are kept apart before the parts are unpacked
# over each other, then merged run by run into one table (tools/sanitizer_table.py).
tables=()
i=0
for t in "$@"; do
  i=$((i + 1))
  if tar -xzf "$t" -C "$work" ./sanitizer/table.txt 2>/dev/null; then
    mv "$work/sanitizer/table.txt" "$work/sanitizer-$i.txt"; tables+=("$work/sanitizer-$i.txt")
  fi
done
for t in "$@"; do tar -xzf "$t" -C "$work"; done
if [ ${#tables[@]} -gt 0 ]; then
  python3 "$root/tools/sanitizer_table.py" -o "$work/sanitizer.md" "${tables[@]}" > /dev/null || [ $? = 1 ]
  rm -f "${tables[@]}"
fi
# The ncu folders' tables are kept at the top (ncu_ceilings.csv, ncu_wgmma.md), their raw pages not;
# nor the sector model's check against ncu (ncu_access/: the gpu tier's gpu.access_ncu is that check).
# ncu_dram.sh's raw page and log go too: its table, ncu_dram.csv, is what the page renders.
rm -rf "$work/sanitizer" "$work/ctest.xml" "$work/ncu_ceilings" "$work/ncu_wgmma" "$work/ncu_access" "$work/card.txt" \
  "$work/ncu_dram.csv.raw" "$work/ncu_dram.csv.log"
cd "$work"
[ -f summary.json ] || { echo "reference-set: no summary.json (device_report) in the archives" >&2; exit 1; }
ins=(summary.json)
for f in *_summary.json; do [ -e "$f" ] && ins+=("$f"); done
python3 "$root/tools/merge_summaries.py" merged.json "${ins[@]}"
mv merged.json summary.json
rm -f ./*_summary.json
[ -n "$out" ] || out="docs/results/$(python3 "$root/tools/gpu_model.py" summary-folder summary.json)"
python3 "$root/tools/validate_results.py" ./*.json
"$root/scripts/plots.sh" "$work" > /dev/null
for f in ./*.json; do
  n="${f#./}"
  if [ "$n" != summary.json ] && [ "$(stat -c %s "$f")" -gt 65536 ]; then
    gzip -9 -n "$f"
  fi
done
python3 "$root/tools/results_md.py" "$work"
cd "$root"
rm -rf "$out"
mkdir -p "$out"
cp -r "$work"/. "$out"/
echo "reference-set: wrote $out ($(du -sh "$out" | cut -f1), $(ls "$out" | wc -l) files) from $*"
