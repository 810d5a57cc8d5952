// MappedFile: a read-only memory map of a whole file, usable as a read stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <bufstream/read_stream.hpp>

namespace bufstream {

/// Maps a file read-only (`mmap`, `PROT_READ`, `MAP_PRIVATE`) and reads it as a stream whose
/// window is the whole file: zero-copy, no system call after the map. `contents()` gives views
/// that stay valid as long as the MappedFile lives, which lets a loader keep them instead of
/// copying. An empty file maps nothing and reads as an empty stream.
class MappedFile final : public ReadStream {
 public:
  /// Opens and maps `path`. Throws `IoError` naming the path.
  /// Opens and maps `path` (a regular file; anything else is refused). The descriptor is closed
  /// at once: the mapping keeps the file. Throws `IoError` naming the path.
  explicit MappedFile(const std::filesystem::path& path);
  /// Unmaps the file: views from `contents()` end here.
  ~MappedFile() override;

  /// The whole file, consumed or not; empty after `close()`.
  std::string_view contents() const noexcept { return {data_, size_}; }
  /// The size of the file in bytes (0 after `close()`).
  std::size_t size() const noexcept { return size_; }
  /// The path that was mapped, for messages.
  const std::string& path() const noexcept { return path_; }

 protected:
  bool refill(std::size_t min) override;
  void close_source() override;
  std::optional<std::uint64_t> source_remaining_hint() const override { return 0; }

 private:
  void unmap() noexcept;

  const char* data_ = nullptr;
  std::size_t size_ = 0;
  std::string path_;
};

}  // namespace bufstream
