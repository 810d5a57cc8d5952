// What the parallel readers' tests share: an outcome to compare (the items read in order and
// the first error's text), the chunk sizes to try, and a temporary file.
#pragma once

#include <unistd.h>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace bufstream::testing {

/// What a read gave: its items (records, values) in order, and its error, if any.
struct Outcome {
  std::vector<std::string> items;
  std::optional<std::string> error;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

inline std::ostream& operator<<(std::ostream& out, const Outcome& o) {
  out << o.items.size() << " items";
  for (const std::string& item : o.items) out << " [" << item << "]";
  return out << ", error: " << (o.error ? *o.error : "none");
}

/// The fields of a record as one string, each field's length before it (so that no two
/// records are joined alike).
inline std::string join(const std::vector<std::string>& fields) {
  std::string out;
  for (const std::string& f : fields) out += std::to_string(f.size()) + ":" + f + "|";
  return out;
}

/// A text with its control bytes visible, for failure messages.
inline std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

/// ThreadSanitizer (scripts/test --thread) makes each thread's start and each wait costly (the
/// whole matrix takes six minutes under it), AddressSanitizer's unoptimized build
/// (scripts/test --sanitize) each byte, and an emulator (scripts/cross-test runs
/// a cross build under qemu-user, where the matrix took over ten minutes on s390x): there the
/// tests run a sample of it, which still takes every path (fewer texts, chunk sizes and
/// thread counts); the plain build runs it all. (BUFSTREAM_TEST_SAMPLED: tests/parallel's
/// CMakeLists.txt, for a cross build.)
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || defined(BUFSTREAM_TEST_SAMPLED)
inline constexpr bool sample_the_matrix = true;
#else
inline constexpr bool sample_the_matrix = false;
#endif

/// Chunk sizes from 1 to `last`: the small ones, then about a dozen, and the last ones.
inline std::vector<std::size_t> sample_sizes_to(std::size_t last) {
  std::vector<std::size_t> sizes;
  for (std::size_t s = 1; s <= last; s += s < 8 ? 1 : 1 + last / 12) sizes.push_back(s);
  if (last >= 2) sizes.push_back(last - 1);
  sizes.push_back(last);
  return sizes;
}

/// Every chunk size from 1 to `last` (a sample of them when the matrix is sampled).
inline std::vector<std::size_t> every_size_to(std::size_t last) {
  if (sample_the_matrix) return sample_sizes_to(last);
  std::vector<std::size_t> sizes;
  for (std::size_t s = 1; s <= last; ++s) sizes.push_back(s);
  return sizes;
}

/// Every thread count from 1 to 8 (1, 2, 3 and 8 when the matrix is sampled).
inline std::vector<unsigned> thread_counts() {
  if (sample_the_matrix) return {1, 2, 3, 8};
  return {1, 2, 3, 4, 5, 6, 7, 8};
}

/// `n` random texts (a quarter of them when the matrix is sampled).
inline int rounds(int n) { return sample_the_matrix ? (n + 3) / 4 : n; }

/// A file holding `text`, removed at the end of the scope.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("bufstream-parallel-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace bufstream::testing
