// STON reader: text from any ReadStream into Values.
//
//     bufstream::MemoryReadStream in("[1, 'two', #three, Point[1,2], @1]");
//     ston::Document doc;
//     ston::Reader reader(in);
//     ston::Value v = reader.read(doc);    // containers are created in `doc`
//
// The whole grammar of STON.md: nil/null, booleans, exact integers of any size, floats,
// fractions and scaled decimals, 'single' and "double" quoted strings with every escape, bare
// and quoted symbols, lists, maps with keys of any kind, associations, tagged objects and
// references. A stream may hold several values one after another; `read` takes the next one.
//
// References: every list, map and tagged object of one top-level value is numbered from 1 in
// depth-first pre-order (a container before its children; a tagged object's body is not numbered
// separately). `@N` is resolved after the whole value has been read, so it may point to an
// enclosing container (`[1,@1]` contains itself); a number with no object is a ParseError.
// Numbering starts again with each top-level value.
//
// Errors: malformed input throws `ParseError` with line (LF, CRLF or CR between tokens; LF
// inside strings and comments), column (in bytes), byte offset and "expected ... but found
// ...". Nesting deeper than `max_depth` is an error, never a stack overflow: the reader keeps
// its open containers on a stack of its own, not the call stack, whatever `max_depth` is.
// Errors are sticky: after a ParseError, or an IoError of the stream, every later call throws
// that error again (the stream stands in the middle of a value).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include <bufstream/errors.hpp>
#include <bufstream/read_stream.hpp>
#include <bufstream/ston/document.hpp>

namespace bufstream::ston {

/// The options of ston::Reader (and ston::parse).
struct ReadOptions {
  /// Skip C-style comments (`/* ... */` and `// ...` to the end of the line) wherever
  /// whitespace may stand (never inside strings). Off by default, as in Pharo.
  bool allow_comments = false;
  /// Lists, maps, tagged objects and associations nested deeper than this are an error. The
  /// reader does not recurse: any limit is safe for the stack (the limit bounds what a hostile
  /// input can make it hold, a few dozen bytes per level). The default is every reader's and
  /// equals WriteOptions::max_depth's, so that whatever the writer writes by default reads back.
  std::size_t max_depth = bufstream::default_max_depth;
  /// Longest number text, and the largest decimal exponent of an exact number (`1e400` is an
  /// integer of 401 digits): keeps a hostile input from asking for gigabytes. It applies to
  /// each digit group on its own (integer part, fraction, exponent, denominator, scale), read
  /// from any stream, and to an exact number's decimal exponent. (A float beyond the range of
  /// double, `1.0e400`, is an error whatever its length, as in every reader.) Strings and
  /// symbols have no limit but memory, whatever the stream's buffer size.
  std::size_t max_number_length = 10000;
  /// Skip a UTF-8 byte-order mark (EF BB BF) at the very start of the stream (position 0), as
  /// the JSON and CSV readers do. Pharo's reader has no such rule, but no STON value can start
  /// with the mark, so skipping it changes the meaning of no valid input. False makes it an
  /// error.
  bool skip_bom = true;
  /// Named in error messages ("config.ston:3:7: ...").
  std::string source_name = {};
};

/// Reads STON values one after another from any ReadStream, into a Document (see the file
/// comment).
class Reader {
 public:
  /// Reads from `in`, which must outlive the reader.
  explicit Reader(ReadStream& in, ReadOptions options = {});
  ~Reader();
  /// Takes over `other`'s stream and state.
  Reader(Reader&&) noexcept;
  /// The same, as an assignment.
  Reader& operator=(Reader&&) noexcept;

  /// Reads the next value, creating its containers in `doc`, and the whitespace after it.
  /// Throws ParseError (also when no value is left: "expected a value but found end of input").
  Value read(Document& doc);

  /// Skips whitespace (and comments, if allowed); true when nothing else is left.
  bool at_end();

  /// Skips whitespace (and comments, if allowed) and throws ParseError unless nothing is left.
  void expect_end();

  /// Where the next unread byte is (after `at_end()`: where the next value starts).
  SourcePosition position() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Reads exactly one value (anything but whitespace after it is an error) into a new Document
/// whose root() is that value.
Document parse(ReadStream& in, const ReadOptions& options = {});
/// The same, from text in memory.
Document parse(std::string_view text, const ReadOptions& options = {});

}  // namespace bufstream::ston
