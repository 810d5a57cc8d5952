#include <bufstream/csv/reader.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include <bufstream/items_left.hpp>
#include <bufstream/utf8.hpp>

#include "scanners.hpp"

namespace bufstream::csv {

namespace {

void check_separator(char separator, std::string_view who) {
  if (separator == '"' || separator == '\r' || separator == '\n') {
    throw UsageError(fmt::format("{}: the separator cannot be {}", who,
                                 describe_byte(static_cast<unsigned char>(separator))));
  }
}

// Appends the content of a quoted field, `[p, end)`, with each doubled quote written once.
void append_unescaped(std::string& out, const char* p, const char* end) {
  while (p != end) {
    const auto* quote =
        static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
    if (quote == nullptr) {
      out.append(p, end);
      return;
    }
    out.append(p, quote + 1);  // the first quote of the pair
    p = quote + 2;             // skip the second
  }
}

}  // namespace

Reader::Reader(ReadStream& in, ReadOptions options)
    : in_(in),
      options_(std::move(options)),
      scan_(std::make_unique<detail::ReaderScanners>(options_.separator)) {
  check_separator(options_.separator, "csv::Reader");
  line_start_ = in_.position();
  start_position_ = line_start_;
}

Reader::Reader(ReadStream& in, ReadOptions options, const Continuation& before)
    : Reader(in, std::move(options)) {
  options_.skip_bom = false;  // a mark there is data, as it would be to a reader of the whole
  line_ = before.line;
  record_count_ = before.records;
  expected_fields_ = before.field_count;
  has_header_ = before.has_header;
  header_ = before.header;
  header_position_ = before.header_position;
}

Reader::~Reader() = default;

Continuation Reader::continuation() const {
  return {line_, record_count_, expected_fields_, has_header_, header_, header_position_};
}

const Record* Reader::next() {
  if (error_) std::rethrow_exception(error_);
  try {
    // A record follows a non-empty window unless empty lines are skipped (start_record's
    // first test, without the call).
    const bool record_ahead = started_ && !options_.skip_empty_lines && in_.cursor() != in_.limit();
    if (!record_ahead && !start_record()) return nullptr;
    record_offset_ = in_.position();
    record_line_ = line_;
    record_line_start_ = line_start_;
    if (used_side_buffers_) release_large_buffers();
    clear_record();
    if (!read_in_window()) {
      // Start the record again on the path that copies and refills: nothing was consumed.
      clear_record();
      read_across_windows();
    }
    if (options_.validate_utf8) check_utf8();
  } catch (...) {
    error_ = std::current_exception();
    throw;
  }
  return &record_;
}

// Memory follows what the caller keeps: after a huge record, the buffers that held it are
// given back rather than kept for the rest of the input.
void Reader::release_large_buffers() {
  used_side_buffers_ = false;
  constexpr std::size_t keep_bytes = std::size_t{1} << 20;
  if (storage_.capacity() > keep_bytes) std::string().swap(storage_);
  if (stored_.capacity() * sizeof(StoredField) > keep_bytes)
    std::vector<StoredField>().swap(stored_);
  if (quoted_bits_.capacity() * sizeof(std::uint64_t) > keep_bytes)
    std::vector<std::uint64_t>().swap(quoted_bits_);
  if (record_breaks_.capacity() * sizeof(std::uint64_t) > keep_bytes)
    std::vector<std::uint64_t>().swap(record_breaks_);
  if (record_.fields_.capacity() * sizeof(std::string_view) > keep_bytes) {
    std::vector<std::string_view>().swap(record_.fields_);
  }
}

void Reader::clear_record() {
  record_.fields_.clear();
  window_begin_ = nullptr;
  quoted_first_64_ = 0;
  quoted_bits_.clear();
  stored_.clear();
  storage_.clear();
  record_breaks_.clear();
}

void Reader::mark_quoted(std::size_t field) {
  if (field < 64) {
    quoted_first_64_ |= std::uint64_t{1} << field;
    return;
  }
  const std::size_t word = field / 64 - 1;
  if (quoted_bits_.size() <= word) quoted_bits_.resize(word + 1, 0);
  quoted_bits_[word] |= std::uint64_t{1} << (field % 64);
}

// Runs the first-record set-up, skips empty lines if asked, and says whether a record follows.
bool Reader::start_record() {
  if (!started_) {
    started_ = true;
    // Asks for three bytes only when the first could start a mark, so that reading a pipe
    // does not wait for more input than the first record needs.
    if (options_.skip_bom && in_.fill(1).starts_with('\xEF')) utf8::skip_bom(in_);
  }
  for (;;) {
    const std::string_view window = in_.fill(1);
    if (window.empty()) return false;
    const char first = window.front();
    if (!options_.skip_empty_lines || (first != '\r' && first != '\n')) return true;
    in_.advance(1);
    if (first == '\r') in_.peek_for('\n');
    ++line_;
    line_start_ = in_.position();
  }
}

// The fast path: parses the record that starts at the cursor if it ends inside the window and
// is well-formed. Fields are viewed in the window as they are found, except quoted ones with
// doubled quotes, which are unescaped into storage_. Returns false, having consumed nothing, when
// the record runs past the window, when a CR or a closing quote is the window's last byte (what
// follows decides), or when anything is wrong or lenient: the slow path deals with all of those.
bool Reader::read_in_window() {
  const char* const begin = in_.cursor();
  const char* const end = in_.limit();
  const char separator = options_.separator;
  const auto offset_of = [&](const char* p) {
    return record_offset_ + static_cast<std::uint64_t>(p - begin);
  };
  std::vector<std::string_view>& fields = record_.fields_;
  detail::StopMasks& stops = scan_->stops;  // not scan_->: it would be reloaded after each field
  stops.use_window(end, record_offset_ + static_cast<std::uint64_t>(end - begin));
  const char* p = begin;
  for (;;) {
    if (p == end) return false;
    if (*p != '"') {
      const char* const q = stops.next_stop(p);
      if (q == end) return false;
      fields.emplace_back(p, static_cast<std::size_t>(q - p));
      if (stops.is_separator(q)) {
        p = q + 1;
        continue;
      }
      if (*q == '"') return false;
      p = q;  // a line end
    } else {
      const char* q = p + 1;
      bool doubled = false;
      for (;;) {
        q = stops.next_quoted_stop(q);
        if (q == end) return false;
        if (*q == '"') {
          if (q + 1 == end) return false;
          if (q[1] != '"') break;  // the closing quote
          doubled = true;
          q += 2;
          continue;
        }
        // A line end inside the quotes. q[-1] is inside the field (p holds the opening
        // quote), so an LF right after a CR completes the CRLF already counted.
        if (*q == '\n' && q[-1] == '\r') {
          record_breaks_.back() = offset_of(q + 1);
        } else {
          record_breaks_.push_back(offset_of(q + 1));
        }
        ++q;
      }
      const char after = q[1];
      if (after != separator && after != '\r' && after != '\n') return false;
      if (doubled) {
        const std::size_t at = storage_.size();
        append_unescaped(storage_, p + 1, q);
        stored_.push_back({fields.size(), offset_of(p), at, storage_.size() - at, true});
        fields.emplace_back();
      } else {
        if (fields.size() < 64) [[likely]] {
          quoted_first_64_ |= std::uint64_t{1} << fields.size();
        } else {
          mark_quoted(fields.size());
        }
        fields.emplace_back(p + 1, static_cast<std::size_t>(q - p - 1));
      }
      p = q + 1;
      if (after == separator) {
        ++p;
        continue;
      }
    }
    // A line end at p.
    const char* next = p + 1;
    if (*p == '\r') {
      if (next == end) return false;
      if (*next == '\n') ++next;
    }
    if (!options_.variable_field_count && expected_fields_ != 0 &&
        fields.size() != expected_fields_) {
      return false;
    }
    window_begin_ = begin;
    in_.set_cursor(next);
    finish_record(true, offset_of(next));
    return true;
  }
}

// The slow path: parses the record byte run by byte run, refilling the window as needed and
// copying every field into storage_. Reports every error and applies the lenient options.
void Reader::read_across_windows() {
  const char separator = options_.separator;
  bool line_end = false;
  std::uint64_t end_offset = 0;
  for (;;) {
    const std::uint64_t field_offset = in_.position();
    const std::size_t at = storage_.size();
    const std::string_view window = in_.fill(1);
    if (window.empty()) {  // the input ends after a separator: the last field is empty
      stored_.push_back({record_.fields_.size(), field_offset, at, 0, false});
      record_.fields_.emplace_back();
      end_offset = field_offset;
      break;
    }
    const bool quoted = window.front() == '"';
    if (quoted) {
      in_.advance(1);
      read_quoted_field(field_offset);
    } else {
      read_unquoted_field();
    }
    stored_.push_back({record_.fields_.size(), field_offset, at, storage_.size() - at, quoted});
    record_.fields_.emplace_back();
    // Both field readers stop at a separator, a line end or the end of the input.
    end_offset = in_.position();
    const std::optional<char> stop = in_.next();
    if (!stop) break;
    if (*stop == separator) continue;
    if (*stop == '\r') in_.peek_for('\n');
    line_end = true;
    break;
  }
  check_field_count(end_offset);
  finish_record(line_end, in_.position());
}

void Reader::read_unquoted_field() {
  for (;;) {
    if (in_.fill(1).empty()) return;
    const char* const p = in_.cursor();
    const char* const q = scan_->unquoted_stops.find(p, in_.limit());
    storage_.append(p, q);
    in_.set_cursor(q);
    if (q == in_.limit()) continue;
    if (*q != '"') return;
    if (!options_.lazy_quotes) {
      fail(in_.position(),
           "'\"' in an unquoted field (a field that holds quotes must be enclosed in quotes, "
           "with each quote doubled)");
    }
    storage_.push_back('"');
    in_.advance(1);
  }
}

// Reads a quoted field's content after its opening quote (at `open_offset`) up to and
// including its closing quote.
void Reader::read_quoted_field(std::uint64_t open_offset) {
  const std::size_t field_begin = storage_.size();
  const char separator = options_.separator;
  for (;;) {
    if (in_.fill(1).empty()) {
      if (options_.lazy_quotes) return;  // the field holds the rest of the input
      fail(open_offset, "quoted field not closed: the input ends before its closing '\"'");
    }
    const char* const p = in_.cursor();
    const char* const q = scan_->quoted_stops.find(p, in_.limit());
    storage_.append(p, q);
    in_.set_cursor(q);
    if (q == in_.limit()) continue;
    const char c = *q;
    in_.advance(1);
    if (c != '"') {  // a line end inside the quotes
      const bool completes_crlf =
          c == '\n' && storage_.size() > field_begin && storage_.back() == '\r';
      storage_.push_back(c);
      if (completes_crlf) {
        record_breaks_.back() = in_.position();
      } else {
        record_breaks_.push_back(in_.position());
      }
      continue;
    }
    const std::optional<char> after = in_.peek();
    if (after == '"') {  // a doubled quote stands for one
      storage_.push_back('"');
      in_.advance(1);
      continue;
    }
    if (!after || *after == separator || *after == '\r' || *after == '\n') return;
    if (!options_.lazy_quotes) {
      fail(in_.position(),
           fmt::format("expected {}, a line end or the end of the input after the closing '\"' "
                       "but found {}",
                       describe_byte(static_cast<unsigned char>(separator)),
                       describe_byte(static_cast<unsigned char>(*after))));
    }
    storage_.push_back('"');  // lenient: a lone quote is part of the field
  }
}

void Reader::check_field_count(std::uint64_t end_offset) const {
  const std::size_t found = record_.fields_.size();
  if (options_.variable_field_count || expected_fields_ == 0 || found == expected_fields_) return;
  const std::string message = fmt::format("expected {} field{}, as in {}, but found {}",
                                          expected_fields_, expected_fields_ == 1 ? "" : "s",
                                          has_header_ ? "the header" : "the first record", found);
  // Point at the first field too many, or at the end of a record that is too short.
  fail(found > expected_fields_ ? field_offset(expected_fields_) : end_offset, message);
}

// Separators, quotes and line ends are ASCII, and a quoted field loses only ASCII bytes (its
// quotes, one of each doubled pair), so a record read in the window is valid UTF-8 exactly when
// its bytes there are: one check of the whole record. A record read on the slow path has its
// fields in storage_, checked one by one.
void Reader::check_utf8() const {
  const auto report = [&](std::uint64_t offset, unsigned char byte, utf8::Error error) {
    std::size_t field = 0;  // the last field that starts at or before the bad byte
    while (field + 1 < record_.size() && field_offset(field + 1) <= offset) ++field;
    throw ParseError(position_at(offset),
                     fmt::format("record {}, field {}: {}", record_.number_, field + 1,
                                 utf8::describe_invalid_byte(byte, error)),
                     options_.source_name);
  };
  if (window_begin_ != nullptr) {
    const std::string_view raw(window_begin_,
                               static_cast<std::size_t>(in_.cursor() - window_begin_));
    if (const auto bad = utf8::find_invalid(raw)) [[unlikely]] {
      report(record_offset_ + bad->offset, static_cast<unsigned char>(raw[bad->offset]),
             bad->error);
    }
    return;
  }
  for (const StoredField& f : stored_) {
    const std::string_view text(storage_.data() + f.begin, f.size);
    if (const auto bad = utf8::find_invalid(text)) [[unlikely]] {
      // Back to the input: past the opening quote, and one byte more for each quote before the
      // bad byte (written twice in the input; under lazy_quotes a lone quote counts once too
      // many, which can only move the position within the field).
      const std::string_view before = text.substr(0, bad->offset);
      const std::uint64_t quotes =
          f.quoted ? 1 + static_cast<std::uint64_t>(std::count(before.begin(), before.end(), '"'))
                   : 0;
      report(f.offset + quotes + bad->offset, static_cast<unsigned char>(text[bad->offset]),
             bad->error);
    }
  }
}

void Reader::finish_record(bool line_end, std::uint64_t next_line_start) {
  // Only a record that used these can have grown them (fields_ past a million bytes only
  // with more than 65,536 fields): the next one looks at their sizes then.
  used_side_buffers_ = !stored_.empty() || !quoted_bits_.empty() || !record_breaks_.empty() ||
                       record_.fields_.size() > 65536;
  for (const std::uint64_t start : record_breaks_) {
    ++line_;
    line_start_ = start;
  }
  if (line_end) {
    ++line_;
    line_start_ = next_line_start;
  }
  for (const StoredField& f : stored_)
    record_.fields_[f.index] = std::string_view(storage_.data() + f.begin, f.size);
  record_.number_ = ++record_count_;
  record_.line_ = record_line_;
  if (expected_fields_ == 0) expected_fields_ = record_.fields_.size();
}

bool Reader::next(std::vector<std::string>& fields) {
  const Record* record = next();
  if (record == nullptr) return false;
  fields.resize(record->size());
  for (std::size_t i = 0; i < record->size(); ++i) fields[i].assign((*record)[i]);
  return true;
}

bool Reader::at_end() {
  if (error_) std::rethrow_exception(error_);
  try {
    return !start_record();
  } catch (...) {
    error_ = std::current_exception();
    throw;
  }
}

std::optional<std::uint64_t> Reader::estimated_records_left() {
  if (error_) return std::nullopt;
  return estimate_items_left(in_, start_position_, record_count_);
}

std::vector<std::vector<std::string>> Reader::read_all() {
  std::vector<std::vector<std::string>> records;
  while (const Record* record = next()) records.push_back(record->to_strings());
  return records;
}

const Header& Reader::read_header() {
  const Record* record = next();
  if (record == nullptr) {
    throw ParseError(position_at(in_.position()), "expected a header record but the input is empty",
                     options_.source_name);
  }
  header_ = Header(record->to_strings());
  header_position_ = record_position();
  has_header_ = true;
  expected_fields_ = header_.size();
  return header_;
}

SourcePosition Reader::position_at(std::uint64_t offset) const noexcept {
  std::uint64_t line = record_line_;
  std::uint64_t line_start = record_line_start_;
  for (const std::uint64_t start : record_breaks_) {
    if (start > offset) break;
    ++line;
    line_start = start;
  }
  return {offset, line, offset >= line_start ? offset - line_start + 1 : 1};
}

std::uint64_t Reader::field_offset(std::size_t i) const noexcept {
  for (const StoredField& f : stored_) {
    if (f.index == i) return f.offset;
  }
  // Viewed in the window: the view's distance from the record's first byte, less one for the
  // opening quote. (Pointer arithmetic only: the bytes are not read again.)
  const bool quoted =
      i < 64 ? (quoted_first_64_ >> i & 1) != 0
             : i / 64 - 1 < quoted_bits_.size() && (quoted_bits_[i / 64 - 1] >> (i % 64) & 1) != 0;
  return record_offset_ + static_cast<std::uint64_t>(record_.fields_[i].data() - window_begin_) -
         (quoted ? 1 : 0);
}

SourcePosition Reader::field_position(std::size_t i) const noexcept {
  return position_at(field_offset(i));
}

SourcePosition Reader::record_position() const noexcept { return position_at(record_offset_); }

ParseError Reader::field_error(std::size_t i, std::string_view message) const {
  return ParseError(field_position(i),
                    fmt::format("record {}, field {}: {}", record_.number_, i + 1, message),
                    options_.source_name);
}

void Reader::fail(std::uint64_t offset, std::string_view message) const {
  throw ParseError(position_at(offset), fmt::format("record {}: {}", record_count_ + 1, message),
                   options_.source_name);
}

}  // namespace bufstream::csv
