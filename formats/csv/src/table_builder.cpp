#include "table_builder.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include <bufstream/numbers.hpp>

#include "table_inference.hpp"

namespace bufstream::csv::detail {

namespace {

constexpr std::size_t words_for(std::size_t bits) noexcept { return (bits + 63) / 64; }

// Appends the first `src_bits` bits of `src` to the `dst_bits` bits of `dst` (one word per 64
// bits or part of them; the bits past the end are 0 in both).
void append_bits(std::vector<std::uint64_t>& dst, std::size_t dst_bits,
                 const std::vector<std::uint64_t>& src, std::size_t src_bits) {
  const std::size_t words = words_for(src_bits);
  const std::size_t shift = dst_bits % 64;
  if (shift == 0) {
    dst.insert(dst.end(), src.begin(), src.begin() + static_cast<std::ptrdiff_t>(words));
    return;
  }
  const std::size_t total = words_for(dst_bits + src_bits);
  for (std::size_t w = 0; w < words; ++w) {
    dst.back() |= src[w] << shift;
    if (dst.size() < total) dst.push_back(src[w] >> (64 - shift));
  }
}

void advise_large(void* data, std::size_t size) noexcept {
  if (size >= (std::size_t{1} << 21)) advise_huge_pages(data, size);  // a huge page or more
}

// The room after `values`' end advised to huge pages, where it is large: a table is written
// once, into fresh memory, and 4 KiB pages cost a fault each.
template <class Values>
void advise_room(Values& values) noexcept {
  advise_large(values.data() + values.size(),
               (values.capacity() - values.size()) * sizeof(typename Values::value_type));
}

// Room in `values` for `more` after its end: at least doubling when it grows (a table's
// columns grow by whole chunks).
template <class Values>
void make_room(Values& values, std::size_t more) {
  if (values.capacity() - values.size() >= more) return;
  values.reserve(std::max(values.capacity() * 2, values.size() + more));
  advise_room(values);
}

// The number of rows before which the sample decides (every row when there is no report).
std::uint64_t sample_of(const WideningReports* reports) noexcept {
  return reports == nullptr ? std::numeric_limits<std::uint64_t>::max() : reports->sample_rows;
}

}  // namespace

// ---- RowLines -------------------------------------------------------------------------------

void RowLines::append(const RowLines& chunk, std::uint64_t line_offset) {
  const std::uint64_t first_row = next_row_;
  for (const auto& [row, line] : chunk.runs_) {
    if (row == 0 && line + line_offset == next_line_) continue;  // goes on from the last row
    runs_.emplace_back(first_row + row, line + line_offset);
  }
  if (chunk.next_row_ != 0) {
    next_row_ = first_row + chunk.next_row_;
    next_line_ = chunk.next_line_ + line_offset;
  }
}

std::uint64_t RowLines::line_of(std::uint64_t row) const {
  auto run =
      std::upper_bound(runs_.begin(), runs_.end(), row,
                       [](std::uint64_t r, const std::pair<std::uint64_t, std::uint64_t>& start) {
                         return r < start.first;
                       });
  if (run == runs_.begin()) return 0;
  --run;
  return run->second + (row - run->first);
}

// ---- ColumnBuilder --------------------------------------------------------------------------

inline void ColumnBuilder::push_valid(TableColumn& c) {
  const std::size_t bit = c.size_ % 64;
  if (bit == 0) {
    c.validity_.push_back(1);
  } else {
    c.validity_.back() |= std::uint64_t{1} << bit;
  }
  ++c.size_;
}

ColumnBuilder::ColumnBuilder(std::size_t index, std::string name, std::optional<ColumnType> given,
                             bool keeps_text)
    : column_(std::move(name), given.value_or(ColumnType::text)),
      index_(index),
      given_(given.has_value()),
      keeps_text_(keeps_text),
      decided_(given.has_value()) {}

bool ColumnBuilder::try_append(std::string_view text) {
  TableColumn& c = column_;
  if (given_) {
    c.append(text);  // ConversionError where it does not convert
    return true;
  }
  switch (c.type_) {
    case ColumnType::int64: {
      const std::optional<std::int64_t> value = inferred_integer(text);
      if (!value) return false;
      if (*value == 0 && text.front() == '-') exceptions_.emplace_back(c.size_, text);
      c.integers_.push_back(*value);
      break;
    }
    case ColumnType::float64: {
      const std::optional<double> value = inferred_double(text);
      if (!value) return false;
      c.doubles_.push_back(*value);
      keep(text);
      break;
    }
    case ColumnType::boolean: {
      const std::optional<bool> value = inferred_boolean(text);
      if (!value) return false;
      if (text != (*value ? "true" : "false")) exceptions_.emplace_back(c.size_, text);
      c.booleans_.push_back(*value ? 1 : 0);
      break;
    }
    case ColumnType::text:
      c.bytes_.append(text);
      c.offsets_.push_back(c.bytes_.size());
      break;
  }
  push_valid(c);
  return true;
}

void ColumnBuilder::append_slowly(std::string_view text, WideningReports* reports) {
  if (text.empty()) {
    if (!decided_) {
      ++undecided_rows_;
      return;
    }
    column_.append_empty();
    if (!given_ && column_.type_ == ColumnType::float64) keep({});
    return;
  }
  if (!decided_) {
    // The first value decides; once the sample is over without one, the column is text.
    first_value_row_ = undecided_rows_;
    decide(undecided_rows_ >= sample_of(reports) ? ColumnType::text : narrowest_type(text));
  }
  if (try_append(text)) return;
  widen(text, reports);
  try_append(text);  // the type it widened to fits it
}

void ColumnBuilder::decide(ColumnType type) {
  column_.type_ = type;
  decided_ = true;
  column_.reserve(undecided_rows_);
  for (std::size_t i = 0; i < undecided_rows_; ++i) {
    column_.append_empty();
    if (type == ColumnType::float64) keep({});
  }
  undecided_rows_ = 0;
}

void ColumnBuilder::grow_kept(std::size_t more) {
  const std::size_t capacity = std::max({kept_capacity_ * 2, kept_size_ + more, std::size_t{4096}});
  std::unique_ptr<char[]> larger(new char[capacity]);
  advise_large(larger.get() + kept_size_, capacity - kept_size_);
  if (kept_size_ != 0) std::memcpy(larger.get(), kept_.get(), kept_size_);
  kept_ = std::move(larger);
  kept_capacity_ = capacity;
}

std::string_view ColumnBuilder::next_kept(std::size_t& at) const noexcept {
  const char* p = kept_.get() + at;
  std::uint64_t size = static_cast<unsigned char>(*p++);
  if (size == 255) {
    std::memcpy(&size, p, sizeof size);
    p += sizeof size;
  }
  at = static_cast<std::size_t>(p - kept_.get()) + size;
  return {p, static_cast<std::size_t>(size)};
}

void ColumnBuilder::report(ColumnType from, ColumnType to, std::uint64_t row,
                           std::string_view value, WideningReports* reports) {
  if (reports == nullptr || reports->widenings == nullptr) return;
  // Within the sample the type is still being found, unless it has been reported to widen.
  if (row < reports->sample_rows && !reported_) return;
  reported_ = true;
  reports->widenings->push_back(
      {index_, column_.name_, from, to, row, reports->lines->line_of(row), std::string(value)});
}

void ColumnBuilder::widen(std::string_view value, WideningReports* reports) {
  const ColumnType to = widened_type(column_.type_, value);
  if (to == ColumnType::text && column_.type_ == ColumnType::float64 && !keeps_text_) {
    throw TextNeeded{index_};  // before anything is reported: the read starts again
  }
  report(column_.type_, to, size(), value, reports);
  widened_ = true;
  if (to == ColumnType::float64) {
    to_double(reports);
  } else {
    to_text();
  }
}

void ColumnBuilder::to_double(WideningReports* reports) {
  // Each integer as a double, exactly: as parsing its text as a double gives it, unless it
  // lies beyond 2^53, which a double does not hold (inferred_double declines its text).
  constexpr std::uint64_t exact_limit = std::uint64_t{1} << 53;
  const TableColumn& ints = column_;
  TableColumn doubles(ints.name_, ColumnType::float64);
  doubles.doubles_.reserve(ints.size_);
  kept_size_ = 0;  // an integer column keeps no text: the doubles' is kept from here
  std::size_t row = 0;
  bool exact = true;
  for_each_text([&](std::string_view text) {
    if (!exact) return;
    if (text.empty()) {
      doubles.doubles_.push_back(0.0);
    } else if (text == "-0") {  // the one integer exception: as a double, -0.0
      doubles.doubles_.push_back(-0.0);
    } else {
      const std::int64_t value = ints.integers_[row];
      const std::uint64_t magnitude = value < 0
                                          ? std::uint64_t{0} - static_cast<std::uint64_t>(value)
                                          : static_cast<std::uint64_t>(value);
      if (magnitude > exact_limit) {
        // A second widening, to text, at the row of that integer.
        report(ColumnType::float64, ColumnType::text, row, text, reports);
        exact = false;
        return;
      }
      doubles.doubles_.push_back(static_cast<double>(value));
    }
    keep(text);
    ++row;
  });
  if (!exact) {
    to_text();
    return;
  }
  doubles.validity_ = ints.validity_;
  doubles.size_ = ints.size_;
  doubles.empty_count_ = ints.empty_count_;
  column_ = std::move(doubles);
  exceptions_.clear();
}

void ColumnBuilder::to_text() {
  TableColumn text(column_.name_, ColumnType::text);
  text.offsets_.reserve(column_.size_ + 1);
  for_each_text([&](std::string_view value) {
    if (value.empty()) {
      text.append_empty();
    } else {
      text.bytes_.append(value);
      text.offsets_.push_back(text.bytes_.size());
      push_valid(text);
    }
  });
  column_ = std::move(text);
  kept_.reset();
  kept_size_ = 0;
  kept_capacity_ = 0;
  exceptions_.clear();
}

template <class F>
void ColumnBuilder::for_each_text(F f) const {
  if (!decided_) {
    for (std::size_t i = 0; i < undecided_rows_; ++i) f(std::string_view{});
    return;
  }
  const TableColumn& c = column_;
  const bool kept = !given_ && keeps_text_ && c.type_ == ColumnType::float64;
  std::size_t e = 0;
  std::size_t at = 0;  // in kept_
  char buffer[max_integer_chars];
  for (std::size_t i = 0; i < c.size_; ++i) {
    const std::string_view kept_text = kept ? next_kept(at) : std::string_view{};
    if (!c.is_valid(i)) {
      f(std::string_view{});
      continue;
    }
    if (e < exceptions_.size() && exceptions_[e].first == i) {
      f(std::string_view(exceptions_[e++].second));
      continue;
    }
    switch (c.type_) {
      case ColumnType::int64: {
        const char* end = format_integer(buffer, c.integers_[i]);
        f(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
        break;
      }
      case ColumnType::boolean: f(std::string_view(c.booleans_[i] != 0 ? "true" : "false")); break;
      case ColumnType::float64: {
        // Without kept text (given by hand, or read from a file), never replayed nor widened
        // to text; its shortest form rather than nothing, should that change.
        char number[max_double_chars];
        f(kept ? kept_text
               : std::string_view(number, static_cast<std::size_t>(
                                              format_double(number, c.doubles_[i]) - number)));
        break;
      }
      case ColumnType::text:
        f(std::string_view(c.bytes_).substr(c.offsets_[i], c.offsets_[i + 1] - c.offsets_[i]));
        break;
    }
  }
}

void ColumnBuilder::append_all(const ColumnBuilder& chunk, WideningReports* reports) {
  const std::size_t rows = chunk.size();
  if (rows == 0) return;
  if (!chunk.decided_) {
    for (std::size_t i = 0; i < rows; ++i) append_slowly({}, reports);
    return;
  }
  if (!decided_ && !chunk.widened_ && size() + chunk.first_value_row_ < sample_of(reports)) {
    // The chunk's first value is this column's first: its type is this column's, and the
    // chunk's values all fit it.
    first_value_row_ = size() + chunk.first_value_row_;
    decide(chunk.column_.type_);
  }
  if (decided_ && column_.type_ == chunk.column_.type_) {
    append_bulk(chunk);
    return;
  }
  chunk.for_each_text([&](std::string_view text) { append(text, reports); });
}

void ColumnBuilder::append_bulk(const ColumnBuilder& chunk) {
  TableColumn& c = column_;
  const TableColumn& o = chunk.column_;
  const std::size_t base = c.size_;
  make_room(c.validity_, o.validity_.size());
  append_bits(c.validity_, base, o.validity_, o.size_);
  const auto append = [](auto& to, const auto& from) {
    make_room(to, from.size());
    to.insert(to.end(), from.begin(), from.end());
  };
  switch (c.type_) {
    case ColumnType::int64: append(c.integers_, o.integers_); break;
    case ColumnType::float64: append(c.doubles_, o.doubles_); break;
    case ColumnType::boolean: append(c.booleans_, o.booleans_); break;
    case ColumnType::text: {
      const std::uint64_t shift = c.bytes_.size();
      append(c.bytes_, o.bytes_);
      make_room(c.offsets_, o.offsets_.size());
      for (std::size_t i = 1; i < o.offsets_.size(); ++i)
        c.offsets_.push_back(o.offsets_[i] + shift);
      break;
    }
  }
  c.size_ += o.size_;
  c.empty_count_ += o.empty_count_;
  if (!given_ && c.type_ == ColumnType::float64 && keeps_text_) {
    if (kept_capacity_ - kept_size_ < chunk.kept_size_) grow_kept(chunk.kept_size_);
    if (chunk.kept_size_ != 0)
      std::memcpy(kept_.get() + kept_size_, chunk.kept_.get(), chunk.kept_size_);
    kept_size_ += chunk.kept_size_;
  }
  for (const auto& [row, text] : chunk.exceptions_) exceptions_.emplace_back(base + row, text);
}

void ColumnBuilder::reserve(std::size_t rows) {
  if (!decided_) return;
  TableColumn& c = column_;
  c.reserve(rows);
  advise_room(c.validity_);
  switch (c.type_) {
    case ColumnType::int64: advise_room(c.integers_); break;
    case ColumnType::float64: advise_room(c.doubles_); break;
    case ColumnType::boolean: advise_room(c.booleans_); break;
    case ColumnType::text:
      advise_room(c.offsets_);
      advise_room(c.bytes_);
      break;
  }
  if (!given_ && keeps_text_ && column_.type_ == ColumnType::float64 && rows > column_.size_) {
    if (column_.size_ != 0) {
      const double per_value = static_cast<double>(kept_size_) / static_cast<double>(column_.size_);
      const auto wanted = static_cast<std::size_t>(per_value * static_cast<double>(rows) * 1.0625);
      if (wanted > kept_capacity_) {
        grow_kept(wanted - kept_size_);
        advise_large(kept_.get() + kept_size_, kept_capacity_ - kept_size_);
      }
    }
  }
}

void ColumnBuilder::clear() {
  TableColumn& c = column_;
  c.type_ = given_ ? c.type_ : ColumnType::text;
  c.size_ = 0;
  c.empty_count_ = 0;
  c.validity_.clear();
  c.integers_.clear();
  c.doubles_.clear();
  c.booleans_.clear();
  c.bytes_.clear();
  c.offsets_.assign(1, 0);
  decided_ = given_;
  widened_ = false;
  reported_ = false;
  undecided_rows_ = 0;
  first_value_row_ = 0;
  kept_size_ = 0;
  exceptions_.clear();
}

TableColumn ColumnBuilder::finish() && {
  if (!decided_) decide(ColumnType::text);
  return std::move(column_);
}

}  // namespace bufstream::csv::detail
