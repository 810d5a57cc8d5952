// Options of csv::Reader and csv::Writer: plain structs for designated initializers,
//
//     csv::Reader in(stream, {.separator = ';'});
//     csv::Writer out(sink, {.separator = '\t', .line_end = bufstream::LineEnd::lf});
//
// `line_end` is named and meant as in every format (bufstream/format_options.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <bufstream/format_options.hpp>

namespace bufstream::csv {

/// The options of csv::Reader.
struct ReadOptions {
  /// The byte between fields: any byte except '"', CR and LF.
  char separator = ',';

  /// Lenient quotes (Go's LazyQuotes). Strict (false): a quote inside an unquoted field, text
  /// after a closing quote, and a quoted field the input ends in are errors. Lenient (true):
  /// a quote inside an unquoted field is an ordinary byte (a"b is read as a"b); a quote inside a
  /// quoted field that is not doubled and not followed by a separator or line end is kept as
  /// a byte and the field goes on ("a"b" is read as a"b); a quoted field still open at the end of
  /// the input holds everything up to the end. No byte of the input is ever dropped.
  bool lazy_quotes = false;

  /// Records of any length (Go's FieldsPerRecord = -1). Strict (false): every record must have
  /// as many fields as the first one (the header, if one was read). Lenient (true): records
  /// are returned with the fields they have; nothing is padded or cut.
  bool variable_field_count = false;

  /// RFC 4180 has no empty lines: by default a line with nothing on it is a record of one
  /// empty field (so a one-column file keeps its empty values). True skips such lines.
  bool skip_empty_lines = false;

  /// Skip a UTF-8 byte-order mark (EF BB BF) at the start of the input.
  bool skip_bom = true;

  /// Check that every field is UTF-8 (RFC 3629, strictly). A field that is not is a ParseError
  /// at its first bad byte: "record 3, field 2: expected UTF-8 text but found byte 0xff
  /// (invalid UTF-8: invalid lead byte)". Off by default, since RFC 4180 names no encoding and
  /// CSV often carries bytes; a program that passes fields on as text (to JSON, say) turns it
  /// on, so that bad input is reported where it is, not by the writer after the fact.
  bool validate_utf8 = false;

  /// Named in error messages ("data.csv:3:7: ..."), typically the file's path.
  std::string source_name = {};
};

/// When the writer puts a field in quotes.
enum class Quoting : std::uint8_t {
  /// Only fields that need it: those holding the separator, a quote, CR or LF, or starting or
  /// ending with a space or tab (which some readers trim); a record's only field when it is
  /// empty (`""`, so that the record is not an empty line); and a first field that starts with
  /// a UTF-8 byte-order mark at the very start of the output (which readers would skip).
  as_needed,
  /// Every field, numbers included.
  always,
  /// No field; a field that would need quotes (separator, quote, CR or LF in it, or a leading
  /// byte-order mark at the start of the output) throws `UsageError` before any of
  /// it is written.
  never,
};

/// The options of csv::Writer.
struct WriteOptions {
  /// The byte between fields: any byte except '"', CR and LF.
  char separator = ',';
  /// When a field is put in quotes.
  Quoting quoting = Quoting::as_needed;
  /// What ends a record: CRLF by default, as RFC 4180 says.
  bufstream::LineEnd line_end = bufstream::LineEnd::crlf;
};

/// Deprecated names of one version ago.
using ReaderOptions [[deprecated("use csv::ReadOptions")]] = ReadOptions;
/// Deprecated name of one version ago.
using WriterOptions [[deprecated("use csv::WriteOptions")]] = WriteOptions;
/// Deprecated name of one version ago.
using LineEnd [[deprecated("use bufstream::LineEnd")]] = bufstream::LineEnd;

}  // namespace bufstream::csv
