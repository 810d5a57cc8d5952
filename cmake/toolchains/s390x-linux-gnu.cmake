# IBM Z (big-endian, unsigned char) with Debian 12's g++-s390x-linux-gnu; tests run under
# qemu-s390x. Used by scripts/cross-test s390x.
set(bufstream_cross_triple s390x-linux-gnu)
set(bufstream_cross_processor s390x)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
