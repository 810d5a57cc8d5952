# The part of a cross toolchain that is the same for every target: Debian 12's cross compiler
# g++-${bufstream_cross_triple}, its libraries under /usr/${bufstream_cross_triple}, and
# qemu-user to run the programs it builds (ctest runs each test through it). Included by the
# per-target files beside it, which set bufstream_cross_triple and bufstream_cross_processor.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${bufstream_cross_processor})
set(CMAKE_C_COMPILER ${bufstream_cross_triple}-gcc)
set(CMAKE_CXX_COMPILER ${bufstream_cross_triple}-g++)

set(CMAKE_FIND_ROOT_PATH /usr/${bufstream_cross_triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-${bufstream_cross_processor} -L /usr/${bufstream_cross_triple})

# The header-only dependencies come from the build machine's packages: their headers are the
# same for every target (the cross compiler searches /usr/include after its own directories).
# nlohmann_json and fast_float are header-only anyway; libfmt-dev's compiled library exists only for the build
# machine, so {fmt} is used in its header-only mode (fmt-header-only/fmt-config.cmake).
set(fmt_DIR ${CMAKE_CURRENT_LIST_DIR}/fmt-header-only)
set(nlohmann_json_DIR /usr/share/cmake/nlohmann_json)
set(FastFloat_DIR /usr/lib/cmake/FastFloat)
