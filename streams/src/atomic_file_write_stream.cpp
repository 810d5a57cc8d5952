#include <bufstream/atomic_file_write_stream.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <random>
#include <system_error>

namespace bufstream {

namespace {

// The file a path names, with symbolic links followed (each link's target read relative to
// the link's directory). A link to nothing resolves to where the file would be created.
std::filesystem::path resolve_links(const std::filesystem::path& path) {
  std::filesystem::path p = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit (ELOOP) is 40
    std::error_code ec;
    if (!std::filesystem::is_symlink(p, ec)) return p;
    const std::filesystem::path link = std::filesystem::read_symlink(p, ec);
    if (ec) throw IoError(ec, "readlink", path.string());
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
  throw IoError(std::make_error_code(std::errc::too_many_symbolic_link_levels), "open",
                path.string());
}

// A name no other file in the directory has yet: ".NAME.tmp-" and random letters. The leading
// dot keeps it out of `ls` and shell globs while it exists.
std::string temporary_name(const std::filesystem::path& target) {
  static constexpr char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::minstd_rand random(std::random_device{}());
  std::string name = "." + target.filename().string() + ".tmp-";
  for (int i = 0; i < 8; ++i) name += letters[random() % (sizeof letters - 1)];
  return (target.parent_path() / name).string();
}

// Creates the temporary file beside `target` with the permissions the new version must have
// and returns its descriptor; sets `temporary` to its path.
int create_temporary(const std::filesystem::path& target, ::mode_t permissions,
                     std::string& temporary) {
  struct ::stat old {};
  const bool replacing = ::stat(target.c_str(), &old) == 0;
  if (!replacing && errno != ENOENT) throw IoError::from_errno(errno, "stat", target.string());
  if (replacing && !S_ISREG(old.st_mode)) {
    throw IoError(std::make_error_code(S_ISDIR(old.st_mode) ? std::errc::is_a_directory
                                                            : std::errc::operation_not_supported),
                  "replace (not a regular file)", target.string());
  }
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temporary = temporary_name(target);
    // A new file gets `permissions` less the umask from the kernel, as open(2) gives it; a
    // replacement starts private and gets the old file's bits below.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                replacing ? 0600 : permissions);
    if (fd < 0 && !((errno == EEXIST && attempt < 100) || errno == EINTR)) {
      const int error = errno;
      temporary.clear();
      throw IoError::from_errno(error, "open", target.string());  // what the user asked for
    }
  }
  if (replacing) {
    ::mode_t mode = old.st_mode & 07777;
    if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) &&
        ::fchown(fd, old.st_uid, old.st_gid) != 0) {
      mode &= ~static_cast<::mode_t>(S_ISUID | S_ISGID);  // never grant them to another owner
    }
    if (::fchmod(fd, mode) != 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      temporary.clear();
      throw IoError::from_errno(error, "chmod the temporary file for", target.string());
    }
  }
  return fd;
}

}  // namespace

AtomicFileWriteStream::AtomicFileWriteStream(const std::filesystem::path& path,
                                             ::mode_t permissions)
    : target_(resolve_links(path)),
      fd_(create_temporary(target_, permissions, temporary_)),
      file_(fd_, Ownership::borrowed, path.string()),
      exceptions_at_start_(std::uncaught_exceptions()) {}

AtomicFileWriteStream::~AtomicFileWriteStream() {
  if (temporary_.empty()) return;  // committed or discarded
  const bool abandoned = failed() || std::uncaught_exceptions() > exceptions_at_start_;
  remove_temporary();
  if (!abandoned) {
    get_lost_data_handler()("AtomicFileWriteStream destroyed without close(): " + target_.string() +
                            " was left unchanged and the new content was dropped");
  }
}

void AtomicFileWriteStream::discard() noexcept {
  if (temporary_.empty()) return;
  remove_temporary();
  try {
    close();  // closes the window: later writes throw; close_sink finds nothing to commit
  } catch (...) {
  }
}

void AtomicFileWriteStream::remove_temporary() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_.c_str());
  temporary_.clear();
}

void AtomicFileWriteStream::write_slow(const char* data, std::size_t n) {
  throw_if_unusable();
  try {
    file_.write(data, n);
  } catch (const IoError& e) {
    fail(e);
  }
  add_direct_bytes(n);
}

void AtomicFileWriteStream::fail_commit(int errno_value, const char* operation) {
  remove_temporary();
  throw IoError::from_errno(errno_value, operation, target_.string());
}

void AtomicFileWriteStream::close_sink() {
  if (temporary_.empty()) return;  // discarded
  if (failed()) {                  // a write failed: the new version is incomplete
    remove_temporary();
    return;
  }
  if (::fsync(fd_) != 0) fail_commit(errno, "fsync");
  const int fd = fd_;
  fd_ = -1;
  // Linux releases the descriptor even when close(2) fails, so it is never retried.
  if (::close(fd) != 0 && errno != EINTR) fail_commit(errno, "close");
  if (::rename(temporary_.c_str(), target_.c_str()) != 0)
    fail_commit(errno, "rename a temporary file over");
  temporary_.clear();
  // The rename is durable once the directory is: without this, a crash could bring back the
  // old version after the program reported success. File systems that cannot sync a
  // directory say EINVAL; there is nothing more to do on those.
  const std::filesystem::path dir = target_.has_parent_path() ? target_.parent_path() : ".";
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) throw IoError::from_errno(errno, "open the directory of", target_.string());
  const int synced = ::fsync(dir_fd) == 0 ? 0 : errno;
  ::close(dir_fd);
  if (synced != 0 && synced != EINVAL)
    throw IoError::from_errno(synced, "fsync the directory of", target_.string());
}

}  // namespace bufstream
