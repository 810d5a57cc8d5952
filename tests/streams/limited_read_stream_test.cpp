// LimitedReadStream beyond the protocol (which read_stream_test.cpp runs over it, as a section
// of every simple source): where the source stands afterwards, sections shorter than their
// limit, nesting, large reads that bypass the window, and closing.
#include <bufstream/limited_read_stream.hpp>

#include <array>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using test::ReadSetup;

class LimitedOver : public ::testing::TestWithParam<ReadSetup> {
 protected:
  /// A source over `text`, which lives as long as the test.
  ReadStream& source(std::string text) {
    text_ = std::move(text);
    reader_ = GetParam().make(text_);
    return *reader_.stream;
  }

 private:
  std::string text_;
  test::OwningReader reader_;
};

INSTANTIATE_TEST_SUITE_P(Sources, LimitedOver, ::testing::ValuesIn(test::decorator_sources()),
                         test::setup_name);

TEST_P(LimitedOver, TheSourceGoesOnAfterTheSection) {
  ReadStream& in = source("5:hello, world");
  ASSERT_EQ(in.up_to(':'), "5");
  {
    LimitedReadStream record(in, 5);
    EXPECT_EQ(record.remaining(), 5U);
    EXPECT_EQ(record.up_to_end(), "hello");
    EXPECT_TRUE(record.at_end());
    EXPECT_EQ(record.remaining(), 0U);
    EXPECT_EQ(record.position(), 5U);
  }
  EXPECT_EQ(in.position(), 7U);
  EXPECT_EQ(in.up_to_end(), ", world");
}

TEST_P(LimitedOver, TheSourceStandsAfterWhatWasConsumed) {
  ReadStream& in = source("abcdefghij");
  {
    LimitedReadStream section(in, 8);
    EXPECT_EQ(section.next(3), "abc");
    EXPECT_EQ(section.peek(), 'd');  // looked at, not consumed
    EXPECT_EQ(section.remaining(), 5U);
  }
  EXPECT_EQ(in.up_to_end(), "defghij");
}

TEST_P(LimitedOver, SkippingTheRestMovesPastTheSection) {
  ReadStream& in = source("[abcdef]tail");
  ASSERT_EQ(in.next_byte(), '[');
  {
    LimitedReadStream section(in, 6);
    EXPECT_EQ(section.next_byte(), 'a');
    EXPECT_EQ(section.skip(static_cast<std::int64_t>(section.remaining())), 5U);
    EXPECT_TRUE(section.at_end());
  }
  EXPECT_EQ(in.up_to_end(), "]tail");
}

TEST_P(LimitedOver, AShortSourceEndsTheSectionOrIsAnError) {
  {
    ReadStream& in = source("abc");
    LimitedReadStream at_most(in, 10);
    EXPECT_EQ(at_most.up_to_end(), "abc");
    EXPECT_EQ(at_most.remaining(), 7U);
  }
  {
    ReadStream& in = source("abc");
    LimitedReadStream promised(in, 10, ShortSource::error);
    EXPECT_EQ(promised.next(2), "ab");
    try {
      (void)promised.next(5);
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.message(), "expected a section of 10 bytes but its source ends after 3");
      EXPECT_EQ(e.offset(), 3U);
    }
  }
  {
    ReadStream& in = source("abc");
    LimitedReadStream promised(in, 10, ShortSource::error);
    EXPECT_THROW((void)promised.fill(20), ParseError);  // through the window too
  }
  {
    ReadStream& in = source("abc");
    LimitedReadStream promised(in, 3, ShortSource::error);  // exactly there: no error
    EXPECT_EQ(promised.up_to_end(), "abc");
  }
}

TEST_P(LimitedOver, SectionsNest) {
  ReadStream& in = source("outer(inner)rest");
  {
    LimitedReadStream outer(in, 12);
    EXPECT_EQ(outer.next(6), "outer(");
    {
      LimitedReadStream inner(outer, 5);
      EXPECT_EQ(inner.up_to_end(), "inner");
    }
    EXPECT_EQ(outer.up_to_end(), ")");
  }
  EXPECT_EQ(in.up_to_end(), "rest");
}

TEST_P(LimitedOver, AnEmptySectionHasNothing) {
  ReadStream& in = source("xyz");
  {
    LimitedReadStream none(in, 0);
    EXPECT_TRUE(none.at_end());
    EXPECT_EQ(none.next_byte(), ReadStream::end_of_stream);
    EXPECT_EQ(none.fill(4).size(), 0U);
  }
  EXPECT_EQ(in.up_to_end(), "xyz");
}

TEST_P(LimitedOver, LargeReadsStopAtTheLimit) {
  std::string text(100000, '\0');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  ReadStream& in = source(text);
  {
    LimitedReadStream section(in, 70000);
    std::string got(80000, '?');
    EXPECT_EQ(section.read_into(std::span<char>(got)), 70000U);
    got.resize(70000);
    EXPECT_EQ(got, text.substr(0, 70000));
    EXPECT_EQ(section.read_some(std::span<char>(got)), 0U);
  }
  EXPECT_EQ(in.position(), 70000U);
  EXPECT_EQ(in.up_to_end(), text.substr(70000));
}

TEST_P(LimitedOver, ClosingKeepsABorrowedSourceOpen) {
  ReadStream& in = source("abcdef");
  LimitedReadStream section(in, 4);
  EXPECT_EQ(section.next(2), "ab");
  section.close();
  EXPECT_THROW((void)section.next_byte(), IoError);
  EXPECT_FALSE(in.is_closed());
  EXPECT_EQ(in.up_to_end(), "cdef");
}

TEST(LimitedReadStream, ClosesASourceItOwns) {
  auto owned = std::make_unique<MemoryReadStream>("abcdef");
  MemoryReadStream* source = owned.get();
  LimitedReadStream section(std::move(owned), 3);
  EXPECT_EQ(section.up_to_end(), "abc");
  section.close();
  EXPECT_TRUE(source->is_closed());
}

TEST(LimitedReadStream, SourceFailuresAreSticky) {
  FdReadStream broken(-1, Ownership::borrowed, "nothing");
  LimitedReadStream section(broken, 10);
  EXPECT_THROW((void)section.next_byte(), IoError);
  EXPECT_TRUE(section.failed());
  EXPECT_THROW((void)section.next_byte(), IoError);
}

}  // namespace
}  // namespace bufstream
