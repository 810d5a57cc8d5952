// Reading JSON Lines on several threads, with the values and errors of one json::Reader over
// the whole input.
//
//     // Each chunk's values on a worker thread (as events, an nlohmann DOM or a Document);
//     // the results in input order:
//     std::vector<json::Document> docs;
//     json::read_lines_chunks(path, {.parallel = {.threads = 4}},
//         [](json::Reader& reader, const Chunk&) {     // on a worker, chunks concurrently
//           std::vector<json::Document> values;
//           while (!reader.at_end()) values.push_back(json::Document::parse_next(reader));
//           return values;                             // must read every value
//         },
//         [&](std::vector<json::Document>&& values, const Chunk&) {   // chunk 0, 1, 2, ...
//           std::move(values.begin(), values.end(), std::back_inserter(docs));
//         });
//
// How: the input is cut into chunks of about `ParallelOptions::chunk_size` bytes that end after
// a line feed (a line feed never lies inside a JSON string, where a control byte is an error;
// bufstream's read_chunks, parallel_chunks.hpp, does the threads). Each chunk is read by a
// json::Reader over its bytes: byte offsets are the input's, lines count from the chunk's start
// (what lies before is being read at the same time), and errors are given the input's lines.
//
// Errors: the first chunk (in input order) whose parse throws is read again on the calling
// thread, by one reader of the rest of the input from the chunk's start: `parse` runs once more
// there (with `Chunk::rest` set), and its values and its error are the sequential reader's
// (a value that goes on past a line feed, which JSON Lines does not have but a sequence of
// concatenated values may, is read so too, on that one thread). No chunk after it is taken.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/json/options.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/parallel_chunks.hpp>

namespace bufstream::json {

/// The options of a parallel JSON Lines read.
struct ParallelReadOptions {
  /// The reader's options, as for json::Reader.
  ReadOptions read = {};
  /// Threads, chunk size, chunks in flight.
  ParallelOptions parallel = {};
};

namespace detail {

/// JSON Lines' chunk ends for bufstream::read_chunks: after a line feed.
class LineBoundaries final : public ChunkBoundaries {
 public:
  /// After the first line feed at or after byte `target`.
  std::optional<std::size_t> find(std::string_view text, std::size_t target, bool) override {
    if (scanned_ < target) scanned_ = target;
    const void* lf = std::memchr(text.data() + scanned_, '\n', text.size() - scanned_);
    if (lf == nullptr) {
      scanned_ = text.size();
      return std::nullopt;
    }
    return static_cast<std::size_t>(static_cast<const char*>(lf) - text.data()) + 1;
  }
  /// After the first line feed in `[from, limit)`.
  std::optional<std::size_t> find_from(std::string_view text, std::size_t from, std::uint64_t,
                                       std::size_t limit) const override {
    const std::size_t end = std::min(limit, text.size());
    const void* lf = std::memchr(text.data() + from, '\n', end - from);
    if (lf == nullptr) return std::nullopt;
    return static_cast<std::size_t>(static_cast<const char*>(lf) - text.data()) + 1;
  }
  /// Forgets how far the last chunk's search went.
  void start_chunk(bool) noexcept override { scanned_ = 0; }

 private:
  std::size_t scanned_ = 0;
};

/// The error `e` of a reader that started at `start` (a line's start) on line `line` of the
/// input: its lines counted from there, its first line's columns from the input's offset 0.
inline ParseError at_input_line(const ParseError& e, std::uint64_t start, std::uint64_t line) {
  SourcePosition p = e.position();
  if (p.line == 1) p.column = p.offset - start + 1;
  p.line += line - 1;
  return ParseError(p, e.message(), e.source_name());
}

/// A parallel read's ChunkWork: each chunk through `parse` on a worker, results to `take`.
template <class Parse, class Take>
class LinesRead final : public ChunkWork {
 public:
  using Result = std::invoke_result_t<Parse&, Reader&, const Chunk&>;

  LinesRead(const ParallelReadOptions& options, Parse& parse, Take& take, std::size_t slots)
      : options_(options), parse_(parse), take_(take), slots_(slots) {}

  void parse(const Chunk& chunk, std::size_t slot) override {
    Slot& s = slots_[slot];
    s.result.reset();
    ChunkReadStream in(chunk.bytes, chunk.offset);
    s.result.emplace(read(in, chunk));
    s.lines = bufstream::line_feeds_in(chunk.bytes);
  }

  bool take(const Chunk& chunk, std::size_t slot, std::exception_ptr error,
            RestOfInput& rest) override {
    Slot& s = slots_[slot];
    if (error) {
      // Read again by one reader of the rest, its errors given the input's lines.
      const Chunk whole{chunk.index, chunk.offset, {}, true};
      try {
        take_(read(rest.stream(), whole), whole);
      } catch (const ParseError& e) {
        throw at_input_line(e, chunk.offset, line_);
      }
      return false;
    }
    line_ += s.lines;
    take_(std::move(*s.result), chunk);
    s.result.reset();
    return true;
  }

 private:
  struct Slot {
    std::optional<Result> result;
    std::uint64_t lines = 0;  // the chunk's line feeds
  };

  Result read(ReadStream& in, const Chunk& chunk) {
    Reader reader(in, options_.read);
    Result result = parse_(reader, chunk);
    if (!reader.at_end()) {
      throw UsageError(
          "json::read_lines_chunks: the parse function must read every value of its chunk");
    }
    return result;
  }

  const ParallelReadOptions& options_;
  Parse& parse_;
  Take& take_;
  std::vector<Slot> slots_;
  std::uint64_t line_ = 1;  // where the next chunk to take starts
};

template <class Parse, class Take>
void read_lines_from(ReadStream* in, const MappedFile* file, const ParallelReadOptions& options,
                     Parse& parse, Take& take) {
  ParallelOptions parallel = options.parallel;
  parallel.chunks_in_flight = chunks_in_flight(parallel);
  LinesRead<Parse, Take> work(options, parse, take, parallel.chunks_in_flight);
  LineBoundaries boundaries;
  if (file != nullptr) {
    bufstream::read_chunks(*file, 0, boundaries, work, parallel);
  } else {
    bufstream::read_chunks(*in, boundaries, work, parallel);
  }
}

}  // namespace detail

/// Reads the JSON Lines file at `path` on several threads (see the file comment): for each
/// chunk, `parse(json::Reader&, const Chunk&)` on a worker thread (concurrently: it must be
/// safe to call from several threads at once), which must read every value of the reader and
/// returns a result; `take(result, const Chunk&)` on the calling thread, in input order. Throws
/// `IoError` if the file cannot be mapped, and the first error in input order.
template <class Parse, class Take>
void read_lines_chunks(const std::filesystem::path& path, const ParallelReadOptions& options,
                       Parse parse, Take take) {
  const MappedFile file(path);
  detail::read_lines_from(nullptr, &file, options, parse, take);
}

/// The same for the rest of any stream: the thread that cuts a chunk reads it from `in`.
template <class Parse, class Take>
void read_lines_chunks(ReadStream& in, const ParallelReadOptions& options, Parse parse, Take take) {
  detail::read_lines_from(&in, nullptr, options, parse, take);
}

}  // namespace bufstream::json
