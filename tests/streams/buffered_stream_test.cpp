// BufferedReadStream and BufferedWriteStream: how many calls reach the wrapped stream, which
// transfers bypass the buffer (more than half of it), growth for long tokens, ownership and
// closing of the wrapped stream, and the pending bytes.
#include <string>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using testing::ChunkedReadStream;
using testing::FaultyWriteStream;

// ---- Reading ----------------------------------------------------------------------------------

TEST(BufferedReadStream, OneSourceReadPerBuffer) {
  const std::string text(1000, 'x');
  ChunkedReadStream source(text, 4096);
  BufferedReadStream in(source, {.buffer_size = 100});
  EXPECT_EQ(in.buffer_size(), 100u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(in.next(), 'x');
  EXPECT_EQ(source.reads(), 10u);
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(source.reads(), 11u);  // the read that finds the end
}

TEST(BufferedReadStream, ReadsLargerThanHalfTheBufferBypassIt) {
  struct Case {
    std::size_t buffer;
    std::size_t request;
    bool bypass;
  };
  const std::vector<Case> cases{{100, 51, true},      {100, 50, false},     {100, 1000, true},
                                {7, 4, true},         {7, 3, false},        {1, 1, true},
                                {65536, 32769, true}, {65536, 32768, false}};
  for (const auto& c : cases) {
    const std::string text = test::random_bytes(100000, c.request);
    ChunkedReadStream source(text, 1 << 20);  // hands out whatever is asked for
    BufferedReadStream in(source, {.buffer_size = c.buffer});
    std::string dst(c.request, '\0');
    ASSERT_EQ(in.read_into(std::span<char>(dst)), c.request);
    EXPECT_EQ(dst, text.substr(0, c.request));
    EXPECT_EQ(source.reads(), 1u);
    // Through the buffer, the source was asked for a whole buffer and the rest stays there.
    EXPECT_EQ(in.buffered().size(), c.bypass ? 0u : c.buffer - c.request)
        << c.buffer << "/" << c.request;
    EXPECT_EQ(in.position(), c.request);
  }
}

TEST(BufferedReadStream, BufferedBytesComeFirstThenTheBypass) {
  const std::string text = test::random_bytes(10000, 1);
  ChunkedReadStream source(text, 1 << 20);
  BufferedReadStream in(source, {.buffer_size = 64});
  EXPECT_EQ(in.next(10), text.substr(0, 10));  // fills 64, keeps 54
  EXPECT_EQ(source.reads(), 1u);
  std::string dst(1000, '\0');
  EXPECT_EQ(in.read_into(std::span<char>(dst)), 1000u);
  EXPECT_EQ(dst, text.substr(10, 1000));
  EXPECT_EQ(source.reads(), 2u);  // 54 from the buffer, 946 straight from the source
  EXPECT_TRUE(in.buffered().empty());
}

TEST(BufferedReadStream, FillBeyondTheBufferGrowsIt) {
  const std::string text = test::random_bytes(5000, 2);
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    ChunkedReadStream source(text, 3);
    BufferedReadStream in(source, {.buffer_size = size});
    EXPECT_EQ(in.next(), text[0]);
    const std::string_view w = in.fill(4000);
    ASSERT_GE(w.size(), 4000u) << size;
    EXPECT_EQ(w.substr(0, 4000), std::string_view(text).substr(1, 4000));
    in.advance(4000);
    EXPECT_EQ(in.up_to_end(), text.substr(4001));
    EXPECT_EQ(in.buffer_size(), size);  // the configured size; the storage grew for the token
  }
}

TEST(BufferedReadStream, ZeroSizeIsTakenAsOne) {
  MemoryReadStream source("abc");
  BufferedReadStream in(source, {.buffer_size = 0});
  EXPECT_EQ(in.buffer_size(), 1u);
  EXPECT_EQ(in.up_to_end(), "abc");
}

TEST(BufferedReadStream, CloseClosesTheSource) {
  auto owned = std::make_unique<MemoryReadStream>("abc");
  MemoryReadStream* source = owned.get();
  BufferedReadStream in(std::move(owned));
  EXPECT_EQ(&in.source(), source);
  EXPECT_EQ(in.next(), 'a');
  in.close();
  EXPECT_TRUE(source->is_closed());
  EXPECT_THROW((void)in.next(), IoError);
}

TEST(BufferedReadStream, StackedBuffersReadTheSameBytes) {
  const std::string text = test::random_bytes(30000, 3);
  ChunkedReadStream source(text, 5);
  BufferedReadStream inner(source, {.buffer_size = 7});
  BufferedReadStream outer(inner, {.buffer_size = 3});
  std::string got;
  while (auto c = outer.next()) got += *c;
  EXPECT_TRUE(got == text);
  EXPECT_EQ(outer.position(), text.size());
  EXPECT_EQ(inner.position(), text.size());
}

TEST(BufferedReadStream, FillPastTheEndReturnsWhatIsLeft) {
  const std::string text = "12345";
  testing::ChunkedReadStream source(text, 1);
  BufferedReadStream in(source, {.buffer_size = 2});
  EXPECT_EQ(in.fill(10), "12345");
  EXPECT_EQ(in.next(5), "12345");
  EXPECT_TRUE(in.at_end());
}

/// Hands out `chunk` bytes per read, then fails with EIO.
class FailingSource final : public ReadStream {
 public:
  FailingSource(std::string data, std::size_t chunk) : data_(std::move(data)), chunk_(chunk) {}

 protected:
  bool refill(std::size_t) override { return false; }  // reached only through read_direct
  std::size_t read_direct(std::span<char> dst) override {
    if (offset_ == data_.size()) fail(IoError::from_errno(EIO, "read", "failing source"));
    const std::size_t n = std::min({chunk_, dst.size(), data_.size() - offset_});
    data_.copy(dst.data(), n, offset_);
    offset_ += n;
    add_direct_bytes(n);
    return n;
  }

 private:
  std::string data_;
  std::size_t chunk_;
  std::size_t offset_ = 0;
};

TEST(BufferedReadStream, SourceThatFailsMidRefillKeepsWhatItRead) {
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    SCOPED_TRACE(size);
    FailingSource source("abcdef", 3);
    BufferedReadStream in(source, {.buffer_size = size});
    EXPECT_EQ(in.next(), 'a');
    // Asks for more than the source has before it fails: the window keeps the bytes that did
    // arrive (it never points into storage the refill replaced), and the error is sticky.
    EXPECT_THROW((void)in.fill(100), IoError);
    EXPECT_TRUE(in.failed());
    EXPECT_EQ(in.buffered(), "bcdef");
    EXPECT_EQ(in.position(), 1u);
    in.advance(5);
    EXPECT_THROW((void)in.next(), IoError);
    EXPECT_THROW((void)in.at_end(), IoError);
  }
}

// ---- Writing ----------------------------------------------------------------------------------

TEST(BufferedWriteStream, OneSinkWritePerBuffer) {
  FaultyWriteStream sink;
  BufferedWriteStream out(sink, {.buffer_size = 100});
  EXPECT_EQ(out.buffer_size(), 100u);
  for (int i = 0; i < 1000; ++i) out.put('x');
  EXPECT_EQ(sink.calls(), 9u);  // the tenth buffer is full, not yet written
  EXPECT_EQ(out.pending().size(), 100u);
  out.flush();
  EXPECT_EQ(sink.calls(), 10u);
  EXPECT_TRUE(sink.flushed());
  EXPECT_EQ(sink.written(), std::string(1000, 'x'));
  EXPECT_TRUE(out.pending().empty());
}

TEST(BufferedWriteStream, WritesLargerThanHalfTheBufferBypassIt) {
  struct Case {
    std::size_t buffer;
    std::size_t size;
    bool bypass;
  };
  const std::vector<Case> cases{{100, 51, true},      {100, 50, false},     {100, 1000, true},
                                {7, 4, true},         {7, 3, false},        {1, 1, true},
                                {65536, 32769, true}, {65536, 32768, false}};
  for (const auto& c : cases) {
    FaultyWriteStream sink;
    BufferedWriteStream out(sink, {.buffer_size = c.buffer});
    out.put('<');
    const std::string data(c.size, 'd');
    out.write(data);
    // A bypass drains the '<' and passes the data on in one call; otherwise it waits in the
    // buffer (or fills it, drains it, and keeps the rest).
    if (c.bypass) {
      EXPECT_EQ(sink.calls(), 2u) << c.buffer << "/" << c.size;
      EXPECT_EQ(sink.written(), "<" + data);
      EXPECT_TRUE(out.pending().empty());
    } else {
      EXPECT_LE(sink.calls(), 1u) << c.buffer << "/" << c.size;
      EXPECT_EQ(std::string(sink.written()) + std::string(out.pending()), "<" + data);
    }
    EXPECT_EQ(out.position(), c.size + 1);
  }
}

TEST(BufferedWriteStream, ReserveLargerThanTheBufferIsOneSinkWrite) {
  FaultyWriteStream sink;
  BufferedWriteStream out(sink, {.buffer_size = 8});
  out.put('a');
  char* p = out.reserve(100);
  std::memset(p, 'r', 100);
  out.commit(60);
  EXPECT_EQ(sink.calls(), 2u);  // 'a', then the 60 committed bytes
  EXPECT_EQ(sink.written(), "a" + std::string(60, 'r'));
  p = out.reserve(8);  // fits in the buffer: in place
  std::memcpy(p, "12345678", 8);
  out.commit(8);
  EXPECT_EQ(out.pending(), "12345678");
  out.close();
  EXPECT_EQ(sink.written(), "a" + std::string(60, 'r') + "12345678");
}

TEST(BufferedWriteStream, ZeroSizeIsTakenAsOne) {
  StringWriteStream sink;
  BufferedWriteStream out(sink, {.buffer_size = 0});
  EXPECT_EQ(out.buffer_size(), 1u);
  out.write("abc");
  out.put('d');
  out.close();
  EXPECT_EQ(sink.view(), "abcd");
}

TEST(BufferedWriteStream, CloseFlushesAndClosesTheSink) {
  auto owned = std::make_unique<FaultyWriteStream>();
  FaultyWriteStream* sink = owned.get();
  BufferedWriteStream out(std::move(owned), {.buffer_size = 64});
  EXPECT_EQ(&out.sink(), sink);
  out.write("bytes");
  EXPECT_EQ(sink->written(), "");
  out.close();
  EXPECT_EQ(sink->written(), "bytes");
  EXPECT_TRUE(sink->closed());
  EXPECT_TRUE(sink->is_closed());
}

TEST(BufferedWriteStream, DestructionWritesTheBufferOut) {
  StringWriteStream sink;
  {
    BufferedWriteStream out(sink, {.buffer_size = 64});
    out.write("kept");
  }
  EXPECT_EQ(sink.view(), "kept");
  EXPECT_FALSE(sink.is_closed());  // a borrowed sink is written to, not closed
}

TEST(BufferedWriteStream, StackedBuffersWriteTheSameBytes) {
  const std::string data = test::random_bytes(30000, 4);
  StringWriteStream sink;
  {
    BufferedWriteStream inner(sink, {.buffer_size = 7});
    BufferedWriteStream outer(inner, {.buffer_size = 3});
    for (char c : data) outer.put(c);
    outer.flush();
    EXPECT_EQ(inner.position(), data.size());
    EXPECT_TRUE(inner.pending().empty());  // flush went all the way down
  }
  EXPECT_TRUE(sink.view() == data);
}

TEST(BufferedWriteStream, FailureInTheMiddleOfABypassCountsWhatWasTaken) {
  FaultyWriteStream sink({.fail_at = 3, .max_per_call = 10});
  BufferedWriteStream out(sink, {.buffer_size = 8});
  const std::string data(100, 'b');
  EXPECT_THROW(out.write(data), IoError);
  EXPECT_EQ(sink.written().size(), 20u);
  EXPECT_EQ(out.position(), 20u);  // what the sink took; the caller still holds the rest
  EXPECT_TRUE(out.pending().empty());
  EXPECT_TRUE(out.failed());
}

}  // namespace
}  // namespace bufstream
