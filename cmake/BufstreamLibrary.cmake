# bufstream_add_library(NAME SOURCES... [PUBLIC lib...] [PRIVATE lib...])
#
# One library of the project: target bufstream_NAME, alias bufstream::NAME (the exported name),
# file libbufstream_NAME; public headers in the calling directory's include/, installed under
# CMAKE_INSTALL_INCLUDEDIR; C++20; the project's warnings and the kernel layer (build-only,
# never exported) linked privately. Every library is declared through this function, so that
# none drifts from the others.
function(bufstream_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  set(target bufstream_${name})
  add_library(${target} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  add_library(bufstream::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME ${target})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target}
    PUBLIC ${ARG_PUBLIC}
    PRIVATE bufstream_warnings $<BUILD_INTERFACE:bufstream_kernels> ${ARG_PRIVATE})
endfunction()
