// Fixtures shared by the stream tests: temporary files, pipes and socket pairs that clean up
// after themselves, every way of reading a text (memory, one byte per call, descriptors on a
// file and a pipe, mapped files, buffers of every tiny size over each), every way of writing
// (buffers of every tiny size into a string, a file, a pipe, a socket pair), and a counter of
// the read(2)/write(2) calls this thread makes.
#pragma once

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/atomic_file_write_stream.hpp>
#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/limited_read_stream.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>
#include <split_mix64.hpp>
#include <test_streams.hpp>

namespace bufstream::test {

[[noreturn]] inline void die(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

/// A file in the temporary directory, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(std::string_view contents = {}) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/bufstream-test-XXXXXX";
    const int fd = ::mkstemp(path_.data());
    if (fd < 0) die("mkstemp");
    ::close(fd);
    write(contents);
  }
  ~TempFile() { ::unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const noexcept { return path_; }
  void write(std::string_view contents) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc)
        .write(contents.data(), static_cast<std::streamsize>(contents.size()));
  }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::string path_;
};

/// Two connected descriptors, closed at the end unless released.
struct FdPair {
  int read_end = -1;  // for a socket pair: either end
  int write_end = -1;
  ~FdPair() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  int release_read() { return std::exchange(read_end, -1); }
  int release_write() { return std::exchange(write_end, -1); }
  void close_read() { ::close(release_read()); }
  void close_write() { ::close(release_write()); }
};

inline std::unique_ptr<FdPair> make_pipe(std::size_t capacity = 0) {
  auto p = std::make_unique<FdPair>();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) die("pipe2");
  p->read_end = fds[0];
  p->write_end = fds[1];
  if (capacity > 0 && ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(capacity)) < 0) {
    die("F_SETPIPE_SZ");
  }
  return p;
}

inline std::unique_ptr<FdPair> make_socketpair() {
  auto p = std::make_unique<FdPair>();
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) die("socketpair");
  p->read_end = fds[0];
  p->write_end = fds[1];
  return p;
}

/// Writes all of `data` to `fd` (retrying short writes), for test set-up.
inline void write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ::ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) die("write");
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// Reads `fd` to its end, for test checks.
inline std::string read_all(int fd) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ::ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) die("read");
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
  }
}

/// Counts the read(2) and write(2) calls of the calling thread (Linux task I/O accounting),
/// so that tests can say "exactly one system call" without timing anything. The cost of
/// taking a snapshot itself is measured once and subtracted.
class SyscallCounter {
 public:
  struct Counts {
    std::int64_t reads = 0;
    std::int64_t writes = 0;
  };

  SyscallCounter() {
    const Counts a = snapshot();
    const Counts b = snapshot();
    overhead_ = {b.reads - a.reads, b.writes - a.writes};
    start_ = snapshot();
  }
  /// Calls since construction or the last `reset()`, without the ones the counter made.
  Counts since() {
    const Counts now = snapshot();
    ++snapshots_;
    return {now.reads - start_.reads - snapshots_ * overhead_.reads,
            now.writes - start_.writes - snapshots_ * overhead_.writes};
  }
  void reset() {
    start_ = snapshot();
    snapshots_ = 0;
  }

  static bool available() { return ::access("/proc/thread-self/io", R_OK) == 0; }

 private:
  static Counts snapshot() {
    // Plain POSIX calls into a fixed buffer: the cost is the same every time.
    const int fd = ::open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("open /proc/thread-self/io");
    char buf[512];
    const ::ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) die("read /proc/thread-self/io");
    buf[n] = '\0';
    Counts c;
    const std::string_view text(buf, static_cast<std::size_t>(n));
    c.reads = field(text, "syscr: ");
    c.writes = field(text, "syscw: ");
    return c;
  }
  static std::int64_t field(std::string_view text, std::string_view name) {
    const std::size_t at = text.find(name);
    if (at == std::string_view::npos) return -1;
    return std::strtoll(text.data() + at + name.size(), nullptr, 10);
  }

  Counts overhead_;
  Counts start_;
  std::int64_t snapshots_ = 0;  // taken since `start_`, each costing `overhead_`
};

// ---- Every way of reading a text ------------------------------------------------------------

/// A read stream with the resources it needs (a temporary file, a writer thread): the stream
/// is destroyed first.
class OwningReader final {
 public:
  std::shared_ptr<void> keep;  // destroyed after `stream`
  std::unique_ptr<ReadStream> stream;
};

struct ReadSetup {
  std::string name;
  std::function<OwningReader(std::string_view text)> make;
};

inline OwningReader reader_over_memory(std::string_view text) {
  OwningReader r;
  r.stream = std::make_unique<MemoryReadStream>(text);
  return r;
}

/// A source that hands out one byte per read.
inline OwningReader reader_one_byte_per_read(std::string_view text) {
  OwningReader r;
  r.stream = std::make_unique<testing::ChunkedReadStream>(std::string(text), 1);
  return r;
}

inline OwningReader reader_over_file(std::string_view text) {
  auto file = std::make_shared<TempFile>(text);
  OwningReader r;
  r.stream = std::make_unique<FdReadStream>(file->path());
  r.keep = file;
  return r;
}

inline OwningReader reader_over_mapped_file(std::string_view text) {
  auto file = std::make_shared<TempFile>(text);
  OwningReader r;
  r.stream = std::make_unique<MappedFile>(file->path());
  r.keep = file;
  return r;
}

/// A pipe whose writer is a thread that writes `text` and closes its end.
inline OwningReader reader_over_pipe(std::string_view text) {
  auto pipe = make_pipe();
  struct Writer {
    std::thread thread;
    ~Writer() {
      if (thread.joinable()) thread.join();
    }
  };
  auto writer = std::make_shared<Writer>();
  const int wfd = pipe->release_write();
  writer->thread = std::thread([wfd, data = std::string(text)] {
    // If the test stops reading early, this thread's write fails with EPIPE instead of
    // raising SIGPIPE (blocked for this thread only; its pending signal dies with it).
    ::sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    try {
      write_all(wfd, data);
    } catch (...) {  // the reader went away early: the test has already failed or stopped
    }
    ::close(wfd);
  });
  OwningReader r;
  r.stream = std::make_unique<FdReadStream>(pipe->release_read(), Ownership::owned, "pipe");
  r.keep = writer;
  return r;
}

inline OwningReader buffered(OwningReader inner, std::size_t size) {
  OwningReader r;
  r.keep = inner.keep;
  r.stream = std::make_unique<BufferedReadStream>(std::move(inner.stream),
                                                  BufferOptions{.buffer_size = size});
  return r;
}

/// The text as a section of a longer stream: `source` reads "<<" + text + ">>tail", and a
/// LimitedReadStream over it, past the "<<", gives exactly the text.
inline OwningReader limited(const ReadSetup& source, std::string_view text) {
  auto framed = std::make_shared<std::string>("<<" + std::string(text) + ">>tail");
  OwningReader inner = source.make(*framed);
  inner.stream->skip(2);
  OwningReader r;
  r.keep = std::make_shared<std::pair<std::shared_ptr<void>, std::shared_ptr<std::string>>>(
      inner.keep, framed);
  r.stream = std::make_unique<LimitedReadStream>(std::move(inner.stream), text.size());
  return r;
}

/// Every stream type, and a BufferedReadStream of every tiny size over each kind of source:
/// the support library's setups (memory, one and three bytes per call, buffered over short
/// reads), descriptors on a file and a pipe, a mapped file; and a LimitedReadStream over a
/// section of each of the simple ones (see `limited`).
inline std::vector<ReadSetup> all_read_setups();

/// The sources a decorator is tested over: memory, one byte per call, a pipe, and buffers of
/// every tiny size over memory and over one byte per call.
inline std::vector<ReadSetup> decorator_sources();

inline std::vector<ReadSetup> all_read_setups() {
  std::vector<ReadSetup> setups;
  for (auto& s : testing::reader_setups()) {
    setups.push_back({s.name, [make = s.make](std::string_view t) {
                        OwningReader r;
                        r.stream = make(t);
                        return r;
                      }});
  }
  setups.push_back({"fd_file", reader_over_file});
  setups.push_back({"fd_pipe", reader_over_pipe});
  setups.push_back({"mapped_file", reader_over_mapped_file});
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    const std::string n = std::to_string(size);
    setups.push_back({"buffered" + n + "_memory", [size](std::string_view t) {
                        return buffered(reader_over_memory(t), size);
                      }});
    setups.push_back({"buffered" + n + "_chunked1", [size](std::string_view t) {
                        return buffered(reader_one_byte_per_read(t), size);
                      }});
    setups.push_back({"buffered" + n + "_fd_file",
                      [size](std::string_view t) { return buffered(reader_over_file(t), size); }});
    setups.push_back({"buffered" + n + "_fd_pipe",
                      [size](std::string_view t) { return buffered(reader_over_pipe(t), size); }});
    setups.push_back({"buffered" + n + "_mapped_file", [size](std::string_view t) {
                        return buffered(reader_over_mapped_file(t), size);
                      }});
  }
  for (const ReadSetup& source : decorator_sources()) {
    setups.push_back(
        {"limited_" + source.name, [source](std::string_view t) { return limited(source, t); }});
  }
  return setups;
}

inline std::vector<ReadSetup> decorator_sources() {
  std::vector<ReadSetup> sources{{"memory", reader_over_memory},
                                 {"chunked1", reader_one_byte_per_read},
                                 {"fd_pipe", reader_over_pipe}};
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    const std::string n = std::to_string(size);
    sources.push_back({"buffered" + n + "_memory", [size](std::string_view t) {
                         return buffered(reader_over_memory(t), size);
                       }});
    sources.push_back({"buffered" + n + "_chunked1", [size](std::string_view t) {
                         return buffered(reader_one_byte_per_read(t), size);
                       }});
  }
  return sources;
}

inline std::string setup_name(const ::testing::TestParamInfo<ReadSetup>& info) {
  return info.param.name;
}
inline void PrintTo(const ReadSetup& setup, std::ostream* os) { *os << setup.name; }

/// A test over every read setup (instantiate it with all_read_setups()): `open` gives a stream
/// of the setup's kind over a text, which lives as long as the test.
class ReadSetupTest : public ::testing::TestWithParam<ReadSetup> {
 protected:
  OwningReader open(std::string_view text) {
    texts_.push_back(std::make_unique<std::string>(text));
    return GetParam().make(*texts_.back());
  }

 private:
  std::vector<std::unique_ptr<std::string>> texts_;
};

// ---- Every way of writing -------------------------------------------------------------------

/// A write stream under test and the place its bytes end up.
class WriteTarget {
 public:
  virtual ~WriteTarget() = default;
  /// The stream the test writes to.
  virtual WriteStream& stream() = 0;
  /// Closes the stream and returns every byte that reached the final sink.
  virtual std::string finish() = 0;
};

struct WriteSetup {
  std::string name;
  std::function<std::unique_ptr<WriteTarget>()> make;
};

inline std::string write_setup_name(const ::testing::TestParamInfo<WriteSetup>& info) {
  return info.param.name;
}
inline void PrintTo(const WriteSetup& setup, std::ostream* os) { *os << setup.name; }

/// A sink, optionally behind a BufferedWriteStream.
template <class Sink>
class LayeredTarget final : public WriteTarget {
 public:
  LayeredTarget(std::unique_ptr<Sink> sink, std::size_t buffer_size,
                std::function<std::string(Sink&)> collect)
      : sink_(std::move(sink)), collect_(std::move(collect)) {
    if (buffer_size > 0) {
      buffered_ =
          std::make_unique<BufferedWriteStream>(*sink_, BufferOptions{.buffer_size = buffer_size});
    }
  }
  WriteStream& stream() override {
    return buffered_ ? static_cast<WriteStream&>(*buffered_) : *sink_;
  }
  std::string finish() override {
    stream().close();
    if (!sink_->is_closed()) sink_->close();
    return collect_(*sink_);
  }

 private:
  std::unique_ptr<Sink> sink_;
  std::unique_ptr<BufferedWriteStream> buffered_;
  std::function<std::string(Sink&)> collect_;
};

/// A descriptor write stream into a pipe or socket whose other end a thread drains.
class DrainedFdTarget final : public WriteTarget {
 public:
  DrainedFdTarget(std::unique_ptr<FdPair> pair, std::size_t buffer_size) : pair_(std::move(pair)) {
    const int rfd = pair_->read_end;
    reader_ = std::thread([this, rfd] { received_ = read_all(rfd); });
    fd_stream_ = std::make_unique<FdWriteStream>(pair_->release_write(), Ownership::owned, "peer");
    if (buffer_size > 0) {
      buffered_ = std::make_unique<BufferedWriteStream>(*fd_stream_,
                                                        BufferOptions{.buffer_size = buffer_size});
    }
  }
  ~DrainedFdTarget() override {
    buffered_.reset();
    fd_stream_.reset();  // closes the write end, so the reader sees the end
    if (reader_.joinable()) reader_.join();
  }
  WriteStream& stream() override {
    return buffered_ ? static_cast<WriteStream&>(*buffered_) : *fd_stream_;
  }
  std::string finish() override {
    stream().close();
    if (!fd_stream_->is_closed()) fd_stream_->close();
    reader_.join();
    return received_;
  }

 private:
  std::unique_ptr<FdPair> pair_;
  std::thread reader_;
  std::string received_;
  std::unique_ptr<FdWriteStream> fd_stream_;
  std::unique_ptr<BufferedWriteStream> buffered_;
};

/// Every way a writer must be tested: straight into a string, a file (written in place or
/// replaced atomically), a pipe and a socket pair,
/// into sinks that write short and are interrupted, and through a BufferedWriteStream of every
/// tiny size into each.
inline std::vector<WriteSetup> all_write_setups() {
  std::vector<WriteSetup> setups;
  std::vector<std::size_t> sizes{0};  // 0: no buffer
  for (std::size_t s : testing::tiny_buffer_sizes()) sizes.push_back(s);
  for (std::size_t size : sizes) {
    const std::string prefix = size == 0 ? std::string() : "buffered" + std::to_string(size) + "_";
    setups.push_back({prefix + "string", [size] {
                        return std::make_unique<LayeredTarget<StringWriteStream>>(
                            std::make_unique<StringWriteStream>(), size,
                            [](StringWriteStream& s) { return std::string(s.view()); });
                      }});
    setups.push_back({prefix + "fd_file", [size]() -> std::unique_ptr<WriteTarget> {
                        auto file = std::make_shared<TempFile>();
                        return std::make_unique<LayeredTarget<FdWriteStream>>(
                            std::make_unique<FdWriteStream>(file->path()), size,
                            [file](FdWriteStream&) { return file->read(); });
                      }});
    setups.push_back({prefix + "atomic_file", [size]() -> std::unique_ptr<WriteTarget> {
                        auto file = std::make_shared<TempFile>("old content");
                        return std::make_unique<LayeredTarget<AtomicFileWriteStream>>(
                            std::make_unique<AtomicFileWriteStream>(file->path()), size,
                            [file](AtomicFileWriteStream&) { return file->read(); });
                      }});
    setups.push_back({prefix + "fd_pipe",
                      [size] { return std::make_unique<DrainedFdTarget>(make_pipe(), size); }});
    setups.push_back({prefix + "socketpair", [size] {
                        return std::make_unique<DrainedFdTarget>(make_socketpair(), size);
                      }});
    setups.push_back({prefix + "short_interrupted", [size] {
                        return std::make_unique<LayeredTarget<testing::FaultyWriteStream>>(
                            std::make_unique<testing::FaultyWriteStream>(
                                testing::Faults{.max_per_call = 3, .interrupt_every = 2}),
                            size, [](testing::FaultyWriteStream& s) { return s.written(); });
                      }});
  }
  return setups;
}

inline std::string random_bytes(std::size_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng.next() & 0xFF);
  return s;
}

}  // namespace bufstream::test
