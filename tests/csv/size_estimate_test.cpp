// Reader::estimated_records_left and the room read_all reserves from it: an estimate only when
// the stream can tell how many bytes it has left, never more than that, and rows read the same
// whether or not room was reserved.
#include <bufstream/csv.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/memory_read_stream.hpp>

#include "test_streams.hpp"

namespace bufstream::csv {
namespace {

// `count` records of ten bytes each: "0000,aaaa\n", "0001,aaaa\n", ...
std::string uniform_records(std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string n = std::to_string(i % 10000);
    text += std::string(4 - n.size(), '0') + n + ",aaaa\n";
  }
  return text;
}

void read_records(Reader& reader, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) ASSERT_NE(reader.next(), nullptr);
}

class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("bufstream-csv-estimate-" + std::to_string(::getpid()) + ".csv")) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(CsvSizeEstimate, FromTheAverageRecordOnceEnoughHasBeenRead) {
  const std::string text = uniform_records(1000);  // 10,000 bytes: enough is 625
  MemoryReadStream in(text);
  Reader reader(in);
  EXPECT_EQ(reader.estimated_records_left(), std::nullopt);  // no record read yet
  read_records(reader, 10);
  EXPECT_EQ(reader.estimated_records_left(), std::nullopt);  // 100 bytes say too little
  read_records(reader, 90);
  const std::optional<std::uint64_t> left = reader.estimated_records_left();
  ASSERT_TRUE(left.has_value());
  EXPECT_GE(*left, 900u);
  EXPECT_LE(*left, 901u);
  read_records(reader, 900);
  EXPECT_EQ(reader.estimated_records_left().value_or(99), 0u);
}

TEST(CsvSizeEstimate, NeverMoreThanTheBytesLeft) {
  // Long records first, then one-byte records: the estimate is low, but bounded either way.
  std::string text;
  for (int i = 0; i < 100; ++i) text += std::string(98, 'x') + ",\n";
  for (int i = 0; i < 5000; ++i) text += "\n";
  MemoryReadStream in(text);
  Reader reader(in, {.variable_field_count = true});
  read_records(reader, 100);
  const std::optional<std::uint64_t> left = reader.estimated_records_left();
  ASSERT_TRUE(left.has_value());
  EXPECT_LE(*left, 5000u);
  EXPECT_GE(*left, 50u);
}

TEST(CsvSizeEstimate, UnknownForStreamsThatCannotTell) {
  const std::string text = uniform_records(1000);
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    read_records(reader, 500);
    // Only the memory stream knows its size; the chunked sources (and buffers over them) do not.
    EXPECT_EQ(reader.estimated_records_left().has_value(),
              dynamic_cast<MemoryReadStream*>(in.get()) != nullptr);
  }
}

TEST(CsvSizeEstimate, FromARegularFileDirectlyOrThroughABuffer) {
  const std::string text = uniform_records(1000);
  const TempFile file(text);
  {
    FdReadStream in(file.path());
    Reader reader(in);
    read_records(reader, 500);
    EXPECT_EQ(reader.estimated_records_left().value_or(0) / 10, 50u);  // 500 or 501
  }
  {
    FdReadStream source(file.path());
    BufferedReadStream in(source, {.buffer_size = 4096});  // part of the file is in the buffer
    Reader reader(in);
    read_records(reader, 500);
    EXPECT_EQ(reader.estimated_records_left().value_or(0) / 10, 50u);
  }
}

TEST(CsvSizeEstimate, UnknownForAPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = uniform_records(100);
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  FdReadStream source(fds[0], Ownership::owned);
  BufferedReadStream in(source);
  Reader reader(in);
  read_records(reader, 50);
  EXPECT_EQ(reader.estimated_records_left(), std::nullopt);
}

TEST(CsvSizeEstimate, ReadAllGivesTheSameRowsWithOrWithoutReservedRoom) {
  // Records whose length grows, so that an early average is off.
  std::string text;
  std::vector<std::tuple<std::int64_t, std::string>> expected;
  for (std::int64_t i = 0; i < 20000; ++i) {
    std::string s(static_cast<std::size_t>(i % 97) + static_cast<std::size_t>(i / 1000), 'w');
    text += std::to_string(i) + "," + s + "\n";
    expected.emplace_back(i, s);
  }
  const TempFile file(text);
  {
    FdReadStream source(file.path());
    BufferedReadStream in(source);
    Reader reader(in);
    EXPECT_EQ((read_rows<std::tuple<std::int64_t, std::string>>(reader)), expected);
  }
  for (const auto& setup : testing::reader_setups()) {
    SCOPED_TRACE(setup.name);
    auto in = setup.make(text);
    Reader reader(*in);
    EXPECT_EQ((read_rows<std::tuple<std::int64_t, std::string>>(reader)), expected);
  }
}

}  // namespace
}  // namespace bufstream::csv
