// End-to-end tests of the progress display (CLI.md: long runs on a terminal show progress on
// standard error; nothing of it goes into pipes or files): the built binary with standard
// error on a pseudo-terminal, and on a pipe.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_on_terminal.hpp"
#include "run_program.hpp"

namespace bufstream {
namespace {

using testing::ProgramResult;

// The command shows progress for regular files of at least 32 MB (io.cpp).
constexpr std::size_t large_file_bytes = 33 * 1000 * 1000;

class Progress : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("bufstream-progress-" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_);
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }

  // A valid CSV file just above the threshold; the same with a bad last record; a small one.
  // Each is written when a test first asks for it (CTest runs every test in its own process).
  static std::string large() { return make("large.csv", large_csv()); }
  static std::string large_invalid() {
    return make("large-invalid.csv", large_csv() + "1,\"unclosed\n");
  }
  static std::string small() { return make("small.csv", "id,text\n1,x\n"); }

 private:
  static std::string large_csv() {
    std::string csv = "id,text\n";
    const std::string line = ",a line of text that makes the file large quickly\n";
    for (std::size_t i = 0; csv.size() < large_file_bytes; ++i) csv += std::to_string(i) + line;
    return csv;
  }
  static std::string make(const std::string& name, const std::string& content) {
    std::string path = (*dir_ / name).string();
    if (!std::filesystem::exists(path)) std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  static std::filesystem::path* dir_;
};

std::filesystem::path* Progress::dir_ = nullptr;

constexpr std::string_view erase_line = "\r\033[K";

TEST_F(Progress, ALargeFileShowsProgressOnATerminalAndErasesIt) {
  const ProgramResult r =
      testing::run_program_with_terminal_stderr(BUFSTREAM_CLI, {"check", large()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("\r\033[Kbufstream: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" of 33.0 MB ("), std::string::npos) << r.err;
  // The last thing on the terminal erases the progress line: nothing of it stays.
  ASSERT_GE(r.err.size(), erase_line.size());
  EXPECT_EQ(r.err.substr(r.err.size() - erase_line.size()), erase_line) << r.err;
}

TEST_F(Progress, AnErrorOnATerminalFollowsTheErasedProgressLine) {
  const ProgramResult r =
      testing::run_program_with_terminal_stderr(BUFSTREAM_CLI, {"check", large_invalid()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(" of 33.0 MB ("), std::string::npos) << r.err;
  const std::size_t error = r.err.find(large_invalid() + ":");
  ASSERT_NE(error, std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
  // The progress line is erased before the error line is printed.
  EXPECT_EQ(r.err.rfind(erase_line, error), error - erase_line.size()) << r.err;
}

TEST_F(Progress, ConvertShowsProgressToo) {
  const ProgramResult r = testing::run_program_with_terminal_stderr(
      BUFSTREAM_CLI, {"convert", large(), "--to", "jsonl"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(" of 33.0 MB ("), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("bufstream:"), std::string::npos);  // standard output holds only the data
  EXPECT_EQ(r.out.rfind("{\"id\":\"0\",", 0), 0u);
}

TEST_F(Progress, NothingButErrorsWhenStandardErrorIsNotATerminal) {
  ProgramResult r = testing::run_program(BUFSTREAM_CLI, {"check", large()});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  r = testing::run_program(BUFSTREAM_CLI, {"check", large_invalid()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind(large_invalid() + ":", 0), 0u)
      << r.err;  // the error line and nothing before it
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST_F(Progress, ASmallFileShowsNoProgressOnATerminal) {
  const ProgramResult r =
      testing::run_program_with_terminal_stderr(BUFSTREAM_CLI, {"check", small()});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace bufstream
