// The README's CSV example, compiled and run: typed rows written to a file and read back by
// header name, then the same file read as zero-copy records.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

// ---- README example begins ----
#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/csv.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>

namespace csv = bufstream::csv;

struct Trade {
  std::int64_t id = 0;
  double price = 0;
  std::optional<double> fee;  // an empty field is std::nullopt
  std::string note;
};

// Declared once, used for writing and reading (NeoCSV's addField:/addFloatField:...).
const auto trade_columns = csv::Schema<Trade>()
                               .field("id", &Trade::id)
                               .field("price", &Trade::price)
                               .field("fee", &Trade::fee)
                               .field("note", &Trade::note);

void save(const std::filesystem::path& path, const std::vector<Trade>& trades) {
  bufstream::FdWriteStream file(path);
  bufstream::BufferedWriteStream out(file);
  csv::Writer writer(out);  // ',' and CRLF; fields quoted where needed
  trade_columns.write_header(writer);
  csv::write_rows(writer, trade_columns, trades);
  out.close();  // throws IoError if anything could not be written
}

std::vector<Trade> load(const std::filesystem::path& path) {
  bufstream::FdReadStream file(path);
  bufstream::BufferedReadStream in(file);
  csv::Reader reader(in, {.source_name = path.string()});
  return csv::read_rows(reader, trade_columns);  // columns found by header name
}
// ---- README example ends ----

namespace {

TEST(CsvReadme, ExampleRuns) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("bufstream-csv-readme-" + std::to_string(::getpid()) + ".csv");
  save(path, {{1, 9.5, std::nullopt, "first"}, {2, 0.1, 0.25, "says \"hi\", twice"}});

  const std::vector<Trade> back = load(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].id, 2);
  EXPECT_EQ(back[1].price, 0.1);
  EXPECT_EQ(back[1].fee, 0.25);
  EXPECT_EQ(back[1].note, "says \"hi\", twice");
  EXPECT_EQ(back[0].fee, std::nullopt);

  // Untyped: zero-copy records, fields looked up by name.
  bufstream::FdReadStream file(path);
  bufstream::BufferedReadStream in(file);
  csv::Reader reader(in);
  const csv::Header& header = reader.read_header();
  const std::size_t note = header.index("note");
  std::vector<std::string> notes;
  while (const csv::Record* record = reader.next()) notes.emplace_back((*record)[note]);
  EXPECT_EQ(notes, (std::vector<std::string>{"first", "says \"hi\", twice"}));

  std::filesystem::remove(path);
}

}  // namespace
