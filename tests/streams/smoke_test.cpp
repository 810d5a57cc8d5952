#include <gtest/gtest.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

namespace bufstream {
namespace {

TEST(Smoke, BufferedRoundTrip) {
  StringWriteStream sink;
  {
    BufferedWriteStream out(sink, {.buffer_size = 3});
    out.write("hello");
    out.space();
    out.print(-42);
    out.lf();
    out.print(0.1);
    out.flush();
  }
  EXPECT_EQ(sink.view(), "hello -42\n0.1");
  MemoryReadStream mem(sink.view());
  BufferedReadStream in(mem, {.buffer_size = 2});
  EXPECT_EQ(in.next_line(), "hello -42");
  EXPECT_EQ(in.up_to_end(), "0.1");
  EXPECT_TRUE(in.at_end());
}

}  // namespace
}  // namespace bufstream

#include <test_streams.hpp>

namespace bufstream {
namespace {

TEST(Smoke, EveryReaderSetupReadsLines) {
  const std::string text = "alpha\r\nbeta\rgamma\n\ndelta";
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    std::vector<std::string> lines;
    while (auto line = in->next_line()) lines.push_back(*line);
    EXPECT_EQ(lines, (std::vector<std::string>{"alpha", "beta", "gamma", "", "delta"}));
    EXPECT_EQ(in->position(), text.size());
  }
}

TEST(Smoke, FaultySinkKeepsUnwrittenBytes) {
  testing::FaultyWriteStream sink({.fail_at = 2, .max_per_call = 4});
  BufferedWriteStream out(sink, {.buffer_size = 16});
  out.write("0123456789");
  EXPECT_THROW(out.flush(), IoError);
  EXPECT_EQ(sink.written(), "0123");
  EXPECT_EQ(out.pending(), "456789");
  EXPECT_THROW(out.put('x'), IoError);
}

}  // namespace
}  // namespace bufstream
