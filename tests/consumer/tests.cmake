# cuprobe consumed three ways, each proven by configuring and building a tiny project:
# add_subdirectory, FetchContent from a local path, find_package(cuprobe CONFIG) after install;
# and the teaching examples built on the installed package alone (at the end).
set(_consumer_src "${CMAKE_CURRENT_SOURCE_DIR}/consumer/project")
set(_install_prefix "${CMAKE_BINARY_DIR}/consumer-install")

add_test(NAME host.package_install
         COMMAND "${CMAKE_COMMAND}" --install "${CMAKE_BINARY_DIR}" --prefix "${_install_prefix}")
set_tests_properties(host.package_install PROPERTIES LABELS "host;package"
                     FIXTURES_SETUP cuprobe_installed)

# The installed Python tools run from the package alone (compare.py across models: its modules
# and the installed reference sets).
if(Python3_EXECUTABLE)
  add_test(NAME host.installed_compare
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/host/installed_compare_check.py"
            "${_install_prefix}")
  set_tests_properties(host.installed_compare PROPERTIES LABELS "host;package"
                       FIXTURES_REQUIRED cuprobe_installed)
endif()

foreach(mode subdirectory fetchcontent package)
  add_test(NAME host.consume_${mode}
    COMMAND "${CMAKE_COMMAND}"
            -DMODE=${mode}
            -DSOURCE=${_consumer_src}
            -DBINARY=${CMAKE_BINARY_DIR}/consumer-${mode}
            -DCUPROBE_SOURCE=${PROJECT_SOURCE_DIR}
            -DPREFIX=${_install_prefix}
            -DGENERATOR=${CMAKE_GENERATOR}
            -DCUDA_COMPILER=${CMAKE_CUDA_COMPILER}
            -P "${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake")
  set_tests_properties(host.consume_${mode} PROPERTIES LABELS "host;package")
endforeach()
set_tests_properties(host.consume_package PROPERTIES FIXTURES_REQUIRED cuprobe_installed)

# A consumer's target built without 90a is told, at configure time, to set CUDA_ARCHITECTURES 90a
# (once per target, naming it); the runs above, built for 90a, must print no such notice.
foreach(mode subdirectory package)
  add_test(NAME host.consume_${mode}_arch_notice
    COMMAND "${CMAKE_COMMAND}"
            -DMODE=${mode} -DARCH=80 -DCONFIGURE_ONLY=ON
            "-DNOTICE=cuprobe: target 'consumer' is built for CUDA architectures '80', without 90a:.*set CUDA_ARCHITECTURES 90a on it"
            -DSOURCE=${_consumer_src}
            -DBINARY=${CMAKE_BINARY_DIR}/consumer-${mode}-arch80
            -DCUPROBE_SOURCE=${PROJECT_SOURCE_DIR}
            -DPREFIX=${_install_prefix}
            -DGENERATOR=${CMAKE_GENERATOR}
            -DCUDA_COMPILER=${CMAKE_CUDA_COMPILER}
            -P "${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake")
  set_tests_properties(host.consume_${mode}_arch_notice PROPERTIES LABELS "host;package")
endforeach()
set_tests_properties(host.consume_package_arch_notice PROPERTIES FIXTURES_REQUIRED cuprobe_installed)

# The teaching examples (examples/teach_*.cu), unchanged, as programs of a project that only
# find_package's the installed cuprobe: one configure and one build of the five, for sm_90a
# (no GPU needed). It fails when one includes a header the package does not install, or reads
# one of the source tree (ninja -t deps); the two fixtures prove both.
set(_teach_args -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/consumer/teaching
    -DCUPROBE_SOURCE=${PROJECT_SOURCE_DIR} -DPREFIX=${_install_prefix}
    -DGENERATOR=${CMAKE_GENERATOR} -DCUDA_COMPILER=${CMAKE_CUDA_COMPILER})
add_test(NAME host.consume_teaching
  COMMAND "${CMAKE_COMMAND}" -DMODE=teaching -DBINARY=${CMAKE_BINARY_DIR}/consumer-teaching
          ${_teach_args} -P "${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake")
add_test(NAME host.consume_teaching_catches_suite
  COMMAND "${CMAKE_COMMAND}" -DMODE=teaching -DBINARY=${CMAKE_BINARY_DIR}/consumer-teaching-suite
          -DTEACH_DIR=${CMAKE_CURRENT_SOURCE_DIR}/consumer/fixture_teach/suite
          "-DBUILD_FAILS=cuprobe_suite/suite.cuh" ${_teach_args}
          -P "${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake")
set_tests_properties(host.consume_teaching host.consume_teaching_catches_suite PROPERTIES
                     LABELS "host;package" FIXTURES_REQUIRED cuprobe_installed)
set_tests_properties(host.consume_teaching PROPERTIES TIMEOUT 600)
if(CMAKE_GENERATOR MATCHES "Ninja")  # the dependency scan reads ninja -t deps
  add_test(NAME host.consume_teaching_catches_tree
    COMMAND "${CMAKE_COMMAND}" -DMODE=teaching -DBINARY=${CMAKE_BINARY_DIR}/consumer-teaching-tree
            -DTEACH_DIR=${CMAKE_CURRENT_SOURCE_DIR}/consumer/fixture_teach/tree ${_teach_args}
            -P "${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake")
  set_tests_properties(host.consume_teaching_catches_tree PROPERTIES LABELS "host;package"
    FIXTURES_REQUIRED cuprobe_installed
    PASS_REGULAR_EXPRESSION "the programs read headers of cuprobe's source tree.*core/version.cuh")
endif()
