// Streams for tests: a source that hands out one byte (or a few) per read, every buffer size a
// stream test must run with, and a sink that fails or writes short on command.
#pragma once

#include <cerrno>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::testing {

/// The buffer sizes every stream test runs with: tiny ones put every token across a window
/// edge somewhere; 65,536 is the default.
inline const std::vector<std::size_t>& tiny_buffer_sizes() {
  static const std::vector<std::size_t> sizes{1, 2, 3, 7, 65536};
  return sizes;
}

/// Reads a string while handing out at most `chunk` bytes per read from the source, like a
/// pipe or socket that returns short reads. It has no window of its own beyond what a caller
/// asks `fill(n)` for, so every operation reaches `refill`.
class ChunkedReadStream final : public ReadStream {
 public:
  explicit ChunkedReadStream(std::string data, std::size_t chunk = 1)
      : data_(std::move(data)), chunk_(chunk == 0 ? 1 : chunk) {}

  std::size_t reads() const noexcept { return reads_; }

 protected:
  bool refill(std::size_t min) override {
    const auto have = static_cast<std::size_t>(limit_ - cursor_);
    std::string next(cursor_, have);
    std::size_t added = 0;
    while (next.size() < min && offset_ < data_.size()) {
      const std::size_t n = std::min(chunk_, data_.size() - offset_);
      next.append(data_, offset_, n);
      offset_ += n;
      added += n;
      ++reads_;
    }
    window_.swap(next);
    set_window(window_.data(), window_.data() + window_.size(), added);
    return window_.size() >= min;
  }
  std::size_t read_direct(std::span<char> dst) override {
    const std::size_t n = std::min({chunk_, dst.size(), data_.size() - offset_});
    data_.copy(dst.data(), n, offset_);
    offset_ += n;
    ++reads_;
    add_direct_bytes(n);
    return n;
  }

 private:
  std::string data_;
  std::size_t chunk_;
  std::size_t offset_ = 0;
  std::size_t reads_ = 0;
  std::string window_;
};

/// One way of reading a text in a test: a name for the test output and a factory.
struct ReaderSetup {
  std::string name;
  std::function<std::unique_ptr<ReadStream>(std::string_view text)> make;
};

/// Every way a format's reader must be tested: straight from memory, from a source that gives
/// one byte (or three bytes) per read, and through a BufferedReadStream of each tiny size.
/// The text passed to `make` must outlive the stream.
inline std::vector<ReaderSetup> reader_setups() {
  std::vector<ReaderSetup> setups;
  setups.push_back({"memory", [](std::string_view t) -> std::unique_ptr<ReadStream> {
                      return std::make_unique<MemoryReadStream>(t);
                    }});
  for (std::size_t chunk : {std::size_t{1}, std::size_t{3}}) {
    setups.push_back({"chunked" + std::to_string(chunk),
                      [chunk](std::string_view t) -> std::unique_ptr<ReadStream> {
                        return std::make_unique<ChunkedReadStream>(std::string(t), chunk);
                      }});
  }
  for (std::size_t size : tiny_buffer_sizes()) {
    setups.push_back({"buffered" + std::to_string(size),
                      [size](std::string_view t) -> std::unique_ptr<ReadStream> {
                        return std::make_unique<BufferedReadStream>(
                            std::make_unique<ChunkedReadStream>(std::string(t), 5),
                            BufferOptions{.buffer_size = size});
                      }});
  }
  return setups;
}

/// A sink that keeps what it was given and can be told to fail: the `fail_at`-th call to the
/// sink (counting from 1) fails with `error_number`; `max_per_call` limits how many bytes one
/// call takes (short writes), and `interrupt_every` makes every n-th call report EINTR first
/// (which the sink then retries, as FdWriteStream does).
struct Faults {
  std::size_t fail_at = 0;  // 0: never
  int error_number = EIO;
  std::size_t max_per_call = 0;  // 0: no limit
  std::size_t interrupt_every = 0;
};

class FaultyWriteStream final : public WriteStream {
 public:
  FaultyWriteStream() : FaultyWriteStream(Faults{}) {}
  explicit FaultyWriteStream(Faults faults) : faults_(faults) {}

  const std::string& written() const noexcept { return written_; }
  std::size_t calls() const noexcept { return calls_; }
  std::size_t interrupts() const noexcept { return interrupts_; }
  bool flushed() const noexcept { return flushes_ > 0; }
  bool closed() const noexcept { return closed_; }

 protected:
  void write_slow(const char* data, std::size_t n) override {
    throw_if_unusable();
    while (n > 0) {
      ++calls_;
      if (faults_.interrupt_every && calls_ % faults_.interrupt_every == 0) {
        ++interrupts_;  // EINTR: nothing written, the call is retried
        continue;
      }
      if (faults_.fail_at && calls_ == faults_.fail_at) {
        fail(IoError::from_errno(faults_.error_number, "write", "faulty sink"));
      }
      const std::size_t take = faults_.max_per_call ? std::min(n, faults_.max_per_call) : n;
      written_.append(data, take);
      add_direct_bytes(take);
      data += take;
      n -= take;
    }
  }
  void flush_sink() override { ++flushes_; }
  void close_sink() override { closed_ = true; }

 private:
  Faults faults_;
  std::string written_;
  std::size_t calls_ = 0;
  std::size_t interrupts_ = 0;
  std::size_t flushes_ = 0;
  bool closed_ = false;
};

}  // namespace bufstream::testing
