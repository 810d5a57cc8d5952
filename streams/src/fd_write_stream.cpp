#include <bufstream/fd_write_stream.hpp>

#include <fcntl.h>
#include <sys/socket.h>
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

int open_flags(OpenOptions::Mode mode) {
  switch (mode) {
    case OpenOptions::Mode::append: return O_APPEND;
    case OpenOptions::Mode::create_new: return O_EXCL;
    case OpenOptions::Mode::truncate: break;
  }
  return O_TRUNC;
}

}  // namespace

FdWriteStream::FdWriteStream(int fd, Ownership ownership, std::string name)
    : fd_(fd), ownership_(ownership), name_(descriptor_name(fd, std::move(name))) {}

FdWriteStream::FdWriteStream(const std::filesystem::path& path, OpenOptions options)
    : fd_(-1), ownership_(Ownership::owned), name_(path.string()) {
  do {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | open_flags(options.mode),
                 options.permissions);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) throw IoError::from_errno(errno, "open", name_);
}

FdWriteStream::~FdWriteStream() {
  if (ownership_ != Ownership::owned || fd_ <= 2) return;
  // Nothing is buffered here, but a file system may report a delayed write error at close.
  // A stream whose failure the caller has already seen has nothing more to report.
  if (::close(fd_) != 0 && errno != EINTR && !failed()) {
    const std::string reason = std::string("close ") + name_ + ": " + std::strerror(errno);
    get_lost_data_handler()(reason);
  }
}

void FdWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  if (is_socket_ < 0) {
    struct ::stat st {};
    is_socket_ = ::fstat(fd_, &st) == 0 && S_ISSOCK(st.st_mode) ? 1 : 0;
  }
  while (n > 0) {
    const ::ssize_t put = is_socket_ ? ::send(fd_, data, n, MSG_NOSIGNAL) : ::write(fd_, data, n);
    if (put < 0) {
      if (errno == EINTR) continue;
      fail(IoError::from_errno(errno, "write", name_));
    }
    if (put == 0)
      fail(IoError(std::make_error_code(std::errc::io_error), "write (no progress)", name_));
    add_direct_bytes(static_cast<std::size_t>(put));
    data += put;
    n -= static_cast<std::size_t>(put);
  }
}

void FdWriteStream::close_sink() {
  if (ownership_ != Ownership::owned || fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  // Linux releases the descriptor even when close(2) fails, so it is never retried.
  if (::close(fd) != 0 && errno != EINTR) fail(IoError::from_errno(errno, "close", name_));
}

}  // namespace bufstream
