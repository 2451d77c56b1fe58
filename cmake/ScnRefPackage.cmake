# Installation of the reference engine as a library (`cmake --install <build>
# --prefix P`), the only part of the project installed:
#   P/lib/libscn_ref.a, P/include/scn/ref_printf.h
#   P/lib/cmake/scnref/   scnrefConfig.cmake, scnrefConfigVersion.cmake,
#                         scnrefTargets*.cmake   find_package(scnref) -> scnref::scnref
#   P/lib/pkgconfig/scnref.pc                    pkg-config --cflags --libs scnref
# Included by the top-level CMakeLists.txt after impl/ (target scn_ref).
include(CMakePackageConfigHelpers)

set(_scnref_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/scnref)

install(TARGETS scn_ref EXPORT scnrefTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/impl/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(EXPORT scnrefTargets NAMESPACE scnref:: DESTINATION ${_scnref_cmakedir})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/scnrefConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/scnrefConfig.cmake
                              INSTALL_DESTINATION ${_scnref_cmakedir})
# The engine's API follows the project's major version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/scnrefConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/scnrefConfig.cmake ${PROJECT_BINARY_DIR}/scnrefConfigVersion.cmake
        DESTINATION ${_scnref_cmakedir})

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}),
# since `cmake --install --prefix P` chooses P after configuration, when a
# prefix written into the file would already be CMAKE_INSTALL_PREFIX's.
set(_scnref_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  message(FATAL_ERROR "scnref.pc: CMAKE_INSTALL_LIBDIR and CMAKE_INSTALL_INCLUDEDIR must be "
                      "relative to the prefix (they are ${CMAKE_INSTALL_LIBDIR}, ${CMAKE_INSTALL_INCLUDEDIR})")
endif()
file(RELATIVE_PATH SCNREF_PC_TO_PREFIX /P/${_scnref_pcdir} /P)
string(REGEX REPLACE "/$" "" SCNREF_PC_TO_PREFIX "${SCNREF_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/scnref.pc.in ${PROJECT_BINARY_DIR}/scnref.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/scnref.pc DESTINATION ${_scnref_pcdir})
