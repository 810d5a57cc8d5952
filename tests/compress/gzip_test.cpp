#include <bufstream/compress/gzip.hpp>
#include <bufstream/compress/zstd.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include <gtest/gtest.h>

namespace bufstream {
namespace {
TEST(Smoke, RoundTrip) {
  StringWriteStream out;
  {
    GzipWriteStream gz(out);
    gz.write("hello world\n");
    gz.close();
  }
  MemoryReadStream in(out.view());
  GzipReadStream r(in);
  EXPECT_EQ(r.up_to_end(), "hello world\n");
  StringWriteStream zout;
  {
    ZstdWriteStream z(zout);
    z.write("hello zstd\n");
    z.close();
  }
  MemoryReadStream zin(zout.view());
  ZstdReadStream zr(zin);
  EXPECT_EQ(zr.up_to_end(), "hello zstd\n");
}
}  // namespace
}  // namespace bufstream
