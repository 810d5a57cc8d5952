// csv::Writer: RFC 4180 records into any WriteStream.
//
//     bufstream::StringWriteStream out;
//     bufstream::csv::Writer csv(out);                 // ',' and CRLF, quoting as needed
//     csv.record({"id", "name", "score"});
//     csv.row(1, "Ada, Countess", 0.1);                // 1,"Ada, Countess",0.1\r\n
//     csv.row(2, std::optional<double>{}, "x");        // 2,,x\r\n
//
// Values are written as text: integers in decimal, doubles as the shortest text that reads
// back as the same double (`0.1`, `1e+100`; non-finite ones as `inf`, `-inf`, `nan`), bools
// as `true`/`false`, an empty optional as an empty field. Fields are quoted as the options
// say. The writer adds no buffering of its own: give it a BufferedWriteStream for speed.
// Errors of the stream pass through as `IoError`; call `flush()` (or close the stream) to be
// sure everything was written.
#pragma once

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <bufstream/csv/options.hpp>
#include <bufstream/write_stream.hpp>

namespace bufstream::csv {

namespace detail {
struct WriterScanners;  // the kernel layer's byte set of the bytes that force quotes
}  // namespace detail

/// Writes RFC 4180 records to any WriteStream, a field or a record at a time (see the file
/// comment).
class Writer {
 public:
  /// Writes into `out`, which must outlive the writer. Throws `UsageError` if the
  /// separator is '"', CR or LF.
  explicit Writer(WriteStream& out, WriteOptions options = {});
  ~Writer();
  /// Takes over `other`'s stream and state; `other` may then only be destroyed.
  Writer(Writer&&) noexcept;

  // ---- One field at a time (a separator goes before every field but a record's first) ----

  /// Writes `text` as one field, quoted as the options say.
  void field(std::string_view text);
  /// The same, for a C string.
  void field(const char* text) { field(std::string_view(text)); }
  /// The same, for a string.
  void field(const std::string& text) { field(std::string_view(text)); }
  /// One byte as a one-byte field (a `char` is text, not a number).
  void field(char c) { field(std::string_view(&c, 1)); }
  /// `true` or `false`.
  void field(bool value) { field(value ? std::string_view("true") : std::string_view("false")); }
  /// An integer, in decimal.
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>) void field(T value) {
    char text[max_integer_chars];
    number_field(text, format_integer(text, value));
  }
  /// A double, as the shortest text that reads back as the same double; `inf`, `-inf`, `nan`.
  void field(double value);
  /// A float, as the shortest text that reads back as the same float.
  void field(float value);
  /// An empty optional is an empty field.
  template <class T>
  void field(const std::optional<T>& value) {
    if (value) {
      field(*value);
    } else {
      field(std::string_view());
    }
  }
  /// An empty field.
  void field(std::nullopt_t) { field(std::string_view()); }

  /// Ends the record with the line end.
  void end_record();

  // ---- Whole records ---------------------------------------------------------------------

  /// Writes one record of typed values: `row(1, "one", 1.0)`.
  template <class... T>
  void row(const T&... values) {
    (field(values), ...);
    end_record();
  }
  /// Writes a tuple (or pair) as one record.
  template <class... T>
  void row(const std::tuple<T...>& values) {
    std::apply([this](const auto&... v) { row(v...); }, values);
  }
  /// Writes each element of a range as one field: a header or a row of strings or numbers.
  template <std::ranges::input_range R>
  requires(!std::convertible_to<const R&, std::string_view>) void record(const R& fields) {
    for (const auto& f : fields) field(f);
    end_record();
  }
  /// Writes the strings as one record.
  void record(std::initializer_list<std::string_view> fields) {
    for (std::string_view f : fields) field(f);
    end_record();
  }

  /// Flushes the stream (`WriteStream::flush`): throws `IoError` if bytes could not be written.
  void flush() { out_.flush(); }

  /// Records ended so far.
  std::uint64_t record_count() const noexcept { return record_count_; }
  /// The options the writer was made with.
  const WriteOptions& options() const noexcept { return options_; }
  /// The stream written to.
  WriteStream& stream() noexcept { return out_; }

 private:
  void begin_field() {
    if (fields_in_record_++ != 0) out_.put(options_.separator);
  }
  void number_field(const char* text, const char* end);
  bool needs_quotes(std::string_view text) const noexcept;
  bool starts_output_with_bom(std::string_view text) const noexcept;
  void write_quoted(std::string_view text);

  WriteStream& out_;
  WriteOptions options_;
  std::unique_ptr<const detail::WriterScanners> scan_;  // separator, quote, CR, LF
  bool number_needs_check_;  // the separator can occur in a number's text
  std::size_t fields_in_record_ = 0;
  bool last_field_empty_ = false;  // the record's only field so far was written as nothing
  std::uint64_t record_count_ = 0;
};

}  // namespace bufstream::csv
