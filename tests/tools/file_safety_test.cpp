// The command never destroys a file: outputs are replaced atomically (same file in and out,
// failures, write errors, signals), every invalid input is exit 1 with its position, a UTF-8
// byte-order mark is skipped, and --flush-each feeds a pipeline record by record.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "cli_fixture.hpp"

namespace bufstream {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The command running in the background, its standard input and output pipes held by the
// test, for what a test must do while the program runs (send it a signal, feed it a line and
// wait for the answer).
class RunningCli {
 public:
  explicit RunningCli(const std::vector<std::string>& args) {
    using testing::detail::must;
    // Writing to a program that has already died must fail the test, not kill it.
    ::signal(SIGPIPE, SIG_IGN);
    int in[2], out[2], err[2];
    must(
        ::pipe2(in, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0 && ::pipe2(err, O_CLOEXEC) == 0,
        "pipe");
    pid_ = testing::detail::spawn(BUFSTREAM_CLI, args, {in[0], out[1], err[1]});
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
  }
  ~RunningCli() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      finish();
    }
  }
  RunningCli(const RunningCli&) = delete;
  RunningCli& operator=(const RunningCli&) = delete;

  pid_t pid() const noexcept { return pid_; }

  void write(const std::string& text) {
    ASSERT_EQ(::write(in_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

  // What the program writes to its standard output until the output ends with `ending`, or
  // whatever came within `limit`.
  std::string read_until(const std::string& ending, std::chrono::milliseconds limit = 10s) {
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!got.ends_with(ending)) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }

  // Closes the program's input and waits for it to end.
  testing::ProgramResult finish() {
    const pid_t pid = pid_;
    pid_ = -1;
    const int in = in_;
    in_ = -1;
    return testing::detail::collect(pid, out_, err_, in, {});
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  int err_ = -1;
};

::mode_t mode_of(const std::string& path) {
  struct ::stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// ---- The same file in and out ---------------------------------------------------------------

TEST_F(Cli, ConvertingAFileOntoItselfRewritesItInCanonicalForm) {
  const std::string csv = file("y.csv", "a,b\n1,\"2\"\n");
  auto r = cli({"convert", csv, csv});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(csv), "a,b\r\n1,2\r\n");

  const std::string json = file("same.json", "[ 1, {\"k\" : \"v\"} ]\n");
  r = cli({"convert", "--from", "json", "--to", "json", json, json});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(json), "[1,{\"k\":\"v\"}]\n");

  const std::string ston = file("same.ston", "{ #a : 1 }");
  r = cli({"convert", ston, ston});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(ston), "{#a:1}\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"same.json", "same.ston", "y.csv"}));
}

TEST_F(Cli, ConvertingThroughASymbolicLinkRewritesItsTargetAndKeepsTheLink) {
  const std::string csv = file("data.csv", "a,b\n1,2\n");
  fs::create_symlink("data.csv", path("link.csv"));
  const auto r = cli({"convert", "--lf", path("link.csv"), path("link.csv")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link.csv")));
  EXPECT_EQ(read(csv), "a,b\n1,2\n");
  const auto j = cli({"convert", "--to", "json", csv, path("link.csv")});
  EXPECT_EQ(j.status, 0) << j.err;
  EXPECT_TRUE(fs::is_symlink(path("link.csv")));
  EXPECT_EQ(read(csv), "[{\"a\":\"1\",\"b\":\"2\"}]\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"data.csv", "link.csv"}));
}

TEST_F(Cli, ConvertingThroughAHardLinkReadsTheWholeInput) {
  const std::string csv = file("data.csv", "a,b\n1,2\n");
  fs::create_hard_link(csv, path("other.csv"));
  const auto r = cli({"convert", "--to", "json", path("other.csv"), csv});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(csv), "[{\"a\":\"1\",\"b\":\"2\"}]\n");
  EXPECT_EQ(read(path("other.csv")), "a,b\n1,2\n");  // the other name keeps the old version
}

// ---- Failures leave the old output --------------------------------------------------------

TEST_F(Cli, AFailedConversionKeepsTheOldOutputByteForByte) {
  const std::string old = "[{\"a\":\"0\"}]\r\n\x01\xff old bytes";
  const std::string out = file("out.json", old);
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  const std::string bad = file("bad.csv", "a,b\n1,2\n\"3,4\n");
  const auto r = cli({"convert", bad, out});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.err,
      bad +
          ":3:1: error: record 3: quoted field not closed: the input ends before its closing '\"'\n");
  EXPECT_EQ(read(out), old);
  EXPECT_EQ(mode_of(out), 0640u);
  EXPECT_EQ(names(), (std::vector<std::string>{"bad.csv", "out.json"}));
}

TEST_F(Cli, AFailedConversionCreatesNoOutput) {
  const std::string bad = file("bad.json", "[{\"a\":1},");
  const auto r = cli({"convert", bad, path("out.csv")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(names(), std::vector<std::string>{"bad.json"});
}

TEST_F(Cli, ASuccessfulConversionKeepsThePermissionsOrGivesANewFileTheUsualOnes) {
  const std::string in = file("in.csv", "a\n1\n");
  const std::string out = file("out.json", "old");
  ASSERT_EQ(::chmod(out.c_str(), 0604), 0);
  EXPECT_EQ(cli({"convert", in, out}).status, 0);
  EXPECT_EQ(read(out), "[{\"a\":\"1\"}]\n");
  EXPECT_EQ(mode_of(out), 0604u);
  const ::mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(cli({"convert", in, path("new.json")}).status, 0);
  EXPECT_EQ(mode_of(path("new.json")), 0666u & ~mask);
  EXPECT_EQ(names(), (std::vector<std::string>{"in.csv", "new.json", "out.json"}));
}

TEST_F(Cli, AWriteErrorKeepsTheOldOutputAndLeavesNoTemporaryFile) {
  // A file size limit of 64 blocks (of 512 bytes in dash, 1,024 in bash) makes the output's
  // writes fail with EFBIG partway through its megabyte.
  std::string csv = "n,text\n";
  for (int i = 0; i < 20000; ++i)
    csv += std::to_string(i) + ",some text to make the output large\n";
  const std::string in = file("in.csv", csv);
  const std::string out = file("out.json", "old content");
  const auto r = testing::run_program(
      "/bin/sh",
      {"-c", "ulimit -f 64 && exec \"$0\" convert \"$1\" \"$2\"", BUFSTREAM_CLI, in, out});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("write " + out + ": File too large"), std::string::npos) << r.err;
  EXPECT_EQ(read(out), "old content");
  EXPECT_EQ(names(), (std::vector<std::string>{"in.csv", "out.json"}));
}

// A conversion that a signal ends while it runs (its input a pipe the test holds open, so it
// is still running whenever the signal comes) ends by that signal, and leaves the old output
// and no temporary file.
TEST_F(Cli, ASignalMidConversionLeavesTheOldOutputAndNoTemporaryFile) {
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(::strsignal(signal));
    const std::string out = file("out.json", "old content");
    RunningCli running({"convert", "--from", "csv", "--to", "json", "-", out});
    std::string rows = "a,b\n";
    for (int i = 0; i < 10000; ++i) rows += std::to_string(i) + ",x\n";  // past one buffer
    running.write(rows);
    // The temporary file appears beside the output once the program has started writing.
    for (int i = 0; i < 1000 && names().size() < 2; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(names().size(), 2u) << "no temporary file appeared";
    ASSERT_EQ(::kill(running.pid(), signal), 0);
    const auto r = running.finish();
    EXPECT_EQ(r.status, 128 + signal) << r.err;
    EXPECT_EQ(read(out), "old content");
    EXPECT_EQ(names(), std::vector<std::string>{"out.json"});
  }
}

// ---- Every invalid input: exit 1, PATH:LINE:COLUMN ---------------------------------------

TEST_F(Cli, InvalidUtf8IsReportedWhereItIsByCheckAndConvert) {
  struct Case {
    std::string name;
    std::string content;
    std::string error;  // after "PATH:"
  };
  const Case cases[] = {
      {"field.csv", "a,b\n\xff\xfe,2\n",
       "2:1: error: record 2, field 1: expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)"},
      {"quoted.tsv", "a\tb\n1\t\"x\ny\xc3\"\n",
       "3:2: error: record 2, field 2: expected UTF-8 text but found byte 0xc3"},
      {"string.json", "[\n {\"a\": \"ok\xe9\"}]",
       "2:11: error: expected UTF-8 text but found byte 0xe9 (invalid UTF-8: "},
      {"lines.jsonl", "{\"a\":1}\n{\"a\":\"\xc0\xaf\"}\n",
       "2:7: error: expected UTF-8 text but found byte 0xc0 (invalid UTF-8: overlong encoding)"},
      {"string.ston", "{#a:'x',\n#b:'\xff'}",
       "2:5: error: invalid UTF-8: invalid lead byte in a string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string in = file(c.name, c.content);
    const auto check = cli({"check", in});
    EXPECT_EQ(check.status, 1);
    EXPECT_EQ(check.err.rfind(in + ":" + c.error, 0), 0u) << check.err;
    const std::string target = c.name.ends_with(".json") ? "ston" : "json";
    file("out." + target, "old");
    const auto convert = cli({"convert", "--to", target, in, path("out." + target)});
    EXPECT_EQ(convert.status, 1);
    EXPECT_EQ(convert.err.rfind(in + ":" + c.error, 0), 0u) << convert.err;
    EXPECT_EQ(read(path("out." + target)), "old");
  }
}

TEST_F(Cli, BytesLetsCsvHoldAnyBytesWhereTheOutputIsCsvToo) {
  const std::string in = file("latin1.csv", "name\nJos\xe9\n");
  const auto check = cli({"check", "--bytes", in});
  EXPECT_EQ(check.status, 0) << check.err;
  const auto convert = cli({"convert", "--bytes", "--lf", in, path("copy.csv")});
  EXPECT_EQ(convert.status, 0) << convert.err;
  EXPECT_EQ(read(path("copy.csv")), "name\nJos\xe9\n");
  const auto to_json = cli({"convert", "--bytes", in, path("out.json")});
  EXPECT_EQ(to_json.status, 2);
  EXPECT_NE(to_json.err.find("--bytes applies to CSV to CSV only"), std::string::npos)
      << to_json.err;
}

TEST_F(Cli, EmptyStonIsInvalidEverywhere) {
  for (const std::string content : {"", "  \n\t\n", "\xef\xbb\xbf"}) {
    SCOPED_TRACE("content: '" + content + "'");
    const std::string in = file("empty.ston", content);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"check", in}, std::vector<std::string>{"fmt", in},
          std::vector<std::string>{"convert", "--to", "json", in},
          std::vector<std::string>{"convert", "--to", "csv", in}}) {
      SCOPED_TRACE(args[0] + " " + args[1]);
      const auto r = cli(args);
      EXPECT_EQ(r.status, 1);
      EXPECT_NE(r.err.find(in + ":"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(": error: expected a value but found end of input"), std::string::npos)
          << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
  }
  const auto comments_only = cli({"check", "--comments", file("c.ston", "/* nothing */\n")});
  EXPECT_EQ(comments_only.status, 1);
  EXPECT_EQ(comments_only.err,
            path("c.ston") + ":2:1: error: expected a value but found end of input\n");
}

TEST_F(Cli, AByteOrderMarkIsSkippedInEveryInputFormat) {
  const std::string bom = "\xef\xbb\xbf";
  struct Case {
    std::string name;
    std::string content;
    std::string as_json;
  };
  const Case cases[] = {
      {"in.json", bom + "[{\"a\":\"\xc3\xa9\"}]", "[{\"a\":\"\xc3\xa9\"}]\n"},
      {"in.jsonl", bom + "{\"a\":\"\xc3\xa9\"}\n", "[{\"a\":\"\xc3\xa9\"}]\n"},
      {"in.ston", bom + "[{'a':'\xc3\xa9'}]", "[{\"a\":\"\xc3\xa9\"}]\n"},
      {"in.csv", bom + "a\n\xc3\xa9\n", "[{\"a\":\"\xc3\xa9\"}]\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string in = file(c.name, c.content);
    const auto check = cli({"check", in});
    EXPECT_EQ(check.status, 0) << check.err;
    const auto convert = cli({"convert", "--to", "json", in, "-"});
    EXPECT_EQ(convert.status, 0) << convert.err;
    EXPECT_EQ(convert.out, c.as_json);
  }
  const auto fmt = cli({"fmt", "--compact", file("f.json", bom + "{\"k\": [1, 2]}")});
  EXPECT_EQ(fmt.status, 0) << fmt.err;
  EXPECT_EQ(fmt.out, "{\"k\":[1,2]}\n");
}

// ---- Pipelines ---------------------------------------------------------------------------

// `tail -f log.jsonl | bufstream convert --to csv --flush-each - -`: each record comes out
// while the input is still open, before the next one is written.
TEST_F(Cli, FlushEachDeliversEveryRecordBeforeTheInputEnds) {
  struct Case {
    std::vector<std::string> args;
    std::string first_in, first_out, second_in, second_out;
  };
  const Case cases[] = {
      {{"convert", "--from", "jsonl", "--to", "csv", "--flush-each", "-", "-"},
       "{\"a\":1,\"b\":\"x\"}\n",
       "a,b\r\n1,x\r\n",
       "{\"a\":2,\"b\":\"y\"}\n",
       "2,y\r\n"},
      {{"convert", "--from", "csv", "--to", "jsonl", "--flush-each", "-", "-"},
       "a,b\n1,2\n",
       "{\"a\":\"1\",\"b\":\"2\"}\n",
       "3,4\n",
       "{\"a\":\"3\",\"b\":\"4\"}\n"},
      {{"fmt", "--format", "jsonl", "--flush-each", "-"},
       "[1, 2]\n",
       "[1,2]\n",
       "{\"k\" : null}\n",
       "{\"k\":null}\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[0] + " " + c.args[2]);
    RunningCli running(c.args);
    running.write(c.first_in);
    EXPECT_EQ(running.read_until(c.first_out), c.first_out);
    running.write(c.second_in);
    EXPECT_EQ(running.read_until(c.second_out), c.second_out);
    const auto r = running.finish();
    EXPECT_EQ(r.status, 0) << r.err;
  }
}

}  // namespace
}  // namespace bufstream
