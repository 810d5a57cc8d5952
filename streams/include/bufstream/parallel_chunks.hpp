// Reading one input on several threads: the input is cut into chunks at record boundaries (a
// format says where they are), each chunk is parsed on a worker thread, and the results are
// taken on the calling thread in input order. This is the part that knows no format: the
// threads, the chunks in flight and where their bytes come from. csv::read_chunks and
// json::read_lines_chunks build on it.
//
//     a regular file:   mapped; a chunk is a view of the mapping (no copy), and the pages of
//                       the chunks already taken are given back, so that memory stays at the
//                       chunks in flight however large the file;
//     any ReadStream:   the thread that cuts the next chunk reads it into a buffer of its own
//                       (one thread reads at a time, the others parse).
//
// At most `chunks_in_flight` chunks are cut and not yet taken, so memory is bounded by that
// many chunks (and what the parse of each keeps). Cutting runs under the run's lock, one
// chunk after the other (each cut starts where the last one ended); parsing and taking run
// in parallel with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string_view>

#include <bufstream/mapped_file.hpp>
#include <bufstream/read_stream.hpp>

namespace bufstream {

/// How a parallel read is run.
struct ParallelOptions {
  /// Parsing threads; 0: as many as the machine has cores (`std::thread::hardware_concurrency`).
  /// With 1, chunks are cut, parsed and taken on the calling thread, one after the other.
  unsigned threads = 0;
  /// About how many bytes a chunk holds (it ends at the first record boundary past this
  /// many bytes); 0: 128 KiB, and with one thread a file or bytes in memory are one chunk
  /// (besides a first record that the format cuts alone). Tests use sizes down to 1 byte.
  std::size_t chunk_size = 0;
  /// How many chunks may be cut and not yet taken; 0: eight a thread.
  std::size_t chunks_in_flight = 0;
};

/// One chunk of the input: whole records, in input order.
struct Chunk {
  std::size_t index = 0;     ///< 0, 1, 2, ... in input order
  std::uint64_t offset = 0;  ///< where its first byte lies in the input (the stream's position)
  std::string_view bytes;    ///< its bytes; valid until the chunk has been taken
  /// True for the rest of the input read on the calling thread, in order, after a chunk
  /// could not be read alone (see ChunkWork::take); `bytes` is then empty.
  bool rest = false;
};

/// A format's rule of where records end. One object cuts every chunk of a run, in order, from
/// one thread at a time.
class ChunkBoundaries {
 public:
  virtual ~ChunkBoundaries() = default;
  /// A new chunk starts (at a record boundary): forget what `find` kept about the last.
  /// `first` for the input's first chunk.
  virtual void start_chunk(bool first) noexcept { (void)first; }
  /// Whether the first chunk is the first record alone, cut, parsed and taken before any other
  /// is cut: for a format whose chunks need something from it (CSV's field count). `find` is
  /// then called for it with `target` 0.
  virtual bool first_alone() const noexcept { return false; }
  /// Where the first record that ends after byte `target` of `text` ends (an offset in
  /// `text`, greater than `target`), or nullopt when `text` ends first. `text` starts at the
  /// chunk's start; `input_ends` says that no byte follows it. Called again with a longer text
  /// (the same start and target) after nullopt, so it may keep how far it has looked.
  virtual std::optional<std::size_t> find(std::string_view text, std::size_t target,
                                          bool input_ends) = 0;

  /// For bytes in memory, chunks are found by the workers themselves, each from a piece of
  /// `chunk_size` bytes: what a piece tells the ones after it (CSV: the parity of its quotes),
  /// summed up from the first piece on with `combine`. By default nothing. Called
  /// concurrently: it must not change the object.
  virtual std::uint64_t summarize(std::string_view piece) const noexcept {
    (void)piece;
    return 0;
  }
  /// The state after a text whose state before was `before` and whose summary is `piece`.
  virtual std::uint64_t combine(std::uint64_t before, std::uint64_t piece) const noexcept {
    return before ^ piece;
  }
  /// Where the first record ends whose end (its line end's first byte) lies in
  /// `[from, limit)` of `text` (the whole input in memory), the state at `from` being `state`;
  /// nullopt if none does. Called concurrently: it must not change the object.
  virtual std::optional<std::size_t> find_from(std::string_view text, std::size_t from,
                                               std::uint64_t state, std::size_t limit) const = 0;
};

/// What a parallel read does with each chunk.
class ChunkWork {
 public:
  virtual ~ChunkWork() = default;
  /// On a worker thread: parses `chunk` and keeps the result in slot `slot` (less than
  /// `ParallelOptions::chunks_in_flight`, free again once the chunk has been taken).
  /// An exception it throws goes to `take` with the chunk.
  virtual void parse(const Chunk& chunk, std::size_t slot) = 0;
  /// On the calling thread, in input order: the chunk's result (or what its parse threw, in
  /// `error`). `rest()` gives, when asked, a stream of the input from the chunk's first byte
  /// to the end (with the input's positions); once it has been asked for, no chunk after this
  /// one is taken, and the run ends when `take` returns. Returning false ends the run too.
  virtual bool take(const Chunk& chunk, std::size_t slot, std::exception_ptr error,
                    class RestOfInput& rest) = 0;
};

/// The input from a chunk's start to its end, for a reader that must go on where the chunks
/// cannot (see ChunkWork::take).
class RestOfInput {
 public:
  /// The stream (made on the first call; reading it ends the run's other chunks).
  virtual ReadStream& stream() = 0;

 protected:
  ~RestOfInput() = default;
};

/// A memory stream whose positions start at `offset`: a chunk read with the offsets it has
/// in the whole input.
class ChunkReadStream final : public ReadStream {
 public:
  /// Reads `bytes` (which must outlive the stream), the first at position `offset`.
  ChunkReadStream(std::string_view bytes, std::uint64_t offset) noexcept {
    set_window(bytes.data(), bytes.data() + bytes.size(), bytes.size());
    limit_position_ = offset + bytes.size();
  }

 protected:
  bool refill(std::size_t) override { return false; }
  std::optional<std::uint64_t> source_remaining_hint() const override { return 0; }
};

/// A hint for a large block of memory the caller is about to fill (a parallel read's result):
/// transparent huge pages where the system offers them, so that it costs a page fault per
/// 2 MiB rather than per 4 KiB. Failure is harmless and ignored.
void advise_huge_pages(void* data, std::size_t size) noexcept;

/// How many line feeds `text` holds: for numbering the lines of chunks read at the same time.
std::uint64_t line_feeds_in(std::string_view text) noexcept;

/// How many chunks `options` lets be in flight (0: eight a thread).
std::size_t chunks_in_flight(const ParallelOptions& options) noexcept;

/// How many threads `options` asks for (0: the machine's cores, at least 1).
unsigned parallel_threads(const ParallelOptions& options) noexcept;

/// Reads a mapped file from byte `start` in chunks cut by `boundaries`, parsed and taken by
/// `work` (see the file comment); the pages of the chunks taken are given back to the system
/// (read again from the file if touched again). Throws whatever `take` throws (the workers
/// are stopped and joined first).
void read_chunks(const MappedFile& file, std::uint64_t start, ChunkBoundaries& boundaries,
                 ChunkWork& work, const ParallelOptions& options);

/// The same for bytes in memory (which must outlive the call): the first at position `offset`.
void read_chunks(std::string_view bytes, std::uint64_t offset, ChunkBoundaries& boundaries,
                 ChunkWork& work, const ParallelOptions& options);

/// The same for the rest of any stream, read by the thread that cuts the next chunk.
/// Positions are the stream's.
void read_chunks(ReadStream& in, ChunkBoundaries& boundaries, ChunkWork& work,
                 const ParallelOptions& options);

}  // namespace bufstream
