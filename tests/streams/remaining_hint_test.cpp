// ReadStream::remaining_hint over every stream type: exact for memory, regular files and
// mapped files (and buffered streams over them) after every kind of read; unknown for pipes
// and sources that cannot tell; unknown once the stream is closed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using test::ReadSetup;

class RemainingHint : public ::testing::TestWithParam<ReadSetup> {};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Whether the setup's source can tell its size: memory, a regular file or a mapping, directly
/// or under any number of buffers.
bool source_knows_size(std::string_view setup) {
  return ends_with(setup, "memory") || ends_with(setup, "fd_file") ||
         ends_with(setup, "mapped_file");
}

TEST_P(RemainingHint, FollowsEveryKindOfRead) {
  const std::string text = "alpha,beta\ngamma delta\nepsilon zeta eta theta\n";
  test::OwningReader r = GetParam().make(text);
  ReadStream& in = *r.stream;
  const bool knows = source_knows_size(GetParam().name);
  const auto check = [&](const char* after) {
    SCOPED_TRACE(after);
    const std::optional<std::uint64_t> hint = in.remaining_hint();
    if (!knows) {
      EXPECT_FALSE(hint.has_value());
      return;
    }
    ASSERT_TRUE(hint.has_value());
    EXPECT_EQ(*hint, text.size() - in.position());
  };
  check("nothing read");
  ASSERT_EQ(in.next_byte(), 'a');
  check("next_byte");
  ASSERT_EQ(in.up_to(','), "lpha");
  check("up_to");
  ASSERT_GE(in.fill(4).size(), 4U);
  check("fill");
  ASSERT_EQ(in.next_line(), "beta");
  check("next_line");
  char block[9];
  ASSERT_EQ(in.read_into(block), sizeof block);
  EXPECT_EQ(std::string_view(block, sizeof block), "gamma del");
  check("read_into");
  in.skip(3);
  check("skip");
  ASSERT_EQ(in.up_to_end(), "epsilon zeta eta theta\n");
  check("up_to_end");
  EXPECT_TRUE(in.at_end());
  if (knows) {
    EXPECT_EQ(in.remaining_hint(), std::optional<std::uint64_t>(0));
  }
  in.close();
  EXPECT_FALSE(in.remaining_hint().has_value());
}

INSTANTIATE_TEST_SUITE_P(AllStreams, RemainingHint, ::testing::ValuesIn(test::all_read_setups()),
                         test::setup_name);

TEST(RemainingHintFile, CountsFromTheDescriptorsOffset) {
  // A descriptor handed over part-way through a file: the hint counts from where it stands.
  test::TempFile file("0123456789");
  const int fd = ::open(file.path().c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 4, SEEK_SET), 4);
  FdReadStream in(fd, Ownership::owned);
  EXPECT_EQ(in.remaining_hint(), std::optional<std::uint64_t>(6));
  EXPECT_EQ(in.next_byte(), '4');
  EXPECT_EQ(in.remaining_hint(), std::optional<std::uint64_t>(5));
}

TEST(RemainingHintFile, AFailedStreamCannotTell) {
  FdReadStream in(-1, Ownership::borrowed, "nothing");
  EXPECT_FALSE(in.remaining_hint().has_value());
  EXPECT_THROW((void)in.next_byte(), IoError);
  EXPECT_FALSE(in.remaining_hint().has_value());
}

}  // namespace
}  // namespace bufstream
