#include "harness/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

namespace bufstream::bench {

TempDir::TempDir(const std::filesystem::path& parent) {
  const std::filesystem::path base =
      parent.empty() ? std::filesystem::temp_directory_path() : parent;
  std::string pattern = (base / "bufstream-bench-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  }
  path_ = buffer.data();
}

TempDir::~TempDir() {
  std::error_code ignored;  // a leftover temp directory is not worth a crash at exit
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace bufstream::bench
