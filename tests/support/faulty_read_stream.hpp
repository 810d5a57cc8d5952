// A read source that fails on command: for fault-injection tests of every reader.
//
// FaultyReadStream reads a string the way FdReadStream reads a descriptor (no window of its
// own beyond what a caller asks `fill(n)` for, so every operation reaches the source), and
// can be told to
//   - fail the n-th read from the source with a chosen errno (an IoError, sticky as
//     FdReadStream's failures are: every later read throws it again),
//   - return short counts (at most `max_per_read` bytes per read, e.g. one byte at a time),
//   - report EINTR on every k-th read first; the stream retries it, as FdReadStream's contract
//     says ("EINTR is retried"), so an interrupted read gives exactly the bytes an
//     uninterrupted one would.
// `fault_setups()` is every way a fault-injection test reads a text: the faulty source read
// directly, and through BufferedReadStreams of 1, 2, 3 and 7 bytes.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::testing {

struct ReadFaults {
  std::size_t fail_at = 0;          // the read (counting from 1) that fails; 0: none
  int error_number = EIO;           // its errno
  std::size_t max_per_read = 0;     // bytes one read returns at most; 0: no limit
  std::size_t interrupt_every = 0;  // every k-th read reports EINTR first; 0: never
};

class FaultyReadStream final : public ReadStream {
 public:
  explicit FaultyReadStream(std::string data, ReadFaults faults = {})
      : data_(std::move(data)), faults_(faults) {}

  /// Reads from the source so far, including the failed one and not counting interrupts.
  std::size_t reads() const noexcept { return reads_; }
  /// EINTRs reported (and retried) so far.
  std::size_t interrupts() const noexcept { return interrupts_; }
  /// Bytes handed out by the source so far.
  std::size_t delivered() const noexcept { return offset_; }

 protected:
  bool refill(std::size_t min) override {
    // Keep the unconsumed bytes and read what is missing, moving the window with every byte
    // that arrives: a failing read leaves it holding exactly the bytes read before it.
    const auto have = static_cast<std::size_t>(limit_ - cursor_);
    std::string next(cursor_, have);
    next.reserve(std::max(min, have));
    window_.swap(next);
    set_window(window_.data(), window_.data() + window_.size(), 0);
    while (window_.size() < min) {
      const std::size_t n = read_once(min - window_.size(), [&](std::size_t k) {
        window_.append(data_, offset_, k);  // capacity reserved: the window does not move
      });
      if (n == 0) return false;
      set_window(window_.data(), window_.data() + window_.size(), n);
    }
    return true;
  }

  std::size_t read_direct(std::span<char> dst) override {
    const std::size_t n =
        read_once(dst.size(), [&](std::size_t k) { data_.copy(dst.data(), k, offset_); });
    add_direct_bytes(n);
    return n;
  }

 private:
  // One read(2) of at most `want` bytes: EINTR retried, the planned failure thrown, the count
  // cut to max_per_read. `deliver(k)` copies the k bytes at offset_.
  template <class Deliver>
  std::size_t read_once(std::size_t want, Deliver deliver) {
    for (;;) {
      ++calls_;
      if (faults_.interrupt_every != 0 && calls_ % faults_.interrupt_every == 0) {
        ++interrupts_;  // EINTR: nothing read; retried
        continue;
      }
      ++reads_;
      if (faults_.fail_at != 0 && reads_ == faults_.fail_at) {
        fail(IoError::from_errno(faults_.error_number, "read", "faulty source"));
      }
      std::size_t n = std::min(want, data_.size() - offset_);
      if (faults_.max_per_read != 0) n = std::min(n, faults_.max_per_read);
      deliver(n);
      offset_ += n;
      return n;
    }
  }

  std::string data_;
  ReadFaults faults_;
  std::size_t offset_ = 0;
  std::size_t calls_ = 0;
  std::size_t reads_ = 0;
  std::size_t interrupts_ = 0;
  std::string window_;
};

/// A faulty source, read directly or through a BufferedReadStream; `source` stays reachable
/// to count its reads.
struct FaultySetup {
  std::unique_ptr<FaultyReadStream> owned_source;
  std::unique_ptr<ReadStream> buffered;  // null when the source is read directly
  FaultyReadStream* source = nullptr;

  ReadStream& stream() noexcept { return buffered ? *buffered : *source; }
};

/// One way of reading a text through a faulty source: a name for the test output and a
/// factory. `buffer_size` 0 reads the source directly.
struct FaultySetupKind {
  std::string name;
  std::size_t buffer_size = 0;

  FaultySetup make(std::string_view text, ReadFaults faults) const {
    FaultySetup s;
    s.owned_source = std::make_unique<FaultyReadStream>(std::string(text), faults);
    s.source = s.owned_source.get();
    if (buffer_size != 0) {
      s.buffered = std::make_unique<BufferedReadStream>(*s.source,
                                                        BufferOptions{.buffer_size = buffer_size});
    }
    return s;
  }
};

/// The source read directly (every operation reaches it), and through buffers of 1, 2, 3 and
/// 7 bytes (every token crosses a refill somewhere).
inline std::vector<FaultySetupKind> fault_setups() {
  return {{"direct", 0}, {"buffered1", 1}, {"buffered2", 2}, {"buffered3", 3}, {"buffered7", 7}};
}

}  // namespace bufstream::testing
