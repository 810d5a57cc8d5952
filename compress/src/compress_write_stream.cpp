#include <bufstream/compress/compress_write_stream.hpp>

#include <utility>

#include "codec.hpp"

namespace bufstream::compress {

namespace {

// Room asked of the sink for each call of the encoder: large enough that a call does a good
// amount of work, small enough to fit the free part of a 64 KiB buffered sink most of the time.
constexpr std::size_t output_chunk = 16384;

}  // namespace

CompressWriteStream::CompressWriteStream(WriteStream& sink,
                                         std::unique_ptr<detail::Encoder> encoder,
                                         BufferOptions options)
    : BufferedSink(sink, options.buffer_size, SinkClose::always), encoder_(std::move(encoder)) {}

CompressWriteStream::CompressWriteStream(std::unique_ptr<WriteStream> sink,
                                         std::unique_ptr<detail::Encoder> encoder,
                                         BufferOptions options)
    : BufferedSink(std::move(sink), options.buffer_size, SinkClose::always),
      encoder_(std::move(encoder)) {}

CompressWriteStream::~CompressWriteStream() = default;

void CompressWriteStream::pump(std::string_view in, std::size_t& taken, detail::Flush mode) {
  if (!member_open_) {
    if (in.empty() && mode != detail::Flush::end) return;
    encoder_->reset();
    member_open_ = true;
  }
  if (!in.empty()) unflushed_ = true;
  WriteStream& out = sink();
  for (;;) {
    char* room = out.reserve(output_chunk);
    const detail::Step step = encoder_->encode(in, std::span<char>(room, output_chunk), mode);
    out.commit(step.out_made);
    in.remove_prefix(step.in_used);
    taken += step.in_used;
    if (in.empty() && (mode == detail::Flush::none || step.done)) return;
  }
}

void CompressWriteStream::consume(std::string_view bytes, std::size_t& taken, bool /*last*/) {
  pump(bytes, taken, detail::Flush::none);
}

void CompressWriteStream::flush_consumed() {
  if (!unflushed_) return;
  std::size_t none = 0;
  pump({}, none, detail::Flush::sync);
  unflushed_ = false;
}

void CompressWriteStream::end_consumed() {
  if (!member_open_) return;
  std::size_t none = 0;
  pump({}, none, detail::Flush::end);
  member_open_ = false;
  unflushed_ = false;
}

void CompressWriteStream::finish() { finish_output(); }

}  // namespace bufstream::compress
