# The build's instrumentation policy, in one place: sanitizers, libFuzzer's
# coverage (on the code under test only, without comparison tracing) and
# AFL++'s denylist for the checking machinery. Included by the top-level
# CMakeLists.txt before the parts; scn_instrumentation_finish() runs after
# them (the denylist needs every part's machinery files).
#   scn_code_under_test(target)   the code under test: edges, no trace-cmp
#   scn_fuzz_machinery(files...)  checking machinery: no coverage at all

if(SCN_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(SCN_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SCN_FUZZ needs clang (use the 'fuzz' preset)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  if(NOT SCN_SANITIZE)
    # The instrumented code calls libFuzzer's coverage callbacks; with a
    # sanitizer its runtime defines them for every program, without one the
    # programs that are not fuzzers (scn-conform, the tests) need libFuzzer's
    # runtime without its main() to link.
    add_link_options(-fsanitize=fuzzer-no-link)
  endif()
endif()

# The code under test (impl/, musl's and the kernel's printf) is built without
# libFuzzer's comparison tracing: the fuzzers feed it formats the decoder
# builds from the input, so the traced operands are not input bytes, and the
# tracing of its digit loops cost the differential fuzzers much of their
# speed for no coverage. Edge coverage stays; the parser keeps the tracing.
# SCN_TARGET_TRACE_CMP=ON puts it back.
option(SCN_TARGET_TRACE_CMP "Comparison tracing in the code under test (fuzz builds)" OFF)
function(scn_code_under_test tgt)
  if(SCN_FUZZ AND NOT SCN_TARGET_TRACE_CMP)
    target_compile_options(${tgt} PRIVATE -fno-sanitize-coverage=trace-cmp)
  endif()
endfunction()
# The checking machinery (oracles, the differential, the fuzzing core) gets
# no coverage instrumentation at all: its edges say nothing about the code
# under test, and libFuzzer's per-execution bookkeeping (entropic feature
# frequencies) grows with every feature they add.
# AFL++'s compiler (afl-clang-fast) instruments every file it compiles, flags
# or not: there the machinery is kept out by AFL++'s denylist, written at the
# end of configuration (AFL_LLVM_DENYLIST, passed by a compiler launcher).
include(CheckCSourceCompiles)
check_c_source_compiles("#ifndef __AFL_COMPILER\n#error not AFL++\n#endif\nint main(void) { return 0; }"
                        SCN_CC_IS_AFL)
if(SCN_CC_IS_AFL)
  set(SCN_AFL_DENYLIST ${CMAKE_BINARY_DIR}/afl-denylist.txt)
  set(CMAKE_C_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env AFL_LLVM_DENYLIST=${SCN_AFL_DENYLIST})
endif()
function(scn_fuzz_machinery)
  if(SCN_FUZZ)
    set_source_files_properties(${ARGN} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                                PROPERTIES COMPILE_OPTIONS -fno-sanitize=fuzzer-no-link)
  endif()
  if(SCN_CC_IS_AFL)
    # (paths from the repository's root: AFL++ 4.04c matches the end of the
    # file's name, and an absolute path did not match from inside the tree)
    foreach(f ${ARGN})
      get_filename_component(abs ${f} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
      set_property(GLOBAL APPEND PROPERTY SCN_AFL_DENY "src: ${rel}")
    endforeach()
  endif()
endfunction()

function(scn_instrumentation_finish)
  if(SCN_CC_IS_AFL)
    get_property(_deny GLOBAL PROPERTY SCN_AFL_DENY)
    list(JOIN _deny "\n" _deny)
    file(CONFIGURE OUTPUT ${SCN_AFL_DENYLIST} CONTENT "${_deny}\n") # rewritten only when it changes
    # every C object depends on the list (it decides what AFL++ instruments)
    function(scn_afl_denylist_depends dir)
      get_property(tgts DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
      foreach(t ${tgts})
        get_target_property(srcs ${t} SOURCES)
        get_target_property(tdir ${t} SOURCE_DIR)
        foreach(src ${srcs})
          if(src MATCHES "\\.c$")
            get_filename_component(src ${src} ABSOLUTE BASE_DIR ${tdir})
            set_property(SOURCE ${src} DIRECTORY ${tdir} APPEND PROPERTY OBJECT_DEPENDS ${SCN_AFL_DENYLIST})
          endif()
        endforeach()
      endforeach()
      get_property(subs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
      foreach(sub ${subs})
        scn_afl_denylist_depends(${sub})
      endforeach()
    endfunction()
    scn_afl_denylist_depends(${CMAKE_CURRENT_SOURCE_DIR})
  endif()
endfunction()
