#include "harness/file_utils.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "harness/stopwatch.hpp"

namespace bufstream::bench {

void io_failed(const char* what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), std::string(what) + " " + path.string());
}

StdioFile open_stdio(const std::filesystem::path& path, const char* mode) {
  StdioFile f(std::fopen(path.c_str(), mode));
  if (!f) io_failed("open", path);
  return f;
}

void close_stdio(StdioFile f, const std::filesystem::path& path) {
  const bool failed = std::ferror(f.get()) != 0;
  if (std::fclose(f.release()) != 0 || failed) io_failed("write", path);
}

namespace {

class Fd {
 public:
  Fd(const std::filesystem::path& path, int flags)
      : fd_(::open(path.c_str(), flags | O_CLOEXEC, 0644)) {
    if (fd_ < 0) io_failed("open", path);
  }
  ~Fd() { ::close(fd_); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_file(const std::filesystem::path& path) {
  Fd fd(path, O_RDONLY);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) io_failed("stat", path);
  // One read(2) of the size the file has; more only if it grew meanwhile.
  std::string bytes(static_cast<std::size_t>(info.st_size) + 1, '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == bytes.size()) bytes.resize(bytes.size() * 2);
    const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_failed("read", path);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) io_failed("open", path);
  while (!bytes.empty()) {  // one write(2) unless the kernel takes less
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      io_failed("write", path);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) io_failed("close", path);
}

std::uint64_t size_of_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) io_failed("stat", path);
  return static_cast<std::uint64_t>(info.st_size);
}

void start_on_new_files(Stopwatch& watch, std::initializer_list<std::filesystem::path> outputs) {
  for (const std::filesystem::path& out : outputs) std::filesystem::remove(out);
  watch.start();
}

}  // namespace bufstream::bench
