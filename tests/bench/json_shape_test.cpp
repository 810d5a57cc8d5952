// The json-files suite's check of what each library read (suites/json_files.hpp): counts must
// be equal, and the numbers' sums equal up to rounding.
#include <gtest/gtest.h>

#include <string>

#include "harness/results.hpp"
#include "suites/json_files.hpp"

namespace bufstream::bench {
namespace {

JsonShape shape_of_numbers(std::initializer_list<double> numbers) {
  JsonShape s;
  s.arrays = 1;
  s.strings = 2;
  s.string_bytes = 7;
  for (const double n : numbers) s.add_number(n);
  return s;
}

TEST(JsonFilesShape, CountsMustBeEqualAndSumsEqualUpToRounding) {
  const JsonShape read = shape_of_numbers({-65.613616999999977, 43.420273000000009, 1e-7, 12});
  // The same numbers added in another order (an object's members by key) or rounded in their
  // last bit (a parser that does not round correctly): the same shape.
  EXPECT_TRUE(
      same_shape(read, shape_of_numbers({12, 1e-7, 43.420273000000009, -65.613616999999977})));
  EXPECT_TRUE(
      same_shape(read, shape_of_numbers({-65.61361699999999, 43.420273000000009, 1e-7, 12})));
  // A digit misread (the tolerance, 1e-12 of the magnitude, allows for the order of a long
  // sum: a misread in about the first ten digits shows), a number missing, a value of another
  // kind: not the same.
  EXPECT_FALSE(
      same_shape(read, shape_of_numbers({-65.613616999999977, 43.420274000000009, 1e-7, 12})));
  EXPECT_FALSE(same_shape(read, shape_of_numbers({-65.613616999999977, 43.420273000000009, 12})));
  JsonShape more_strings = read;
  ++more_strings.strings;
  EXPECT_FALSE(same_shape(read, more_strings));
  try {
    check_shape("reader", more_strings, read);
    ADD_FAILURE() << "no exception";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("reader found 0 nulls, 0 booleans, 4 numbers"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(check_shape("reader", read, read));
}

}  // namespace
}  // namespace bufstream::bench
