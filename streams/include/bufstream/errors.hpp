// Errors raised by streams and by the formats built on them.
//
// I/O failures are `IoError`s (a `std::system_error` that names the operation and, where known,
// the path). Malformed input is a `ParseError` that says where (line, column, byte offset) and
// what was expected. A library used against its contract throws `UsageError`; a value that was
// read, asked for what it does not hold, `AccessError`. Every format throws these four and no
// others of its own. All derive from standard exception types, so a caller that only wants a
// message can catch `std::exception`.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace bufstream {

/// A failed system call or a stream used against its contract (written after `close()`).
/// `what()` reads like "write out.json: No space left on device".
class IoError : public std::system_error {
 public:
  /// `operation` is a verb phrase such as "read" or "open"; `path` may be empty.
  IoError(std::error_code code, std::string operation, std::string path = {});

  /// Builds the error from an `errno` value.
  static IoError from_errno(int errno_value, std::string operation, std::string path = {});

  /// The operation that failed: "read", "write", "open", "close", "mmap", ...
  const std::string& operation() const noexcept { return operation_; }
  /// The path or stream name involved, or empty.
  const std::string& path() const noexcept { return path_; }

 private:
  std::string operation_;
  std::string path_;
};

/// Where in a text something is. `line` and `column` count from 1; the column counts bytes, as
/// compilers do by default. `offset` counts bytes from the start of the stream, from 0.
/// A `line` of 0 means the position is only known as a byte offset (binary data).
struct SourcePosition {
  std::uint64_t offset = 0;  ///< bytes from the start of the stream, from 0
  std::uint64_t line = 0;    ///< from 1; 0 when only the byte offset is known
  std::uint64_t column = 0;  ///< bytes from the line's start, from 1

  /// Equal when every member is.
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

/// Input that does not follow its grammar. `what()` reads like
/// "data.json:3:17: expected ',' or ']' but found '}' (byte 52)"; the parts are available on
/// their own for programs that format errors their own way.
class ParseError : public std::runtime_error {
 public:
  /// An error at `position` saying `message`, in the input named `source_name` (a path, or empty).
  ParseError(SourcePosition position, std::string message, std::string source_name = {});

  /// Where the error is.
  const SourcePosition& position() const noexcept { return position_; }
  /// The line, from 1 (0 when only the byte offset is known).
  std::uint64_t line() const noexcept { return position_.line; }
  /// The column in bytes, from 1.
  std::uint64_t column() const noexcept { return position_.column; }
  /// The offset in bytes from the start of the stream.
  std::uint64_t offset() const noexcept { return position_.offset; }
  /// The message without the position: "expected ',' or ']' but found '}'".
  const std::string& message() const noexcept { return message_; }
  /// The file or stream name given by the reader's user, or empty.
  const std::string& source_name() const noexcept { return source_name_; }

  /// The same error, naming `source_name` (readers that know a path add it on the way out).
  ParseError with_source_name(std::string source_name) const;

 private:
  SourcePosition position_;
  std::string message_;
  std::string source_name_;
};

/// The library used against its contract, a bug of the calling program rather than of its input:
/// calls out of order (a value where a key is due, `end_array` closing an object, a container
/// left open at `finish`), an argument that cannot be taken (a negative `skip`, a string that is
/// not UTF-8 or a value that the writer's options refuse, such as NaN in JSON or a cycle under
/// STON's `ReferencePolicy::error`), options that contradict each other. Every stream and format
/// throws this one type; `what()` names the class and the call: "json::Writer: a value where an
/// object key is due (call key() first)". A `std::invalid_argument`, so a `std::logic_error`.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A value that was read, asked for what it does not hold: a kind it is not (`as_string()` of a
/// number), a key or an index it lacks, a number outside the range of the type asked for.
/// `what()` names the value (its JSON Pointer, its kind, the key). Every format's values throw
/// this one type (`json::Value`, `ston::Value`, `csv::Record`, ...). A `std::out_of_range`, so a
/// `std::logic_error`.
class AccessError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

/// Tracks line starts while a reader consumes text, so that an error can say line and column
/// without the stream having to count every byte. The reader calls `new_line(offset)` with the
/// offset just after each line end it consumes.
class LineTracker {
 public:
  /// A line end was consumed; the next line starts at `offset_after_line_end`.
  void new_line(std::uint64_t offset_after_line_end) noexcept {
    ++line_;
    line_start_ = offset_after_line_end;
  }
  /// `count` line ends at once, the last of them just before `offset_after_last`.
  void new_lines(std::uint64_t count, std::uint64_t offset_after_last) noexcept {
    line_ += count;
    line_start_ = offset_after_last;
  }
  /// The position of byte `offset`, which must not lie before the last line start reported.
  SourcePosition at(std::uint64_t offset) const noexcept {
    return {offset, line_, offset >= line_start_ ? offset - line_start_ + 1 : 1};
  }
  /// The current line, from 1.
  std::uint64_t line() const noexcept { return line_; }

 private:
  std::uint64_t line_ = 1;
  std::uint64_t line_start_ = 0;
};

/// Describes a byte for an error message: ``'a'``, ``'\n'``, `byte 0xff`, or `end of input` for -1.
std::string describe_byte(int byte);

/// What happens when a write stream is destroyed holding bytes it can no longer write, and the
/// failure was never reported to the caller by an exception (see README, "Errors and data
/// safety"). The handler receives a one-line description. The default handler prints it to
/// standard error and calls `std::abort()`, the way LLVM's raw_ostream treats an unchecked
/// output error: data loss is never silent. Returns the previous handler.
/// The handler may return (the bytes are then dropped) or end the process; it must not throw.
/// A null handler restores the default. The handler is process-wide.
using LostDataHandler = void (*)(std::string_view description) noexcept;
/// Sets the lost-data handler (see LostDataHandler) and returns the previous one.
LostDataHandler set_lost_data_handler(LostDataHandler handler) noexcept;
/// The handler in force.
LostDataHandler get_lost_data_handler() noexcept;

}  // namespace bufstream
