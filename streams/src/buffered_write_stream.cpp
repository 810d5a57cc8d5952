#include <bufstream/buffered_write_stream.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace bufstream {

BufferedWriteStream::BufferedWriteStream(WriteStream& sink, BufferOptions options)
    : BufferedSink(sink, options.buffer_size, SinkClose::always) {}

BufferedWriteStream::BufferedWriteStream(std::unique_ptr<WriteStream> sink, BufferOptions options)
    : BufferedSink(std::move(sink), options.buffer_size, SinkClose::always) {}

BufferedWriteStream::~BufferedWriteStream() { finish_on_destruction("BufferedWriteStream"); }

void BufferedWriteStream::consume(std::string_view bytes, std::size_t& taken, bool /*last*/) {
  WriteStream& out = sink();
  const std::uint64_t before = out.position();
  try {
    out.write(bytes);
  } catch (...) {
    // The sink counts what it accepted before failing; the rest stays pending here.
    taken =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.position() - before, bytes.size()));
    throw;
  }
  taken = bytes.size();
}

}  // namespace bufstream
