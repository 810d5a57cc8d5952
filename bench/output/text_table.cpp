#include "output/text_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bufstream::bench {

std::string group_digits(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::size_t display_width(const std::string& text) noexcept {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // count lead bytes only
  }));
}

void TextTable::add_column(std::string header, Align align, std::string group) {
  columns_.push_back({std::move(header), align, std::move(group)});
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_separator() { rows_.emplace_back(); }

void TextTable::print(std::FILE* out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) {
      if (!row.empty()) width[c] = std::max(width[c], display_width(row[c]));
    }
  }
  auto cell = [&](const std::string& text, std::size_t c, Align align) {
    const std::size_t pad = width[c] - std::min(width[c], display_width(text));
    return align == Align::left ? text + std::string(pad, ' ') : std::string(pad, ' ') + text;
  };
  const std::string gap = "  ";

  // Group line: each run of columns with the same non-empty group gets its label centred.
  if (std::any_of(columns_.begin(), columns_.end(),
                  [](const Column& c) { return !c.group.empty(); })) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size();) {
      std::size_t end = c + 1;
      std::size_t span = width[c];
      while (end < columns_.size() && !columns_[c].group.empty() &&
             columns_[end].group == columns_[c].group) {
        span += gap.size() + width[end];
        ++end;
      }
      const std::string& label = columns_[c].group;
      const std::size_t left = (span - std::min(span, display_width(label))) / 2;
      std::string text = std::string(left, ' ') + label;
      text += std::string(span - std::min(span, display_width(text)), ' ');
      line += (c == 0 ? "" : gap) + text;
      c = end;
    }
    fmt::print(out, "{}\n", line.substr(0, line.find_last_not_of(' ') + 1));
  }
  std::string header;
  std::size_t total = 0;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    header += (c == 0 ? "" : gap) + cell(columns_[c].header, c, columns_[c].align);
    total += width[c] + (c == 0 ? 0 : gap.size());
  }
  fmt::print(out, "{}\n{}\n", header, std::string(total, '-'));
  for (const auto& row : rows_) {
    if (row.empty()) {
      fmt::print(out, "{}\n", std::string(total, '-'));
      continue;
    }
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      line += (c == 0 ? "" : gap) + cell(row[c], c, columns_[c].align);
    }
    fmt::print(out, "{}\n", line.substr(0, line.find_last_not_of(' ') + 1));
  }
}

}  // namespace bufstream::bench
