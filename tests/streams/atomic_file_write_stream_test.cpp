// AtomicFileWriteStream: the old file stays whole until close() renames the new one over it,
// and nothing is left behind whatever happens. (Every write operation, through buffers of
// every tiny size, runs in the WriteOps and RandomWrites suites: all_write_setups has it.)
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/atomic_file_write_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <directory_names.hpp>
#include <test_streams.hpp>

namespace bufstream {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lost_reports;
void record_lost_data(std::string_view description) noexcept {
  lost_reports.emplace_back(description);
}

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bufstream-atomic-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    previous_handler_ = set_lost_data_handler(&record_lost_data);
    lost_reports.clear();
  }
  void TearDown() override {
    set_lost_data_handler(previous_handler_);
    fs::remove_all(dir_);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string file(const std::string& name, const std::string& content) const {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name);
  }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::vector<std::string> names() const { return testing::directory_names(dir_); }
  static ::mode_t mode_of(const std::string& p) {
    struct ::stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 07777;
  }

  fs::path dir_;
  LostDataHandler previous_handler_ = nullptr;
};

TEST_F(AtomicFile, TheOldContentStaysUntilCloseThenTheNewAppearsWhole) {
  const std::string out = file("out.txt", "old content");
  for (const std::size_t size : testing::tiny_buffer_sizes()) {
    SCOPED_TRACE(size);
    AtomicFileWriteStream sink(out);
    BufferedWriteStream buffered(sink, {.buffer_size = size});
    buffered.write("new ");
    buffered.print(42);
    buffered.flush();  // in the temporary file now, not yet in out.txt
    EXPECT_EQ(read(out), "old content");
    ASSERT_FALSE(sink.temporary_path().empty());
    EXPECT_EQ(read(sink.temporary_path()), "new 42");
    EXPECT_EQ(names().size(), 2u);  // out.txt and the temporary file beside it
    buffered.close();
    EXPECT_EQ(read(out), "new 42");
    EXPECT_TRUE(sink.temporary_path().empty());
    EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
    file("out.txt", "old content");
  }
  EXPECT_TRUE(lost_reports.empty());
}

TEST_F(AtomicFile, TheInputMayBeReadWhileItsReplacementIsWritten) {
  const std::string data = file("data.txt", "one\ntwo\n");
  FdReadStream in{fs::path(data)};
  AtomicFileWriteStream out(data);
  while (auto line = in.next_line()) {
    out.write(*line);
    out.write(";");
  }
  out.close();
  EXPECT_EQ(read(data), "one;two;");
}

TEST_F(AtomicFile, AnExceptionLeavesTheOldFileAndNoTemporaryFile) {
  const std::string out = file("out.txt", "old content");
  try {
    AtomicFileWriteStream sink(out);
    BufferedWriteStream buffered(sink, {.buffer_size = 3});
    buffered.write("half of the new");
    throw std::runtime_error("bad input");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read(out), "old content");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
  EXPECT_TRUE(lost_reports.empty());  // unwinding: the program is abandoning the output
}

TEST_F(AtomicFile, AFileThatDidNotExistStaysAbsentOnFailure) {
  try {
    AtomicFileWriteStream sink(path("new.txt"));
    sink.write("x");
    throw std::runtime_error("bad input");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(names().empty());
}

TEST_F(AtomicFile, DiscardDropsTheNewContentSilently) {
  const std::string out = file("out.txt", "old content");
  AtomicFileWriteStream sink(out);
  sink.write("new");
  sink.discard();
  EXPECT_TRUE(sink.temporary_path().empty());
  EXPECT_THROW(sink.write("more"), IoError);
  EXPECT_NO_THROW(sink.close());
  EXPECT_EQ(read(out), "old content");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
  EXPECT_TRUE(lost_reports.empty());
}

TEST_F(AtomicFile, DestroyedWithoutCloseOrExceptionTellsTheLostDataHandler) {
  const std::string out = file("out.txt", "old content");
  { AtomicFileWriteStream(out).write("forgotten"); }
  EXPECT_EQ(read(out), "old content");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
  ASSERT_EQ(lost_reports.size(), 1u);
  EXPECT_NE(lost_reports[0].find("without close()"), std::string::npos) << lost_reports[0];
  EXPECT_NE(lost_reports[0].find(out), std::string::npos) << lost_reports[0];
}

TEST_F(AtomicFile, PermissionsOfTheReplacedFileAreKept) {
  const std::string out = file("out.txt", "old");
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  AtomicFileWriteStream sink(out);
  sink.write("new");
  sink.close();
  EXPECT_EQ(mode_of(out), 0640u);
}

TEST_F(AtomicFile, ANewFileGetsThePermissionsLessTheUmask) {
  const ::mode_t umask_before = ::umask(027);
  AtomicFileWriteStream a(path("a.txt"));
  a.close();
  AtomicFileWriteStream b(path("b.txt"), 0600);
  b.close();
  ::umask(umask_before);
  EXPECT_EQ(mode_of(path("a.txt")), 0640u);
  EXPECT_EQ(mode_of(path("b.txt")), 0600u);
}

TEST_F(AtomicFile, ASymbolicLinkIsFollowedAndStaysALink) {
  const std::string target = file("target.txt", "old");
  fs::create_symlink("target.txt", path("link.txt"));  // relative, as users make them
  AtomicFileWriteStream sink(path("link.txt"));
  EXPECT_EQ(sink.target(), fs::path(path("target.txt")));
  sink.write("new");
  sink.close();
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(read(target), "new");
  EXPECT_EQ(read(path("link.txt")), "new");
}

TEST_F(AtomicFile, AHardLinkKeepsTheOldVersion) {
  const std::string out = file("out.txt", "old");
  fs::create_hard_link(out, path("other.txt"));
  AtomicFileWriteStream sink(out);
  sink.write("new");
  sink.close();
  EXPECT_EQ(read(out), "new");
  EXPECT_EQ(read(path("other.txt")), "old");
}

TEST_F(AtomicFile, WhatIsNotARegularFileCannotBeReplaced) {
  fs::create_directory(path("dir"));
  try {
    AtomicFileWriteStream sink(path("dir"));
    FAIL() << "a directory was accepted";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::is_a_directory);
    EXPECT_EQ(e.path(), path("dir"));
  }
  EXPECT_THROW(AtomicFileWriteStream("/dev/null"), IoError);
  EXPECT_EQ(names(), std::vector<std::string>{"dir"});
}

TEST_F(AtomicFile, AMissingDirectoryIsAnErrorNamingThePath) {
  try {
    AtomicFileWriteStream sink(path("missing/out.txt"));
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(e.what()).find(path("missing/out.txt")), std::string::npos) << e.what();
  }
}

TEST_F(AtomicFile, ARelativePathInTheWorkingDirectory) {
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  {
    AtomicFileWriteStream sink("plain.txt");
    sink.write("here");
    sink.close();
  }
  fs::current_path(before);
  EXPECT_EQ(read(path("plain.txt")), "here");
  EXPECT_EQ(names(), std::vector<std::string>{"plain.txt"});
}

}  // namespace
}  // namespace bufstream
