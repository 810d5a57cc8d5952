#include <bufstream/fd_read_stream.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bufstream {

namespace {

std::string descriptor_name(int fd, std::string name) {
  if (!name.empty()) return name;
  return "descriptor " + std::to_string(fd);
}

}  // namespace

FdReadStream::FdReadStream(int fd, Ownership ownership, std::string name)
    : fd_(fd), ownership_(ownership), name_(descriptor_name(fd, std::move(name))) {}

FdReadStream::FdReadStream(const std::filesystem::path& path)
    : fd_(-1), ownership_(Ownership::owned), name_(path.string()) {
  do {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) throw IoError::from_errno(errno, "open", name_);
}

FdReadStream::~FdReadStream() {
  if (ownership_ == Ownership::owned && fd_ > 2) ::close(fd_);
}

std::size_t FdReadStream::read_once(char* dst, std::size_t n) {
  for (;;) {
    const ::ssize_t got = ::read(fd_, dst, n);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) fail(IoError::from_errno(errno, "read", name_));
  }
}

bool FdReadStream::refill(std::size_t min) {
  // Keep the unconsumed bytes, then read exactly what is missing: an unbuffered stream never
  // reads ahead of what it was asked for.
  const auto have = static_cast<std::size_t>(limit_ - cursor_);
  if (pending_.size() < min) {
    std::string bigger(min, '\0');
    if (have > 0) std::memcpy(bigger.data(), cursor_, have);
    pending_.swap(bigger);
  } else if (have > 0 && cursor_ != pending_.data()) {
    std::memmove(pending_.data(), cursor_, have);
  }
  // The window follows every byte as it arrives, so that a failing read leaves it holding
  // exactly the bytes read so far (never a view of storage that has moved).
  char* const base = pending_.data();
  std::size_t filled = have;
  set_window(base, base + filled, 0);
  while (filled < min) {
    const std::size_t got = read_once(base + filled, min - filled);
    if (got == 0) return false;
    filled += got;
    set_window(base, base + filled, got);
  }
  return true;
}

std::size_t FdReadStream::read_direct(std::span<char> dst) {
  const std::size_t got = read_once(dst.data(), dst.size());
  add_direct_bytes(got);
  return got;
}

void FdReadStream::close_source() {
  if (ownership_ != Ownership::owned || fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  // Linux releases the descriptor even when close(2) fails, so it is never retried.
  if (::close(fd) != 0 && errno != EINTR) throw IoError::from_errno(errno, "close", name_);
}

std::optional<std::uint64_t> FdReadStream::source_remaining_hint() const {
  if (fd_ < 0) return std::nullopt;
  struct stat info {};
  if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  const off_t offset = ::lseek(fd_, 0, SEEK_CUR);  // where the next read starts
  if (offset < 0 || offset > info.st_size) return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size - offset);
}

}  // namespace bufstream
