// A program as a user writes it against an installed bufstream: JSON and CSV written through
// buffered descriptor streams, read back, checked; STON, CEDICT and the compression decorators
// through their umbrella headers.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/cedict.hpp>
#include <bufstream/csv.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>
#include <bufstream/json.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/ston.hpp>
#include <bufstream/string_write_stream.hpp>
#if __has_include(<bufstream/compress.hpp>)
#include <bufstream/compress.hpp>
#define CONSUMER_HAS_COMPRESS 1
#endif

namespace {

std::string temp_path(const char* suffix) {
  std::string path = std::string("/tmp/bufstream-consumer-XXXXXX") + suffix;
  const int fd = ::mkstemps(path.data(), static_cast<int>(std::string(suffix).size()));
  if (fd < 0) std::exit(2);
  ::close(fd);
  return path;
}

int fail(const char* what) {
  std::fprintf(stderr, "consumer: %s\n", what);
  return 1;
}

}  // namespace

int main() {
  using Row = std::tuple<std::int64_t, double, std::string>;
  const std::vector<Row> rows{{1, 0.5, "one, uno"}, {2, 1e-3, "two \"dos\""}, {3, -7.25, "three"}};

  const std::string json_path = temp_path(".json");
  {
    bufstream::FdWriteStream file(json_path);
    bufstream::BufferedWriteStream out(file);
    bufstream::json::Writer writer(out);
    writer.value(rows);
    writer.finish();
    out.close();
  }
  {
    bufstream::FdReadStream file(json_path);
    bufstream::BufferedReadStream in(file);
    if (bufstream::json::read<std::vector<Row>>(in) != rows) return fail("JSON rows differ");
  }

  const std::string csv_path = temp_path(".csv");
  {
    bufstream::FdWriteStream file(csv_path);
    bufstream::BufferedWriteStream out(file);
    bufstream::csv::Writer writer(out);
    for (const Row& row : rows) writer.row(row);
    out.close();
  }
  {
    bufstream::FdReadStream file(csv_path);
    bufstream::BufferedReadStream in(file);
    bufstream::csv::Reader reader(in);
    if (bufstream::csv::read_rows<Row>(reader) != rows) return fail("CSV rows differ");
  }
  ::unlink(json_path.c_str());
  ::unlink(csv_path.c_str());

  const std::string ston_text = "[1,#two,'three',Point[4,5]]";
  if (bufstream::ston::to_string(bufstream::ston::parse(ston_text).root()) != ston_text) {
    return fail("STON round trip differs");
  }
  const auto dict = bufstream::cedict::Dictionary::load_view(
      "\xE4\xBD\xA0\xE5\xA5\xBD \xE4\xBD\xA0\xE5\xA5\xBD [ni3 hao3] /hello/hi/\n");
  if (dict.find_pinyin("ni hao").size() != 1) return fail("CEDICT look-up differs");

#ifdef CONSUMER_HAS_COMPRESS
  {
    bufstream::StringWriteStream gz;
    bufstream::StringWriteStream zst;
    {
      bufstream::compress::GzipWriteStream out(gz);
      out.write("compressed text\n");
      out.close();
      bufstream::compress::ZstdWriteStream zout(zst);
      zout.write("compressed text\n");
      zout.close();
    }
    bufstream::MemoryReadStream gz_in(gz.view());
    bufstream::MemoryReadStream zst_in(zst.view());
    bufstream::compress::GzipReadStream gunzip(gz_in);
    bufstream::compress::ZstdReadStream unzstd(zst_in);
    if (gunzip.up_to_end() != "compressed text\n") return fail("gzip round trip differs");
    if (unzstd.up_to_end() != "compressed text\n") return fail("zstd round trip differs");
  }
#endif
  std::puts("consumer: ok");
  return 0;
}
