# tools/ (validate_results.py, plot.py, results_md.py, compare.py, merge_summaries.py): host
# tests in Python, no GPU, no build. Exit 77 is CTest's "skipped": plot drawing needs matplotlib,
# compare.py on results files SciPy; either may be missing.
if(Python3_EXECUTABLE)
  set(_cuprobe_cache "$ENV{XDG_CACHE_HOME}")
  if(NOT _cuprobe_cache)
    set(_cuprobe_cache "$ENV{HOME}/.cache")
  endif()
  foreach(check IN ITEMS plot tools compare)
    add_test(NAME host.${check}
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/host/${check}_check.py")
    # matplotlib and SciPy may live in scripts/setup-tests.sh's private folder.
    set_tests_properties(host.${check} PROPERTIES LABELS host SKIP_RETURN_CODE 77
      ENVIRONMENT "PYTHONPATH=${_cuprobe_cache}/cuprobe-ci/python:$ENV{PYTHONPATH}")
  endforeach()
else()
  message(STATUS "cuprobe: no Python 3 interpreter; host.plot, host.tools and host.compare are not registered")
endif()
