#include "csv_records.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace bufstream::cli {

void CsvRecords::fail(const ShapeProblem& problem) const {
  fail_(problem);
  throw std::logic_error("CsvRecords: the fail callback returned");
}

void CsvRecords::start(Shape shape) {
  if (shape_ != Shape::unknown && shape_ != shape) {
    const bool map = shape == Shape::maps;
    fail({fmt::format("expected {} like the first {} but found {}",
                      map ? words_.a_list : words_.a_map, words_.record,
                      map ? words_.a_map : words_.a_list),
          {},
          true});
  }
  shape_ = shape;
}

void CsvRecords::begin_list() {
  start(Shape::lists);
  count_ = 0;
}

void CsvRecords::list_field(std::string_view text) {
  writer_.field(text);
  ++count_;
}

void CsvRecords::end_list() {
  if (width_ && count_ != *width_) {
    fail({fmt::format("expected {} fields like the first {} but found {}", *width_, words_.record,
                      count_),
          {}});
  }
  width_ = count_;
  writer_.end_record();
}

void CsvRecords::begin_map() {
  start(Shape::maps);
  values_.assign(names_.size(), std::nullopt);
}

std::optional<std::string>& CsvRecords::map_slot(std::string_view key) {
  auto it = std::find(names_.begin(), names_.end(), key);
  if (!header_written_) {  // the first map: its keys are the columns
    if (it != names_.end())
      fail({"occurs twice (a JSON object cannot hold both)", std::string(key)});
    names_.emplace_back(key);
    return values_.emplace_back();
  }
  if (it == names_.end())
    fail({fmt::format("is not a column of the first {}", words_.record), std::string(key)});
  auto& slot = values_[static_cast<std::size_t>(it - names_.begin())];
  if (slot) fail({"occurs twice (a JSON object cannot hold both)", std::string(key)});
  return slot;
}

void CsvRecords::end_map() {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (!values_[i]) {
      fail({fmt::format("the {} has no key '{}' (the first {} had it)", words_.map, names_[i],
                        words_.record),
            {}});
    }
  }
  if (!header_written_) {
    writer_.record(names_);
    header_written_ = true;
  }
  for (const auto& v : values_) writer_.field(*v);
  writer_.end_record();
}

}  // namespace bufstream::cli
