# bufstream_libraries (set by the top-level CMakeLists.txt) lists the library targets.
# Installs the libraries, their headers, the CMake package (bufstream::streams, one target per
# format, and the umbrella bufstream::bufstream), a version file and a pkg-config file.
include(CMakePackageConfigHelpers)

# The ABI version (the shared libraries' SONAME, libbufstream_NAME.so.SOVERSION) and what
# find_package accepts follow semantic versioning: before 1.0 each minor version may change the
# ABI (SOVERSION 0.2, a request for 0.2 takes any 0.2.x); from 1.0 only a major version may.
# A change of the ABI within one version is what scripts/check-abi reports (CHANGELOG.md).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(bufstream_soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  set(bufstream_version_compatibility SameMinorVersion)
else()
  set(bufstream_soversion ${PROJECT_VERSION_MAJOR})
  set(bufstream_version_compatibility SameMajorVersion)
endif()
foreach(lib IN LISTS bufstream_libraries)
  set_target_properties(${lib} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${bufstream_soversion})
endforeach()

install(TARGETS ${bufstream_libraries} bufstream_all bufstream_warnings
  EXPORT bufstreamTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The headers are their own component, which scripts/check-headers installs without a build.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/streams/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT headers)
foreach(format IN ITEMS json csv ston cedict)
  if(TARGET bufstream_${format})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/formats/${format}/include/
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT headers)
  endif()
endforeach()
if(TARGET bufstream_compress)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/compress/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    COMPONENT headers)
  set(bufstream_with_compress ON)
else()
  set(bufstream_with_compress OFF)
endif()

set(bufstream_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/bufstream)
install(EXPORT bufstreamTargets NAMESPACE bufstream:: DESTINATION ${bufstream_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bufstreamConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bufstreamConfig.cmake
  INSTALL_DESTINATION ${bufstream_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bufstreamConfigVersion.cmake
  COMPATIBILITY ${bufstream_version_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/bufstreamConfig.cmake
  ${PROJECT_BINARY_DIR}/bufstreamConfigVersion.cmake
  DESTINATION ${bufstream_cmake_dir})

# pkg-config: the formats first, the stream layer last, as a static link needs them.
set(bufstream_pc_libs "")
foreach(lib IN LISTS bufstream_libraries)
  string(APPEND bufstream_pc_libs " -l${lib}")
endforeach()
string(STRIP "${bufstream_pc_libs}" bufstream_pc_libs)
# Relocatable: the prefix is found from where the .pc file is (pkg-config's ${pcfiledir}), so
# `cmake --install build --prefix P` works for any P. Only an absolute libdir pins it.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(bufstream_pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH bufstream_pc_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" bufstream_pc_up "${bufstream_pc_up}")
  set(bufstream_pc_prefix "\${pcfiledir}/${bufstream_pc_up}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(bufstream_pc_libdir "${CMAKE_INSTALL_LIBDIR}")
else()
  set(bufstream_pc_libdir "\${exec_prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(bufstream_pc_includedir "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(bufstream_pc_includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# A static library needs {fmt} at link time; a shared one has it as its own dependency.
# The compression libraries likewise.
set(bufstream_pc_linked "fmt")
if(bufstream_with_compress)
  string(APPEND bufstream_pc_linked " zlib libzstd libisal")
endif()
if(BUILD_SHARED_LIBS)
  set(bufstream_pc_requires "nlohmann_json")
  set(bufstream_pc_requires_private "${bufstream_pc_linked}")
else()
  set(bufstream_pc_requires "nlohmann_json ${bufstream_pc_linked}")
  set(bufstream_pc_requires_private "")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/bufstream.pc.in ${PROJECT_BINARY_DIR}/bufstream.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/bufstream.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
