# find_package(fmt) for a cross build on Debian: fmt::fmt is {fmt} in its header-only mode,
# from libfmt-dev's headers (the same for every target), since its compiled library exists only
# for the build machine.
if(NOT EXISTS /usr/include/fmt/format-inl.h)
  set(fmt_FOUND FALSE)
  set(fmt_NOT_FOUND_MESSAGE "the {fmt} headers are missing: install libfmt-dev")
  return()
endif()
if(NOT TARGET fmt::fmt)
  add_library(fmt::fmt INTERFACE IMPORTED)
  set_target_properties(fmt::fmt PROPERTIES INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
endif()
