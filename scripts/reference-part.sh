#!/usr/bin/env bash
# reference-part: one of the three parts of a reference set, each one command that fits a call of
# 10 minutes on an H100 or an H200, on the GPU machine, from a build made elsewhere and carried
# (CUPROBE_GPU_CHECK_BUILD=0: build/hopper/built-from names the commit; docs/development.md).
#
#   scripts/reference-part.sh 1|2|3      on the GPU machine: writes $OUT/part-N.tgz
#   scripts/reference-part.sh --list     what each part runs (no GPU needed)
#   scripts/reference-set.sh part-1.tgz part-2.tgz part-3.tgz     then, anywhere: the set
#
#   part 1  the gpu tier (about 230 s on an H100); every example but part 2's
#           (`scripts/gpu-check.sh list`), --full
#   part 2  the long examples (access_patterns, wgmma, collectives, dram_bandwidth), --full, with
#           their peers (the sparse wgmma's and the collectives'); the ncu view of the DRAM kernels
#   part 3  the ncu views of device_report's ceilings and of the tensor-core kernels; the sanitizer
#           pass (4 tools, every GPU test and every example; about 260 s on an H100, 8 at a time),
#           which ends 30 s before the part's budget
#
# Every part runs scripts/gpu-check.sh (full mode, plots and page left to reference-set.sh) once
# per step, each into a folder of its own, and packs what they wrote, in order, into one archive
# (a later step's file replaces an earlier one's). The parts must run on one card: reference-set.sh
# refuses summaries of two GPUs. CUPROBE_PART_LIMIT (seconds, default 560) is the part's budget:
# every step runs under `timeout` within it (20 s kept for packing), a step that would start with
# less than 30 s left is listed "not run", and the sanitizer pass ends 30 s before the budget,
# listing what it did not reach (scripts/gpu-check.sh). The archive is rewritten after every
# step, so a step cut short keeps what the steps before it (and gpu-check.sh's own archive of the
# cut step, rewritten after each example) wrote.
# CUPROBE_GIT_SHA names the commit when the tree travels without .git.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
long=(access_patterns wgmma collectives dram_bandwidth)
mapfile -t all < <(scripts/gpu-check.sh list)
short=()
for e in "${all[@]}"; do
  case " ${long[*]} " in *" $e "*) ;; *) short+=("$e") ;; esac
done
# One step: "what NAME [example ...]"; what is tier, ex, ncu or san.
steps_of() {
  case "$1" in
    1) echo "tier -"; echo "ex ${short[*]}" ;;
    2) echo "ex ${long[*]}"; echo "ncu dram_bandwidth" ;;
    3) echo "ncu device_report wgmma"; echo "san -" ;;
    *) return 1 ;;
  esac
}
if [ "${1:-}" = --list ]; then
  for p in 1 2 3; do steps_of $p | sed "s/^/part $p: /"; done
  exit 0
fi
part="${1:-}"
steps_of "$part" > /dev/null 2>&1 || { echo "usage: scripts/reference-part.sh 1|2|3 | --list" >&2; exit 2; }
OUT="${OUT:-$PWD/gpu-check-out}"
mkdir -p "$OUT"
t0=$(date +%s)
deadline=$(( t0 + ${CUPROBE_PART_LIMIT:-560} ))
work="$(mktemp -d /tmp/cuprobe-part.XXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/merged"
export CUPROBE_GPU_CHECK_BUILD=0 CUPROBE_GPU_CHECK_PLOTS=0
n=0
while read -r what names; do
  n=$((n + 1))
  dir="$work/$n-$what"; mkdir -p "$dir"
  [ "$names" = - ] && names=""
  s=$(date +%s)
  left=$(( deadline - s - 20 ))
  if [ "$left" -lt 30 ]; then
    echo "part $part step $n: $what ${names:-} not run (${left}s of the part's budget left)"
    continue
  fi
  # shellcheck disable=SC2086  # names: example names, one word each
  case "$what" in
    tier) OUT=$dir CUPROBE_GPU_CHECK_TIERS=gpu CUPROBE_GPU_CHECK_SANITIZE=0 \
            timeout "$left" scripts/gpu-check.sh sanitize > "$dir/stdout" 2>&1 ;;
    ex)   OUT=$dir CUPROBE_GPU_CHECK_TIERS=0 CUPROBE_GPU_CHECK_NCU=0 CUPROBE_GPU_CHECK_SANITIZE=0 \
            timeout "$left" scripts/gpu-check.sh full $names > "$dir/stdout" 2>&1 ;;
    ncu)  OUT=$dir CUPROBE_GPU_CHECK_TIERS=0 CUPROBE_GPU_CHECK_NCU=only CUPROBE_GPU_CHECK_SANITIZE=0 \
            timeout "$left" scripts/gpu-check.sh full $names > "$dir/stdout" 2>&1 ;;
    san)  OUT=$dir CUPROBE_GPU_CHECK_TIERS=0 CUPROBE_GPU_CHECK_DEADLINE=$deadline \
            timeout "$left" scripts/gpu-check.sh sanitize > "$dir/stdout" 2>&1 ;;
  esac
  [ $? = 124 ] && echo "part $part step $n: $what cut at the part's budget (${left}s); what it packed is kept"
  # gpu-check's verdicts are its summary's lines (a test tier's tally, each example's rc, the
  # sanitizer's count), printed here; its exit status is not one.
  echo "part $part step $n: $what ${names:-} in $(( $(date +%s) - s ))s (at $(( $(date +%s) - t0 ))s)"
  sed -n '/gpu-check summary/,$p' "$dir/stdout" | grep -vE "rc=not run|not run( here.*)?$"
  [ -f "$dir/results.tgz" ] && tar -xzf "$dir/results.tgz" -C "$work/merged"
  [ -f "$dir/gpu-check.log" ] && gzip -c "$dir/gpu-check.log" > "$OUT/part-$part-$n-$what.log.gz"
  tar -czf "$OUT/part-$part.tgz" -C "$work/merged" . || exit 1
done < <(steps_of "$part")
[ -f "$OUT/part-$part.tgz" ] || tar -czf "$OUT/part-$part.tgz" -C "$work/merged" . || exit 1
echo "part $part: wrote $OUT/part-$part.tgz in $(( $(date +%s) - t0 ))s"
