#include <bufstream/mapped_file.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace bufstream {

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path.string()) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw IoError::from_errno(errno, "open", path_);
  struct ::stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw IoError::from_errno(e, "stat", path_);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError(std::make_error_code(std::errc::invalid_argument), "map (not a regular file)",
                  path_);
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      throw IoError::from_errno(e, "mmap", path_);
    }
    data_ = static_cast<const char*>(p);
    ::madvise(p, size_, MADV_SEQUENTIAL);
  }
  ::close(fd);  // the mapping keeps the file
  set_window(data_, data_ + size_, size_);
}

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() noexcept {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  data_ = nullptr;
}

bool MappedFile::refill(std::size_t) { return false; }

void MappedFile::close_source() {
  cursor_ = limit_ = nullptr;
  unmap();
  size_ = 0;
}

}  // namespace bufstream
