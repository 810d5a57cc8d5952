// The two data sets and the checksums that validate every benchmark read.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"

namespace bufstream::bench {
namespace {

TEST(DataSet, FloatsRowsAreIMinusIReciprocalRootWords) {
  EXPECT_EQ(make_row(DataKind::floats, 1), (Row{1, -1, 1.0, 1.0, "one"}));
  EXPECT_EQ(make_row(DataKind::floats, 4), (Row{4, -4, 0.25, 2.0, "four"}));
  const Row last = make_row(DataKind::floats, 25000);
  EXPECT_EQ(last.i, 25000);
  EXPECT_EQ(last.minus_i, -25000);
  EXPECT_EQ(last.x, 1.0 / 25000.0);
  EXPECT_EQ(last.y, std::sqrt(25000.0));
  EXPECT_EQ(last.words, "twenty-five thousand");
}

TEST(DataSet, IntegersRowsAreShiftedByOneHundredThousand) {
  EXPECT_EQ(make_row(DataKind::integers, 7), (Row{7, -7, 100007.0, -99993.0, "seven"}));
  EXPECT_EQ(make_row(DataKind::integers, 1234),
            (Row{1234, -1234, 101234.0, -98766.0, "one thousand, two hundred thirty-four"}));
}

TEST(DataSet, HoldsRowsOneToCountInOrder) {
  for (DataKind kind : {DataKind::floats, DataKind::integers}) {
    const DataSet set = make_data_set(kind, 1500);
    ASSERT_EQ(set.rows.size(), 1500u);
    EXPECT_EQ(set.kind, kind);
    EXPECT_EQ(set.integral(), kind == DataKind::integers);
    for (std::size_t k = 0; k < set.rows.size(); ++k) {
      ASSERT_EQ(set.rows[k], make_row(kind, static_cast<std::int64_t>(k + 1))) << "row " << k;
    }
  }
  EXPECT_TRUE(make_data_set(DataKind::floats, 0).rows.empty());
}

TEST(DataSet, NamesRoundTrip) {
  EXPECT_EQ(to_string(DataKind::floats), "floats");
  EXPECT_EQ(to_string(DataKind::integers), "integers");
  EXPECT_EQ(parse_data_kind("floats"), DataKind::floats);
  EXPECT_EQ(parse_data_kind("integers"), DataKind::integers);
  EXPECT_EQ(parse_data_kind("Floats"), std::nullopt);
  EXPECT_EQ(parse_data_kind(""), std::nullopt);
}

TEST(Checksum, EqualRowsMatch) {
  const DataSet set = make_data_set(DataKind::floats, 100);
  EXPECT_TRUE(checksum(set).matches(checksum(set.rows)));
  EXPECT_EQ(checksum(set).count, 100u);
}

TEST(Checksum, DetectsEveryKindOfChange) {
  const DataSet set = make_data_set(DataKind::floats, 100);
  const Checksum expected = checksum(set);
  auto changed = [&](auto change) {
    std::vector<Row> rows = set.rows;
    change(rows);
    return checksum(rows).matches(expected);
  };
  EXPECT_FALSE(changed([](auto& rows) { rows.pop_back(); }));
  EXPECT_FALSE(changed([](auto& rows) { std::swap(rows[3], rows[4]); }));
  EXPECT_FALSE(changed([](auto& rows) { rows[50].i += 1; }));
  EXPECT_FALSE(changed([](auto& rows) { rows[50].minus_i = 50; }));
  EXPECT_FALSE(changed([](auto& rows) { rows[50].words += ' '; }));
  EXPECT_FALSE(changed([](auto& rows) { rows[50].x *= 1.000001; }));
  EXPECT_FALSE(changed([](auto& rows) { rows[50].y += 1e-6; }));
  EXPECT_FALSE(changed([](auto& rows) { std::swap(rows[50].x, rows[50].y); }));
}

TEST(Checksum, ToleratesAnUlpInTheNumbers) {
  // RapidJSON's default parse is not correctly rounded; an ulp is not a wrong result.
  const DataSet set = make_data_set(DataKind::floats, 100);
  std::vector<Row> rows = set.rows;
  rows[10].x = std::nextafter(rows[10].x, 1.0);
  rows[20].y = std::nextafter(rows[20].y, 0.0);
  EXPECT_TRUE(checksum(rows).matches(checksum(set)));
}

TEST(Checksum, OfBytesIsSizeAndHash) {
  EXPECT_TRUE(bytes_checksum("abc").matches(bytes_checksum("abc")));
  EXPECT_FALSE(bytes_checksum("abc").matches(bytes_checksum("abd")));
  EXPECT_FALSE(bytes_checksum("abc").matches(bytes_checksum("abcd")));
  EXPECT_EQ(bytes_checksum("abcd").count, 4u);
}

}  // namespace
}  // namespace bufstream::bench
