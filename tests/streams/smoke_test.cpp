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
