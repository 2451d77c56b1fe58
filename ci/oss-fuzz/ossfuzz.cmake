# Injected by ci/oss-fuzz/build.sh with -DCMAKE_PROJECT_INCLUDE=<this file>:
# runs right after project(scnfuzz) and defers one function to the end of the
# top-level CMakeLists.txt, when every target exists. It adapts the project's
# own build to the OSS-Fuzz contract without editing the project's files:
#
#   - each fuzzer in SCN_OSSFUZZ_FUZZERS is linked with SCN_OSSFUZZ_ENGINE
#     ($LIB_FUZZING_ENGINE: -fsanitize=fuzzer, libAFLDriver.a, ...) instead of
#     the -fsanitize=fuzzer the project hard-codes, and is written to
#     SCN_OSSFUZZ_BINDIR;
#   - -Werror is neutralised (-Wno-error appended to every compiled target):
#     OSS-Fuzz's clang is newer than the project's, and a new warning must not
#     stop continuous fuzzing (the project's own CI keeps -Werror).
#
# Needs CMake >= 3.19 (cmake_language(DEFER)).

cmake_minimum_required(VERSION 3.19)

function(_scn_ossfuzz_targets dir out)
  get_property(t DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    _scn_ossfuzz_targets("${s}" st)
    list(APPEND t ${st})
  endforeach()
  set(${out} ${t} PARENT_SCOPE)
endfunction()

function(_scn_ossfuzz_fixup)
  _scn_ossfuzz_targets("${CMAKE_SOURCE_DIR}" all)
  set(compiled EXECUTABLE STATIC_LIBRARY SHARED_LIBRARY MODULE_LIBRARY OBJECT_LIBRARY)
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    if(type IN_LIST compiled)
      set_property(TARGET ${t} APPEND PROPERTY COMPILE_OPTIONS -Wno-error)
    endif()
  endforeach()

  separate_arguments(engine UNIX_COMMAND "${SCN_OSSFUZZ_ENGINE}")
  set(found)
  foreach(f IN LISTS SCN_OSSFUZZ_FUZZERS)
    if(NOT TARGET ${f})
      continue()
    endif()
    list(APPEND found ${f})
    get_target_property(lo ${f} LINK_OPTIONS)
    if(lo)
      list(REMOVE_ITEM lo -fsanitize=fuzzer)
      set_property(TARGET ${f} PROPERTY LINK_OPTIONS ${lo})
    endif()
    # After the objects and libraries: right for a flag and for an archive.
    set_property(TARGET ${f} APPEND PROPERTY LINK_LIBRARIES ${engine})
    if(SCN_OSSFUZZ_BINDIR)
      set_property(TARGET ${f} PROPERTY RUNTIME_OUTPUT_DIRECTORY "${SCN_OSSFUZZ_BINDIR}")
    endif()
  endforeach()
  list(JOIN found " " found_s)
  message(STATUS "oss-fuzz: fuzzers [${found_s}] linked with '${SCN_OSSFUZZ_ENGINE}'")
endfunction()

if(CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)  # the top-level project() only
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _scn_ossfuzz_fixup)
endif()
