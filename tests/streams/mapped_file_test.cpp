// MappedFile: a read-only map of a whole file, read as a stream whose window is the file.
#include <string>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

TEST(MappedFile, TheWindowIsTheWholeFile) {
  const std::string text = test::random_bytes(100000, 6);
  test::TempFile file(text);
  MappedFile in(file.path());
  EXPECT_EQ(in.size(), text.size());
  EXPECT_EQ(in.path(), file.path());
  EXPECT_TRUE(in.contents() == text);
  EXPECT_EQ(in.buffered().size(), text.size());
  EXPECT_EQ(in.buffered().data(), in.contents().data());  // zero-copy
  EXPECT_EQ(in.next(), text[0]);
  EXPECT_EQ(in.skip(50000), 50000u);
  EXPECT_TRUE(in.up_to_end() == text.substr(50001));
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.position(), text.size());
}

TEST(MappedFile, ContentsOutliveTheFileName) {
  test::TempFile file("persistent");
  MappedFile in(file.path());
  ::unlink(file.path().c_str());  // the mapping keeps the data
  EXPECT_EQ(in.contents(), "persistent");
  EXPECT_EQ(in.next_line(), "persistent");
}

TEST(MappedFile, EmptyFileIsAnEmptyStream) {
  test::TempFile file("");
  MappedFile in(file.path());
  EXPECT_EQ(in.size(), 0u);
  EXPECT_EQ(in.contents(), "");
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.next(), std::nullopt);
  EXPECT_EQ(in.up_to_end(), "");
  EXPECT_EQ(in.next_line(), std::nullopt);
  EXPECT_EQ(in.fill(10), "");
}

TEST(MappedFile, MissingPathNamesThePath) {
  const std::string missing = "/nonexistent-dir-for-bufstream/file";
  try {
    MappedFile in(missing);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos);
  }
}

TEST(MappedFile, DirectoriesAndDevicesAreRefused) {
  EXPECT_THROW(MappedFile("/"), IoError);
  EXPECT_THROW(MappedFile("/dev/null"), IoError);
}

TEST(MappedFile, CloseUnmaps) {
  test::TempFile file("abc");
  MappedFile in(file.path());
  EXPECT_EQ(in.next(), 'a');
  in.close();
  EXPECT_EQ(in.contents(), "");
  EXPECT_EQ(in.position(), 1u);
  EXPECT_THROW((void)in.next(), IoError);
  in.close();
}

}  // namespace
}  // namespace bufstream
