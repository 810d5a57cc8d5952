#include "suites/csv_peers.hpp"

#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>

#include <fmt/format.h>

#ifdef BUFSTREAM_BENCH_HAVE_LIBCSV
#include <csv.h>
#endif

#include "harness/file_utils.hpp"
#include "harness/results.hpp"

namespace bufstream::bench {
namespace {

bool needs_quotes(std::string_view field) noexcept {
  return field.find_first_of(",\"\r\n") != std::string_view::npos;
}

std::string quote_field(std::string_view field) {
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace

void write_csv_stdio(const DataSet& set, const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) io_failed("open", path);
  for (const Row& row : set.rows) {
    if (set.integral()) {
      std::fprintf(f, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", row.i, row.minus_i,
                   static_cast<std::int64_t>(row.x), static_cast<std::int64_t>(row.y));
    } else {
      std::fprintf(f, "%" PRId64 ",%" PRId64 ",%.17g,%.17g,", row.i, row.minus_i, row.x, row.y);
    }
    if (needs_quotes(row.words)) {
      std::fprintf(f, "%s\n", quote_field(row.words).c_str());
    } else {
      std::fprintf(f, "%s\n", row.words.c_str());
    }
  }
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) io_failed("write", path);
}

void write_csv_ofstream(const DataSet& set, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) io_failed("open", path);
  out.precision(17);
  for (const Row& row : set.rows) {
    out << row.i << ',' << row.minus_i << ',';
    if (set.integral()) {
      out << static_cast<std::int64_t>(row.x) << ',' << static_cast<std::int64_t>(row.y) << ',';
    } else {
      out << row.x << ',' << row.y << ',';
    }
    if (needs_quotes(row.words)) {
      out << quote_field(row.words) << '\n';
    } else {
      out << row.words << '\n';
    }
  }
  out.close();
  if (!out) io_failed("write", path);
}

Checksum read_csv_getline(const std::filesystem::path& path, Stopwatch& watch) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failed("open", path);
  std::vector<Row> rows;
  std::string line;
  std::string field;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    Row row;
    std::getline(fields, field, ',');
    row.i = std::stoll(field);
    std::getline(fields, field, ',');
    row.minus_i = std::stoll(field);
    std::getline(fields, field, ',');
    row.x = std::stod(field);
    std::getline(fields, field, ',');
    row.y = std::stod(field);
    std::getline(fields, field);  // the rest of the line: the string, quoted if it has a comma
    if (field.size() >= 2 && field.front() == '"') {
      for (std::size_t k = 1; k + 1 < field.size(); ++k) {
        row.words += field[k];
        if (field[k] == '"') ++k;  // "" stands for one quote
      }
    } else {
      row.words = std::move(field);
    }
    rows.push_back(std::move(row));
  }
  if (in.bad()) io_failed("read", path);
  watch.stop();
  return checksum(rows);
}

#ifdef BUFSTREAM_BENCH_HAVE_LIBCSV
namespace {

// libcsv hands over fields and row ends through callbacks; this collects them into rows.
struct LibcsvRows {
  std::vector<Row> rows;
  Row row;
  int field = 0;
  bool bad = false;

  static void on_field(void* data, std::size_t size, void* self_ptr) {
    auto& self = *static_cast<LibcsvRows*>(self_ptr);
    const char* text = static_cast<const char*>(data);  // NUL-terminated: CSV_APPEND_NULL
    switch (self.field++) {
      case 0: self.row.i = std::strtoll(text, nullptr, 10); break;
      case 1: self.row.minus_i = std::strtoll(text, nullptr, 10); break;
      case 2: self.row.x = std::strtod(text, nullptr); break;
      case 3: self.row.y = std::strtod(text, nullptr); break;
      case 4: self.row.words.assign(text, size); break;
      default: self.bad = true;
    }
  }
  static void on_row_end(int, void* self_ptr) {
    auto& self = *static_cast<LibcsvRows*>(self_ptr);
    if (self.field != 5) self.bad = true;
    self.rows.push_back(std::move(self.row));
    self.row = Row{};
    self.field = 0;
  }
};

}  // namespace

Checksum read_csv_libcsv(const std::filesystem::path& path, Stopwatch& watch) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) io_failed("open", path);
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_APPEND_NULL) != 0) {
    std::fclose(f);
    throw std::runtime_error("csv_init failed");
  }
  LibcsvRows rows;
  constexpr std::size_t chunk_size = 65536;
  auto chunk = std::make_unique_for_overwrite<char[]>(chunk_size);
  std::size_t n = 0;
  bool parse_failed = false;
  while ((n = std::fread(chunk.get(), 1, chunk_size, f)) > 0) {
    if (csv_parse(&parser, chunk.get(), n, LibcsvRows::on_field, LibcsvRows::on_row_end, &rows) !=
        n) {
      parse_failed = true;
      break;
    }
  }
  const bool read_failed = std::ferror(f) != 0;
  std::fclose(f);
  csv_fini(&parser, LibcsvRows::on_field, LibcsvRows::on_row_end, &rows);
  const std::string error = parse_failed ? csv_strerror(csv_error(&parser)) : "";
  csv_free(&parser);
  watch.stop();
  if (read_failed) io_failed("read", path);
  if (parse_failed) throw ValidationError("libcsv: " + error);
  if (rows.bad) throw ValidationError("libcsv: a row without five fields");
  return checksum(rows.rows);
}
#endif

std::vector<Row> parse_csv_reference(std::string_view text) {
  std::vector<Row> rows;
  std::size_t line = 1;
  std::size_t p = 0;
  auto fail = [&](std::string_view what) -> void {
    throw ValidationError(fmt::format("CSV line {}: {}", line, what));
  };
  auto number_field = [&](auto& value) {
    const char* begin = text.data() + p;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin) fail("expected a number");
    p += static_cast<std::size_t>(ptr - begin);
    if (p >= text.size() || text[p] != ',') fail("expected ',' after a number");
    ++p;
  };
  while (p < text.size()) {
    Row row;
    number_field(row.i);
    number_field(row.minus_i);
    number_field(row.x);
    number_field(row.y);
    if (p < text.size() && text[p] == '"') {
      for (++p;; ++p) {
        if (p >= text.size()) fail("unterminated quoted field");
        if (text[p] == '"') {
          if (p + 1 < text.size() && text[p + 1] == '"') {
            row.words += '"';
            ++p;
            continue;
          }
          ++p;
          break;
        }
        row.words += text[p];
      }
    } else {
      while (p < text.size() && text[p] != '\n' && text[p] != '\r') {
        if (text[p] == ',' || text[p] == '"') fail("unexpected ',' or '\"' in an unquoted string");
        row.words += text[p++];
      }
    }
    if (p < text.size() && text[p] == '\r') ++p;
    if (p >= text.size() || text[p] != '\n') fail("expected the end of the record");
    ++p;
    ++line;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace bufstream::bench
