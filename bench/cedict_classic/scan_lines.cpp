// The floor of the CEDICT benchmark: map the file and find every line end. A loader must at
// least do this, so no loader can beat it.
#include "classic_loaders.hpp"

#include <cstring>

namespace bufstream::cedict::classic::scan_lines {

LineScan load(const std::filesystem::path& path) {
  LineScan scan(path);
  const std::string_view text = scan.file_->contents();
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    if (*p != '#' && *p != '\n') ++scan.entries_;
    ++scan.lines_;
    const auto* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    p = nl != nullptr ? nl + 1 : end;
  }
  return scan;
}

}  // namespace bufstream::cedict::classic::scan_lines
