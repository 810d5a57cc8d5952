// MappedFile: a read-only memory map of a whole file, usable as a read stream.
#pragma once

#include <cstddef>
#include <filesystem>
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
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile() override;

  std::string_view contents() const noexcept { return {data_, size_}; }
  std::size_t size() const noexcept { return size_; }
  const std::string& path() const noexcept { return path_; }

 protected:
  bool refill(std::size_t min) override;
  void close_source() override;

 private:
  void unmap() noexcept;

  const char* data_ = nullptr;
  std::size_t size_ = 0;
  std::string path_;
};

}  // namespace bufstream
