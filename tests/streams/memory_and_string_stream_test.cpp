// MemoryReadStream (a window over bytes someone else owns) and StringWriteStream (a growing
// string, Smalltalk's `String streamContents:`).
#include <string>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

TEST(MemoryReadStream, TheWholeContentIsTheWindow) {
  const std::string text = "hello, world";
  MemoryReadStream in(text);
  EXPECT_EQ(in.buffered(), text);
  EXPECT_EQ(in.buffered().data(), text.data());  // no copy
  EXPECT_EQ(in.contents(), text);
  EXPECT_EQ(in.up_to(','), "hello");
  EXPECT_EQ(in.buffered(), " world");
  EXPECT_EQ(in.contents(), text);     // contents() includes what was consumed
  EXPECT_EQ(in.fill(100), " world");  // cannot grow: returns what is left
}

TEST(MemoryReadStream, FromBytes) {
  const std::byte bytes[] = {std::byte{0x41}, std::byte{0x00}, std::byte{0xfe}};
  MemoryReadStream in{std::span<const std::byte>(bytes)};
  EXPECT_EQ(in.next(), 'A');
  EXPECT_EQ(in.next(), '\0');
  EXPECT_EQ(in.next(), '\xfe');
  EXPECT_TRUE(in.at_end());
}

TEST(MemoryReadStream, EmptyAndClosed) {
  MemoryReadStream empty{std::string_view()};
  EXPECT_TRUE(empty.at_end());
  EXPECT_EQ(empty.next_line(), std::nullopt);
  MemoryReadStream in("abc");
  in.close();
  EXPECT_TRUE(in.is_closed());
  EXPECT_THROW((void)in.next(), IoError);
  EXPECT_EQ(in.position(), 0u);
}

TEST(StringWriteStream, CollectsWhatIsWritten) {
  StringWriteStream out;
  out.write("x = ");
  out.print(42);
  out.put(';');
  EXPECT_EQ(out.view(), "x = 42;");
  EXPECT_EQ(out.position(), 7u);
  EXPECT_EQ(out.take(), "x = 42;");
  EXPECT_EQ(out.view(), "");
  out.write("more");
  EXPECT_EQ(out.take(), "more");
  EXPECT_EQ(out.position(), 11u);  // counts everything since construction
}

TEST(StringWriteStream, AppendsToAnInitialString) {
  StringWriteStream out(std::string("start:"));
  out.write("end");
  EXPECT_EQ(out.view(), "start:end");
  EXPECT_EQ(out.position(), 9u);
}

TEST(StringWriteStream, GrowsForAnySize) {
  StringWriteStream out;
  std::string expected;
  for (std::size_t n : {1u, 255u, 256u, 1000u, 70000u, 3u, 1u << 20}) {
    const std::string piece = test::random_bytes(n, n);
    out.write(piece);
    expected += piece;
    EXPECT_EQ(out.position(), expected.size());
  }
  for (int i = 0; i < 100000; ++i) {
    out.put(static_cast<char>(i));
    expected += static_cast<char>(i);
  }
  char* p = out.reserve(1 << 21);
  std::memset(p, 'r', 1 << 21);
  out.commit(5);
  expected += "rrrrr";
  EXPECT_TRUE(out.view() == expected);
}

TEST(StringWriteStream, ClearForgetsTheText) {
  StringWriteStream out;
  out.write("abc");
  out.clear();
  EXPECT_EQ(out.view(), "");
  out.write("de");
  EXPECT_EQ(out.view(), "de");
  EXPECT_EQ(out.position(), 5u);
}

TEST(StringWriteStream, NeverFailsAndStaysClosedAfterClose) {
  StringWriteStream out;
  out.write("text");
  out.flush();
  out.close();
  EXPECT_FALSE(out.failed());
  EXPECT_EQ(out.view(), "text");
  EXPECT_THROW(out.put('x'), IoError);
  EXPECT_EQ(out.take(), "text");
  EXPECT_THROW(out.put('x'), IoError);  // take() does not reopen a closed stream
  out.clear();
  EXPECT_THROW(out.write("y"), IoError);
  EXPECT_EQ(out.view(), "");
}

}  // namespace
}  // namespace bufstream
