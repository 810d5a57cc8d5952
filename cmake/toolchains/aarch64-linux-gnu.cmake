# 64-bit ARM (little-endian, unsigned char) with Debian 12's g++-aarch64-linux-gnu; tests run
# under qemu-aarch64. Used by scripts/cross-test aarch64.
set(bufstream_cross_triple aarch64-linux-gnu)
set(bufstream_cross_processor aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
