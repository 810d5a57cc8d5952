// The fixture of the command's end-to-end tests: the built program run on files in a fresh
// directory of its own, removed after the test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "directory_names.hpp"
#include "run_program.hpp"

namespace bufstream {

using testing::ProgramResult;

inline ProgramResult cli(const std::vector<std::string>& args, const std::string& input = {},
                         const std::string& stdout_path = {}) {
  return testing::run_program(BUFSTREAM_CLI, args, input, stdout_path);
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("bufstream-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string file(const std::string& name, const std::string& content) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Every name in the test's directory, sorted (temporary files included).
  std::vector<std::string> names() const { return testing::directory_names(dir_); }

  std::filesystem::path dir_;
};

}  // namespace bufstream
