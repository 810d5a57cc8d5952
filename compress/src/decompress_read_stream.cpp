#include <bufstream/compress/decompress_read_stream.hpp>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "codec.hpp"

namespace bufstream {

DecompressReadStream::DecompressReadStream(ReadStream& source,
                                           std::unique_ptr<compress_detail::Decoder> decoder,
                                           BufferOptions options)
    : source_(&source),
      decoder_(std::move(decoder)),
      buffer_size_(std::max<std::size_t>(options.buffer_size, 1)),
      buffer_(buffer_size_) {}

DecompressReadStream::DecompressReadStream(std::unique_ptr<ReadStream> source,
                                           std::unique_ptr<compress_detail::Decoder> decoder,
                                           BufferOptions options)
    : DecompressReadStream(*source, std::move(decoder), options) {
  owned_ = std::move(source);
}

DecompressReadStream::~DecompressReadStream() = default;

void DecompressReadStream::fail_corrupt(std::string_view what) {
  const ParseError error({compressed_, 0, 0},
                         fmt::format("{} {} at compressed byte {}: {}", decoder_->unit(),
                                     std::max<std::uint64_t>(members_, 1), compressed_, what));
  corrupt_ = std::make_exception_ptr(error);
  throw error;
}

std::size_t DecompressReadStream::produce(std::span<char> dst) {
  if (corrupt_) std::rethrow_exception(corrupt_);
  for (;;) {
    if (ended_) return 0;
    std::string_view in = source_->buffered();
    if (in.empty()) {
      try {
        in = source_->fill(1);
      } catch (const IoError& e) {
        fail(e);
      }
    }
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
    }
    compress_detail::Step step;
    try {
      step = decoder_->decode(in, dst);
    } catch (const compress_detail::CorruptInput& e) {
      source_->advance(e.in_used);
      compressed_ += e.in_used;
      fail_corrupt(e.message);
    }
    source_->advance(step.in_used);
    compressed_ += step.in_used;
    if (step.done) in_member_ = false;
    if (step.out_made > 0) return step.out_made;
    if (step.done || step.in_used > 0) continue;
    // No progress: the decoder wants input the source does not have.
    if (in.empty()) fail_corrupt("the input ends inside it");
    fail_corrupt("the decoder made no progress");
  }
}

bool DecompressReadStream::refill(std::size_t min) {
  std::size_t filled = buffer_.keep_unread(cursor_, limit_, min);
  // The window follows every byte as it arrives, so that after an error it holds exactly the
  // bytes decoded before it.
  char* const base = buffer_.data();
  const std::size_t capacity = buffer_.capacity();
  set_window(base, base + filled, 0);
  while (filled < min) {
    // Decode into the whole free part of the buffer: one call per buffer, not per byte asked.
    const std::size_t got = produce(std::span<char>(base + filled, capacity - filled));
    if (got == 0) return false;
    filled += got;
    set_window(base, base + filled, got);
  }
  return true;
}

std::size_t DecompressReadStream::read_direct(std::span<char> dst) {
  if (dst.size() > buffer_size_ / 2) {
    const std::size_t got = produce(dst);
    add_direct_bytes(got);
    return got;
  }
  return ReadStream::read_direct(dst);
}

void DecompressReadStream::close_source() { source_->close(); }

}  // namespace bufstream
