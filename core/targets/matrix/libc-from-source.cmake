# The embedded libcs built from their Debian source (picolibc, newlib, uclibc):
# the one way they compile third-party libc code and turn it into an
# in-process target beside glibc, as core/targets/musl/ does for musl.
# Included by core/targets/{picolibc,newlib,uclibc}/CMakeLists.txt.
#
#   scn_libc_skip(<name> <why>)         loud WARNING, no target (never silent)
#   scn_libc_require_tools(<name>)      SCN_LIBC_TOOLS_OK: not off (SCN_WITH_<NAME>), tools found
#   scn_libc_check_sources(<name> <where> <file>...)  SCN_LIBC_SOURCES_OK: every file exists
#   scn_libc_objects(<objlib> SOURCES <file>... INCLUDE_DIRS <dir>...)
#       an OBJECT library compiled against the libc's own headers only
#       (-nostdinc; the compiler's own stddef.h/stdarg.h/float.h stay), with
#       the project's instrumentation and third-party warnings silenced
#   scn_libc_target(<name> OBJECTS <objlib> [EXTRA_OBJECTS <objlib>...]
#                   EXPORTS <sym,...> ADAPTER <file.c> VERSION <text>
#                   [ALLOWED_UNDEF <ere>])
#       ld -r + localize every symbol but <name>_<export>
#       (core/targets/musl/musl-objlink.sh, which also fails the build when
#       another global definition or an unexpected undefined symbol is left),
#       then the STATIC library scn_target_<name> (adapter + that object),
#       with SCN_LIBC_VERSION="<text>" defined for the adapter.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/matrix_target.cmake)  # scn_matrix_package_version

function(scn_libc_skip name why)
  message(WARNING "\n*** ${name} target NOT BUILT: ${why}\n")
endfunction()

# Whether <name> is to be built: not turned off by SCN_WITH_<NAME>=OFF, and
# the tools every one needs are there; sets SCN_LIBC_TOOLS_OK in the caller.
macro(scn_libc_require_tools name)
  string(TOUPPER "${name}" _scn_libc_upper)
  find_program(SCN_LIBC_LD NAMES ld ld.bfd)
  find_program(SCN_LIBC_OBJCOPY NAMES objcopy)
  find_program(SCN_LIBC_NM NAMES nm)
  set(SCN_LIBC_TOOLS_OK TRUE)
  if(DEFINED SCN_WITH_${_scn_libc_upper} AND NOT SCN_WITH_${_scn_libc_upper})
    message(STATUS "${name} target: not built (SCN_WITH_${_scn_libc_upper}=OFF)")
    set(SCN_LIBC_TOOLS_OK FALSE)
  elseif(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    scn_libc_skip(${name} "only x86_64 is supported (this is ${CMAKE_SYSTEM_PROCESSOR})")
    set(SCN_LIBC_TOOLS_OK FALSE)
  elseif(NOT SCN_LIBC_LD OR NOT SCN_LIBC_OBJCOPY OR NOT SCN_LIBC_NM)
    scn_libc_skip(${name} "ld, objcopy or nm (binutils) not found")
    set(SCN_LIBC_TOOLS_OK FALSE)
  endif()
endmacro()

# SCN_LIBC_SOURCES_OK in the caller: FALSE, with a loud skip, when one of
# the files (ARGN) is missing from <where> (the source it was to come from).
function(scn_libc_check_sources name where)
  set(SCN_LIBC_SOURCES_OK TRUE PARENT_SCOPE)
  foreach(f IN LISTS ARGN)
    if(NOT EXISTS ${f})
      scn_libc_skip(${name} "${f} is missing from ${where}")
      set(SCN_LIBC_SOURCES_OK FALSE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# The compiler's own header directory (stddef.h, stdarg.h, float.h, limits.h
# of the freestanding set): kept under -nostdinc, as the libcs' builds do.
if(NOT SCN_LIBC_CC_INCLUDE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=include
    OUTPUT_VARIABLE cc_inc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(SCN_LIBC_CC_INCLUDE ${cc_inc} CACHE INTERNAL "the C compiler's own header directory")
endif()

function(scn_libc_objects objlib)
  cmake_parse_arguments(L "" "" "SOURCES;INCLUDE_DIRS" ${ARGN})
  add_library(${objlib} OBJECT ${L_SOURCES})
  scn_code_under_test(${objlib})
  set_target_properties(${objlib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${objlib} BEFORE PRIVATE ${L_INCLUDE_DIRS})
  target_compile_options(${objlib} PRIVATE
    -nostdinc -isystem ${SCN_LIBC_CC_INCLUDE}
    -ffreestanding -fno-builtin -fno-stack-protector -frounding-math)
  # Warnings the libcs' code triggers under -Wall -Wextra (third-party code only).
  target_compile_options(${objlib} PRIVATE -w)
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    # a libc's own memcpy/memset loops must not become calls to themselves
    target_compile_options(${objlib} PRIVATE -fno-tree-loop-distribute-patterns)
  endif()
endfunction()

function(scn_libc_target name)
  cmake_parse_arguments(L "" "OBJECTS;EXPORTS;ADAPTER;VERSION;ALLOWED_UNDEF" "EXTRA_OBJECTS" ${ARGN})
  set(allowed "_GLOBAL_OFFSET_TABLE_|__tls_get_addr|__asan_.*|__ubsan_.*|__msan_.*|__afl_.*|__cmplog_.*|__sanitizer_cov_.*|__sancov_.*|__(start|stop)___sancov_.*|__gcov_.*|__llvm_gcov.*")
  if(L_ALLOWED_UNDEF)
    string(APPEND allowed "|${L_ALLOWED_UNDEF}")
  endif()
  set(objs)
  foreach(o IN LISTS L_OBJECTS L_EXTRA_OBJECTS)
    list(APPEND objs $<TARGET_OBJECTS:${o}>)
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/scn_${name}.o)
  add_custom_command(
    OUTPUT ${out}
    COMMAND sh ${PROJECT_SOURCE_DIR}/core/targets/musl/musl-objlink.sh --prefix ${name}_
            ${SCN_LIBC_LD} ${SCN_LIBC_OBJCOPY} ${SCN_LIBC_NM} ${out}
            "^(${allowed})$" "${L_EXPORTS}" -- ${objs}
    DEPENDS ${L_OBJECTS} ${L_EXTRA_OBJECTS} ${objs}
            ${PROJECT_SOURCE_DIR}/core/targets/musl/musl-objlink.sh
    COMMAND_EXPAND_LISTS
    COMMENT "${name}: ld -r + localize all but ${name}_* -> scn_${name}.o"
    VERBATIM)
  set_source_files_properties(${out} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(scn_target_${name} STATIC ${L_ADAPTER} ${out})
  scn_fuzz_machinery(${L_ADAPTER})
  target_include_directories(scn_target_${name} PUBLIC
    ${PROJECT_SOURCE_DIR}/core/targets ${PROJECT_SOURCE_DIR}/core/case)
  target_compile_definitions(scn_target_${name} PRIVATE SCN_LIBC_VERSION="${L_VERSION}")
  # The registry refers to scn_target_<name> by a WEAK declaration, and a
  # weak reference does not pull a member out of a static archive: force it.
  target_link_options(scn_target_${name} INTERFACE "LINKER:--undefined=scn_target_${name}")
  scn_certify_recipe(${name} scn_target_${name})
  message(STATUS "${name} target: ${L_VERSION}")
endfunction()
