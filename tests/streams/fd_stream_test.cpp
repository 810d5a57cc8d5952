// FdReadStream and FdWriteStream: one system call per protocol operation (counted with the
// kernel's per-thread I/O accounting, not timed), ownership and the standard descriptors,
// O_CLOEXEC, opening paths, and EINTR and short transfers on real descriptors.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/utf8.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using test::SyscallCounter;

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

std::size_t bytes_waiting(int fd) {
  int n = 0;
  if (::ioctl(fd, FIONREAD, &n) != 0) test::die("FIONREAD");
  return static_cast<std::size_t>(n);
}

// ---- One system call per operation ------------------------------------------------------------

/// Counts read(2)/write(2) calls between the marks a test body sets. The body runs twice, and
/// only the second run counts: sanitizer runtimes make system calls of their own the first time
/// a code path runs. Counts are compared once at the end, so that a failure message (itself a
/// write) cannot shift the counts that follow it.
class Recorder {
 public:
  void start() {
    counter_.reset();
    reads_.clear();
    writes_.clear();
  }
  void mark() {
    const auto c = counter_.since();
    reads_.push_back(c.reads);
    writes_.push_back(c.writes);
  }
  const std::vector<std::int64_t>& reads() const { return reads_; }
  const std::vector<std::int64_t>& writes() const { return writes_; }

 private:
  SyscallCounter counter_;
  std::vector<std::int64_t> reads_;
  std::vector<std::int64_t> writes_;
};

template <class Body>
Recorder counted(Body body) {
  {
    Recorder warm_up;
    body(warm_up);
  }
  Recorder r;
  body(r);
  return r;
}

using Counts = std::vector<std::int64_t>;

TEST(FdReadStream, EveryOperationIsOneReadAndNeverReadsAhead) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  std::vector<std::size_t> waiting;  // bytes left in the pipe after some operations
  const Recorder r = counted([&](Recorder& rec) {
    waiting.clear();
    auto pipe = test::make_pipe();
    test::write_all(pipe->write_end, "abcdefghij\nklm,nop");
    FdReadStream in(pipe->read_end);
    char buf[4];
    rec.start();
    EXPECT_EQ(in.next(), 'a');
    rec.mark();                                        // 1
    waiting.push_back(bytes_waiting(pipe->read_end));  // ioctl(2): not counted
    EXPECT_EQ(in.peek(), 'b');
    rec.mark();                 // 2
    EXPECT_EQ(in.next(), 'b');  // the peeked byte
    rec.mark();                 // 2
    EXPECT_FALSE(in.peek_for('x'));
    rec.mark();  // 3
    EXPECT_TRUE(in.peek_for('c'));
    rec.mark();  // 3
    EXPECT_EQ(in.next(3), "def");
    rec.mark();  // 4
    EXPECT_EQ(in.read_into(buf), 4u);
    EXPECT_EQ(std::string(buf, 4), "ghij");
    rec.mark();  // 5
    EXPECT_EQ(in.fill(3), "\nkl");
    rec.mark();  // 6
    in.advance(3);
    EXPECT_EQ(in.skip(2), 2u);                         // "m,"
    rec.mark();                                        // 7
    EXPECT_EQ(in.next_int<std::uint16_t>(), 0x6e6fu);  // "no"
    rec.mark();                                        // 8
    waiting.push_back(bytes_waiting(pipe->read_end));
  });
  EXPECT_EQ(r.reads(), (Counts{1, 2, 2, 3, 3, 4, 5, 6, 7, 8}));
  // Exactly the bytes asked for were taken from the pipe: an unbuffered stream never reads ahead.
  EXPECT_EQ(waiting, (std::vector<std::size_t>{17, 1}));
}

TEST(FdReadStream, ByteAtATimeOperationsCostOneReadPerByte) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  std::vector<std::size_t> waiting;
  const Recorder r = counted([&](Recorder& rec) {
    waiting.clear();
    auto pipe = test::make_pipe();
    test::write_all(pipe->write_end, "key=value\nrest");
    FdReadStream in(pipe->read_end);
    rec.start();
    EXPECT_EQ(in.up_to('='), "key");
    rec.mark();
    waiting.push_back(bytes_waiting(pipe->read_end));
    EXPECT_EQ(in.next_line(), "value");
    rec.mark();
    waiting.push_back(bytes_waiting(pipe->read_end));
  });
  EXPECT_EQ(r.reads(), (Counts{4, 10}));                  // one per byte of "key=" and of "value\n"
  EXPECT_EQ(waiting, (std::vector<std::size_t>{10, 4}));  // nothing beyond the delimiter was read
}

TEST(FdReadStream, SkipBomDecidesOnTheFirstByteWhenItCan) {
  // Only "ab" has arrived: skip_bom must not wait for a third byte that may never come.
  auto pipe = test::make_pipe();
  test::write_all(pipe->write_end, "ab");
  FdReadStream in(pipe->read_end);
  EXPECT_FALSE(utf8::skip_bom(in));
  EXPECT_EQ(bytes_waiting(pipe->read_end), 1u);
  EXPECT_EQ(in.next(), 'a');
}

TEST(FdReadStream, BufferedReadsTheDescriptorOncePerBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  const std::string text = test::random_bytes(100000, 1);
  test::TempFile file(text);
  const Recorder r = counted([&](Recorder& rec) {
    FdReadStream fd(file.path());
    BufferedReadStream in(fd, {.buffer_size = 1000});
    std::string got;
    rec.start();
    while (auto c = in.next()) got += *c;
    rec.mark();
    EXPECT_EQ(got, text);
  });
  EXPECT_EQ(r.reads(), (Counts{101}));  // 100 full buffers and the read that finds the end
}

TEST(FdReadStream, LargeReadsBypassTheBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  const std::string text = test::random_bytes(100000, 2);
  test::TempFile file(text);
  const Recorder r = counted([&](Recorder& rec) {
    FdReadStream fd(file.path());
    BufferedReadStream in(fd, {.buffer_size = 1000});
    std::string big(50000, '\0');
    char small[400];
    EXPECT_EQ(in.next(), text[0]);  // fills the buffer: one read of 1000 bytes
    rec.start();
    EXPECT_EQ(in.read_into(big), big.size());
    rec.mark();
    // 999 bytes from the buffer, the other 49,001 with one read straight into `big`.
    EXPECT_EQ(big, text.substr(1, 50000));
    EXPECT_TRUE(in.buffered().empty());
    EXPECT_EQ(in.read_into(small), sizeof small);  // not more than half the buffer: buffered
    rec.mark();
    EXPECT_EQ(in.buffered().size(), 600u);
  });
  EXPECT_EQ(r.reads(), (Counts{1, 2}));
}

TEST(FdWriteStream, EveryOperationIsOneWrite) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  test::TempFile file;
  const Recorder r = counted([&](Recorder& rec) {
    FdWriteStream out(file.path());
    std::string big(300000, 'z');
    rec.start();
    out.put('a');
    rec.mark();  // 1
    out.write("bcd");
    rec.mark();  // 2
    out.print(-12345);
    rec.mark();  // 3
    out.print(0.25);
    rec.mark();  // 4
    out.crlf();
    rec.mark();  // 5
    out.put_int<std::uint32_t>(0x41424344);
    rec.mark();  // 6
    char* p = out.reserve(10);
    std::memcpy(p, "0123456789", 10);
    out.commit(4);
    rec.mark();                   // 7
    p = out.reserve(big.size());  // far more than any buffer
    std::memcpy(p, big.data(), big.size());
    out.commit(big.size());
    rec.mark();  // 8
    out.flush();
    rec.mark();  // 8
    out.close();
    EXPECT_EQ(file.read(), "abcd-123450.25\r\nABCD0123" + big);
  });
  EXPECT_EQ(r.writes(), (Counts{1, 2, 3, 4, 5, 6, 7, 8, 8}));
}

TEST(FdWriteStream, BufferedWritesTheDescriptorOncePerBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  test::TempFile file;
  const Recorder r = counted([&](Recorder& rec) {
    FdWriteStream fd(file.path());
    BufferedWriteStream out(fd, {.buffer_size = 1000});
    const std::string large(600, 'L');
    const std::string small(400, 'S');
    rec.start();
    for (int i = 0; i < 10000; ++i) out.put(static_cast<char>('a' + i % 26));
    rec.mark();  // 9: the tenth buffer is full but not yet written
    out.put('!');
    rec.mark();        // 10
    out.write(large);  // more than half the buffer: drain, then one write
    rec.mark();        // 12
    out.write(small);  // not more than half: buffered
    rec.mark();        // 12
    out.close();
    rec.mark();  // 13
    EXPECT_EQ(file.read().size(), 11001u);
  });
  EXPECT_EQ(r.writes(), (Counts{9, 10, 12, 12, 13}));
}

TEST(FdReadStream, ReadFailingInTheMiddleOfAFillKeepsWhatItRead) {
  // A socket with a receive timeout: once its bytes are read, the next read fails (EAGAIN)
  // instead of waiting. The timeout is a way to make a read fail, not something measured.
  auto pair = test::make_socketpair();
  const ::timeval timeout{0, 1000};
  ASSERT_EQ(::setsockopt(pair->read_end, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout), 0);
  test::write_all(pair->write_end, "abc");
  FdReadStream in(pair->read_end);
  EXPECT_EQ(in.peek(), 'a');  // the window holds one byte
  try {
    (void)in.fill(100);  // reads "bc", then fails: the window's storage was replaced meanwhile
    FAIL() << "fill(100) succeeded on three bytes";
  } catch (const IoError& e) {
    EXPECT_TRUE(e.code() == std::errc::resource_unavailable_try_again ||
                e.code() == std::errc::operation_would_block)
        << e.what();
  }
  EXPECT_TRUE(in.failed());
  EXPECT_EQ(in.buffered(), "abc");  // exactly what was read, in valid storage
  EXPECT_EQ(in.position(), 0u);
  EXPECT_EQ(in.next(), 'a');
  in.advance(2);
  EXPECT_THROW((void)in.next(), IoError);  // then the failure, again
}

// ---- Descriptors ------------------------------------------------------------------------------

TEST(FdStreams, OpenedFilesAreCloseOnExec) {
  test::TempFile file("x");
  FdReadStream in(file.path());
  EXPECT_NE(::fcntl(in.fd(), F_GETFD) & FD_CLOEXEC, 0);
  FdWriteStream out(file.path(), {.mode = OpenOptions::Mode::append});
  EXPECT_NE(::fcntl(out.fd(), F_GETFD) & FD_CLOEXEC, 0);
}

TEST(FdStreams, OpeningAMissingPathNamesThePath) {
  const std::string missing = "/nonexistent-dir-for-bufstream/missing.txt";
  try {
    FdReadStream in{std::filesystem::path(missing)};
    FAIL() << "opened a missing file";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_EQ(e.path(), missing);
    EXPECT_EQ(e.operation(), "open");
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  try {
    FdWriteStream out{std::filesystem::path(missing)};
    FAIL() << "created a file in a missing directory";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

TEST(FdStreams, OpenModes) {
  test::TempFile file("old contents");
  {
    FdWriteStream out(file.path(), {.mode = OpenOptions::Mode::append});
    out.write(" + more");
    out.close();
  }
  EXPECT_EQ(file.read(), "old contents + more");
  {
    FdWriteStream out(file.path());  // truncates
    out.write("new");
    out.close();
  }
  EXPECT_EQ(file.read(), "new");
  EXPECT_THROW(FdWriteStream(file.path(), {.mode = OpenOptions::Mode::create_new}), IoError);
  const std::string fresh = file.path() + ".new";
  {
    FdWriteStream out(fresh, {.mode = OpenOptions::Mode::create_new, .permissions = 0600});
    out.write("fresh");
    out.close();
  }
  struct ::stat st {};
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u);
  ::unlink(fresh.c_str());
}

TEST(FdStreams, OwnedDescriptorsAreClosedBorrowedOnesAreNot) {
  auto pipe = test::make_pipe();
  const int r = pipe->release_read();
  const int w = pipe->release_write();
  {
    FdReadStream borrowed(r);
    FdWriteStream borrowed_out(w, Ownership::borrowed);
  }
  EXPECT_TRUE(is_open(r));
  EXPECT_TRUE(is_open(w));
  { FdReadStream owned(r, Ownership::owned); }
  EXPECT_FALSE(is_open(r));
  FdWriteStream owned_out(w, Ownership::owned);
  owned_out.close();
  EXPECT_FALSE(is_open(w));
  EXPECT_EQ(owned_out.fd(), -1);
}

TEST(FdStreams, StandardDescriptorsAreNeverClosedImplicitly) {
  // In a child process, where closing 0, 1 and 2 harms nobody.
  EXPECT_EXIT(
      {
        const int null = ::open("/dev/null", O_RDWR);
        for (int fd = 0; fd <= 2; ++fd) ::dup2(null, fd);
        {
          FdReadStream in0(0, Ownership::owned);
          FdWriteStream out1(1, Ownership::owned);
          FdWriteStream out2(2, Ownership::owned);
          BufferedWriteStream buffered(std::make_unique<FdWriteStream>(1, Ownership::owned));
          buffered.put('x');
        }
        const bool kept = is_open(0) && is_open(1) && is_open(2);
        FdWriteStream explicit_close(1, Ownership::owned);
        explicit_close.close();  // an explicit close() does close them
        std::_Exit(kept && !is_open(1) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// ---- EINTR and short transfers on real descriptors --------------------------------------------

/// Installs a do-nothing handler for SIGUSR1 without SA_RESTART, so that the signal interrupts a
/// blocking system call with EINTR, and restores the previous action at the end of the scope.
class ScopedInterruptingSignal {
 public:
  ScopedInterruptingSignal() {
    struct ::sigaction sa {};
    sa.sa_handler = [](int) { handled.fetch_add(1); };
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART
    ::sigaction(SIGUSR1, &sa, &old_);
  }
  ~ScopedInterruptingSignal() { ::sigaction(SIGUSR1, &old_, nullptr); }
  ScopedInterruptingSignal(const ScopedInterruptingSignal&) = delete;
  ScopedInterruptingSignal& operator=(const ScopedInterruptingSignal&) = delete;

  static inline std::atomic<int> handled{0};

 private:
  struct ::sigaction old_ {};
};

/// The system call thread `tid` is blocked in, or -1 (from /proc/self/task/<tid>/syscall).
long blocked_syscall(pid_t tid) {
  std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long nr = -1;
  f >> nr;
  return f ? nr : -1;
}

/// Whether /proc/self/task/<tid>/syscall shows this program's system call numbers: a thread
/// reading its own file is in read(2). Under qemu-user it shows the emulator's calls, in the
/// build machine's numbering (x86-64's read(2) is 0, aarch64's 63), so these tests cannot tell
/// when a thread blocks.
bool proc_shows_own_syscalls() {
  return blocked_syscall(static_cast<pid_t>(::syscall(SYS_gettid))) == SYS_read;
}

/// Waits until thread `tid` is blocked in system call `nr`, without timing assertions: the
/// loop only ends when the condition holds (the test's overall timeout guards against hangs).
void wait_until_blocked_in(pid_t tid, long nr) {
  while (blocked_syscall(tid) != nr) std::this_thread::yield();
}

TEST(FdReadStream, ReadInterruptedBySignalIsRetried) {
  if (!proc_shows_own_syscalls()) {
    GTEST_SKIP() << "no /proc/self/task/<tid>/syscall with this program's system calls";
  }
  ScopedInterruptingSignal signal;
  auto pipe = test::make_pipe();
  FdReadStream in(pipe->read_end);
  std::atomic<pid_t> tid{0};
  std::optional<char> got;
  std::string error;
  std::thread reader([&] {
    tid = static_cast<pid_t>(::syscall(SYS_gettid));
    try {
      got = in.next();
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  while (tid == 0) std::this_thread::yield();
  const int before = ScopedInterruptingSignal::handled.load();
  for (int i = 0; i < 3; ++i) {
    wait_until_blocked_in(tid, SYS_read);
    const int handled_before = ScopedInterruptingSignal::handled.load();
    ::pthread_kill(reader.native_handle(), SIGUSR1);
    while (ScopedInterruptingSignal::handled.load() == handled_before) std::this_thread::yield();
  }
  wait_until_blocked_in(tid, SYS_read);  // back in read(2) after every interruption
  test::write_all(pipe->write_end, "Z");
  reader.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(got, 'Z');
  EXPECT_EQ(ScopedInterruptingSignal::handled.load() - before, 3);
}

TEST(FdWriteStream, WriteInterruptedBySignalContinuesAfterTheShortWrite) {
  if (!proc_shows_own_syscalls()) {
    GTEST_SKIP() << "no /proc/self/task/<tid>/syscall with this program's system calls";
  }
  ScopedInterruptingSignal signal;
  auto pipe = test::make_pipe();
  const std::string data = test::random_bytes(1 << 20, 9);  // far more than the pipe holds
  FdWriteStream out(pipe->write_end);
  std::atomic<pid_t> tid{0};
  std::string error;
  std::thread writer([&] {
    tid = static_cast<pid_t>(::syscall(SYS_gettid));
    try {
      out.write(data);  // one write(2), interrupted: returns short or EINTR, and goes on
    } catch (const std::exception& e) {
      error = e.what();
    }
    pipe->close_write();
  });
  while (tid == 0) std::this_thread::yield();
  // The pipe is full and the writer blocked: interrupt it, then let it go on.
  wait_until_blocked_in(tid, SYS_write);
  const int handled_before = ScopedInterruptingSignal::handled.load();
  ::pthread_kill(writer.native_handle(), SIGUSR1);
  while (ScopedInterruptingSignal::handled.load() == handled_before) std::this_thread::yield();
  const std::string received = test::read_all(pipe->read_end);
  writer.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(received.size(), data.size());
  EXPECT_TRUE(received == data);
  EXPECT_EQ(out.position(), data.size());
}

}  // namespace
}  // namespace bufstream
