// BufferedReadStream: gives any read stream a window of 64 KiB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include <bufstream/buffer_options.hpp>
#include <bufstream/detail/window_buffer.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream {

/// Reads another stream (the source) through a buffer: each refill asks the source once for as
/// many bytes as fit, so a descriptor source costs one `read(2)` per 64 KiB instead of one per
/// byte. Once the buffer is empty, a `read_into`/`read_some`/`next(n)` of more than half the
/// buffer reads straight into the caller's memory. `fill(n)` with `n` above the buffer size
/// grows the buffer (and it stays grown). A failure of the source is recorded here too, so it
/// is sticky at both levels. `close()` closes the source too, owned or not.
class BufferedReadStream final : public ReadStream {
 public:
  /// Reads `source`, which must outlive this stream.
  explicit BufferedReadStream(ReadStream& source, BufferOptions options = {});
  /// Reads `source` and owns it.
  explicit BufferedReadStream(std::unique_ptr<ReadStream> source, BufferOptions options = {});
  ~BufferedReadStream() override;

  /// The configured buffer size (at least 1); `fill(n)` may have grown the storage beyond it.
  std::size_t buffer_size() const noexcept { return buffer_size_; }
  /// The stream this one reads from.
  ReadStream& source() noexcept { return *source_; }

 protected:
  bool refill(std::size_t min) override;
  std::size_t read_direct(std::span<char> dst) override;
  void close_source() override;
  std::optional<std::uint64_t> source_remaining_hint() const override {
    return source_->remaining_hint();
  }

 private:
  /// One read from the source into `room`; its failure becomes this stream's.
  std::size_t read_source(std::span<char> room);

  std::unique_ptr<ReadStream> owned_;
  ReadStream* source_;
  std::size_t buffer_size_;
  detail::WindowBuffer buffer_;
};

}  // namespace bufstream
