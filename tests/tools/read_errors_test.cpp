// End-to-end tests of read failures (an I/O error, not invalid input): every subcommand given a
// directory, whose read(2) fails with EISDIR, exits with status 2 and names the path.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_program.hpp"

namespace bufstream {
namespace {

class ReadErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("bufstream-read-errors-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ReadErrors, EverySubcommandReportsAFailedReadWithStatusTwo) {
  const std::string dir = dir_.string();
  const std::vector<std::vector<std::string>> commands = {
      {"check", "--format", "json", dir},
      {"check", "--format", "csv", dir},
      {"check", "--format", "ston", dir},
      {"convert", "--from", "csv", "--to", "json", dir},
      {"convert", "--from", "json", "--to", "csv", dir},
      {"convert", "--from", "ston", "--to", "csv", dir},
      {"convert", "--from", "csv", "--to", "ston", dir},
      {"fmt", "--format", "ston", dir},
      {"fmt", "--format", "json", dir},
  };
  for (const auto& args : commands) {
    const auto r = testing::run_program(BUFSTREAM_CLI, args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[2] << ": " << r.err;
    EXPECT_NE(r.err.find("bufstream: error: read " + dir + ": Is a directory"), std::string::npos)
        << args[0] << " " << args[2] << ": " << r.err;
  }
}

TEST_F(ReadErrors, CheckGoesOnAfterAFailedReadAndExitsWithTheWorstStatus) {
  const auto r =
      testing::run_program(BUFSTREAM_CLI, {"check", "--format", "json", dir_.string(), "-"}, "[1,");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("Is a directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("<stdin>:1:4: error:"), std::string::npos)
      << r.err;  // the next file is still checked
}

}  // namespace
}  // namespace bufstream
