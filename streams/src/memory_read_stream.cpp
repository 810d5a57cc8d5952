#include <bufstream/memory_read_stream.hpp>

namespace bufstream {

MemoryReadStream::MemoryReadStream(std::string_view bytes) noexcept
    : begin_(bytes.data()), size_(bytes.size()) {
  set_window(begin_, begin_ + size_, size_);
}

MemoryReadStream::MemoryReadStream(std::span<const std::byte> bytes) noexcept
    : MemoryReadStream(
          std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())) {}

bool MemoryReadStream::refill(std::size_t) { return false; }

}  // namespace bufstream
