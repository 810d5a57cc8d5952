#include "convert_parallel.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/csv/parallel.hpp>
#include <bufstream/csv/writer.hpp>
#include <bufstream/json/parallel.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include "csv_events.hpp"

namespace bufstream::cli {

namespace {

bool is_csv(FileFormat f) { return f == FileFormat::csv || f == FileFormat::tsv; }

// What a chunk wrote (`text` from `skip` on); for CSV input with a header, the first chunk's
// names too.
struct ChunkOutput {
  std::string text;
  std::size_t skip = 0;
  std::vector<std::string> names;
};

// The chunks' strings, written out and given back to be written into again: a fresh one per
// chunk was faulted in and given back to the system each time (a third of the time of
// JSON Lines to JSON on two threads).
class SpareTexts {
 public:
  std::string get() {
    const std::lock_guard lock(mutex_);
    if (spares_.empty()) return {};
    std::string text = std::move(spares_.back());
    spares_.pop_back();
    text.clear();
    return text;
  }
  void put(std::string&& text) {
    const std::lock_guard lock(mutex_);
    spares_.push_back(std::move(text));
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> spares_;
};

// Writes the chunks' outputs in order. For JSON output each chunk wrote its values as one
// array, "[" inner "]" (or "\n]" when pretty): the inners are joined with ',' inside one array,
// which is what one writer writes for all the values.
class ChunkJoin {
 public:
  ChunkJoin(Output& output, bool array) : output_(output), array_(array) {}

  // A chunk's text; `complete` is false for the text before an error.
  void add(std::string_view text, bool complete) {
    if (!array_) {
      output_.stream().write(text);
      return;
    }
    if (text.starts_with('[')) text.remove_prefix(1);
    if (complete) {
      const std::string_view close = text.ends_with("\n]") ? "\n]" : "]";
      text.remove_suffix(close.size());
      if (!text.empty()) close_ = close;
    }
    if (text.empty() && (complete || started_)) return;
    output_.stream().write(started_ ? (text.empty() ? "" : ",") : "[");
    output_.stream().write(text);
    started_ = true;
  }

  // After the last chunk: the array's end and the line end the command writes after JSON.
  void finish() {
    if (!array_) return;
    output_.stream().write(started_ ? close_ : "[]");
    output_.stream().lf();
  }

 private:
  Output& output_;
  bool array_;
  bool started_ = false;  // "[" was written
  std::string_view close_ = "]";
};

// Runs `write(reader, sink, chunk)` for each chunk into a string, and joins them in order. In
// the rest of the input read after a failure (`Chunk::rest`), what was written before the
// error is joined too, before the error goes on.
template <class Reader, class Write>
auto chunk_writer(ChunkJoin& join, SpareTexts& spares, std::uint64_t start_position, Write write) {
  return [&join, &spares, start_position, write](Reader& reader, const Chunk& chunk) {
    // A chunk after the first writes after some output: a writer that asks where it is (CSV's
    // rule for a byte-order mark at the very start) must not think it is at the start.
    const std::size_t before = static_cast<std::size_t>(start_position) + (chunk.index != 0);
    std::string text = spares.get();
    text.append(before, ' ');
    StringWriteStream sink{std::move(text)};
    ChunkOutput out;
    try {
      write(reader, sink, chunk, out);
    } catch (...) {
      if (chunk.rest) join.add(sink.view().substr(before), false);
      throw;
    }
    out.text = sink.take();
    out.skip = before;
    return out;
  };
}

// Writes a chunk's output and keeps its string for another chunk.
void take_text(ChunkJoin& join, SpareTexts& spares, ChunkOutput& out) {
  join.add(std::string_view(out.text).substr(out.skip), true);
  spares.put(std::move(out.text));
}

void convert_csv(const ParallelConversion& c, const std::string& path, Output& output,
                 const ParallelOptions& parallel, ProgressLine* progress) {
  const bool array = c.to == FileFormat::json;
  ChunkJoin join(output, array);
  SpareTexts spares;
  const bool header = !c.args.no_header;
  const bool infer = c.args.infer;
  std::vector<std::string> names;  // set when the first chunk is taken, before any other is cut
  const auto write = [&](csv::Reader& reader, WriteStream& sink, const Chunk& chunk,
                         ChunkOutput& out) {
    if (is_csv(c.to)) {
      csv::Writer writer(sink, c.csv_out);
      while (const csv::Record* record = reader.next()) writer.record(record->fields());
      return;
    }
    json::Writer writer(sink, c.json_out);
    json::EventWriter events(writer);
    if (array) writer.begin_array();
    if (header && chunk.index == 0) out.names = read_names(reader);
    const std::vector<std::string>& keys = chunk.index == 0 ? out.names : names;
    while (const csv::Record* record = reader.next())
      emit_record(events, *record, header ? &keys : nullptr, infer);
    if (array) writer.end_array();
    writer.finish();
  };
  csv::read_chunks(path, {.read = c.csv_in, .parallel = parallel},
                   chunk_writer<csv::Reader>(join, spares, output.stream().position(), write),
                   [&](ChunkOutput&& out, const Chunk& chunk) {
                     if (chunk.index == 0) names = std::move(out.names);
                     take_text(join, spares, out);
                     if (progress) progress->advance(chunk.bytes.size());
                   });
  join.finish();
}

void convert_jsonl(const ParallelConversion& c, const std::string& path, const Input& input,
                   Output& output, const ParallelOptions& parallel, ProgressLine* progress) {
  const bool array = c.to == FileFormat::json;
  ChunkJoin join(output, array);
  SpareTexts spares;
  const auto write = [&](json::Reader& reader, WriteStream& sink, const Chunk&, ChunkOutput&) {
    json::Writer writer(sink, c.json_out);
    json::EventWriter events(writer);
    if (array) writer.begin_array();
    while (!reader.at_end()) reader.parse(events);
    if (array) writer.end_array();
    writer.finish();
  };
  json::read_lines_chunks(
      path, {.read = {.source_name = input.name()}, .parallel = parallel},
      chunk_writer<json::Reader>(join, spares, output.stream().position(), write),
      [&](ChunkOutput&& out, const Chunk& chunk) {
        take_text(join, spares, out);
        if (progress) progress->advance(chunk.bytes.size());
      });
  join.finish();
}

}  // namespace

bool convert_in_parallel(const ParallelConversion& c, Input& input, Output& output,
                         unsigned threads) {
  const ConvertArgs& args = c.args;
  const std::optional<std::string> path = input.parallel_path();
  if (threads < 2 || !path || args.flush_each || args.typed || args.select) return false;
  const bool from_csv =
      is_csv(c.from) && (is_csv(c.to) || c.to == FileFormat::json || c.to == FileFormat::jsonl);
  const bool from_jsonl =
      c.from == FileFormat::jsonl && (c.to == FileFormat::json || c.to == FileFormat::jsonl);
  if (!from_csv && !from_jsonl) return false;
  const std::unique_ptr<ProgressLine> progress = input.parallel_progress();
  const ParallelOptions parallel{.threads = threads};
  if (from_csv) {
    convert_csv(c, *path, output, parallel, progress.get());
  } else {
    convert_jsonl(c, *path, input, output, parallel, progress.get());
  }
  return true;
}

}  // namespace bufstream::cli
