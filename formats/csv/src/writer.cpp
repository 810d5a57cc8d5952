#include <bufstream/csv/writer.hpp>

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include <bufstream/errors.hpp>
#include <bufstream/numbers.hpp>

#include "scanners.hpp"

namespace bufstream::csv {

namespace {

// Bytes that can occur in the text of an integer or a double (`-1.5e+10`, `inf`, `nan`).
constexpr std::string_view number_bytes = "0123456789+-.einfa";

}  // namespace

Writer::Writer(WriteStream& out, WriteOptions options)
    : out_(out),
      options_(options),
      scan_(std::make_unique<const detail::WriterScanners>(options.separator)),
      number_needs_check_(number_bytes.find(options.separator) != std::string_view::npos) {
  const char s = options_.separator;
  if (s == '"' || s == '\r' || s == '\n') {
    throw UsageError(fmt::format("csv::Writer: the separator cannot be {}",
                                 describe_byte(static_cast<unsigned char>(s))));
  }
}

Writer::~Writer() = default;
Writer::Writer(Writer&&) noexcept = default;

bool Writer::needs_quotes(std::string_view text) const noexcept {
  if (text.empty()) return false;
  if (scan_->specials.find(text.data(), text.data() + text.size()) != text.data() + text.size())
    return true;
  const auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
  return is_blank(text.front()) || is_blank(text.back());
}

bool Writer::starts_output_with_bom(std::string_view text) const noexcept {
  return text.starts_with("\xEF\xBB\xBF") && fields_in_record_ == 0 && out_.position() == 0;
}

void Writer::field(std::string_view text) {
  bool quote = false;
  switch (options_.quoting) {
    case Quoting::always: quote = true; break;
    case Quoting::as_needed:
      // A byte-order mark at the very start of the output would be skipped by readers (ours
      // included): in quotes it is data.
      quote = needs_quotes(text) || starts_output_with_bom(text);
      break;
    case Quoting::never: {
      const char* const end = text.data() + text.size();
      const char* const special = scan_->specials.find(text.data(), end);
      if (special != end) {
        throw UsageError(fmt::format(
            "csv::Writer: field {} of record {} needs quotes (it holds {}) but quoting is never",
            fields_in_record_ + 1, record_count_ + 1,
            describe_byte(static_cast<unsigned char>(*special))));
      }
      if (starts_output_with_bom(text)) {
        throw UsageError(
            "csv::Writer: the first field starts with a byte-order mark, which readers skip unless it "
            "is quoted, but quoting is never");
      }
      break;
    }
  }
  begin_field();
  if (quote) {
    write_quoted(text);
  } else {
    out_.write(text);
  }
  last_field_empty_ = text.empty() && !quote;
}

void Writer::field(double value) {
  char text[max_double_chars];
  number_field(text, format_double(text, value));
}

void Writer::field(float value) {
  char text[max_double_chars];
  number_field(text, std::to_chars(text, text + sizeof text, value).ptr);
}

void Writer::number_field(const char* text, const char* end) {
  const std::string_view number(text, static_cast<std::size_t>(end - text));
  // A number holds no quote, CR, LF or space; it needs quotes only under `always`, or when
  // the separator is a byte numbers are made of (a '.' or '-' separator).
  if (options_.quoting == Quoting::always ||
      (number_needs_check_ && number.find(options_.separator) != std::string_view::npos)) {
    field(number);
    return;
  }
  begin_field();
  out_.write(number);
  last_field_empty_ = false;
}

void Writer::write_quoted(std::string_view text) {
  out_.put('"');
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const auto* quote =
        static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
    if (quote == nullptr) {
      out_.write(p, static_cast<std::size_t>(end - p));
      break;
    }
    out_.write(p, static_cast<std::size_t>(quote + 1 - p));
    out_.put('"');  // the quote again: a quote inside a quoted field is written twice
    p = quote + 1;
  }
  out_.put('"');
}

void Writer::end_record() {
  // A record whose only field is empty would be an empty line, which some readers skip.
  if (fields_in_record_ == 1 && last_field_empty_ && options_.quoting == Quoting::as_needed) {
    out_.write(std::string_view("\"\"", 2));
  }
  if (options_.line_end == bufstream::LineEnd::crlf) {
    out_.crlf();
  } else {
    out_.lf();
  }
  fields_in_record_ = 0;
  last_field_empty_ = false;
  ++record_count_;
}

}  // namespace bufstream::csv
