// Every WriteStream operation over every sink: a string, a file, a pipe and a socket pair
// (each drained by a reader), a sink that writes at most 3 bytes per call and is interrupted
// every other call, each on its own and through a BufferedWriteStream of 1, 2, 3, 7 and 65,536.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/numbers.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using test::WriteSetup;

class WriteOps : public ::testing::TestWithParam<WriteSetup> {
 protected:
  std::unique_ptr<test::WriteTarget> target_ = GetParam().make();
  WriteStream& out() { return target_->stream(); }
  std::string finish() { return target_->finish(); }
};

INSTANTIATE_TEST_SUITE_P(AllSinks, WriteOps, ::testing::ValuesIn(test::all_write_setups()),
                         test::write_setup_name);

TEST_P(WriteOps, NothingWrittenGivesNothing) {
  EXPECT_EQ(out().position(), 0u);
  EXPECT_EQ(finish(), "");
}

TEST_P(WriteOps, PutAndWriteKeepTheOrder) {
  out().put('a');
  out().write("bcd");
  out().write(std::string_view());
  out().write("efghijklmnopqrstuvwxyz", 3);
  const std::byte raw[] = {std::byte{0}, std::byte{0xff}};
  out().write(std::span<const std::byte>(raw));
  out().put('\0');
  EXPECT_EQ(out().position(), 10u);
  EXPECT_EQ(finish(), std::string("abcdefg\0\xff\0", 10));
}

TEST_P(WriteOps, SeparatorsAndLineEnds) {
  out().put('a');
  out().space();
  out().tab();
  out().lf();
  out().crlf();
  out().put('b');
  EXPECT_EQ(out().position(), 7u);
  EXPECT_EQ(finish(), "a \t\n\r\nb");
}

template <class T>
std::string print_limits(WriteStream& out) {
  out.print(std::numeric_limits<T>::min());
  out.put(' ');
  out.print(std::numeric_limits<T>::max());
  out.put(' ');
  out.print(T{0});
  out.put('\n');
  return std::to_string(+std::numeric_limits<T>::min()) + " " +
         std::to_string(+std::numeric_limits<T>::max()) + " 0\n";
}

TEST_P(WriteOps, PrintEveryIntegerTypeAtItsLimits) {
  std::string expected;
  expected += print_limits<signed char>(out());
  expected += print_limits<unsigned char>(out());
  expected += print_limits<short>(out());
  expected += print_limits<unsigned short>(out());
  expected += print_limits<int>(out());
  expected += print_limits<unsigned>(out());
  expected += print_limits<long>(out());
  expected += print_limits<unsigned long>(out());
  expected += print_limits<long long>(out());
  expected += print_limits<unsigned long long>(out());
  expected += print_limits<std::int8_t>(out());
  expected += print_limits<std::uint64_t>(out());
  EXPECT_EQ(expected.substr(0, 9), "-128 127 ");
  EXPECT_NE(expected.find("-9223372036854775808 9223372036854775807 0"), std::string::npos);
  EXPECT_NE(expected.find("0 18446744073709551615 0"), std::string::npos);
  EXPECT_EQ(out().position(), expected.size());
  EXPECT_EQ(finish(), expected);
}

TEST_P(WriteOps, PrintBoolAndDoubles) {
  out().print(true);
  out().space();
  out().print(false);
  for (double d :
       {0.0, -0.0, 1.0, 0.1, -2.5, 1e100, 5e-324, 1.7976931348623157e308,
        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()}) {
    out().space();
    out().print(d);
  }
  EXPECT_EQ(finish(),
            "true false 0 -0 1 0.1 -2.5 1e+100 5e-324 1.7976931348623157e+308 inf -inf nan");
}

TEST_P(WriteOps, ReserveAndCommitFormatInPlace) {
  char* p = out().reserve(8);
  std::memcpy(p, "12345678", 8);
  out().commit(3);  // only the first three are kept
  p = out().reserve(0);
  out().commit(0);
  p = out().reserve(1);
  *p = '|';
  out().commit(1);
  EXPECT_EQ(out().position(), 4u);
  EXPECT_EQ(finish(), "123|");
}

TEST_P(WriteOps, ReserveLargerThanAnyBuffer) {
  const std::string big = test::random_bytes(200000, 5);
  out().put('<');
  char* p = out().reserve(big.size());
  std::memcpy(p, big.data(), big.size());
  out().commit(big.size() - 1);
  out().put('>');
  EXPECT_EQ(out().position(), big.size() + 1);
  EXPECT_EQ(finish(), "<" + big.substr(0, big.size() - 1) + ">");
}

TEST_P(WriteOps, PutIntEverySizeBothOrders) {
  out().put_int<std::uint8_t>(0x01);
  out().put_int<std::int8_t>(-1, std::endian::little);
  out().put_int<std::uint16_t>(0x0203);
  out().put_int<std::int16_t>(0x0405, std::endian::little);
  out().put_int<std::uint32_t>(0x06070809u);
  out().put_int<std::int32_t>(-2, std::endian::little);
  out().put_int<std::uint64_t>(0x0a0b0c0d0e0f1011ull);
  out().put_int<std::int64_t>(0x1213141516171819ll, std::endian::little);
  EXPECT_EQ(out().position(), 30u);
  EXPECT_EQ(finish(), std::string("\x01\xff\x02\x03\x05\x04\x06\x07\x08\x09\xfe\xff\xff\xff"
                                  "\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"
                                  "\x19\x18\x17\x16\x15\x14\x13\x12",
                                  30));
}

TEST_P(WriteOps, PutIntReadsBackWithNextInt) {
  const std::vector<std::int64_t> values{0,
                                         1,
                                         -1,
                                         127,
                                         -128,
                                         255,
                                         32767,
                                         -32768,
                                         65535,
                                         std::numeric_limits<std::int32_t>::min(),
                                         std::numeric_limits<std::int64_t>::max(),
                                         std::numeric_limits<std::int64_t>::min()};
  for (auto order : {std::endian::big, std::endian::little}) {
    for (std::int64_t v : values) {
      out().put_int(static_cast<std::int8_t>(v), order);
      out().put_int(static_cast<std::uint16_t>(v), order);
      out().put_int(static_cast<std::int32_t>(v), order);
      out().put_int(static_cast<std::uint64_t>(v), order);
    }
  }
  const std::string bytes = finish();
  MemoryReadStream in(bytes);
  for (auto order : {std::endian::big, std::endian::little}) {
    for (std::int64_t v : values) {
      EXPECT_EQ(in.next_int<std::int8_t>(order), static_cast<std::int8_t>(v));
      EXPECT_EQ(in.next_int<std::uint16_t>(order), static_cast<std::uint16_t>(v));
      EXPECT_EQ(in.next_int<std::int32_t>(order), static_cast<std::int32_t>(v));
      EXPECT_EQ(in.next_int<std::uint64_t>(order), static_cast<std::uint64_t>(v));
    }
  }
  EXPECT_TRUE(in.at_end());
}

TEST_P(WriteOps, FlushPassesEverythingOnAndWritingGoesOn) {
  out().write("first");
  out().flush();
  out().flush();
  out().write(" second");
  EXPECT_EQ(out().position(), 12u);
  EXPECT_EQ(finish(), "first second");
}

TEST_P(WriteOps, WritingAfterCloseThrowsAndCloseTwiceIsANoOp) {
  out().write("done");
  EXPECT_EQ(finish(), "done");
  EXPECT_TRUE(out().is_closed());
  EXPECT_FALSE(out().failed());
  EXPECT_THROW(out().put('x'), IoError);
  EXPECT_THROW(out().write("xyz"), IoError);
  EXPECT_THROW(out().print(1), IoError);
  EXPECT_THROW((void)out().reserve(1), IoError);
  EXPECT_THROW(out().flush(), IoError);
  EXPECT_NO_THROW(out().close());
  EXPECT_EQ(out().position(), 4u);
}

TEST_P(WriteOps, ManySmallWritesOfEveryLength) {
  std::string expected;
  for (std::size_t len = 0; len < 40; ++len) {
    const std::string piece(len, static_cast<char>('a' + len % 26));
    out().write(piece);
    expected += piece;
    out().print(len);
    expected += std::to_string(len);
  }
  EXPECT_EQ(out().position(), expected.size());
  EXPECT_EQ(finish(), expected);
}

}  // namespace
}  // namespace bufstream
