// TempDir: a fresh directory for the benchmark's files, removed with everything in it when
// the program ends. Every variant writes and reads its files here, on one file system.
#pragma once

#include <filesystem>
#include <string_view>

namespace bufstream::bench {

class TempDir {
 public:
  /// Creates `parent/bufstream-bench-XXXXXX` (parent defaults to the system temp directory).
  /// Throws `std::system_error` if it cannot.
  explicit TempDir(const std::filesystem::path& parent = {});
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  std::filesystem::path file(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace bufstream::bench
