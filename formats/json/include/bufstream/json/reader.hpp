// json::Reader: a strict RFC 8259 JSON reader over any ReadStream.
//
// Three ways to consume a value, all driven by the same tokenizer:
//
//   - as a DOM:     nlohmann::json doc = reader.read();   (include <nlohmann/json.hpp>, or
//                                                          <bufstream/json.hpp>, for this one)
//   - typed:        auto rows = reader.read<std::vector<Row>>();   (no DOM in between)
//   - as events:    reader.parse(handler);                         (SAX style, events.hpp)
//
// and a pull API underneath (`begin_array`/`next_element`, `begin_object`/`next_key`,
// `read_string`, `read_number`, ...) for code that walks a document its own way.
//
// A stream may hold one value (`json::read`, or `read` followed by `finish`) or a sequence of
// values, concatenated or one per line as in JSON Lines (`while (!reader.at_end()) reader.read()`).
//
// Conformance and limits:
//   - Strict RFC 8259: no comments, no trailing commas, no single quotes, no leading zeros,
//     no NaN/Infinity, no unescaped control characters in strings; the four whitespace
//     bytes only. A UTF-8 byte-order mark at the very start of the stream is skipped, as
//     RFC 8259 allows a parser to do (`ReadOptions::skip_bom`; off, it is an error).
//   - Strings must be valid UTF-8 and their escapes valid: a `\uD800`-`\uDBFF` escape must be
//     followed by a `\uDC00`-`\uDFFF` escape (the pair is combined); lone surrogates are an
//     error. `\u0000` is allowed and gives a NUL byte.
//   - Integers are exact: negative ones as int64, the others as uint64. An integer outside
//     both ranges is read as the nearest double. Fractions and exponents are read as the
//     correctly rounded double; a number beyond the double range is an error.
//   - Duplicate keys in an object: the last one wins.
//   - Nesting deeper than `ReadOptions::max_depth` (512 by default) is an error. Nothing
//     recurses on the input's nesting (the DOM, events and `skip_value` read 100,000 levels
//     when the limit allows), so the limit protects consumers, not this reader.
//   - Strings, keys and number text are bounded only by memory, never by the stream's buffer:
//     a 100,000-digit fraction is correctly rounded, a 100,000-digit integer is beyond the
//     double range and an error.
//   - Every error is a ParseError with line, column (in bytes) and byte offset, whose message
//     says what was expected and what was found. After one, or after the stream's IoError, the
//     reader is failed: every later call throws the same error.
//
// The reader scans the stream's window directly (whitespace, string contents, numbers) and
// refills only when a token reaches the window's end, so it works over unbuffered streams too
// and no token is ever too long.
#pragma once

#include <bufstream/json/events.hpp>
#include <bufstream/json/read_json.hpp>
#include <bufstream/json/reader_core.hpp>
