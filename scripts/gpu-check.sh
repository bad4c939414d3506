#!/usr/bin/env bash
# gpu-check: on a machine with a Hopper GPU (an H100 or an H200; whichever card it finds), build
# for sm_90a with the hopper preset, run every test tier, run every example, run compute-sanitizer
# over every GPU test and example, and collect the results. It reads the card first (nvidia-smi:
# name, UUID) and names its reference folder by cuprobe::gpu_model_folder's rule
# (tools/gpu_model.py: "NVIDIA H100 80GB HBM3" -> h100-80gb-hbm3).
#
#   scripts/gpu-check.sh [quick|full|sanitize] [example ...]
#   scripts/gpu-check.sh list        the examples a run takes by default, one per line
#
#   quick (default)  every example in its --quick setting, then the sanitizer pass
#   full             every example with --full (results and plots as committed under
#                    docs/results/<model>/: scripts/reference-set.sh results.tgz puts them
#                    there), then the sanitizer pass
#   sanitize         the sanitizer pass only (after the build and the test tiers)
#   example ...      only these examples (default: all)
#   CUPROBE_GPU_CHECK_BUILD=0 uses build/hopper as it finds it (built on another machine from the
#   same commit and carried: no configure, no build; it fails unless build/hopper/built-from names
#   the commit, every command of CTest's tests and every configured example is there and every
#   program loads; docs/development.md),
#   CUPROBE_GPU_CHECK_DEADLINE=<epoch s> ends the sanitizer pass 30 s before it (a call with a
#   hard time limit keeps its table), CUPROBE_GPU_CHECK_SANITIZE=0 skips the sanitizer pass, CUPROBE_GPU_CHECK_NCU=0 the ncu views
#   (full mode; =only: the ncu views of the examples named alone, without the examples and
#   their peers, so that a long set can be made in parts), CUPROBE_GPU_CHECK_TIERS=0 the test
#   tiers (ctest; =gpu: the gpu tier alone); CUPROBE_GPU_CHECK_EXTRA="args"
#   adds arguments to every example run (e.g. "--explore 1" for cache_bandwidth),
#   CUPROBE_GPU_CHECK_PLOTS=0 leaves out the plots and the page (a part of a set made in parts:
#   scripts/reference-set.sh draws and writes them for the whole set; the JSON is still validated).
#
# The sanitizer pass runs memcheck, racecheck, synccheck and initcheck over every GPU test
# binary (but the death and fault tests: their children fault on purpose) and every example
# (examples with --small, arrays small enough for the instrumented run, and CUPROBE_PROFILE=1,
# every measurement one call: each kernel runs, without the repeats; the doctest programs with
# --duration=true, so that each log gives its test cases' seconds), several at a time
# (CUPROBE_SANITIZE_JOBS, 8; each run slows with every other beside it, CHANGELOG.md has the
# timings behind the default), each within CUPROBE_SANITIZE_LIMIT seconds (240) and all within
# CUPROBE_SANITIZE_TOTAL (3000), under CUPROBE_UNDER_SANITIZER=1 (timing assertions are
# skipped there, visibly: cuprobe/testing/doctest.cuh), and tabulates the errors each reports
# ("ERROR SUMMARY: N errors") as runs finish; a run that times out or crashes is counted as a
# failure, not as zero errors, and a run the pass did not reach is listed as not_run.
# CUPROBE_SANITIZE_TOOLS (default "memcheck racecheck synccheck initcheck") and
# CUPROBE_SANITIZE_MATCH (an extended regex on "tool program") pick a part of the pass.
#
# Writes into $OUT (default ./gpu-check-out): gpu-check.log (everything), results.tgz (JSON,
# CSV, Markdown and PNG of every example, the CTest log, the sanitizer table), and prints a
# short table last. Set CUPROBE_GIT_SHA to the commit when the tree travels without .git.
# CUPROBE_REFERENCE_OUT=docs/results/<model> (full mode) then writes the curated reference set
# there (scripts/reference-set.sh); CUPROBE_REFERENCE_OUT=card writes it into the detected card's
# folder.
# Never changes the GPU's settings.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
mode="${1:-quick}"
shift || true
# Every example a set holds, in the order they run (device_report first: it writes the record
# the others' ceilings read). `scripts/gpu-check.sh list` prints it (scripts/reference-part.sh).
all_examples=(device_report timers fma_throughput instruction_table dram_bandwidth latency_ladder
              cache_bandwidth memory_ordering tma dsm wgmma gemm system_memory access_patterns
              teach_tma_stream teach_wgmma_peak teach_pointer_chase teach_cache_stream teach_ceilings
              teach_counters peer_memory collectives)
if [ "$mode" = list ]; then printf '%s\n' "${all_examples[@]}"; exit 0; fi
OUT="${OUT:-$PWD/gpu-check-out}"
mkdir -p "$OUT"
log="$OUT/gpu-check.log"
res="$(mktemp -d /tmp/cuprobe-results.XXXX)"
pack() { tar -czf "$OUT/results.tgz" -C "$res" . 2>/dev/null; }
: > "$log"
say() { echo "$@" | tee -a "$log"; }

# The GPU machine has no doctest: .deps/ carries Debian's package (shared/tools/device-prep.sh).
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" / ; done

say "gpu-check: mode=$mode commit=${CUPROBE_GIT_SHA:-$(git rev-parse HEAD 2>/dev/null || echo unknown)} date=$(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> "$log" 2>&1
# The card (the first the CUDA runtime sees: CUDA_VISIBLE_DEVICES' first entry, else nvidia-smi's
# first) and its reference folder, by the library's rule.
first_visible="${CUDA_VISIBLE_DEVICES:-}"; first_visible="${first_visible%%,*}"
card_name="$(nvidia-smi --query-gpu=name --format=csv,noheader ${first_visible:+-i "$first_visible"} 2>/dev/null | head -1)"
[ -n "$card_name" ] || card_name="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
card_uuid="$(nvidia-smi --query-gpu=uuid --format=csv,noheader ${first_visible:+-i "$first_visible"} 2>/dev/null | head -1)"
[ -n "$card_uuid" ] || card_uuid="$(nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | head -1)"
card_folder="$([ -n "$card_name" ] && python3 tools/gpu_model.py folder "$card_name")"
say "card: ${card_name:-none found} ${card_uuid:-} (reference folder docs/results/${card_folder:-?})"
printf '%s\n%s\n%s\n' "$card_name" "$card_uuid" "$card_folder" > "$res/card.txt"
[ "${CUPROBE_REFERENCE_OUT:-}" = card ] && CUPROBE_REFERENCE_OUT="docs/results/${card_folder:?no card found}"

t0=$(date +%s)
build_ok=1
if [ "${CUPROBE_GPU_CHECK_BUILD:-1}" = 0 ]; then
  # build/hopper as found (built elsewhere from the same commit and carried here): no configure,
  # no build. It must name the commit (build/hopper/built-from), every command CTest's tests run
  # must be there, every example it was configured with too, and every program must load.
  sha="${CUPROBE_GIT_SHA:-$(git rev-parse HEAD 2>/dev/null)}"
  why=""
  if [ ! -f build/hopper/CTestTestfile.cmake ]; then
    why="there is no build/hopper/CTestTestfile.cmake"
  elif [ "$(cat build/hopper/built-from 2>/dev/null)" != "$sha" ]; then
    why="build/hopper/built-from ($(cat build/hopper/built-from 2>/dev/null || echo absent)) is not ${sha:-a known commit}"
  else
    absent=$(grep -rhoE '^add_test\(\[=\[[^]]*\]=\] "[^"]+"' build/hopper --include=CTestTestfile.cmake |
             sed -E 's/.*\]=\] "//; s/"$//' | sort -u | while read -r p; do
               [ "${p#/}" = "$p" ] && p=$(command -v "$p"); [ -n "$p" ] && [ -x "$p" ] || echo "${p:-a command}"; done)
    for d in build/hopper/examples/CMakeFiles/*.dir; do
      [ -d "$d" ] || continue
      e=$(basename "$d" .dir); [ -x "build/hopper/examples/$e" ] || absent+=" build/hopper/examples/$e"
    done
    missing=$(find build/hopper/examples build/hopper/tests -maxdepth 1 -type f -perm -u+x 2>/dev/null |
              xargs -r ldd 2>/dev/null | grep "not found" | sort -u)
    [ -n "$absent" ] && why="missing: $(echo $absent | cut -c1-400)"
    [ -n "$missing" ] && why="${why:+$why; }libraries not found: $(echo $missing | cut -c1-400)"
  fi
  [ -z "$why" ] || build_ok=0
  build_text="as found (built from ${sha:-?} elsewhere)"
  say "build: $([ $build_ok = 1 ] && echo "skipped (CUPROBE_GPU_CHECK_BUILD=0): $build_text" ||
               echo "FAILED (CUPROBE_GPU_CHECK_BUILD=0): $why")"
else
  { cmake --preset hopper -DCUPROBE_FETCH_DOCTEST=OFF ${CUPROBE_TEST_AREAS:+"-DCUPROBE_TEST_AREAS=$CUPROBE_TEST_AREAS"} && cmake --build --preset hopper -j "$(nproc)"; } >> "$log" 2>&1 || build_ok=0
  build_text="ok ($(( $(date +%s) - t0 ))s)"
  say "build: $([ $build_ok = 1 ] && echo ok || echo FAILED) in $(( $(date +%s) - t0 ))s"
fi

declare -A tier
if [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_TIERS:-1}" != 0 ]; then
  s=$(date +%s)
  labels=(host sass gpu); only=()
  # =gpu: the gpu tier alone (the host and sass tiers need no GPU and run in CI).
  [ "${CUPROBE_GPU_CHECK_TIERS:-1}" = gpu ] && { labels=(gpu); only=(-L '^gpu$'); }
  ctest --preset hopper -j 8 "${only[@]}" --output-junit "$res/ctest.xml" > "$res/ctest.log" 2>&1
  cat "$res/ctest.log" >> "$log"
  for label in host sass gpu; do tier[$label]="not run here (CUPROBE_GPU_CHECK_TIERS=gpu)"; done
  for label in "${labels[@]}"; do
    n=$(ctest --test-dir build/hopper -N -L "^$label\$" | sed -n 's/^Total Tests: //p')
    tier[$label]="$n tests"
  done
  tier_summary="$(grep -E "tests passed|tests failed" "$res/ctest.log" | tail -1) in $(( $(date +%s) - s ))s"
  pack
fi

examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  examples=()
  for e in "${all_examples[@]}"; do
    [ -x "build/hopper/examples/$e" ] && examples+=("$e")
  done
fi
flag=(); [ "$mode" = quick ] && flag=(--quick); [ "$mode" = full ] && flag=(--full)
declare -A ex_rc ex_time
if [ "$mode" != sanitize ] && [ "${CUPROBE_GPU_CHECK_NCU:-1}" != only ]; then
  for e in "${examples[@]}"; do
    [ $build_ok = 1 ] || break
    # Run inside the results folder, so that the command lines recorded in the results name
    # their files as they are committed (timers.json, not /tmp/.../timers.json).
    args=("${flag[@]}" --json "$e.json")
    case "$e" in
      device_report) args=("${flag[@]}" --summary summary.json --json device_report.json) ;;
      timers) args+=(--markdown timers.md) ;;
      wgmma) args+=(--summary wgmma_summary.json) ;;
      gemm) args+=(--summary gemm_summary.json) ;;
      system_memory) args+=(--summary system_memory_summary.json) ;;
      # full: DRAM counted beside each DRAM-level point (the .dram_read_per_declared keys)
      access_patterns) args+=(--summary access_summary.json)
                       [ "$mode" = full ] && args+=(--counters dram --count-at dram) ;;
      dsm) args+=(--summary dsm_summary.json) ;;
      cache_bandwidth) args+=(--summary cache_summary.json) ;;
      memory_ordering) args+=(--summary ordering_summary.json) ;;
      tma) args+=(--summary tma_summary.json) ;;
      teach_ceilings) args+=(--summary ceilings_summary.json) ;;
      peer_memory) args+=(--summary peer_summary.json) ;;
      collectives) args+=(--summary collectives_summary.json) ;;
    esac
    # shellcheck disable=SC2206
    [ "$e" = cache_bandwidth ] && [ -n "${CUPROBE_GPU_CHECK_EXTRA:-}" ] && args+=(${CUPROBE_GPU_CHECK_EXTRA})
    s=$(date +%s)
    say "== $e ${args[*]}"
    (cd "$res" && "$root/build/hopper/examples/$e" "${args[@]}" > "$e.txt" 2>&1)
    ex_rc[$e]=$?
    ex_time[$e]=$(( $(date +%s) - s ))
    cat "$res/$e.txt" >> "$log"
    pack
  done
  # One headline file: device_report's summary.json and every example's --summary file merged
  # into summary.json (tools/merge_summaries.py), through a temporary file.
  if [ -f "$res/summary.json" ]; then
    ins=(summary.json); for f in "$res"/*summary*.json; do [ "${f##*/}" = summary.json ] || ins+=("${f##*/}"); done
    if (cd "$res" && python3 "$root/tools/merge_summaries.py" merged.json.tmp "${ins[@]}") >> "$log" 2>&1 &&
       mv "$res/merged.json.tmp" "$res/summary.json"; then say "merge_summaries: ${ins[*]}"
    else rm -f "$res/merged.json.tmp"; say "merge_summaries: FAILED (see log); summary.json is device_report's"; fi
    pack
  fi
fi

in_list() { local x; for x in "${examples[@]}"; do [ "$x" = "$1" ] && return 0; done; return 1; }
# The cache story of the DRAM kernels from the hardware counters (full mode, with dram_bandwidth).
if [ "$mode" = full ] && [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_NCU:-1}" != 0 ] && in_list dram_bandwidth; then
  say "== tools/ncu_dram.sh"
  tools/ncu_dram.sh build/hopper "$res/ncu_dram.csv" >> "$log" 2>&1 && ncu_state=ok || ncu_state="FAILED (see log)"
  pack
fi

# The sector model against ncu, and the ncu views of the tensor-core kernels (full mode, when
# those examples ran).
if [ "$mode" = full ] && [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_NCU:-1}" != 0 ]; then
  if in_list access_patterns; then
    say "== tools/ncu_access.sh"
    tools/ncu_access.sh build/hopper "$res/ncu_access/access" 1 >> "$log" 2>&1 && say "ncu_access: ok" || say "ncu_access: FAILED or skipped (see log)"
  fi
  if in_list device_report; then
    say "== tools/ncu_ceilings.sh"
    tools/ncu_ceilings.sh build/hopper "$res/ncu_ceilings" >> "$log" 2>&1 &&
      cp "$res/ncu_ceilings/ncu_ceilings.csv" "$res/ncu_ceilings.csv" && say "ncu_ceilings: ok" || say "ncu_ceilings: FAILED (see log)"
  fi
  if in_list wgmma || in_list gemm; then
    say "== tools/ncu_wgmma.sh"
    tools/ncu_wgmma.sh build/hopper "$res/ncu_wgmma" all >> "$log" 2>&1 &&
      cp "$res/ncu_wgmma/ncu_wgmma.md" "$res/ncu_wgmma.md" && say "ncu_wgmma: ok" || say "ncu_wgmma: FAILED (see log)"
  fi
  pack
fi
# The sparse wgmma figure's peer: PyTorch's 2:4 semi-structured matmul (full mode, with wgmma).
if [ "$mode" = full ] && [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_NCU:-1}" != only ] && in_list wgmma; then
  say "== tools/sparse_peer.py"
  (cd "$res" && python3 "$root/tools/sparse_peer.py" --json sparse_peer.json > sparse_peer.txt 2>&1) &&
    say "sparse_peer: ok" || say "sparse_peer: not run or FAILED (sparse_peer.txt)"
  pack
fi
# The collectives' peer: torch.distributed's NCCL collectives (full mode, with collectives).
if [ "$mode" = full ] && [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_NCU:-1}" != only ] && in_list collectives; then
  say "== tools/torch_collectives.py"
  (cd "$res" && NCCL_NVLS_ENABLE=0 timeout 900 python3 "$root/tools/torch_collectives.py" \
     --json torch_collectives.json > torch_collectives.txt 2>&1) &&
    say "torch_collectives: ok" || say "torch_collectives: not run or FAILED (torch_collectives.txt)"
  pack
fi

# compute-sanitizer: every GPU test binary and every example (--small), each tool.
san_state="not run"
if [ $build_ok = 1 ] && [ "${CUPROBE_GPU_CHECK_SANITIZE:-1}" != 0 ]; then
  s=$(date +%s)
  san="$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)"
  sdir="$res/sanitizer"
  mkdir -p "$sdir"
  jobs_file="$sdir/jobs"
  tools="${CUPROBE_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}"
  : > "$jobs_file"
  for t in build/hopper/tests/gpu_* build/hopper/examples/test_my_ptx; do
    [ -x "$t" ] || continue
    # Tests whose children fault on purpose (a __trap is what they check) are left out: the
    # sanitizer would count the planted fault.
    case "$t" in *_death|*_fault) continue ;; esac
    # doctest programs: each test case's seconds in the log, to see what a tool's time goes to
    for tool in $tools; do echo "$tool $t --duration=true" >> "$jobs_file"; done
  done
  for e in "${examples[@]}"; do
    for tool in $tools; do echo "$tool build/hopper/examples/$e --small" >> "$jobs_file"; done
  done
  # The slowest runs first (racecheck, then the examples), so that the pass's limit cuts the
  # short ones, if any, and the slow ones overlap.
  { grep "^racecheck .*examples/" "$jobs_file"; grep "^racecheck " "$jobs_file" | grep -v "examples/"
    grep -v "^racecheck " "$jobs_file" | grep "examples/"; grep -v "^racecheck " "$jobs_file" | grep -v "examples/"; } > "$jobs_file.ord"
  mv "$jobs_file.ord" "$jobs_file"
  if [ -n "${CUPROBE_SANITIZE_MATCH:-}" ]; then
    grep -E "$CUPROBE_SANITIZE_MATCH" "$jobs_file" > "$jobs_file.sel"; mv "$jobs_file.sel" "$jobs_file"
  fi
  run_one() {  # tool program [args...]: appends "tool program errors|TIMEOUT|CRASH rc seconds"
    local tool=$1; shift
    local name; name="$(basename "$1")"
    local out="$sdir/$tool.$name.log"
    local t1; t1=$(date +%s)
    # memcheck: API errors are not counted (--report-api-errors no). Every CUDA call of the
    # library goes through CUPROBE_CHECK, which throws on an error, so a real one fails the run
    # anyway; the tests' planted ones (an allocation too large, refused tensor maps and
    # cluster shapes) would otherwise count as errors.
    local extra=(); [ "$tool" = memcheck ] && extra=(--report-api-errors no)
    # examples/gemm runs cuBLASLt beside its own kernel; racecheck reports WAR hazards inside
    # cuBLASLt's kernels (nvjet_*), and with --kernel-name kns=gemm_kernel the sanitizer crashed
    # in cuBLASLt (both seen on the H200): racecheck runs gemm without the peer (--peer 0).
    local args=("${@:2}"); [ "$tool" = racecheck ] && [ "$name" = gemm ] && args+=(--peer 0)
    # The examples run in profile mode (CUPROBE_PROFILE=1: every measurement one call, no warm-up,
    # no graph): each kernel once is what the tools need, not the samples a figure needs.
    local profile=0; case "$1" in */examples/*) profile=1 ;; esac
    (cd "$sdir" && CUPROBE_PROFILE=$profile CUPROBE_UNDER_SANITIZER=1 timeout "${CUPROBE_SANITIZE_LIMIT:-240}" \
      "$san" --tool "$tool" "${extra[@]}" --print-limit 20 "$root/$1" "${args[@]}" > "$out" 2>&1)
    local rc=$?
    local n; n="$(grep -oE "ERROR SUMMARY: [0-9]+" "$out" | tail -1 | grep -oE "[0-9]+$")"
    # racecheck ends with "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)":
    # errors and warnings both count.
    [ -z "$n" ] && n="$(grep -E "RACECHECK SUMMARY" "$out" | grep -oE "[0-9]+ errors, [0-9]+ warnings" | tail -1 | awk '{ print $1 + $3 }')"
    if [ "$rc" = 124 ]; then n=TIMEOUT; elif [ -z "$n" ]; then n=CRASH; fi
    # One short line per run, appended as it finishes: a pass cut short keeps what it finished.
    echo "$tool $name $n $rc $(( $(date +%s) - t1 ))" >> "$sdir/table.txt"
  }
  export -f run_one
  export san sdir root
  : > "$sdir/table.txt"
  # The whole pass has a limit too (CUPROBE_SANITIZE_TOTAL seconds); runs it did not reach are
  # listed as "not run", never left out.
  # CUPROBE_GPU_CHECK_DEADLINE (seconds since the epoch): the pass also ends 30 s before it, so
  # that a call with a hard limit (the device tool's 10 minutes) still gets the table.
  total="${CUPROBE_SANITIZE_TOTAL:-3000}"
  if [ -n "${CUPROBE_GPU_CHECK_DEADLINE:-}" ]; then
    left=$(( CUPROBE_GPU_CHECK_DEADLINE - $(date +%s) - 30 ))
    [ "$left" -lt "$total" ] && total=$(( left > 1 ? left : 1 ))
  fi
  timeout "$total" \
    xargs -P "${CUPROBE_SANITIZE_JOBS:-8}" -L 1 bash -c 'run_one "$@"' _ < "$jobs_file"
  while read -r tool prog _; do
    grep -q "^$tool $(basename "$prog") " "$sdir/table.txt" || echo "$tool $(basename "$prog") not_run - -" >> "$sdir/table.txt"
  done < "$jobs_file"
  sort -o "$sdir/table.txt" "$sdir/table.txt"
  cat "$sdir"/*.log >> "$log" 2>/dev/null
  python3 tools/sanitizer_table.py -o "$res/sanitizer.md" "$sdir/table.txt" >> "$log" 2>&1
  # Its last line: "N runs over P programs; B not clean or not run."
  san_state="$(tail -1 "$res/sanitizer.md" | sed 's/\.$//'), in $(( $(date +%s) - s ))s"
  cat "$res/sanitizer.md" >> "$log"
  pack
fi

# Schema check of everything written, then the plots each example's docs use.
if ls "$res"/*.json > /dev/null 2>&1; then
  python3 tools/validate_results.py "$res"/*.json >> "$log" 2>&1 && valid=ok || valid=FAILED
  if [ "${CUPROBE_GPU_CHECK_PLOTS:-1}" != 0 ]; then
    [ -x scripts/plots.sh ] && scripts/plots.sh "$res" >> "$log" 2>&1
    [ "$mode" = full ] && python3 tools/results_md.py "$res" >> "$log" 2>&1
  fi
fi

pack && rm -rf "$res"
# The curated reference set (full mode, CUPROBE_REFERENCE_OUT=docs/results/<gpu>).
if [ "$mode" = full ] && [ -n "${CUPROBE_REFERENCE_OUT:-}" ]; then
  scripts/reference-set.sh "$CUPROBE_REFERENCE_OUT" "$OUT/results.tgz" 2>&1 | tee -a "$log"
fi

echo
echo "==================== gpu-check summary ($mode) ===================="
printf "%-22s %s\n" "card" "${card_name:-none found} ${card_uuid:-} -> docs/results/${card_folder:-?}"
printf "%-22s %s\n" "build" "$([ $build_ok = 1 ] && echo "$build_text" || echo FAILED)"
for label in host sass gpu; do printf "%-22s %s\n" "tier $label" "${tier[$label]:-not run}"; done
printf "%-22s %s\n" "ctest" "${tier_summary:-not run}"
for e in "${examples[@]}"; do
  printf "%-22s rc=%s %ss\n" "$e" "${ex_rc[$e]:-not run}" "${ex_time[$e]:-0}"
done
printf "%-22s %s\n" "JSON schema" "${valid:-not run}"
[ "$mode" = full ] && printf "%-22s %s\n" "ncu (DRAM counters)" "${ncu_state:-not run}"
printf "%-22s %s\n" "compute-sanitizer" "$san_state"
grep -A30 "The following tests FAILED" "$log" | head -30 || true
[ -f "$OUT/results.tgz" ] && tar -xzf "$OUT/results.tgz" -O ./sanitizer.md 2>/dev/null | head -40
