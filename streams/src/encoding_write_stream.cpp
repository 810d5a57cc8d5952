#include <bufstream/encoding_write_stream.hpp>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "transcode.hpp"

namespace bufstream {

namespace {

// The most bytes of a UTF-8 character that a drain keeps back, waiting for the rest.
constexpr std::size_t max_cut = 3;
// The most converted bytes handed to the sink in one piece.
constexpr std::size_t max_piece = std::size_t{1} << 16;

EncodingOptions checked(EncodingOptions options) {
  if (options.bom && byte_order_mark(options.encoding).empty()) {
    throw UsageError(fmt::format("{} has no byte-order mark", encoding_name(options.encoding)));
  }
  return options;
}

}  // namespace

EncodingWriteStream::EncodingWriteStream(WriteStream& sink, EncodingOptions options)
    : BufferedSink(sink, std::max(options.buffer_size, max_cut + 1), SinkClose::if_owned),
      options_(checked(std::move(options))),
      bom_pending_(options_.bom) {}

EncodingWriteStream::EncodingWriteStream(std::unique_ptr<WriteStream> sink, EncodingOptions options)
    : BufferedSink(std::move(sink), std::max(options.buffer_size, max_cut + 1),
                   SinkClose::if_owned),
      options_(checked(std::move(options))),
      bom_pending_(options_.bom) {}

EncodingWriteStream::~EncodingWriteStream() { finish_on_destruction("EncodingWriteStream"); }

void EncodingWriteStream::write_bom() {
  if (!bom_pending_) return;
  bom_pending_ = false;
  sink().write(byte_order_mark(options_.encoding));
}

void EncodingWriteStream::consume(std::string_view bytes, std::size_t& taken, bool last) {
  write_bom();
  const Encoding encoding = options_.encoding;
  const bool replace = options_.on_invalid == OnInvalid::replace;
  WriteStream& out = sink();
  // Converted in pieces straight into the sink's window (or, when that cannot hold a piece,
  // into room the sink lends and writes at commit). A character cut by the end waits.
  while (taken != bytes.size()) {
    const std::string_view rest = bytes.substr(taken);
    const std::size_t room =
        std::min(rest.size() * transcode::encode_growth(encoding) + 4, max_piece);
    char* const room_begin = out.reserve(room);
    const transcode::Step step =
        transcode::encode(encoding, rest, room_begin, room_begin + room, last, replace);
    out.commit(step.written);
    taken += step.read;
    if (step.stop == transcode::Stop::invalid) {
      throw ParseError({start_position_ + taken, 0, 0}, transcode::describe(step, encoding, false),
                       options_.sink_name);
    }
    if (step.stop == transcode::Stop::incomplete) return;
  }
}

}  // namespace bufstream
