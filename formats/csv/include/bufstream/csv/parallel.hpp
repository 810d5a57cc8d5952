// Reading one CSV input on several threads, with the records, typed rows and errors of one
// csv::Reader over the whole input.
//
//     // Typed rows, in input order, in one vector:
//     std::vector<Trade> rows = csv::read_rows(path, trades, {.header = true});
//
//     // Each chunk's records on a worker thread; the results in input order:
//     std::uint64_t total = 0;
//     csv::read_chunks(path, {.parallel = {.threads = 4}},
//         [](csv::Reader& reader, const Chunk&) {     // on a worker, chunks concurrently
//           std::uint64_t n = 0;
//           while (reader.next() != nullptr) ++n;      // must read every record
//           return n;
//         },
//         [&](std::uint64_t n, const Chunk& chunk) { total += n; });  // chunk 0, 1, 2, ...
//
// How: the input is cut into chunks of about `ParallelOptions::chunk_size` bytes that end where
// a record ends: at a line end outside quotes, found by the quote parity (bufstream's
// read_chunks, parallel_chunks.hpp, does the threads; see docs/ARCHITECTURE.md). The first
// chunk is the first record alone (the header, if `header`), read before the others, because
// they need its field count. Each chunk is read by a csv::Reader over its bytes, numbered from
// where the chunk lies (the byte offsets are the input's; lines and records from the chunk's
// start, since what lies before is being read at the same time). Results reach `take` in input
// order, each chunk's after every earlier one's.
//
// Errors: the first chunk (in input order) whose parse throws is read again on the calling
// thread, by one reader of the rest of the input from the chunk's start, numbered as the
// sequential reader numbers it: `parse` runs once more there (with `Chunk::rest` set), and its
// records, its result and its error are the sequential reader's; no chunk after it is taken.
//
// With `lazy_quotes` a quote need not open or close a field, so quote parity cannot tell where
// records end: the input is then read on the calling thread by one reader (one call of `parse`
// with `Chunk::rest`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <bufstream/csv/options.hpp>
#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/csv/schema.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/mapped_file.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/parallel_chunks.hpp>

namespace bufstream::csv {

/// The options of a parallel CSV read.
struct ParallelReadOptions {
  /// The reader's options, as for csv::Reader.
  ReadOptions read = {};
  /// The first record is a header: read once, before the chunks; each chunk's reader has it
  /// (`Reader::header()`), and no chunk reads it as a record.
  bool header = false;
  /// Threads, chunk size, chunks in flight.
  ParallelOptions parallel = {};
};

namespace detail {

/// CSV's record ends for bufstream::read_chunks: line ends outside quotes, by quote parity.
std::unique_ptr<ChunkBoundaries> make_chunk_boundaries(const ReadOptions& options);

/// A parallel read's ChunkWork: each chunk through `parse` on a worker, results to `take`.
template <class Parse, class Take>
class ChunkedRead final : public ChunkWork {
 public:
  using Result = std::invoke_result_t<Parse&, Reader&, const Chunk&>;

  ChunkedRead(const ParallelReadOptions& options, Parse& parse, Take& take, std::size_t slots)
      : options_(options), parse_(parse), take_(take), slots_(slots) {}

  void parse(const Chunk& chunk, std::size_t slot) override {
    ChunkReadStream in(chunk.bytes, chunk.offset);
    Slot& s = slots_[slot];
    s.result.reset();
    if (chunk.index == 0) {
      Reader reader(in, options_.read);
      s.result.emplace(read(reader, chunk, options_.header));
      s.end = reader.continuation();
    } else {
      Reader reader(in, options_.read, chunk_start_);
      s.result.emplace(read(reader, chunk, false));
      s.end = reader.continuation();
    }
  }

  bool take(const Chunk& chunk, std::size_t slot, std::exception_ptr error,
            RestOfInput& rest) override {
    Slot& s = slots_[slot];
    taken_any_ = true;
    if (error) {
      // Read again by one reader of the rest, numbered as the sequential reader numbers it:
      // its records and its first error are the sequential reader's.
      const Chunk whole{chunk.index, chunk.offset, {}, true};
      if (chunk.index == 0) {
        Reader reader(rest.stream(), options_.read);
        take_(read(reader, whole, options_.header), whole);
      } else {
        Reader reader(rest.stream(), options_.read, at_);
        take_(read(reader, whole, false), whole);
      }
      return false;
    }
    if (chunk.index == 0) {
      at_ = s.end;
      chunk_start_ = s.end;  // what the first record set, numbered from each chunk's start
      chunk_start_.line = 1;
      chunk_start_.records = 0;
    } else {
      at_.line += s.end.line - 1;
      at_.records += s.end.records;
    }
    take_(std::move(*s.result), chunk);
    s.result.reset();
    return true;
  }

  /// After the run: an input with no chunk (empty) still has its header read, which fails as
  /// the sequential reader's does.
  void finish(ReadStream& in) {
    if (!taken_any_ && options_.header) Reader(in, options_.read).read_header();
  }

  /// Reads the whole input with one reader, on the calling thread.
  void read_alone(ReadStream& in) {
    Reader reader(in, options_.read);
    const Chunk whole{0, in.position(), {}, true};
    take_(read(reader, whole, options_.header), whole);
  }

 private:
  struct Slot {
    std::optional<Result> result;
    Continuation end;  // the reader's, after the chunk
  };

  Result read(Reader& reader, const Chunk& chunk, bool header) {
    if (header) reader.read_header();
    Result result = parse_(reader, chunk);
    if (!reader.at_end()) {
      throw UsageError("csv::read_chunks: the parse function must read every record of its chunk");
    }
    return result;
  }

  const ParallelReadOptions& options_;
  Parse& parse_;
  Take& take_;
  std::vector<Slot> slots_;
  Continuation chunk_start_;  // for the readers of chunks after the first
  Continuation at_;           // where the next chunk to take starts
  bool taken_any_ = false;
};

template <class Parse, class Take>
void read_chunks_from(ReadStream& in, const MappedFile* file, const ParallelReadOptions& options,
                      Parse& parse, Take& take) {
  ParallelOptions parallel = options.parallel;
  parallel.chunks_in_flight = chunks_in_flight(parallel);
  ChunkedRead<Parse, Take> work(options, parse, take, parallel.chunks_in_flight);
  if (options.read.lazy_quotes) {
    work.read_alone(in);
    return;
  }
  const std::unique_ptr<ChunkBoundaries> boundaries = make_chunk_boundaries(options.read);
  if (file != nullptr) {
    bufstream::read_chunks(*file, 0, *boundaries, work, parallel);
  } else {
    bufstream::read_chunks(in, *boundaries, work, parallel);
  }
  work.finish(in);
}

}  // namespace detail

/// Reads the regular file at `path` on several threads (see the file comment): for each chunk,
/// `parse(csv::Reader&, const Chunk&)` on a worker thread (concurrently: it must be safe to
/// call from several threads at once), which must read every record of the reader and returns
/// a result; `take(result, const Chunk&)` on the calling thread, in input order. Throws
/// `IoError` if the file cannot be mapped, and the first error in input order.
template <class Parse, class Take>
void read_chunks(const std::filesystem::path& path, const ParallelReadOptions& options, Parse parse,
                 Take take) {
  const MappedFile file(path);
  MemoryReadStream in(file.contents());
  detail::read_chunks_from(in, &file, options, parse, take);
}

/// The same for the rest of any stream: the thread that cuts a chunk reads it from `in`.
template <class Parse, class Take>
void read_chunks(ReadStream& in, const ParallelReadOptions& options, Parse parse, Take take) {
  detail::read_chunks_from(in, nullptr, options, parse, take);
}

namespace detail {

template <class Row, class ReadChunks>
std::vector<Row> read_rows_in_chunks(ReadStream& in, const Schema<Row>& schema,
                                     const ParallelReadOptions& options,
                                     std::optional<std::uint64_t> input_size,
                                     ReadChunks read_chunks) {
  // One reader where there is nothing to share out (one thread, no chunk size asked for) or
  // where records cannot be found by quote parity: the rows then go straight into the vector.
  if (options.read.lazy_quotes ||
      (parallel_threads(options.parallel) == 1 && options.parallel.chunk_size == 0)) {
    Reader reader(in, options.read);
    if (options.header) reader.read_header();
    return RowReader<Row>(reader, schema).read_all();
  }
  std::vector<Row> rows;
  std::uint64_t bytes_taken = 0;
  bool reserved = false;
  // The chunks' vectors, emptied once taken, are read into again: a fresh one per chunk made
  // the workers fault its pages in anew (the allocator gives large blocks back), which cost
  // more than the parse. At most one per chunk in flight.
  std::mutex spare_mutex;
  std::vector<std::vector<Row>> spares;
  const auto parse = [&](Reader& reader, const Chunk&) {
    std::vector<Row> chunk_rows;
    {
      const std::lock_guard lock(spare_mutex);
      if (!spares.empty()) {
        chunk_rows = std::move(spares.back());
        spares.pop_back();
      }
    }
    RowReader<Row> row_reader(reader, schema);
    for (;;) {
      Row& row = chunk_rows.emplace_back();
      if (!row_reader.next(row)) break;
    }
    chunk_rows.pop_back();
    return chunk_rows;
  };
  const auto take = [&](std::vector<Row>&& chunk_rows, const Chunk& chunk) {
    bytes_taken += chunk.bytes.size();
    // Room for all the rows once a chunk of some size gives their density: growing the vector
    // step by step would move every row about twice.
    if (!reserved && input_size && bytes_taken >= (std::uint64_t{1} << 16) && !chunk_rows.empty() &&
        *input_size > bytes_taken) {
      reserved = true;
      const double per_byte =
          static_cast<double>(rows.size() + chunk_rows.size()) / static_cast<double>(bytes_taken);
      rows.reserve(static_cast<std::size_t>(per_byte * static_cast<double>(*input_size) * 1.05) +
                   16);
      advise_huge_pages(rows.data() + rows.size(), (rows.capacity() - rows.size()) * sizeof(Row));
    }
    rows.insert(rows.end(), std::make_move_iterator(chunk_rows.begin()),
                std::make_move_iterator(chunk_rows.end()));
    chunk_rows.clear();
    const std::lock_guard lock(spare_mutex);
    spares.push_back(std::move(chunk_rows));
  };
  read_chunks(options, parse, take);
  return rows;
}

}  // namespace detail

/// Reads every record of the regular file at `path` as a Row through `schema`, on several
/// threads, in input order: what `csv::read_rows` over one reader of the file gives (a named
/// schema reads the header; with `options.header` a positional one skips it).
template <class Row>
std::vector<Row> read_rows(const std::filesystem::path& path, const Schema<Row>& schema,
                           ParallelReadOptions options) {
  options.header = options.header || schema.named();
  const MappedFile file(path);
  MemoryReadStream in(file.contents());
  return detail::read_rows_in_chunks<Row>(in, schema, options, file.size(),
                                          [&](const ParallelReadOptions& o, auto parse, auto take) {
                                            detail::read_chunks_from(in, &file, o, parse, take);
                                          });
}

/// The same for the rest of any stream.
template <class Row>
std::vector<Row> read_rows(ReadStream& in, const Schema<Row>& schema, ParallelReadOptions options) {
  options.header = options.header || schema.named();
  return detail::read_rows_in_chunks<Row>(in, schema, options, in.remaining_hint(),
                                          [&](const ParallelReadOptions& o, auto parse, auto take) {
                                            detail::read_chunks_from(in, nullptr, o, parse, take);
                                          });
}

}  // namespace bufstream::csv
