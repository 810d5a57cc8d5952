#include <bufstream/decoding_read_stream.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "transcode.hpp"

namespace bufstream {

namespace {

// Room past the window's size, so that a refill that still needs bytes always has room for a
// whole character (at most four bytes of UTF-8) and never stalls.
constexpr std::size_t slack = 3;

}  // namespace

DecodingReadStream::DecodingReadStream(ReadStream& source, DecodingOptions options)
    : source_(&source), options_(std::move(options)), buffer_(options_.buffer_size, slack) {}

DecodingReadStream::DecodingReadStream(std::unique_ptr<ReadStream> source, DecodingOptions options)
    : DecodingReadStream(*source, std::move(options)) {
  owned_ = std::move(source);
}

DecodingReadStream::~DecodingReadStream() = default;

Encoding DecodingReadStream::encoding() {
  if (!started_ && !is_closed()) start();
  return options_.encoding;
}

std::size_t DecodingReadStream::bom_length() {
  if (!started_ && !is_closed()) start();
  return bom_length_;
}

namespace {

// How many bytes a byte-order mark that starts with `first` can have: the reading of the mark
// waits for no byte it does not need (on a terminal or a pipe, text may come a line at a time).
std::size_t longest_mark_from(unsigned char first) noexcept {
  switch (first) {
    case 0xEF: return 3;
    case 0xFE: return 2;
    case 0xFF:  // UTF-16LE's mark, or the start of UTF-32LE's
    case 0x00: return 4;
    default: return 1;  // no mark
  }
}

}  // namespace

void DecodingReadStream::start() {
  started_ = true;
  if (options_.bom == BomPolicy::keep) return;
  std::string_view start;
  try {
    start = source_->fill(1);
    if (!start.empty())
      start = source_->fill(longest_mark_from(static_cast<unsigned char>(start[0])));
  } catch (const IoError& e) {
    fail(e);
  }
  if (options_.bom == BomPolicy::detect) {
    if (const std::optional<DetectedBom> found = detect_bom(start)) {
      options_.encoding = found->encoding;
      bom_length_ = found->length;
    }
  } else {
    const std::string_view mark = byte_order_mark(options_.encoding);
    if (!mark.empty() && start.substr(0, mark.size()) == mark) bom_length_ = mark.size();
  }
  source_->advance(bom_length_);
}

bool DecodingReadStream::refill(std::size_t min) {
  if (!started_) start();
  std::size_t filled = buffer_.keep_unread(cursor_, limit_, min);
  char* const base = buffer_.data();
  char* const end = buffer_.end();
  set_window(base, base + filled, 0);
  const bool replace = options_.on_invalid == OnInvalid::replace;
  while (filled < min) {
    if (pending_) fail(*pending_);
    // Decode what the source holds; read from it only when that is not enough for a character.
    std::string_view in = source_->buffered();
    bool last = false;
    if (in.size() < need_) {
      try {
        in = source_->fill(need_);
      } catch (const IoError& e) {
        fail(e);
      }
      last = in.size() < need_;
      if (in.empty()) return false;
    }
    const transcode::Step step =
        transcode::decode(options_.encoding, in, base + filled, end, last, replace);
    source_->advance(step.read);
    filled += step.written;
    set_window(base, base + filled, step.written);
    need_ = step.stop == transcode::Stop::incomplete ? step.need : 1;
    if (step.stop == transcode::Stop::invalid) {
      // Thrown when the caller reaches it: the text decoded before it is handed out first.
      pending_.emplace(SourcePosition{source_->position(), 0, 0},
                       transcode::describe(step, options_.encoding, true), options_.source_name);
    }
  }
  return true;
}

void DecodingReadStream::close_source() {
  if (owned_) owned_->close();
}

}  // namespace bufstream
