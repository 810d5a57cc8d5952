// Failures: a full device, a peer that has gone, bad descriptors, injected faults, sticky
// errors, the bytes a failed flush keeps, and what happens to a write stream destroyed with
// bytes it cannot write. Also the error types themselves.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/format_options.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using testing::Faults;
using testing::FaultyWriteStream;

// ---- A full device ----------------------------------------------------------------------------

TEST(DevFull, UnbufferedWriteFailsAtOnce) {
  FdWriteStream out{std::filesystem::path("/dev/full"), {.mode = OpenOptions::Mode::append}};
  try {
    out.put('x');
    FAIL() << "a write to /dev/full succeeded";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::no_space_on_device);
    EXPECT_EQ(e.operation(), "write");
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(out.position(), 0u);
  EXPECT_THROW(out.close(), IoError);  // close reports the failure again, and releases
  EXPECT_EQ(out.fd(), -1);
}

TEST(DevFull, BufferedErrorSurfacesAtFlushAndNothingClaimsSuccess) {
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    SCOPED_TRACE(size);
    FdWriteStream fd{std::filesystem::path("/dev/full"), {.mode = OpenOptions::Mode::append}};
    BufferedWriteStream out(fd, {.buffer_size = size});
    bool thrown = false;
    try {
      out.put('a');  // buffered, whatever the size
      out.flush();
    } catch (const IoError& e) {
      thrown = true;
      EXPECT_EQ(e.code(), std::errc::no_space_on_device);
    }
    EXPECT_TRUE(thrown);
    EXPECT_EQ(out.pending(), "a");
    EXPECT_THROW(out.flush(), IoError);
    EXPECT_THROW(out.close(), IoError);
    EXPECT_NO_THROW(out.close());  // closed now: a second close does nothing
    EXPECT_EQ(out.pending(), "a");
  }
}

TEST(DevFull, BufferedErrorSurfacesAtClose) {
  FdWriteStream fd{std::filesystem::path("/dev/full"), {.mode = OpenOptions::Mode::append}};
  BufferedWriteStream out(fd);
  out.write("some text that stays in the buffer");
  EXPECT_THROW(out.close(), IoError);
  EXPECT_TRUE(out.failed());
  EXPECT_TRUE(fd.is_closed());  // the sink was released anyway
}

// ---- A peer that has gone ---------------------------------------------------------------------

TEST(PeerGone, PipeWithSigpipeIgnoredInAChildGivesEpipe) {
  // The child ignores SIGPIPE, as a server would; the test process's dispositions are not touched.
  EXPECT_EXIT(
      {
        ::signal(SIGPIPE, SIG_IGN);
        auto pipe = test::make_pipe();
        pipe->close_read();
        FdWriteStream out(pipe->write_end);
        try {
          out.write("hello");
        } catch (const IoError& e) {
          std::_Exit(e.code() == std::errc::broken_pipe ? 0 : 2);
        }
        std::_Exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(PeerGone, PipeWithDefaultSigpipeEndsTheProcessLikeAnyUnixTool) {
  EXPECT_EXIT(
      {
        ::signal(SIGPIPE, SIG_DFL);
        auto pipe = test::make_pipe();
        pipe->close_read();
        FdWriteStream out(pipe->write_end);
        try {
          out.write("hello");
        } catch (...) {
        }
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGPIPE), "");
}

/// Blocks SIGPIPE in this thread for the scope; the SIGPIPE a write raises stays pending and is
/// consumed before the previous mask is restored. Nothing process-wide changes.
class ScopedBlockedSigpipe {
 public:
  ScopedBlockedSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~ScopedBlockedSigpipe() {
    const ::timespec zero{};
    while (::sigtimedwait(&pipe_, nullptr, &zero) == SIGPIPE) ++consumed_;
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  ScopedBlockedSigpipe(const ScopedBlockedSigpipe&) = delete;
  ScopedBlockedSigpipe& operator=(const ScopedBlockedSigpipe&) = delete;

  bool pending() const {
    ::sigset_t set;
    ::sigpending(&set);
    return sigismember(&set, SIGPIPE) == 1;
  }

 private:
  ::sigset_t pipe_{};
  ::sigset_t old_{};
  int consumed_ = 0;
};

TEST(PeerGone, PipeWithSigpipeBlockedInThisThreadGivesEpipe) {
  for (std::size_t size : {std::size_t{0}, std::size_t{7}, std::size_t{65536}}) {
    SCOPED_TRACE(size);
    ScopedBlockedSigpipe blocked;
    auto pipe = test::make_pipe();
    pipe->close_read();
    FdWriteStream fd(pipe->write_end);
    std::unique_ptr<BufferedWriteStream> buffered;
    if (size > 0)
      buffered = std::make_unique<BufferedWriteStream>(fd, BufferOptions{.buffer_size = size});
    WriteStream& out = buffered ? static_cast<WriteStream&>(*buffered) : fd;
    try {
      out.write("hello");
      out.flush();
      FAIL() << "a write to a closed pipe succeeded";
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::errc::broken_pipe);
    }
    EXPECT_TRUE(blocked.pending());  // the kernel did raise SIGPIPE; it is consumed at scope end
    EXPECT_THROW(out.put('x'), IoError);
    EXPECT_THROW(out.close(), IoError);
  }
}

TEST(PeerGone, SocketGivesEpipeWithoutAnySignal) {
  struct ::sigaction current {};
  ::sigaction(SIGPIPE, nullptr, &current);
  ASSERT_EQ(current.sa_handler, SIG_DFL)
      << "the test needs SIGPIPE's default action to mean something";
  for (std::size_t size : {std::size_t{0}, std::size_t{3}, std::size_t{65536}}) {
    SCOPED_TRACE(size);
    auto pair = test::make_socketpair();
    pair->close_read();
    FdWriteStream fd(pair->write_end);
    std::unique_ptr<BufferedWriteStream> buffered;
    if (size > 0)
      buffered = std::make_unique<BufferedWriteStream>(fd, BufferOptions{.buffer_size = size});
    WriteStream& out = buffered ? static_cast<WriteStream&>(*buffered) : fd;
    try {
      out.write("hello");
      out.flush();
      FAIL() << "a write to a closed socket succeeded";
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::errc::broken_pipe);
    }
    // Had SIGPIPE been raised, its default action would have ended this process.
    ::sigset_t pending;
    ::sigpending(&pending);
    EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
  }
}

TEST(PeerGone, ReadingASocketWhosePeerClosedSeesTheEnd) {
  auto pair = test::make_socketpair();
  test::write_all(pair->write_end, "last words");
  pair->close_write();
  FdReadStream fd(pair->read_end);
  BufferedReadStream in(fd, {.buffer_size = 3});
  EXPECT_EQ(in.up_to_end(), "last words");
  EXPECT_TRUE(in.at_end());
}

// ---- Bad descriptors ---------------------------------------------------------------------------

int closed_descriptor() {
  auto pipe = test::make_pipe();
  const int fd = pipe->read_end;
  return fd;  // both ends are closed when `pipe` goes
}

TEST(BadDescriptor, ReadingIsAnIoErrorWithEbadf) {
  for (int fd : {closed_descriptor(), -1, 1 << 20}) {
    FdReadStream in(fd);
    try {
      (void)in.next();
      FAIL() << "read from descriptor " << fd;
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::errc::bad_file_descriptor) << fd;
      EXPECT_EQ(e.operation(), "read");
    }
    EXPECT_TRUE(in.failed());
    EXPECT_THROW((void)in.peek(), IoError);
    BufferedReadStream buffered(std::make_unique<FdReadStream>(fd));
    EXPECT_THROW((void)buffered.up_to_end(), IoError);
    EXPECT_TRUE(buffered.failed());
  }
}

TEST(BadDescriptor, WritingIsAnIoErrorWithEbadf) {
  for (int fd : {closed_descriptor(), -1, 1 << 20}) {
    FdWriteStream out(fd);
    try {
      out.write("x");
      FAIL() << "write to descriptor " << fd;
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::errc::bad_file_descriptor) << fd;
    }
    BufferedWriteStream buffered(std::make_unique<FdWriteStream>(fd));
    buffered.write("abc");
    EXPECT_THROW(buffered.flush(), IoError);
    EXPECT_EQ(buffered.pending(), "abc");
  }
}

TEST(BadDescriptor, ReadingAWriteOnlyDescriptorAndWritingAReadOnlyOne) {
  auto pipe = test::make_pipe();
  FdReadStream wrong_in(pipe->write_end);
  EXPECT_THROW((void)wrong_in.next(), IoError);
  FdWriteStream wrong_out(pipe->read_end);
  EXPECT_THROW(wrong_out.put('x'), IoError);
}

TEST(BadDescriptor, ReadingADirectoryIsEisdir) {
  FdReadStream in{std::filesystem::path("/")};
  try {
    (void)in.next();
    FAIL();
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), std::errc::is_a_directory);
    EXPECT_EQ(e.path(), "/");
  }
}

// ---- Injected faults: EINTR, short writes, failures -------------------------------------------

TEST(InjectedFaults, ShortAndInterruptedWritesDeliverEverything) {
  const std::string data = test::random_bytes(100000, 4);
  for (std::size_t per_call : {1u, 2u, 7u, 1000u}) {
    for (std::size_t size : testing::tiny_buffer_sizes()) {
      FaultyWriteStream sink({.max_per_call = per_call, .interrupt_every = 3});
      BufferedWriteStream out(sink, {.buffer_size = size});
      for (std::size_t i = 0; i < data.size();) {
        const std::size_t n = std::min<std::size_t>(1 + i % 13, data.size() - i);
        out.write(std::string_view(data).substr(i, n));
        i += n;
      }
      out.close();
      EXPECT_TRUE(sink.written() == data) << per_call << " " << size;
      EXPECT_GT(sink.interrupts(), 0u);
      EXPECT_TRUE(sink.closed());
    }
  }
}

TEST(InjectedFaults, StickyErrorIsThrownByEveryLaterOperation) {
  FaultyWriteStream sink({.fail_at = 1, .error_number = EIO});
  BufferedWriteStream out(sink, {.buffer_size = 64});
  out.write("0123456789");
  std::string first;
  try {
    out.flush();
  } catch (const IoError& e) {
    first = e.what();
    EXPECT_EQ(e.code(), std::errc::io_error);
  }
  ASSERT_FALSE(first.empty());
  const std::vector<std::function<void()>> operations{
      [&] { out.put('x'); },
      [&] { out.write("y"); },
      [&] { out.write(std::string(100, 'z')); },
      [&] { out.print(42); },
      [&] { out.print(0.5); },
      [&] { out.put_int<std::uint32_t>(7); },
      [&] { (void)out.reserve(1); },
      [&] { out.flush(); },
      [&] { out.close(); },
  };
  for (std::size_t i = 0; i < operations.size(); ++i) {
    try {
      operations[i]();
      ADD_FAILURE() << "operation " << i << " succeeded after a failure";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()), first) << "operation " << i;
    }
  }
  EXPECT_EQ(out.pending(), "0123456789");
  EXPECT_EQ(out.position(), 10u);
}

TEST(InjectedFaults, ReadErrorsAreSticky) {
  FdReadStream fd{std::filesystem::path("/")};
  BufferedReadStream in(fd, {.buffer_size = 4});
  std::string first;
  try {
    (void)in.next();
  } catch (const IoError& e) {
    first = e.what();
  }
  ASSERT_FALSE(first.empty());
  std::array<char, 8> buf{};
  std::string spill;
  const std::vector<std::function<void()>> operations{
      [&] { (void)in.next(); },
      [&] { (void)in.peek(); },
      [&] { (void)in.at_end(); },
      [&] { (void)in.peek_for('a'); },
      [&] { (void)in.next(3); },
      [&] { (void)in.read_into(buf); },
      [&] { (void)in.read_some(buf); },
      [&] { (void)in.up_to(','); },
      [&] { (void)in.up_to_end(); },
      [&] { (void)in.skip_to(','); },
      [&] { (void)in.skip(2); },
      [&] { (void)in.next_line(); },
      [&] { (void)in.fill(2); },
      [&] { (void)in.next_int<std::int16_t>(); },
      [&] { (void)in.next_while([](char) { return true; }, spill); },
  };
  for (std::size_t i = 0; i < operations.size(); ++i) {
    try {
      operations[i]();
      ADD_FAILURE() << "operation " << i << " succeeded after a failure";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()), first) << "operation " << i;
    }
  }
}

TEST(InjectedFaults, FailedFlushKeepsExactlyTheUnwrittenBytes) {
  // Whatever call fails and however short the calls before it, the sink's bytes followed by
  // the pending bytes are exactly what was accepted, in order.
  const std::string data = test::random_bytes(5000, 8);
  int failures = 0;
  for (std::size_t fail_at : {1u, 2u, 3u, 5u, 17u}) {
    for (std::size_t per_call : {0u, 1u, 3u, 100u}) {
      for (std::size_t size : testing::tiny_buffer_sizes()) {
        for (std::size_t piece : {1u, 5u, 40u, 3000u}) {
          FaultyWriteStream sink({.fail_at = fail_at, .max_per_call = per_call});
          BufferedWriteStream out(sink, {.buffer_size = size});
          bool failed = false;
          for (std::size_t i = 0; i < data.size() && !failed; i += piece) {
            try {
              out.write(std::string_view(data).substr(i, piece));
            } catch (const IoError&) {
              failed = true;
            }
          }
          if (!failed) {
            try {
              out.flush();
            } catch (const IoError&) {
              failed = true;
            }
          }
          const std::string trace = std::to_string(fail_at) + "/" + std::to_string(per_call) + "/" +
                                    std::to_string(size) + "/" + std::to_string(piece);
          failures += failed ? 1 : 0;
          const std::string delivered = sink.written() + std::string(out.pending());
          ASSERT_EQ(delivered.size(), out.position()) << trace;
          ASSERT_TRUE(delivered == data.substr(0, delivered.size())) << trace;
          ASSERT_EQ(sink.position(), sink.written().size()) << trace;
        }
      }
    }
  }
  EXPECT_GT(failures, 350);  // of 400 combinations, only a few end before the failing call
}

// ---- Destruction with bytes that cannot be written ----------------------------------------------

std::vector<std::string> lost_reports;
void record_lost_data(std::string_view description) noexcept {
  lost_reports.emplace_back(description);
}

class LostDataHandlerScope {
 public:
  LostDataHandlerScope() : previous_(set_lost_data_handler(&record_lost_data)) {
    lost_reports.clear();
  }
  ~LostDataHandlerScope() { set_lost_data_handler(previous_); }
  LostDataHandlerScope(const LostDataHandlerScope&) = delete;
  LostDataHandlerScope& operator=(const LostDataHandlerScope&) = delete;

 private:
  LostDataHandler previous_;
};

TEST(LostData, DestroyedWithBytesItCannotWriteCallsTheHandler) {
  LostDataHandlerScope scope;
  {
    FaultyWriteStream sink({.fail_at = 1});
    BufferedWriteStream out(sink, {.buffer_size = 64});
    out.write("twelve bytes");
  }
  ASSERT_EQ(lost_reports.size(), 1u);
  EXPECT_NE(lost_reports[0].find("BufferedWriteStream"), std::string::npos) << lost_reports[0];
  EXPECT_NE(lost_reports[0].find("12 unwritten bytes"), std::string::npos) << lost_reports[0];
  EXPECT_NE(lost_reports[0].find("faulty sink"), std::string::npos) << lost_reports[0];
}

TEST(LostData, DestroyedAfterTheCallerGotTheExceptionIsQuiet) {
  LostDataHandlerScope scope;
  {
    FaultyWriteStream sink({.fail_at = 1});
    BufferedWriteStream out(sink, {.buffer_size = 64});
    out.write("data");
    EXPECT_THROW(out.flush(), IoError);
  }
  {
    FaultyWriteStream sink({.fail_at = 1});
    BufferedWriteStream out(sink, {.buffer_size = 64});
    out.write("data");
    EXPECT_THROW(out.close(), IoError);
  }
  {
    FdWriteStream fd{std::filesystem::path("/dev/full"), {.mode = OpenOptions::Mode::append}};
    BufferedWriteStream out(fd, {.buffer_size = 4});
    EXPECT_THROW(out.write("more than four"), IoError);  // bypasses the buffer and fails
  }
  EXPECT_TRUE(lost_reports.empty());
}

TEST(LostData, DestroyedWithEverythingWrittenIsQuiet) {
  LostDataHandlerScope scope;
  StringWriteStream sink;
  {
    BufferedWriteStream out(sink, {.buffer_size = 4});
    out.write("written on destruction");
  }
  EXPECT_EQ(sink.view(), "written on destruction");
  EXPECT_TRUE(lost_reports.empty());
}

TEST(LostDataDeathTest, DefaultHandlerPrintsAndAborts) {
  EXPECT_DEATH(
      {
        FaultyWriteStream sink({.fail_at = 1});
        BufferedWriteStream out(sink, {.buffer_size = 64});
        out.write("doomed");
      },
      "bufstream: data lost: BufferedWriteStream destroyed with 6 unwritten bytes");
}

TEST(LostDataDeathTest, DefaultHandlerOnAFullDevice) {
  EXPECT_DEATH(
      {
        BufferedWriteStream out(std::make_unique<FdWriteStream>(
            std::filesystem::path("/dev/full"), OpenOptions{.mode = OpenOptions::Mode::append}));
        out.write("doomed");
      },
      "data lost: .*No space left on device");
}

TEST(LostData, SettingANullHandlerRestoresTheDefault) {
  const LostDataHandler original = get_lost_data_handler();
  const LostDataHandler before = set_lost_data_handler(&record_lost_data);
  EXPECT_EQ(before, original);
  EXPECT_EQ(set_lost_data_handler(nullptr), &record_lost_data);
  EXPECT_EQ(get_lost_data_handler(), original);
}

// ---- The error types
// -----------------------------------------------------------------------------

TEST(ErrorTypes, IoErrorNamesOperationAndPath) {
  const IoError e = IoError::from_errno(ENOENT, "open", "data.json");
  EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
  EXPECT_EQ(e.operation(), "open");
  EXPECT_EQ(e.path(), "data.json");
  EXPECT_EQ(std::string(e.what()), "open data.json: No such file or directory");
  const IoError no_path(std::make_error_code(std::errc::io_error), "write");
  EXPECT_EQ(std::string(no_path.what()).rfind("write: ", 0), 0u) << no_path.what();
  const std::system_error& base = e;  // catchable as the standard type
  EXPECT_EQ(base.code().value(), ENOENT);
}

TEST(ErrorTypes, ParseErrorCarriesThePosition) {
  const ParseError e({52, 3, 17}, "expected ',' or ']' but found '}'", "data.json");
  EXPECT_EQ(std::string(e.what()), "data.json:3:17: expected ',' or ']' but found '}' (byte 52)");
  EXPECT_EQ(e.line(), 3u);
  EXPECT_EQ(e.column(), 17u);
  EXPECT_EQ(e.offset(), 52u);
  EXPECT_EQ(e.message(), "expected ',' or ']' but found '}'");
  EXPECT_EQ(e.source_name(), "data.json");
  const ParseError binary({9, 0, 0}, "truncated");
  EXPECT_EQ(std::string(binary.what()), "<input>: truncated (byte 9)");
  const ParseError named = binary.with_source_name("x.bin");
  EXPECT_EQ(std::string(named.what()), "x.bin: truncated (byte 9)");
  EXPECT_EQ(named.position(), binary.position());
}

TEST(ErrorTypes, LineTrackerCountsLinesAndColumns) {
  LineTracker t;
  EXPECT_EQ(t.at(0), (SourcePosition{0, 1, 1}));
  EXPECT_EQ(t.at(4), (SourcePosition{4, 1, 5}));
  t.new_line(6);
  EXPECT_EQ(t.line(), 2u);
  EXPECT_EQ(t.at(6), (SourcePosition{6, 2, 1}));
  EXPECT_EQ(t.at(9), (SourcePosition{9, 2, 4}));
}

TEST(ErrorTypes, DescribeByte) {
  const std::vector<std::pair<int, std::string>> cases{
      {-1, "end of input"}, {'a', "'a'"}, {'\n', "'\\n'"},     {'\r', "'\\r'"},
      {'\t', "'\\t'"},      {0, "'\\0'"}, {0x7f, "byte 0x7f"}, {0xff, "byte 0xff"},
      {0x01, "byte 0x01"},  {'}', "'}'"}};
  for (const auto& [byte, text] : cases) EXPECT_EQ(describe_byte(byte), text) << byte;
}

// Every format throws these two for misuse and for access; code that caught the standard types
// the formats threw before (std::invalid_argument, std::logic_error, std::out_of_range) goes on
// catching them.
TEST(ErrorTypes, UsageErrorIsAnInvalidArgumentAndALogicError) {
  const auto misuse = [] { throw UsageError("json::Writer: a value is not allowed here"); };
  EXPECT_THROW(misuse(), std::invalid_argument);
  EXPECT_THROW(misuse(), std::logic_error);
  try {
    misuse();
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "json::Writer: a value is not allowed here");
  }
}

TEST(ErrorTypes, AccessErrorIsAnOutOfRangeAndALogicError) {
  const auto access = [] { throw AccessError("no key 'name' in the map"); };
  EXPECT_THROW(access(), std::out_of_range);
  EXPECT_THROW(access(), std::logic_error);
}

TEST(FormatOptions, LineEndsAndTheDefaultNestingLimit) {
  EXPECT_EQ(line_end_bytes(LineEnd::lf), "\n");
  EXPECT_EQ(line_end_bytes(LineEnd::crlf), "\r\n");
  static_assert(default_max_depth == 512);
}

}  // namespace
}  // namespace bufstream
