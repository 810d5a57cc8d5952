// Megabytes of random bytes written and read with operations of random kinds and sizes (a
// seeded generator: the same sequence on every run), compared byte for byte with a reference,
// over every sink and every source.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

constexpr std::size_t transfer_size = 2 << 20;

/// A size from a spread that exercises every path: mostly small, some around typical buffer
/// sizes, a few far larger than any buffer.
std::size_t random_size(test::SplitMix64& rng) {
  switch (rng.below(10)) {
    case 0: return rng.below(200000);
    case 1:
    case 2:
    case 3: return rng.below(5000);
    default: return rng.below(17);
  }
}

class RandomWrites : public ::testing::TestWithParam<test::WriteSetup> {};

INSTANTIATE_TEST_SUITE_P(AllSinks, RandomWrites, ::testing::ValuesIn(test::all_write_setups()),
                         test::write_setup_name);

TEST_P(RandomWrites, MegabytesArriveByteForByte) {
  const std::string data = test::random_bytes(transfer_size, 2024);
  auto target = GetParam().make();
  WriteStream& out = target->stream();
  test::SplitMix64 rng(99);
  std::string expected;
  expected.reserve(data.size() + data.size() / 4);
  std::size_t i = 0;
  while (i < data.size()) {
    const std::size_t n = std::min(random_size(rng), data.size() - i);
    switch (rng.below(6)) {
      case 0:
        out.put(data[i]);
        expected += data[i++];
        break;
      case 1: {
        const auto v = static_cast<std::int64_t>(rng.next());
        out.print(v);
        expected += std::to_string(v);
        break;
      }
      case 2: {
        char* p = out.reserve(n + 3);
        std::memcpy(p, data.data() + i, n);
        out.commit(n);
        expected.append(data, i, n);
        i += n;
        break;
      }
      case 3: {
        const auto v = static_cast<std::uint32_t>(rng.next());
        out.put_int(v, std::endian::little);
        for (int k = 0; k < 4; ++k) expected += static_cast<char>(v >> (8 * k));
        break;
      }
      default:
        out.write(std::string_view(data).substr(i, n));
        expected.append(data, i, n);
        i += n;
        break;
    }
    ASSERT_EQ(out.position(), expected.size());
  }
  const std::string got = target->finish();
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected) << "first difference at "
                               << std::mismatch(got.begin(), got.end(), expected.begin()).first -
                                      got.begin();
}

class RandomReads : public ::testing::TestWithParam<test::ReadSetup> {};

INSTANTIATE_TEST_SUITE_P(AllStreams, RandomReads, ::testing::ValuesIn(test::all_read_setups()),
                         test::setup_name);

TEST_P(RandomReads, MegabytesArriveByteForByte) {
  const std::string data = test::random_bytes(transfer_size, 77);
  const std::string_view ref(data);
  auto r = GetParam().make(data);
  ReadStream& in = *r.stream;
  test::SplitMix64 rng(5);
  std::size_t at = 0;  // how much of `data` has been consumed
  std::string buf;
  while (at < data.size()) {
    const std::size_t n = random_size(rng);
    const std::size_t left = data.size() - at;
    switch (rng.below(8)) {
      case 0:
        ASSERT_EQ(in.next(), data[at]) << at;
        ++at;
        break;
      case 1: ASSERT_EQ(in.peek(), data[at]) << at; break;
      case 2: {
        const std::string got = in.next(n);
        ASSERT_EQ(got.size(), std::min(n, left));
        ASSERT_TRUE(got == ref.substr(at, n)) << at;
        at += got.size();
        break;
      }
      case 3: {
        buf.resize(n);
        const std::size_t got = in.read_into(std::span<char>(buf));
        ASSERT_EQ(got, std::min(n, left));
        ASSERT_TRUE(std::string_view(buf).substr(0, got) == ref.substr(at, got)) << at;
        at += got;
        break;
      }
      case 4: {
        buf.resize(n + 1);
        const std::size_t got = in.read_some(std::span<char>(buf));
        ASSERT_GE(got, 1u);
        ASSERT_TRUE(std::string_view(buf).substr(0, got) == ref.substr(at, got)) << at;
        at += got;
        break;
      }
      case 5: {
        ASSERT_EQ(in.skip(static_cast<std::int64_t>(n)), std::min(n, left));
        at += std::min(n, left);
        break;
      }
      case 6: {
        const std::string_view w = in.fill(n);
        ASSERT_GE(w.size(), std::min(n, left));
        ASSERT_TRUE(w.substr(0, std::min(n, left)) == ref.substr(at, n)) << at;
        const std::size_t k = std::min(w.size(), rng.below(n + 1));
        in.advance(k);
        at += k;
        break;
      }
      default: {
        const char delimiter = data[std::min(at + rng.below(300), data.size() - 1)];
        const std::size_t hit = ref.find(delimiter, at);
        const std::string got = in.up_to(delimiter);
        ASSERT_TRUE(got == ref.substr(at, hit - at)) << at;
        at = hit == std::string_view::npos ? data.size() : hit + 1;
        break;
      }
    }
    ASSERT_EQ(in.position(), at);
  }
  EXPECT_TRUE(in.at_end());
}

}  // namespace
}  // namespace bufstream
