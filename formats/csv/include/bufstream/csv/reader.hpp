// csv::Reader: RFC 4180 records from any ReadStream, in constant memory.
//
//     bufstream::MemoryReadStream in("name,age\r\nAda,36\r\n");
//     bufstream::csv::Reader csv(in);
//     const auto& header = csv.read_header();          // name, age
//     while (const csv::Record* r = csv.next()) {       // zero-copy views
//       std::string_view age = (*r)[header.index("age")];
//     }
//
// Grammar: fields are separated by the separator byte (',' by default) and records end at LF,
// CRLF or CR; the last record may lack a line end. A field that starts with '"' is quoted: it
// may hold separators, line ends and quotes written twice (`""`), and ends at the next single
// quote, which must be followed by a separator, a line end or the end of the input. Bytes are
// kept as they are (spaces included); the reader checks that they are UTF-8 only when asked
// (`ReadOptions::validate_utf8`). A leading UTF-8 byte-order mark is skipped. Empty input is
// zero records.
//
// Limits: none but memory. A field or a record may be longer than the stream's buffer (it is
// copied out of the window as it grows) and a record may have any number of fields.
//
// Errors: malformed input throws `ParseError` with line, column and byte offset, and a message
// that names the record and the problem (see ReadOptions for the lenient alternatives). I/O
// failures of the stream pass through as `IoError`. Errors are sticky: every later read throws
// the same error again.
//
// Speed: the stream's window is classified 64 bytes at a time into bit masks of separators,
// quotes and line ends (kept from one record to the next), and fields are viewed in place;
// only a record that crosses the window's edge, or one that is malformed or read leniently,
// takes a slower path that copies it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/csv/header.hpp>
#include <bufstream/csv/options.hpp>
#include <bufstream/csv/record.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream::csv {

namespace detail {
struct ReaderScanners;  // the kernel layer's byte sets and masks (src/scanners.hpp)
}  // namespace detail

/// What a reader of a later part of an input takes on from the part before it, so that it
/// reads that part as one reader of the whole input would: how lines and records are numbered,
/// the field count records must have and the header. A parallel read (csv::read_chunks) reads
/// each chunk with a reader made from one.
struct Continuation {
  std::uint64_t line = 1;          ///< The line the part's first byte is on.
  std::uint64_t records = 0;       ///< Records before the part (a header included).
  std::size_t field_count = 0;     ///< Fields each record must have; 0: the first one decides.
  bool has_header = false;         ///< A header was read (it set `field_count`).
  Header header;                   ///< The header, if one was read.
  SourcePosition header_position;  ///< Where the header starts.
};

/// Reads RFC 4180 records from any ReadStream, as strings or as zero-copy views (see the file
/// comment).
class Reader {
 public:
  /// Reads `in`, which must outlive the reader. Nothing is read until the first record is
  /// asked for. Throws `UsageError` if the separator is '"', CR or LF.
  explicit Reader(ReadStream& in, ReadOptions options = {});
  /// Reads `in` as the part of a larger input that follows what `before` describes: lines and
  /// records are numbered on from it, records must have its field count, its header is this
  /// reader's, and no byte-order mark is skipped. `in` must start at a line's start (its
  /// positions are the input's, as a ChunkReadStream gives them).
  Reader(ReadStream& in, ReadOptions options, const Continuation& before);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  /// Reads the next record; nullptr at the end of the input. The record and its views are
  /// valid until the next call that reads.
  const Record* next();

  /// Reads the next record into `fields` (reusing its strings' capacity); false at the end.
  bool next(std::vector<std::string>& fields);

  /// Reads every remaining record.
  std::vector<std::vector<std::string>> read_all();

  /// True when no record is left (NeoCSV's atEnd). May read from the stream to find out; the
  /// last record's views stay valid only if it does not have to (the window is not empty).
  bool at_end();

  /// Reads the next record as the header (call it before reading records). Its field count is
  /// then the one every record must have (unless `variable_field_count`). Throws `ParseError`
  /// if the input has no record.
  const Header& read_header();
  /// True once `read_header()` has read a header.
  bool has_header() const noexcept { return has_header_; }
  /// The header read by `read_header()` (empty before).
  const Header& header() const noexcept { return header_; }
  /// Where the header starts (for errors about it).
  SourcePosition header_position() const noexcept { return header_position_; }

  /// Records read so far (the header included).
  std::uint64_t record_count() const noexcept { return record_count_; }

  /// About how many records are left, for reserving memory: the bytes left in the stream
  /// divided by the average size of the records read so far. Nullopt when the stream cannot
  /// tell how many bytes it has left (only memory and regular files can), and while too little
  /// has been read for an average to mean much (1 MiB, or a sixteenth of the input). Never
  /// more than the bytes left. Does not read.
  std::optional<std::uint64_t> estimated_records_left();

  /// Where field `i` of the last record read starts (at its opening quote if quoted).
  /// Precondition: a record was read and `i < record.size()`.
  SourcePosition field_position(std::size_t i) const noexcept;
  /// Where the last record read starts.
  SourcePosition record_position() const noexcept;

  /// A ParseError at field `i` of the last record read, its message prefixed with the record
  /// and field ("record 3, field 2: ..."): for callers that convert fields themselves.
  ParseError field_error(std::size_t i, std::string_view message) const;

  /// The options the reader was made with.
  const ReadOptions& options() const noexcept { return options_; }

  /// How a reader of the input that follows what this one has read would go on (see the
  /// constructor that takes it).
  Continuation continuation() const;

 private:
  // A field whose bytes are in storage_ (one with doubled quotes, or any field of a record read
  // on the slow path). Its view is set when the record is finished, once storage_ has stopped
  // growing.
  struct StoredField {
    std::size_t index;     // in the record
    std::uint64_t offset;  // stream offset of its first byte (the opening quote if quoted)
    std::size_t begin;     // in storage_
    std::size_t size;
    bool quoted;
  };

  bool start_record();
  void release_large_buffers();
  bool read_in_window();
  void read_across_windows();
  void read_quoted_field(std::uint64_t open_offset);
  void read_unquoted_field();
  void check_field_count(std::uint64_t end_offset) const;
  void check_utf8() const;
  void finish_record(bool line_end, std::uint64_t next_line_start);
  void clear_record();
  void mark_quoted(std::size_t field);
  std::uint64_t field_offset(std::size_t i) const noexcept;
  SourcePosition position_at(std::uint64_t offset) const noexcept;
  [[noreturn]] void fail(std::uint64_t offset, std::string_view message) const;

  ReadStream& in_;
  ReadOptions options_;
  std::unique_ptr<detail::ReaderScanners> scan_;  // where fields end
  Record record_;                                 // its fields are viewed where they are
  // A field viewed in the window starts `view.data() - window_begin_` bytes after the record,
  // one byte after its stream offset if it is quoted. Which fields are quoted: bit i of
  // quoted_first_64_ for the first 64, bit i % 64 of quoted_bits_[i / 64 - 1] for the others.
  const char* window_begin_ = nullptr;  // the record's first byte, on the fast path
  std::uint64_t quoted_first_64_ = 0;
  std::vector<std::uint64_t> quoted_bits_;
  std::vector<StoredField> stored_;
  std::string storage_;                       // fields that could not be viewed in the window
  std::vector<std::uint64_t> record_breaks_;  // offsets after line ends inside the record
  Header header_;
  SourcePosition header_position_;
  std::size_t expected_fields_ = 0;  // 0: not known yet
  std::uint64_t record_count_ = 0;
  std::uint64_t start_position_ = 0;     // the stream's position when the reader began
  std::uint64_t record_offset_ = 0;      // where the current record starts
  std::uint64_t record_line_ = 1;        // the line it starts on
  std::uint64_t record_line_start_ = 0;  // the offset that line starts at
  std::uint64_t line_ = 1;               // the line the next record starts on
  std::uint64_t line_start_ = 0;
  std::exception_ptr error_;  // the first failure, thrown again by every read
  bool started_ = false;
  bool has_header_ = false;
  bool used_side_buffers_ = false;  // the last record used storage_, stored_, ...
};

}  // namespace bufstream::csv
