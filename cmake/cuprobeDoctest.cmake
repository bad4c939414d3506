# doctest for cuprobe's tests: the system package first, a download only when asked for.
find_package(doctest CONFIG QUIET)
if(NOT TARGET doctest::doctest)
  if(CUPROBE_FETCH_DOCTEST)
    message(STATUS "cuprobe: doctest not found; DOWNLOADING doctest 2.4.11 from GitHub because "
                   "CUPROBE_FETCH_DOCTEST=ON")
    include(FetchContent)
    FetchContent_Declare(doctest
      GIT_REPOSITORY https://github.com/doctest/doctest.git
      GIT_TAG v2.4.11
      GIT_SHALLOW TRUE)
    FetchContent_MakeAvailable(doctest)
  else()
    message(FATAL_ERROR
      "cuprobe: the tests need doctest and find_package(doctest) did not find it. Install it "
      "(Debian/Ubuntu: sudo apt-get install doctest-dev), or pass -DCUPROBE_FETCH_DOCTEST=ON to "
      "download it, or -DCUPROBE_BUILD_TESTS=OFF to build without tests.")
  endif()
endif()
