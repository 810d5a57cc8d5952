#include <bufstream/cedict/stats.hpp>

#include <fmt/format.h>

namespace bufstream::cedict {

void print_stats(WriteStream& out, const Stats& stats, std::string_view source_name) {
  fmt::memory_buffer text;
  auto line = [&](std::string_view name, const auto& value) {
    fmt::format_to(std::back_inserter(text), "{:<22}{}\n", fmt::format("{}:", name), value);
  };
  if (!source_name.empty()) fmt::format_to(std::back_inserter(text), "{}\n", source_name);
  line("bytes", stats.bytes);
  line("lines", stats.lines);
  line("entries", stats.entries);
  if (stats.declared_entries) {
    line("declared entries",
         fmt::format("{}{}", *stats.declared_entries,
                     *stats.declared_entries == stats.entries ? " (matches)" : " (DIFFERS)"));
  }
  line("glosses", stats.glosses);
  line("comment lines", stats.comment_lines);
  line("metadata lines", stats.metadata_lines);
  line("malformed lines", stats.malformed_lines);
  line("final newline", stats.missing_final_newline ? "missing" : "present");
  line("line ends", stats.crlf_line_ends ? "CRLF (at least one)" : "LF");
  for (const auto& [key, value] : stats.metadata) line(fmt::format("#! {}", key), value);
  line("memory: text", stats.memory.text_bytes);
  line("memory: mapped", stats.memory.mapped_bytes);
  line("memory: entries", stats.memory.entry_bytes);
  line("memory: indexes", stats.memory.index_bytes);
  line("memory: total", stats.memory.total());
  for (const ParseError& e : stats.malformed)
    fmt::format_to(std::back_inserter(text), "malformed: {}\n", e.what());
  if (stats.malformed.size() < stats.malformed_lines) {
    fmt::format_to(std::back_inserter(text), "malformed: ... and {} more\n",
                   stats.malformed_lines - stats.malformed.size());
  }
  out.write(std::string_view(text.data(), text.size()));
}

}  // namespace bufstream::cedict
