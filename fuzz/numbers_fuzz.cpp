// Number parsing: parse_double and parse_integer take exactly the texts std::from_chars takes
// whole (parse_double: decimal only, no leading '+', no inf/nan) and give the same value, bit
// for bit; a double out of range gives nothing when too large and the correctly rounded
// result (0 or a subnormal) when too small.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <bufstream/numbers.hpp>

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_double(std::string_view text) {
  const std::optional<double> ours = bufstream::parse_double(text);
  const bool decimal_bytes = !text.empty() && text[0] != '+' &&
                             text.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (!decimal_bytes || ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    if (ours) std::abort();  // from_chars does not take all of it, or it is not decimal
    return;
  }
  if (ec == std::errc()) {
    if (!ours || !same_bits(*ours, value)) std::abort();
    return;
  }
  // Out of range: strtod tells overflow (infinity) from underflow (0 or a subnormal, correctly
  // rounded).
  const std::string copy(text);
  const double nearest = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(nearest)) {
    if (ours) std::abort();
  } else if (!ours || !same_bits(*ours, nearest)) {
    std::abort();
  }
}

template <class T>
void check_integer(std::string_view text) {
  const std::optional<T> ours = bufstream::parse_integer<T>(text);
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  const bool whole = !text.empty() && ec == std::errc() && ptr == end;
  if (ours.has_value() != whole || (whole && *ours != value)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_double(text);
  check_integer<std::int64_t>(text);
  check_integer<std::uint64_t>(text);
  check_integer<std::int32_t>(text);
  check_integer<std::uint32_t>(text);
  check_integer<std::int16_t>(text);
  check_integer<std::uint8_t>(text);
  return 0;
}
