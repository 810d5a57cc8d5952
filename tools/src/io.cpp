#include "io.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <bufstream/atomic_file_write_stream.hpp>

namespace bufstream::cli {

namespace {

bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

std::string human_bytes(std::uint64_t n) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(n);
  std::size_t u = 0;
  while (v >= 1000 && u + 1 < std::size(units)) {
    v /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return text;
}

// Passes reads through to the descriptor stream and shows on standard error how far it is: at
// the first read, then every quarter of a second. One check per buffer refill: nothing per byte.
class ProgressReadStream final : public ReadStream {
 public:
  ProgressReadStream(std::unique_ptr<ReadStream> source, std::uint64_t total)
      : source_(std::move(source)), line_(total) {}

 protected:
  bool refill(std::size_t min) override {
    // Only a caller that reads this stream directly gets here; BufferedReadStream uses
    // read_direct. Keep what is left and read until `min` bytes are there.
    const auto have = static_cast<std::size_t>(limit_ - cursor_);
    std::string next(cursor_, have);
    next.resize(std::max(min, std::size_t{4096}));
    std::size_t filled = have;
    while (filled < min) {
      const std::size_t n = source_->read_some({next.data() + filled, next.size() - filled});
      if (n == 0) break;
      filled += n;
      line_.advance(n);
    }
    window_.swap(next);
    set_window(window_.data(), window_.data() + filled, filled - have);
    return filled >= min;
  }

  std::size_t read_direct(std::span<char> dst) override {
    const std::size_t n = source_->read_some(dst);
    add_direct_bytes(n);
    line_.advance(n);
    return n;
  }

  void close_source() override { source_->close(); }

 private:
  std::unique_ptr<ReadStream> source_;
  ProgressLine line_;
  std::string window_;
};

// Progress is worth showing for large regular files read by a person at a terminal.
constexpr std::uint64_t progress_threshold = 32 * 1000 * 1000;

bool shows_progress(std::uint64_t size) {
  return ::isatty(STDERR_FILENO) && size >= progress_threshold;
}

}  // namespace

ProgressLine::ProgressLine(std::uint64_t total)
    : total_(total), last_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

// At the first call (so that every long run shows some, however fast the machine) and then at
// most every quarter of a second.
void ProgressLine::advance(std::uint64_t n) {
  done_ += n;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[Kbufstream: %s of %s (%.0f%%)", human_bytes(done_).c_str(),
               human_bytes(total_).c_str(),
               total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0);
}

Input::Input(const std::string& path) : name_(is_stdio(path) ? "<stdin>" : path) {
  std::unique_ptr<FdReadStream> fd;
  if (is_stdio(path)) {
    fd = std::make_unique<FdReadStream>(STDIN_FILENO, Ownership::borrowed, name_);
  } else {
    fd = std::make_unique<FdReadStream>(std::filesystem::path(path));
  }
  struct ::stat st {};
  if (::fstat(fd->fd(), &st) == 0 && S_ISREG(st.st_mode) && !is_stdio(path)) {
    regular_size_ = static_cast<std::uint64_t>(st.st_size);
  }
  if (::fstat(fd->fd(), &st) == 0 && S_ISREG(st.st_mode) &&
      shows_progress(static_cast<std::uint64_t>(st.st_size))) {
    source_ =
        std::make_unique<ProgressReadStream>(std::move(fd), static_cast<std::uint64_t>(st.st_size));
  } else {
    source_ = std::move(fd);
  }
  buffered_ = std::make_unique<BufferedReadStream>(*source_);
  compression_ = detect_compression(*buffered_);
  if (compression_ != Compression::none)
    decompressed_ = decompressing(*buffered_, compression_, name_);
}

Input::~Input() = default;

std::optional<std::string> Input::parallel_path() const {
  if (!regular_size_ || decompressed_ || decoded_) return std::nullopt;
  return name_;
}

std::unique_ptr<ProgressLine> Input::parallel_progress() const {
  if (!regular_size_ || !shows_progress(*regular_size_)) return nullptr;
  return std::make_unique<ProgressLine>(*regular_size_);
}

void Input::read_as(std::optional<Encoding> encoding) {
  if (!encoding) {
    // Only a byte that can start a UTF-16 or UTF-32 mark (FF, FE, 00) makes it look further.
    std::string_view start = text().fill(1);
    if (start.empty()) return;
    const auto first = static_cast<unsigned char>(start[0]);
    if (first != 0xFF && first != 0xFE && first != 0x00) return;
    start = text().fill(4);
    const std::optional<DetectedBom> mark = detect_bom(start);
    if (!mark || mark->encoding == Encoding::utf8) return;
    decoded_ = std::make_unique<DecodingReadStream>(
        text(), DecodingOptions{.encoding = mark->encoding, .source_name = name_});
    return;
  }
  if (*encoding == Encoding::utf8) return;  // the formats read UTF-8 and skip its mark
  decoded_ = std::make_unique<DecodingReadStream>(
      text(), DecodingOptions{.encoding = *encoding, .bom = BomPolicy::skip, .source_name = name_});
}

namespace {

// ---- The temporary file and the signals that end the program ------------------------------
//
// A signal that ends the program skips every destructor, so the temporary file of a named
// output is removed by the signal handler itself: it unlinks the path recorded here (in a
// plain array, which a handler may read) and then lets the signal end the program as it would
// have. Signals are blocked while the path is recorded, committed or dropped, so the handler
// never sees a half-written path or a file that has just been renamed into place.

char pending_temporary[4096];
volatile std::sig_atomic_t has_pending_temporary = 0;

constexpr int ending_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};

extern "C" void remove_temporary_and_die(int signal) {
  if (has_pending_temporary) ::unlink(pending_temporary);
  // SA_RESETHAND restored the default action; raised again, the signal ends the program when
  // this handler returns (it is blocked until then), with the status a shell expects.
  std::raise(signal);
}

void install_signal_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (const int signal : ending_signals) {
    struct ::sigaction old {};
    // A signal the program was started with ignored (nohup, a background job) stays ignored.
    if (::sigaction(signal, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct ::sigaction action {};
    action.sa_handler = remove_temporary_and_die;
    action.sa_flags = static_cast<int>(SA_RESETHAND);
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

// Blocks the ending signals for its lifetime; one that comes meanwhile is delivered after.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : ending_signals) sigaddset(&set, signal);
    ::sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsBlocked() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

void record_pending_temporary(const std::string& path) {
  if (path.size() >= sizeof pending_temporary) return;  // cannot be, for a path open(2) took
  std::memcpy(pending_temporary, path.c_str(), path.size() + 1);
  has_pending_temporary = 1;
}

// A named output is replaced atomically unless it is something other than a regular file
// (a device, a named pipe), which is written as it is.
bool replace_atomically(const std::string& path) {
  struct ::stat st {};
  return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

}  // namespace

Output::Output(const std::string& path, bool flush_each)
    : name_(is_stdio(path) ? "<stdout>" : path), flush_each_(flush_each) {
  // Standard output is never compressed: it has no name to ask for it.
  const Compression compression = is_stdio(path) ? Compression::none : compression_from_name(path);
  require_support(compression, name_);  // before any file is made
  if (is_stdio(path)) {
    sink_ = std::make_unique<FdWriteStream>(STDOUT_FILENO, Ownership::borrowed, name_);
  } else if (replace_atomically(path)) {
    install_signal_handlers();
    const SignalsBlocked blocked;
    auto file = std::make_unique<AtomicFileWriteStream>(std::filesystem::path(path));
    record_pending_temporary(file->temporary_path());
    sink_ = std::move(file);
  } else {
    sink_ = std::make_unique<FdWriteStream>(std::filesystem::path(path));
  }
  buffered_ = std::make_unique<BufferedWriteStream>(*sink_);
  // The compressor writes straight into the buffer's window, which goes out in large writes.
  if (compression != Compression::none) compressed_ = compressing(*buffered_, compression, name_);
}

void Output::write_as(Encoding encoding, bool bom) {
  encoded_ = std::make_unique<EncodingWriteStream>(
      bytes(), EncodingOptions{.encoding = encoding, .bom = bom, .sink_name = name_});
}

Output::~Output() {
  const SignalsBlocked blocked;
  encoded_.reset();
  compressed_.reset();  // ends its member or frame into the buffer; the file is then dropped
  buffered_.reset();
  sink_.reset();  // an AtomicFileWriteStream not committed removes its temporary file
  has_pending_temporary = 0;
}

void Output::finish() {
  const SignalsBlocked blocked;
  try {
    if (encoded_) encoded_->close();  // into the bytes, which it does not own
    // The compressor writes its trailer, then closes the buffer, which closes the sink: a
    // named file is renamed into place only then.
    bytes().close();
  } catch (...) {
    has_pending_temporary = 0;  // a commit that fails removes the temporary file itself
    throw;
  }
  has_pending_temporary = 0;
}

}  // namespace bufstream::cli
