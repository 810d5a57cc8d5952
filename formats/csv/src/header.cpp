#include <bufstream/csv/header.hpp>

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bufstream/errors.hpp>

namespace bufstream::csv {

std::optional<std::size_t> Header::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return i;
  }
  return std::nullopt;
}

std::size_t Header::index(std::string_view name) const {
  if (const auto i = find(name)) return *i;
  throw AccessError(
      fmt::format("the CSV header has no column '{}' (it has: {})", name, fmt::join(names_, ", ")));
}

}  // namespace bufstream::csv
