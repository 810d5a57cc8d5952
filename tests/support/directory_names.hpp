// The names in a directory, sorted: for tests that check what a program left behind (no
// temporary file, no half-written output).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace bufstream::testing {

inline std::vector<std::string> directory_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace bufstream::testing
