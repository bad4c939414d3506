# tools/ (validate_results.py, plot.py, results_md.py, compare.py, merge_summaries.py,
# ncu_counters.py): host
# tests in Python, no GPU, no build (host.results_schema: the counters of cuprobe.results/3).
# Exit 77 is CTest's "skipped": plot drawing needs matplotlib, compare.py on results files SciPy;
# either may be missing.
if(Python3_EXECUTABLE)
  set(_cuprobe_cache "$ENV{XDG_CACHE_HOME}")
  if(NOT _cuprobe_cache)
    set(_cuprobe_cache "$ENV{HOME}/.cache")
  endif()
  # compare_models: compare.py across GPU models; cards: tools/cards_md.py's page across cards
  # (docs/results/README.md) and that the committed one is current; separate_headers:
  # tools/separate_headers.py (no host function of the host layers' headers left outside impl/);
  # carried_build: scripts/carried-build.sh (a build carried to the GPU machine).
  foreach(check IN ITEMS plot tools compare results_schema ncu_counters compare_models cards
                         separate_headers carried_build)
    add_test(NAME host.${check}
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/host/${check}_check.py")
    # matplotlib and SciPy may live in scripts/setup-tests.sh's private folder.
    set_tests_properties(host.${check} PROPERTIES LABELS host SKIP_RETURN_CODE 77
      ENVIRONMENT "PYTHONPATH=${_cuprobe_cache}/cuprobe-ci/python:$ENV{PYTHONPATH}")
  endforeach()
else()
  message(STATUS "cuprobe: no Python 3 interpreter; host.plot, host.tools, host.compare and "
                 "host.results_schema are not registered")
endif()

# tools/sparse_peer.py, the peer of the sparse wgmma figure (PyTorch's 2:4 semi-structured
# matmul beside its dense one): a small run whose results are checked against the dense
# product (exit 1 on a wrong one). Exit 2, PyTorch or a GPU missing, is CTest's "skipped".
if(Python3_EXECUTABLE)
  add_test(NAME gpu.sparse_peer
    COMMAND python3 "${CMAKE_CURRENT_SOURCE_DIR}/../tools/sparse_peer.py"
            --sizes 1024,2048 --reps 3 --warmup 1)
  set_tests_properties(gpu.sparse_peer PROPERTIES LABELS gpu SKIP_RETURN_CODE 2 TIMEOUT 300)
endif()

# tools/torch_collectives.py, the peer of examples/collectives (torch.distributed's NCCL
# collectives, one process per GPU): small sizes, every output checked (exit 1 on a wrong one).
# Exit 2, PyTorch, NCCL or a GPU missing, is CTest's "skipped".
if(Python3_EXECUTABLE)
  add_test(NAME gpu.torch_collectives
    COMMAND python3 "${CMAKE_CURRENT_SOURCE_DIR}/../tools/torch_collectives.py"
            --max-bytes 1048576 --samples 2 --reps 2 --warmup 1)
  set_tests_properties(gpu.torch_collectives PROPERTIES LABELS gpu SKIP_RETURN_CODE 2 TIMEOUT 300
    ENVIRONMENT "NCCL_NVLS_ENABLE=0")
endif()
