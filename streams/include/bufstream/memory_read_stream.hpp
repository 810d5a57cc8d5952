// MemoryReadStream: a read stream over bytes that live elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <bufstream/read_stream.hpp>

namespace bufstream {

/// Reads bytes owned by someone else (a string, a buffer, a mapped file), which must outlive
/// the stream. The whole content is the window: nothing is copied, nothing is refilled.
class MemoryReadStream final : public ReadStream {
 public:
  /// Reads `bytes`, which must outlive the stream.
  explicit MemoryReadStream(std::string_view bytes) noexcept;
  /// Reads binary `bytes`, which must outlive the stream.
  explicit MemoryReadStream(std::span<const std::byte> bytes) noexcept;

  /// All the bytes, consumed or not.
  std::string_view contents() const noexcept { return {begin_, size_}; }

 protected:
  bool refill(std::size_t min) override;
  std::optional<std::uint64_t> source_remaining_hint() const override { return 0; }

 private:
  const char* begin_;
  std::size_t size_;
};

}  // namespace bufstream
