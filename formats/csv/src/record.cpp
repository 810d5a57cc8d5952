#include <bufstream/csv/record.hpp>

#include <stdexcept>

#include <fmt/format.h>

#include <bufstream/errors.hpp>

namespace bufstream::csv {

std::string_view Record::at(std::size_t i) const {
  if (i >= fields_.size()) {
    throw AccessError(fmt::format("record {} (line {}) has {} field{}, no field {}", number_, line_,
                                  fields_.size(), fields_.size() == 1 ? "" : "s", i + 1));
  }
  return fields_[i];
}

}  // namespace bufstream::csv
