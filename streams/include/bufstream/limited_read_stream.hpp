// LimitedReadStream: at most n bytes of another stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include <bufstream/read_stream.hpp>

namespace bufstream {

/// What a LimitedReadStream does when its source ends before the limit.
enum class ShortSource : std::uint8_t {
  end,    ///< it ends there too: "at most n bytes" (Go's io.LimitReader)
  error,  ///< it throws ParseError: a section whose length was promised (a length prefix) is cut
};

/// At most `limit` bytes of another stream, as Zinc's ZnLimitedReadStream and Go's
/// io.LimitReader: a length-prefixed record, one section of a file, the body of a message.
/// A decorator like any stream: a format reads it as it reads a file.
///
/// Its window is a view of the source's window (nothing is copied; a large read goes straight
/// from the source into the caller's memory). So, while it is in use, read the source only
/// through it. When it is destroyed or closed, the source stands just after the last byte
/// consumed through it; to go past the whole section first, `skip(remaining())`.
/// Closing it does not close a source it borrows; a source it owns is closed with it.
class LimitedReadStream final : public ReadStream {
 public:
  /// Reads at most `limit` bytes of `source`, which must outlive this stream.
  LimitedReadStream(ReadStream& source, std::uint64_t limit,
                    ShortSource short_source = ShortSource::end);
  /// The same, owning `source`.
  LimitedReadStream(std::unique_ptr<ReadStream> source, std::uint64_t limit,
                    ShortSource short_source = ShortSource::end);
  ~LimitedReadStream() override;

  /// The bytes of the section not consumed yet (the limit less `position()`); more than the
  /// source holds when it ended early under ShortSource::end.
  std::uint64_t remaining() const noexcept { return length_ - position(); }
  /// The stream the section is read from.
  ReadStream& source() noexcept { return *source_; }

 protected:
  bool refill(std::size_t min) override;
  std::size_t read_direct(std::span<char> dst) override;
  void close_source() override;
  std::optional<std::uint64_t> source_remaining_hint() const override;

 private:
  /// Hands the bytes consumed from the window back to the source (moves its cursor).
  void sync_source() noexcept;
  void check_short(std::uint64_t wanted, std::uint64_t got) const;

  ReadStream* source_;
  std::unique_ptr<ReadStream> owned_;
  std::uint64_t length_;  // the section's length: the most this stream gives
  ShortSource short_source_;
  const char* window_start_ = nullptr;  // where the source's cursor stands: our window's start
  std::uint64_t window_start_position_ = 0;
  bool released_ = false;  // closed: the source is no longer ours to move
};

}  // namespace bufstream
