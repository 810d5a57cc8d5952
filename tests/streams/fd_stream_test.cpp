// FdReadStream and FdWriteStream: one system call per protocol operation (counted with the
// kernel's per-thread I/O accounting, not timed), ownership and the standard descriptors,
// O_CLOEXEC, opening paths, and EINTR and short transfers on real descriptors.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

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

TEST(FdReadStream, EveryOperationIsOneReadAndNeverReadsAhead) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  auto pipe = test::make_pipe();
  test::write_all(pipe->write_end, "abcdefghij\nklm,nop");
  FdReadStream in(pipe->read_end);
  SyscallCounter count;
  EXPECT_EQ(in.next(), 'a');
  EXPECT_EQ(count.since().reads, 1);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 17u);  // exactly one byte was taken from the pipe
  EXPECT_EQ(in.peek(), 'b');
  EXPECT_EQ(count.since().reads, 2);
  EXPECT_EQ(in.next(), 'b');  // the peeked byte: no read
  EXPECT_EQ(count.since().reads, 2);
  EXPECT_FALSE(in.peek_for('x'));
  EXPECT_EQ(count.since().reads, 3);
  EXPECT_TRUE(in.peek_for('c'));
  EXPECT_EQ(count.since().reads, 3);
  EXPECT_EQ(in.next(3), "def");
  EXPECT_EQ(count.since().reads, 4);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 12u);
  char buf[4];
  EXPECT_EQ(in.read_into(buf), 4u);
  EXPECT_EQ(std::string(buf, 4), "ghij");
  EXPECT_EQ(count.since().reads, 5);
  EXPECT_EQ(in.fill(3), "\nkl");
  EXPECT_EQ(count.since().reads, 6);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 5u);
  in.advance(3);
  EXPECT_EQ(in.skip(2), 2u);  // "m,"
  EXPECT_EQ(count.since().reads, 7);
  EXPECT_EQ(in.next_int<std::uint16_t>(), 0x6e6fu);  // "no"
  EXPECT_EQ(count.since().reads, 8);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 1u);
}

TEST(FdReadStream, ByteAtATimeOperationsCostOneReadPerByte) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  auto pipe = test::make_pipe();
  test::write_all(pipe->write_end, "key=value\nrest");
  FdReadStream in(pipe->read_end);
  SyscallCounter count;
  EXPECT_EQ(in.up_to('='), "key");
  EXPECT_EQ(count.since().reads, 4);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 10u);  // nothing beyond the delimiter was read
  EXPECT_EQ(in.next_line(), "value");
  EXPECT_EQ(count.since().reads, 10);
  EXPECT_EQ(bytes_waiting(pipe->read_end), 4u);
}

TEST(FdReadStream, BufferedReadsTheDescriptorOncePerBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  const std::string text = test::random_bytes(100000, 1);
  test::TempFile file(text);
  FdReadStream fd(file.path());
  BufferedReadStream in(fd, {.buffer_size = 1000});
  SyscallCounter count;
  std::string got;
  while (auto c = in.next()) got += *c;
  EXPECT_EQ(got, text);
  EXPECT_EQ(count.since().reads, 101);  // 100 full buffers and the read that finds the end
}

TEST(FdReadStream, LargeReadsBypassTheBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  const std::string text = test::random_bytes(100000, 2);
  test::TempFile file(text);
  FdReadStream fd(file.path());
  BufferedReadStream in(fd, {.buffer_size = 1000});
  EXPECT_EQ(in.next(), text[0]);  // fills the buffer: one read of 1000 bytes
  SyscallCounter count;
  std::string big(50000, '\0');
  EXPECT_EQ(in.read_into(big), big.size());
  // 999 bytes from the buffer, the other 49,001 with one read straight into `big`.
  EXPECT_EQ(count.since().reads, 1);
  EXPECT_EQ(big, text.substr(1, 50000));
  EXPECT_TRUE(in.buffered().empty());
  char small[400];  // not more than half the buffer: through the buffer
  EXPECT_EQ(in.read_into(small), sizeof small);
  EXPECT_EQ(count.since().reads, 2);
  EXPECT_EQ(in.buffered().size(), 600u);
}

TEST(FdWriteStream, EveryOperationIsOneWrite) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  test::TempFile file;
  FdWriteStream out(file.path());
  SyscallCounter count;
  out.put('a');
  EXPECT_EQ(count.since().writes, 1);
  out.write("bcd");
  EXPECT_EQ(count.since().writes, 2);
  out.print(-12345);
  EXPECT_EQ(count.since().writes, 3);
  out.print(0.25);
  EXPECT_EQ(count.since().writes, 4);
  out.crlf();
  EXPECT_EQ(count.since().writes, 5);
  out.put_int<std::uint32_t>(0x41424344);
  EXPECT_EQ(count.since().writes, 6);
  char* p = out.reserve(10);
  std::memcpy(p, "0123456789", 10);
  out.commit(4);
  EXPECT_EQ(count.since().writes, 7);
  p = out.reserve(300000);  // far more than any buffer
  std::memset(p, 'z', 300000);
  out.commit(300000);
  EXPECT_EQ(count.since().writes, 8);
  out.flush();
  EXPECT_EQ(count.since().writes, 8);
  out.close();
  EXPECT_EQ(file.read(), "abcd-123450.25\r\nABCD0123" + std::string(300000, 'z'));
}

TEST(FdWriteStream, BufferedWritesTheDescriptorOncePerBuffer) {
  if (!SyscallCounter::available()) GTEST_SKIP() << "no /proc/thread-self/io";
  test::TempFile file;
  FdWriteStream fd(file.path());
  BufferedWriteStream out(fd, {.buffer_size = 1000});
  SyscallCounter count;
  for (int i = 0; i < 10000; ++i) out.put(static_cast<char>('a' + i % 26));
  EXPECT_EQ(count.since().writes, 9);  // the tenth buffer is full but not yet written
  out.put('!');
  EXPECT_EQ(count.since().writes, 10);
  out.write(std::string(600, 'L'));  // more than half the buffer: drain, then one write
  EXPECT_EQ(count.since().writes, 12);
  out.write(std::string(400, 'S'));  // not more than half: buffered
  EXPECT_EQ(count.since().writes, 12);
  out.close();
  EXPECT_EQ(count.since().writes, 13);
  EXPECT_EQ(file.read().size(), 11001u);
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
  {
    FdReadStream owned(r, Ownership::owned);
  }
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

/// Waits until thread `tid` is blocked in system call `nr`, without timing assertions: the
/// loop only ends when the condition holds (the test's overall timeout guards against hangs).
void wait_until_blocked_in(pid_t tid, long nr) {
  while (blocked_syscall(tid) != nr) std::this_thread::yield();
}

TEST(FdReadStream, ReadInterruptedBySignalIsRetried) {
  if (blocked_syscall(static_cast<pid_t>(::syscall(SYS_gettid))) == -1) {
    GTEST_SKIP() << "no /proc/self/task/<tid>/syscall";
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
  if (blocked_syscall(static_cast<pid_t>(::syscall(SYS_gettid))) == -1) {
    GTEST_SKIP() << "no /proc/self/task/<tid>/syscall";
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
