# At the end of the consumer's configure step, one sentence for each target that links
# cuprobe::cuprobe but is not built for sm_90a: the Hopper blocks (mbarrier, bulk and tensor
# copies, clusters, setmaxnreg, wgmma) only compile for 90a, and the compile-time error they give
# on other targets is easy to misread. The portable blocks compile for every architecture, so this
# is a notice, not an error; set CUPROBE_ARCH_NOTICE OFF to silence it.
include_guard(GLOBAL)

function(_cuprobe_collect_targets dir out)
  get_property(_targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _cuprobe_collect_targets("${_sub}" _more)
    list(APPEND _targets ${_more})
  endforeach()
  set(${out} ${_targets} PARENT_SCOPE)
endfunction()

function(_cuprobe_check_architectures)
  if(DEFINED CUPROBE_ARCH_NOTICE AND NOT CUPROBE_ARCH_NOTICE)
    return()
  endif()
  _cuprobe_collect_targets("${CMAKE_SOURCE_DIR}" _targets)
  foreach(_t IN LISTS _targets)
    get_target_property(_type ${_t} TYPE)
    if(_type STREQUAL "INTERFACE_LIBRARY" OR _type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(_libs ${_t} LINK_LIBRARIES)
    if(NOT _libs OR NOT ("cuprobe::cuprobe" IN_LIST _libs OR "cuprobe" IN_LIST _libs))
      continue()
    endif()
    get_target_property(_archs ${_t} CUDA_ARCHITECTURES)
    if(NOT _archs)
      set(_archs "the toolkit's default")
    endif()
    set(_has_90a FALSE)
    foreach(_a IN LISTS _archs)
      if(_a MATCHES "^90a")
        set(_has_90a TRUE)
      endif()
    endforeach()
    if(NOT _has_90a)
      message(NOTICE "cuprobe: target '${_t}' is built for CUDA architectures '${_archs}', without "
                     "90a: cuprobe's Hopper blocks (mbarrier, TMA copies, clusters, wgmma) compile "
                     "only for sm_90a, so set CUDA_ARCHITECTURES 90a on it (or "
                     "-DCMAKE_CUDA_ARCHITECTURES=90a) if it uses them "
                     "(CUPROBE_ARCH_NOTICE=OFF silences this)")
    endif()
  endforeach()
endfunction()

get_property(_cuprobe_arch_deferred GLOBAL PROPERTY _CUPROBE_ARCH_CHECK_DEFERRED)
if(NOT _cuprobe_arch_deferred)
  set_property(GLOBAL PROPERTY _CUPROBE_ARCH_CHECK_DEFERRED TRUE)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cuprobe_check_architectures)
endif()
