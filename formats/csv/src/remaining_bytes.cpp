#include "remaining_bytes.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/memory_read_stream.hpp>

namespace bufstream::csv::detail {

std::optional<std::uint64_t> remaining_bytes(ReadStream& in) {
  const std::uint64_t window = in.buffered().size();
  if (dynamic_cast<MemoryReadStream*>(&in) != nullptr) return window;  // the window is the rest
  if (auto* buffered = dynamic_cast<BufferedReadStream*>(&in)) {
    const std::optional<std::uint64_t> source = remaining_bytes(buffered->source());
    if (!source) return std::nullopt;
    return window + *source;
  }
  if (auto* fd_stream = dynamic_cast<FdReadStream*>(&in)) {
    const int fd = fd_stream->fd();
    struct stat info {};
    if (fd < 0 || ::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    const off_t offset = ::lseek(fd, 0, SEEK_CUR);  // where the descriptor's next read starts
    if (offset < 0 || offset > info.st_size) return std::nullopt;
    return window + static_cast<std::uint64_t>(info.st_size - offset);
  }
  return std::nullopt;
}

}  // namespace bufstream::csv::detail
