#include <bufstream/compress/decompress_read_stream.hpp>

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "codec.hpp"

namespace bufstream::compress {

DecompressReadStream::DecompressReadStream(ReadStream& source,
                                           std::unique_ptr<detail::Decoder> decoder,
                                           ReadOptions options)
    : source_(&source),
      decoder_(std::move(decoder)),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      source_name_(std::move(options.source_name)),
      buffer_(buffer_size_) {}

DecompressReadStream::DecompressReadStream(std::unique_ptr<ReadStream> source,
                                           std::unique_ptr<detail::Decoder> decoder,
                                           ReadOptions options)
    : DecompressReadStream(*source, std::move(decoder), std::move(options)) {
  owned_ = std::move(source);
}

DecompressReadStream::~DecompressReadStream() = default;

void DecompressReadStream::fail_corrupt(std::string_view what) {
  const ParseError error({compressed_, 0, 0},
                         fmt::format("{} {} at compressed byte {}: {}", decoder_->unit(),
                                     std::max<std::uint64_t>(members_, 1), compressed_, what),
                         source_name_);
  corrupt_ = std::make_exception_ptr(error);
  throw error;
}

std::size_t DecompressReadStream::produce(std::span<char> dst) {
  if (corrupt_) std::rethrow_exception(corrupt_);
  for (;;) {
    if (ended_) return 0;
    std::string_view in = next_input();
    if (!in_member_) {
      // Between members: the end of the source is the end of the stream, anything else
      // begins another member.
      if (in.empty()) {
        if (members_ == 0) fail_corrupt("the input is empty");
        ended_ = true;
        return 0;
      }
      if (members_ > 0) decoder_->reset();
      ++members_;
      in_member_ = true;
      // A member is begun by one call of the decoder with at least start_size() bytes, as over
      // a large buffer, whatever the pieces the source gives.
      const std::size_t want = std::min(decoder_->start_size(), head_.size());
      if (in.size() < want) in = gather_start(want);
      member_left_ = decoder_->declared_size(in);
    }
    detail::Step step;
    try {
      step = decoder_->decode(in, dst);
    } catch (const detail::CorruptInput& e) {
      take_input(e.in_used);
      fail_corrupt(e.message);
    }
    take_input(step.in_used);
    if (member_left_) *member_left_ -= std::min<std::uint64_t>(*member_left_, step.out_made);
    if (step.done) {
      in_member_ = false;
      member_left_.reset();
    }
    if (step.out_made > 0) return step.out_made;
    if (step.done || step.in_used > 0) continue;
    // No progress: the decoder wants input the source does not have.
    if (in.empty()) fail_corrupt("the input ends inside it");
    fail_corrupt("the decoder made no progress");
  }
}

// The bytes gathered in head_ first; then the source's window while it holds bytes (no
// copy); then a block of the buffer's size read into input_ with read_some. Not fill(1): a
// source without a buffer of its own (FdReadStream) gives only what is asked for, one read(2)
// per compressed byte, and a BufferedReadStream reads a large block straight into input_, with
// no more copies than through its window. Bytes read ahead are never given back, which is
// right: this stream reads its source to the end (the end of the last member).
std::string_view DecompressReadStream::next_input() {
  if (head_used_ < head_size_) return {head_.data() + head_used_, head_size_ - head_used_};
  if (input_used_ < input_size_) {
    return {input_.get() + input_used_, input_size_ - input_used_};
  }
  try {
    if (const std::string_view window = source_->buffered(); !window.empty()) return window;
    if (!input_) input_ = std::make_unique<char[]>(buffer_size_);
    input_size_ = source_->read_some({input_.get(), buffer_size_});
  } catch (const IoError& e) {
    fail(e);
  }
  input_used_ = 0;
  return {input_.get(), input_size_};
}

void DecompressReadStream::take_input(std::size_t n) {
  if (head_used_ < head_size_) {
    head_used_ += n;
  } else {
    drop_input(n);
  }
  compressed_ += n;
}

// The gathered bytes are not counted as read (compressed_) until the decoder takes them, so
// that an error in them has the offset it has over a large buffer. What head_ still holds (none
// at a member's start in practice: every frame or member is longer than a head) stays first.
std::string_view DecompressReadStream::gather_start(std::size_t want) {
  std::size_t size = head_size_ - head_used_;
  std::memmove(head_.data(), head_.data() + head_used_, size);
  head_size_ = head_used_ = 0;  // so that next_input() reads past head_ meanwhile
  while (size < want) {
    const std::string_view in = next_input();
    if (in.empty()) break;  // the input ends: the decoder gets what there is
    const std::size_t n = std::min(want - size, in.size());
    std::memcpy(head_.data() + size, in.data(), n);
    size += n;
    drop_input(n);
  }
  head_size_ = size;
  return {head_.data(), size};
}

void DecompressReadStream::drop_input(std::size_t n) {
  if (input_used_ < input_size_) {
    input_used_ += n;
  } else {
    source_->advance(n);
  }
}

bool DecompressReadStream::refill(std::size_t min) {
  return refill_from(buffer_, min, [this](std::span<char> room) { return produce(room); });
}

std::size_t DecompressReadStream::read_direct(std::span<char> dst) {
  return read_direct_from(dst, buffer_size_,
                          [this](std::span<char> room) { return produce(room); });
}

void DecompressReadStream::close_source() { source_->close(); }

std::optional<std::uint64_t> DecompressReadStream::source_remaining_hint() const {
  if (corrupt_) return std::nullopt;
  if (ended_) return 0;
  return member_left_;
}

}  // namespace bufstream::compress
