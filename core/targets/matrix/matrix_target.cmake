# The matrix targets (printfs that libraries vendor), one directory each under
# core/targets/: the one way they find their Debian package and make their
# library. Included by each matrix target's CMakeLists.txt.
#
#   scn_matrix_target(<name> PACKAGE <deb> ADAPTER <file.c>
#                     [HEADER <path>...] [LIBRARY <path or -lname>...]
#                     [INCLUDE_DIRS <dir>...] [SOURCES <file>...])
#
# Checks that the package is installed (dpkg-query) and that every HEADER and
# LIBRARY path exists; if not, a loud WARNING names the package and no target
# is made (the rest of the tree builds without it). Otherwise defines the
# STATIC library scn_target_<name> (core/CMakeLists.txt links it) from the
# adapter (and SOURCES), with SCN_MATRIX_VERSION="<deb> <version>" defined for
# it and LINKER:--undefined=scn_target_<c name> so the registry's weak
# reference finds the adapter. <name> is the directory (as listed in
# SCN_OPTIONAL_TARGETS); its C name has '_' for '-'.
# SCN_WITH_<NAME>=OFF (NAME upper-case, '_' for '-') leaves one out, as the
# kernel and musl targets do.
#
# Every matrix target says what became of it in one manifest,
# ${CMAKE_BINARY_DIR}/matrix-targets.tsv (name, Debian package, "built" or
# "skipped: why"; scn_matrix_record), which tests/test_matrix_targets.py
# reads: a target skipped although its package is installed fails there.
include_guard(GLOBAL)

file(WRITE ${CMAKE_BINARY_DIR}/matrix-targets.tsv "# name\tpackage\tstatus (core/targets/matrix/matrix_target.cmake)\n")

function(scn_matrix_record name package status)
  file(APPEND ${CMAKE_BINARY_DIR}/matrix-targets.tsv "${name}\t${package}\t${status}\n")
endfunction()

# True in ${out} when SCN_WITH_<NAME> turns <name> off (a status line says so).
function(scn_matrix_disabled name out)
  string(TOUPPER "${name}" n)
  string(REPLACE "-" "_" n "${n}")
  if(DEFINED SCN_WITH_${n} AND NOT SCN_WITH_${n})
    message(STATUS "matrix target ${name}: not built (SCN_WITH_${n}=OFF)")
    scn_matrix_record(${name} - "skipped: SCN_WITH_${n}=OFF")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(scn_matrix_skip name package why)
  scn_matrix_record(${name} ${package} "skipped: ${why}")
  message(WARNING "\n*** matrix target `${name}` NOT BUILT: ${why}\n"
                  "*** (Debian package ${package}: apt-get install ${package}, or bash ci/setup.sh)\n")
endfunction()

# "<package> <version>" in ${out}, or "" when it is not installed.
function(scn_matrix_package_version package out)
  execute_process(COMMAND dpkg-query -W -f=\${Status}\t\${Version} ${package}
    OUTPUT_VARIABLE st RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND st MATCHES "^install ok installed\t(.+)$")
    set(${out} "${package} ${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

function(scn_matrix_target name)
  cmake_parse_arguments(M "" "PACKAGE;ADAPTER" "HEADER;LIBRARY;INCLUDE_DIRS;SOURCES" ${ARGN})
  string(REPLACE "-" "_" cname "${name}")
  scn_matrix_disabled(${name} disabled)  # a variable: if(off) would read the constant OFF
  if(disabled)
    return()
  endif()
  scn_matrix_package_version(${M_PACKAGE} version)
  if(version STREQUAL "")
    scn_matrix_skip(${name} ${M_PACKAGE} "the package ${M_PACKAGE} is not installed")
    return()
  endif()
  foreach(f IN LISTS M_HEADER M_LIBRARY)
    if(NOT f MATCHES "^-l" AND NOT EXISTS "${f}")
      scn_matrix_skip(${name} ${M_PACKAGE} "${f} is missing (${version} installed)")
      return()
    endif()
  endforeach()
  message(STATUS "matrix target ${name}: ${version}")
  scn_matrix_record(${name} ${M_PACKAGE} built)
  set(lib scn_target_${name})
  add_library(${lib} STATIC ${M_ADAPTER} ${M_SOURCES})
  scn_fuzz_machinery(${M_ADAPTER})
  set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${lib} PRIVATE
    ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/..          # target.h
    ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../case  # scn_base.h
    ${M_INCLUDE_DIRS})
  target_compile_definitions(${lib} PRIVATE "SCN_MATRIX_VERSION=\"${version}\"")
  target_link_libraries(${lib} PUBLIC ${M_LIBRARY})
  # The registry refers to scn_target_<c name> weakly, and a weak reference
  # does not pull an archive member: whatever links this library asks for it.
  target_link_options(${lib} INTERFACE "LINKER:--undefined=scn_target_${cname}")
  scn_certify_recipe(${name} ${lib})
endfunction()

#   scn_matrix_executor(<name> PACKAGE <deb> DRIVER <cmd>... [FLAGS <flag>...])
#
# A libc reached only through its compiler driver (`diet gcc`, klcc): the
# generic executor (programs/exec/scn_exec.c, protocol in its README) built
# with it, -static, the way `scnfuzz conform --libc-cc` builds it
# (runner/scnfuzz/anylibc.py, build_executor), as scn-<name>-exec in this
# directory; runner/scnfuzz/targets.py (_EXECUTORS) lists it. A missing
# package or driver: a loud WARNING naming the package, no executor.
function(scn_matrix_executor name)
  cmake_parse_arguments(M "" "PACKAGE" "DRIVER;FLAGS" ${ARGN})
  scn_matrix_disabled(${name} disabled)  # a variable: if(off) would read the constant OFF
  if(disabled)
    return()
  endif()
  scn_matrix_package_version(${M_PACKAGE} version)
  list(GET M_DRIVER 0 driver)
  find_program(SCN_${name}_DRIVER ${driver})
  if(version STREQUAL "" OR NOT SCN_${name}_DRIVER)
    scn_matrix_skip(${name}-exec ${M_PACKAGE} "no ${driver} (the package ${M_PACKAGE} is not installed)")
    return()
  endif()
  string(REPLACE "${M_PACKAGE} " "${name} " libc_version "${version}")
  message(STATUS "matrix executor ${name}: ${libc_version} (${M_DRIVER})")
  scn_matrix_record(${name}-exec ${M_PACKAGE} "built: ${CMAKE_CURRENT_BINARY_DIR}/scn-${name}-exec")
  set(exec_dir ${PROJECT_SOURCE_DIR}/programs/exec)
  set(case_dir ${PROJECT_SOURCE_DIR}/core/case)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/scn-${name}-exec)
  list(TRANSFORM SCN_CASE_MODEL_NAMES PREPEND ${case_dir}/ OUTPUT_VARIABLE case_sources)
  list(TRANSFORM SCN_CASE_MODEL_HEADERS PREPEND ${case_dir}/ OUTPUT_VARIABLE case_headers)
  set(sources ${exec_dir}/scn_exec.c ${case_sources} ${exec_dir}/compat/scn_strtod.c)
  add_custom_command(
    OUTPUT ${bin}
    COMMAND ${M_DRIVER} -std=gnu11 -O2 -g -Wall -Wextra -Werror -static
            "-DSCN_EXEC_NAME=\"${name}\"" "-DSCN_EXEC_VERSION=\"${libc_version}\""
            -I${case_dir} -I${PROJECT_SOURCE_DIR}/core/targets ${M_FLAGS}
            # the case form's hex floats: the project's exact parser (the
            # libc's strtod may have none, klibc has no strtod at all)
            -include ${exec_dir}/compat/scn_strtod.h -Dstrtod=scn_strtod -Dstrtold=scn_strtold
            ${sources} -o ${bin}
    DEPENDS ${sources} ${exec_dir}/compat/scn_strtod.h ${case_headers}
    COMMENT "${name}: ${M_DRIVER} -static programs/exec/scn_exec.c -> scn-${name}-exec"
    VERBATIM)
  add_custom_target(scn_${name}_exec ALL DEPENDS ${bin})
  set_target_properties(scn_${name}_exec PROPERTIES SCN_EXECUTABLE ${bin})
endfunction()

#   scn_certify_recipe(<name> <library target>)
#
# What `scnfuzz certify --target <name>` builds (runner/scnfuzz/certify.py):
# the target's own C files (its adapter, and the vendored sources compiled
# with it), its prebuilt objects, include directories, definitions and link
# libraries, read off the library target when its directory is done (so
# what the directory adds after scn_matrix_target counts) and written to
# <build>/certify/<name>.recipe, one "<kind>\t<value>" line each (kind:
# source, object, include, define, lib). certify compiles the C files with
# ASan, UBSan and edge coverage into its driver, which calls the target's
# entry through its struct scn_target.
function(scn_certify_recipe name lib)
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _scn_certify_recipe_write [[${name}]] [[${lib}]])")
endfunction()

function(_scn_certify_recipe_write name lib)
  get_target_property(srcs ${lib} SOURCES)
  get_target_property(dir ${lib} SOURCE_DIR)
  set(lines "")
  foreach(s IN LISTS srcs)
    if(NOT IS_ABSOLUTE "${s}")
      set(s "${dir}/${s}")
    endif()
    if(s MATCHES "\\.c$")
      string(APPEND lines "source\t${s}\n")
      get_source_file_property(defs "${s}" COMPILE_DEFINITIONS)
      if(defs)
        foreach(d IN LISTS defs)
          string(APPEND lines "define\t${d}\n")
        endforeach()
      endif()
    elseif(s MATCHES "\\.(o|a)$")
      string(APPEND lines "object\t${s}\n")
    endif()
  endforeach()
  set(p "$<TARGET_PROPERTY:${lib},INCLUDE_DIRECTORIES>")
  string(APPEND lines "$<$<BOOL:${p}>:include\t$<JOIN:${p},\ninclude\t>\n>")
  set(p "$<TARGET_PROPERTY:${lib},COMPILE_DEFINITIONS>")
  string(APPEND lines "$<$<BOOL:${p}>:define\t$<JOIN:${p},\ndefine\t>\n>")
  set(p "$<TARGET_PROPERTY:${lib},LINK_LIBRARIES>")
  string(APPEND lines "$<$<BOOL:${p}>:lib\t$<JOIN:${p},\nlib\t>\n>")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/certify/${name}.recipe CONTENT "${lines}")
endfunction()
