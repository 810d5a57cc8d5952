#include <bufstream/parallel_chunks.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <bufstream/kernels/byte_count.hpp>

namespace bufstream {

namespace {

// 128 KiB: a worker counts a piece's quotes and then parses it while it is in its core's L2
// cache (a typed CSV read on two threads: 1 MiB 113 ms, 256 KiB 84, 128 KiB 79).
constexpr std::size_t default_chunk_size = std::size_t{128} << 10;

// Where chunks come from. `cut` and `rest` are called under the run's lock; `release` on the
// calling thread after a chunk was taken.
class Cutter {
 public:
  virtual ~Cutter() = default;
  // Chunk `index` into slot `slot` (free), or nullopt at the end of the input.
  virtual std::optional<Chunk> cut(std::size_t index, std::size_t slot) = 0;
  // The input from chunk `first` (being taken) on; chunks up to `end` (exclusive) were cut.
  virtual ReadStream& rest(const Chunk& first, std::size_t end, std::size_t slots) = 0;
  virtual void release(const Chunk&) noexcept {}
  // Pieces (bytes in memory): after the chunks cut so far, pieces of the chunk size, each
  // summarized and cut into its chunk by a worker (see ChunkBoundaries::summarize).
  virtual bool by_pieces() const noexcept { return false; }
  virtual std::size_t pieces() const noexcept { return 0; }
  virtual std::uint64_t summarize(std::size_t) const noexcept { return 0; }
  virtual std::uint64_t combine(std::uint64_t before, std::uint64_t) const noexcept {
    return before;
  }
  virtual Chunk piece_chunk(std::size_t, std::size_t index, std::uint64_t, std::uint64_t) const {
    return {index, 0, {}};
  }
};

// ---- Bytes in memory (a mapped file) -------------------------------------------------------

class MemoryCutter final : public Cutter {
 public:
  MemoryCutter(std::string_view bytes, std::uint64_t offset, ChunkBoundaries& boundaries,
               std::size_t chunk_size, bool release_pages)
      : bytes_(bytes),
        base_(offset),
        boundaries_(boundaries),
        chunk_size_(chunk_size),
        release_pages_(release_pages) {}

  std::optional<Chunk> cut(std::size_t index, std::size_t) override {
    if (next_ == bytes_.size()) return std::nullopt;
    const std::string_view text = bytes_.substr(next_);
    const std::size_t target = index == 0 && boundaries_.first_alone() ? 0 : chunk_size_;
    std::size_t size = text.size();
    if (size > target) {
      boundaries_.start_chunk(index == 0);
      size = boundaries_.find(text, target, true).value_or(text.size());
    }
    const Chunk chunk{index, base_ + next_, text.substr(0, size)};
    next_ += size;
    return chunk;
  }

  ReadStream& rest(const Chunk& first, std::size_t, std::size_t) override {
    rest_.emplace(bytes_.substr(first.offset - base_), first.offset);
    return *rest_;
  }

  // ---- Pieces: the chunks after the first one cut alone (if any), found by the workers ---

  bool by_pieces() const noexcept override { return true; }

  // How many pieces of chunk_size bytes the bytes not cut yet make.
  std::size_t pieces() const noexcept override {
    const std::size_t left = bytes_.size() - next_;
    return left == 0 ? 0 : (left - 1) / chunk_size_ + 1;
  }

  std::uint64_t combine(std::uint64_t before, std::uint64_t piece) const noexcept override {
    return boundaries_.combine(before, piece);
  }

  std::uint64_t summarize(std::size_t k) const noexcept override {
    return boundaries_.summarize(piece_text().substr(k * chunk_size_, chunk_size_));
  }

  // Chunk `index` from piece k: from the first record end in the piece (the start for the
  // first piece) to the first one after it; empty when the piece holds none (the chunk
  // before then goes on past it). `before` and `after` are the states at the piece's ends.
  Chunk piece_chunk(std::size_t k, std::size_t index, std::uint64_t before,
                    std::uint64_t after) const override {
    const std::string_view text = piece_text();
    const std::size_t low = k * chunk_size_;
    const std::size_t high = low + std::min(chunk_size_, text.size() - low);
    std::size_t begin = 0;
    if (k != 0) {
      const std::optional<std::size_t> first = boundaries_.find_from(text, low, before, high);
      if (!first) return {index, base_ + next_ + high, text.substr(high, 0)};
      begin = *first;
    }
    std::size_t end = text.size();
    if (high < text.size())
      end = boundaries_.find_from(text, high, after, text.size()).value_or(end);
    begin = std::min(begin, end);
    return {index, base_ + next_ + begin, text.substr(begin, end - begin)};
  }

  // Gives back the whole pages before the taken chunk's end (every byte before it was taken,
  // and no later chunk lies on them), 8 MiB or more at a time.
  void release(const Chunk& chunk) noexcept override {
    if (chunk.bytes.empty()) return;
    if (!release_pages_) return;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto end = reinterpret_cast<std::uintptr_t>(chunk.bytes.data() + chunk.bytes.size());
    const std::uintptr_t to = end / page * page;
    const auto from =
        std::max(released_, reinterpret_cast<std::uintptr_t>(bytes_.data()) / page * page);
    // 8 MiB at a time: each call makes every other core flush its TLB.
    if (to >= from + (std::uintptr_t{8} << 20)) {
      ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
      released_ = to;
    }
  }

 private:
  std::string_view bytes_;
  std::uint64_t base_;
  ChunkBoundaries& boundaries_;
  std::size_t chunk_size_;
  bool release_pages_;
  std::size_t next_ = 0;  // where the next chunk starts, in bytes_
  std::uintptr_t released_ = 0;
  std::optional<ChunkReadStream> rest_;

  std::string_view piece_text() const noexcept { return bytes_.substr(next_); }
};

// ---- Any stream ----------------------------------------------------------------------------

// A growable block of bytes that is never zeroed (a chunk is read straight into it).
class Block {
 public:
  char* data() noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }
  std::string_view view() const noexcept { return {data_.get(), size_}; }
  void assign(std::string_view bytes) {
    size_ = 0;
    append(bytes);
  }
  void append(std::string_view bytes) {
    reserve(size_ + bytes.size());
    if (!bytes.empty()) std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
    size_ += bytes.size();
  }
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    const std::size_t capacity = std::max(n, capacity_ + capacity_ / 2);
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  void resize(std::size_t n) {
    reserve(n);
    size_ = n;
  }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// The bytes of the chunks cut and not taken and of the carry, then the source: the rest of the
// input, for a reader that goes on where the chunks could not.
class SpliceReadStream final : public ReadStream {
 public:
  SpliceReadStream(std::string prefix, std::uint64_t offset, ReadStream& source) : source_(source) {
    buffers_[0] = std::move(prefix);
    set_window(buffers_[0].data(), buffers_[0].data() + buffers_[0].size(), buffers_[0].size());
    limit_position_ = offset + buffers_[0].size();
  }

 protected:
  bool refill(std::size_t min) override {
    std::string& next = buffers_[1 - current_];
    next.assign(cursor_, limit_);
    const std::size_t kept = next.size();
    next.resize(std::max({min, kept + 65536, next.capacity()}));
    std::size_t filled = kept;
    bool more = true;
    while (filled < min) {
      const std::size_t got =
          source_.read_some(std::span<char>(next.data() + filled, next.size() - filled));
      if (got == 0) {
        more = false;
        break;
      }
      filled += got;
    }
    next.resize(filled);
    current_ = 1 - current_;
    set_window(next.data(), next.data() + next.size(), filled - kept);
    return more;
  }

 private:
  ReadStream& source_;
  std::string buffers_[2];
  int current_ = 0;
};

class StreamCutter final : public Cutter {
  static constexpr std::size_t read_size = 65536;  // the least a chunk's first read asks for

 public:
  StreamCutter(ReadStream& in, ChunkBoundaries& boundaries, std::size_t chunk_size,
               std::size_t slots)
      : in_(in),
        boundaries_(boundaries),
        chunk_size_(chunk_size),
        blocks_(slots),
        offset_(in.position()) {}

  std::optional<Chunk> cut(std::size_t index, std::size_t slot) override {
    Block& block = blocks_[slot];
    block.assign(carry_.view());
    carry_.resize(0);
    boundaries_.start_chunk(index == 0);
    const std::size_t target = index == 0 && boundaries_.first_alone() ? 0 : chunk_size_;
    std::size_t end = 0;
    // Past the chunk's size, a little more at a time (doubling, for a long record): a record
    // ends soon after, and what is read past its end is copied again as the next chunk's start.
    std::size_t more = 4096;
    for (;;) {
      if (!ended_ && block.size() <= target)
        read(block, std::max(target + 1, read_size) - block.size());
      if (block.size() <= target) {  // the input ends within the chunk's size
        end = block.size();
        break;
      }
      if (const auto found = boundaries_.find(block.view(), target, ended_)) {
        end = *found;
        break;
      }
      if (ended_) {
        end = block.size();
        break;
      }
      read(block, more);
      more = std::min(more * 2, std::max(read_size, block.size() / 4));
    }
    if (end == 0) return std::nullopt;
    carry_.assign(block.view().substr(end));
    block.resize(end);
    const Chunk chunk{index, offset_, block.view()};
    offset_ += end;
    return chunk;
  }

  ReadStream& rest(const Chunk& first, std::size_t end, std::size_t slots) override {
    std::string prefix;
    for (std::size_t i = first.index; i < end; ++i) prefix.append(blocks_[i % slots].view());
    prefix.append(carry_.view());
    rest_.emplace(std::move(prefix), first.offset, in_);
    return *rest_;
  }

 private:
  // Appends up to `n` bytes from the source; fewer only at its end.
  void read(Block& block, std::size_t n) {
    const std::size_t at = block.size();
    block.resize(at + n);
    const std::size_t got = in_.read_into(std::span<char>(block.data() + at, n));
    block.resize(at + got);
    if (got < n) ended_ = true;
  }

  ReadStream& in_;
  ChunkBoundaries& boundaries_;
  std::size_t chunk_size_;
  std::vector<Block> blocks_;  // one per slot
  Block carry_;                // bytes read past the last chunk's end
  std::uint64_t offset_;       // the next chunk's position
  bool ended_ = false;
  std::optional<SpliceReadStream> rest_;
};

// ---- The run -------------------------------------------------------------------------------

class Run final : public RestOfInput {
 public:
  Run(Cutter& cutter, ChunkWork& work, std::size_t slots, bool first_alone)
      : cutter_(cutter), work_(work), slots_(slots), first_alone_(first_alone) {}

  // Cuts and parses chunks until there are none or the run stops.
  void work_loop() {
    std::unique_lock lock(mutex_);
    while (work_one(lock)) {
    }
  }

  // Takes chunks in order, on the calling thread, which cuts and parses chunks too.
  void take_loop() {
    for (std::size_t index = 0;; ++index) {
      Slot& slot = slots_[index % slots_.size()];
      std::unique_lock lock(mutex_);
      // The calling thread parses too while the chunk it waits for is not done, as long as
      // there is a chunk to claim; else it waits for a worker.
      while (!slot_done(index) && !input_done(index)) {
        if (can_claim()) {
          work_one(lock);
        } else {
          ready_.wait(lock);
        }
      }
      if (slot_done(index)) {
        const Chunk chunk = slot.chunk;
        const std::exception_ptr error = slot.error;
        lock.unlock();
        taking_ = &chunk;
        const bool go_on = work_.take(chunk, index % slots_.size(), error, *this);
        taking_ = nullptr;
        cutter_.release(chunk);
        lock.lock();
        slot.state = State::free;
        ++next_take_;
        ready_.notify_all();
        if (!go_on || stopped_) return;
        continue;
      }
      if (cut_error_) std::rethrow_exception(cut_error_);
      return;
    }
  }

  void stop() noexcept {
    const std::lock_guard lock(mutex_);
    stopped_ = true;
    ready_.notify_all();
  }

  ReadStream& stream() override {
    const std::lock_guard lock(mutex_);
    stopped_ = true;  // no chunk is cut from here on; the ones cut are the stream's
    ready_.notify_all();
    return cutter_.rest(*taking_, next_cut_, slots_.size());
  }

 private:
  enum class State { free, parsing, done };
  struct Slot {
    Chunk chunk;
    std::exception_ptr error;
    State state = State::free;
  };

  bool slot_done(std::size_t index) const {
    const Slot& slot = slots_[index % slots_.size()];
    return slot.state == State::done && slot.chunk.index == index;
  }
  bool input_done(std::size_t index) const { return ended_ && index == next_cut_; }
  // A chunk may be cut: fewer than the slots are in flight, and the first chunk, when it is
  // cut alone, has been taken.
  bool can_claim() const {
    return !stopped_ && !ended_ && next_cut_ < next_take_ + slots_.size() &&
           !(first_alone_ && next_cut_ == 1 && next_take_ == 0);
  }

  // One chunk cut and parsed, `lock` held on entry and on return; false when there is nothing
  // more to do.
  bool work_one(std::unique_lock<std::mutex>& lock) {
    ready_.wait(lock, [&] { return stopped_ || ended_ || can_claim(); });
    if (stopped_ || ended_) return false;
    const std::size_t index = next_cut_;
    if (cutter_.by_pieces() && !(first_alone_ && index == 0)) return work_piece(lock);
    Slot& slot = slots_[index % slots_.size()];
    std::optional<Chunk> chunk;
    try {
      chunk = cutter_.cut(index, index % slots_.size());
    } catch (...) {
      cut_error_ = std::current_exception();  // thrown when the chunks before are taken
    }
    if (!chunk) {
      ended_ = true;
      ready_.notify_all();
      return false;
    }
    ++next_cut_;
    slot.chunk = *chunk;
    slot.state = State::parsing;
    lock.unlock();
    parse(*chunk, lock);
    return true;
  }

  // Parses `chunk` with `lock` released, and marks its slot done.
  void parse(const Chunk& chunk, std::unique_lock<std::mutex>& lock) {
    std::exception_ptr error;
    try {
      work_.parse(chunk, chunk.index % slots_.size());
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    Slot& slot = slots_[chunk.index % slots_.size()];
    slot.chunk = chunk;
    slot.error = error;
    slot.state = State::done;
    ready_.notify_all();
  }

  // The chunk of the next piece: its summary, then (once the pieces before have theirs) its
  // chunk, cut and parsed here, beside the other workers. `lock` held on entry and on return.
  bool work_piece(std::unique_lock<std::mutex>& lock) {
    if (states_.empty()) {  // the first piece: the chunks cut one by one are all cut
      first_piece_ = next_cut_;
      pieces_ = cutter_.pieces();
      states_.assign(pieces_ + 1, 0);
      summaries_.assign(pieces_, std::nullopt);
    }
    const std::size_t index = next_cut_;
    const std::size_t k = index - first_piece_;
    if (k >= pieces_) {
      ended_ = true;
      ready_.notify_all();
      return false;
    }
    ++next_cut_;
    slots_[index % slots_.size()].state = State::parsing;
    lock.unlock();
    // The last piece's summary is nobody's business.
    const std::uint64_t summary = k + 1 < pieces_ ? cutter_.summarize(k) : 0;
    lock.lock();
    summaries_[k] = summary;
    while (known_ <= pieces_ && summaries_[known_ - 1]) {
      states_[known_] = cutter_.combine(states_[known_ - 1], *summaries_[known_ - 1]);
      ++known_;
    }
    ready_.notify_all();
    ready_.wait(lock, [&] { return stopped_ || known_ >= k + 2; });
    if (stopped_) return false;
    const std::uint64_t before = states_[k];
    const std::uint64_t after = states_[k + 1];
    lock.unlock();
    parse(cutter_.piece_chunk(k, index, before, after), lock);
    return true;
  }

  Cutter& cutter_;
  ChunkWork& work_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::size_t next_cut_ = 0;
  std::size_t next_take_ = 0;
  bool first_alone_;
  bool ended_ = false;    // the cutter found the end (or failed)
  bool stopped_ = false;  // the caller is done
  std::exception_ptr cut_error_;
  const Chunk* taking_ = nullptr;
  // Pieces: the first piece's chunk index, how many, each one's summary once known, and the
  // states at their starts, known for the first `known_`.
  std::size_t first_piece_ = 0;
  std::size_t pieces_ = 0;
  std::vector<std::optional<std::uint64_t>> summaries_;
  std::vector<std::uint64_t> states_;
  std::size_t known_ = 1;
};

std::size_t chunk_size_for(const ParallelOptions& options) {
  return options.chunk_size != 0 ? options.chunk_size : default_chunk_size;
}

// Bytes already in memory read on one thread are one chunk unless a size was asked for: there
// is nothing to share out, and cutting would only cost (CSV's quote count, the moves of rows
// from chunk vectors into one).
std::size_t memory_chunk_size_for(const ParallelOptions& options) {
  if (options.chunk_size == 0 && parallel_threads(options) == 1)
    return static_cast<std::size_t>(-1);
  return chunk_size_for(options);
}

void run(Cutter& cutter, ChunkWork& work, const ParallelOptions& options, std::size_t slots,
         bool first_alone) {
  const unsigned threads = parallel_threads(options);
  Run run(cutter, work, slots, first_alone);
  std::vector<std::jthread> workers;
  // Stops and joins the workers however the taking ends (a throw included).
  struct Joiner {
    Run& run;
    std::vector<std::jthread>& workers;
    ~Joiner() {
      run.stop();
      workers.clear();
    }
  } joiner{run, workers};
  // The calling thread is one of the threads: it parses between the chunks it takes (alone,
  // with one thread).
  for (unsigned i = 1; i < threads; ++i) workers.emplace_back([&run] { run.work_loop(); });
  run.take_loop();
}

}  // namespace

void advise_huge_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

std::uint64_t line_feeds_in(std::string_view text) noexcept {
  return kernels::count_byte(text.data(), text.size(), '\n');
}

std::size_t chunks_in_flight(const ParallelOptions& options) noexcept {
  if (options.chunks_in_flight != 0) return options.chunks_in_flight;
  // Eight a thread: slack for the thread that also takes them (1 MiB chunks, two threads:
  // 4 in flight 113 ms, 8 111; 128 KiB: 16 79).
  return std::size_t{8} * parallel_threads(options);
}

unsigned parallel_threads(const ParallelOptions& options) noexcept {
  if (options.threads != 0) return options.threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

void read_chunks(std::string_view bytes, std::uint64_t offset, ChunkBoundaries& boundaries,
                 ChunkWork& work, const ParallelOptions& options) {
  const std::size_t slots = chunks_in_flight(options);
  MemoryCutter cutter(bytes, offset, boundaries, memory_chunk_size_for(options), false);
  run(cutter, work, options, slots, boundaries.first_alone());
}

void read_chunks(const MappedFile& file, std::uint64_t start, ChunkBoundaries& boundaries,
                 ChunkWork& work, const ParallelOptions& options) {
  const std::size_t slots = chunks_in_flight(options);
  const std::string_view bytes = file.contents().substr(std::min<std::size_t>(start, file.size()));
  MemoryCutter cutter(bytes, start, boundaries, memory_chunk_size_for(options), true);
  run(cutter, work, options, slots, boundaries.first_alone());
}

void read_chunks(ReadStream& in, ChunkBoundaries& boundaries, ChunkWork& work,
                 const ParallelOptions& options) {
  const std::size_t slots = chunks_in_flight(options);
  StreamCutter cutter(in, boundaries, chunk_size_for(options), slots);
  run(cutter, work, options, slots, boundaries.first_alone());
}

}  // namespace bufstream
