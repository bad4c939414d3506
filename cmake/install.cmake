# Install rules and the package config for find_package(cuprobe CONFIG).
include(CMakePackageConfigHelpers)

set(CUPROBE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/cuprobe" CACHE STRING
    "Where cuprobeConfig.cmake is installed")

install(DIRECTORY include/cuprobe DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.cuh")
install(TARGETS cuprobe EXPORT cuprobeTargets)
install(EXPORT cuprobeTargets NAMESPACE cuprobe:: DESTINATION "${CUPROBE_INSTALL_CMAKEDIR}")

configure_package_config_file(cmake/cuprobeConfig.cmake.in
  "${PROJECT_BINARY_DIR}/cuprobeConfig.cmake"
  INSTALL_DESTINATION "${CUPROBE_INSTALL_CMAKEDIR}")
# Header-only: any architecture may consume it, so the version file is arch-independent.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cuprobeConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES
  "${PROJECT_BINARY_DIR}/cuprobeConfig.cmake"
  "${PROJECT_BINARY_DIR}/cuprobeConfigVersion.cmake"
  cmake/cuprobeTesting.cmake
  cmake/cuprobeCupti.cmake
  cmake/cuprobeArchCheck.cmake
  cmake/cuprobeSeparate.cmake
  cmake/cuprobe_sass_check.cmake
  DESTINATION "${CUPROBE_INSTALL_CMAKEDIR}")
# The Python tools, side by side: plot.py, compare.py and merge_summaries.py import
# validate_results.py from their own folder, compare.py card_ceilings.py and gpu_model.py (the
# reference sets below, by model, when two cards of different models are compared).
install(PROGRAMS tools/plot.py tools/roofline.py tools/validate_results.py tools/compare.py tools/merge_summaries.py
        DESTINATION "${CMAKE_INSTALL_DATADIR}/cuprobe")
install(FILES tools/card_ceilings.py tools/gpu_model.py DESTINATION "${CMAKE_INSTALL_DATADIR}/cuprobe")
# The reference sets behind measure/ceilings.cuh's "reference" source: each GPU's summary.json.
install(DIRECTORY docs/results/ DESTINATION "${CMAKE_INSTALL_DATADIR}/cuprobe/results"
        FILES_MATCHING PATTERN "summary.json")
