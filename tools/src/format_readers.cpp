#include "format_readers.hpp"

#include <bufstream/parallel_chunks.hpp>

namespace bufstream::cli {

csv::ReadOptions csv_reader_options(FileFormat format, const ReadOptions& read,
                                    const std::string& name) {
  csv::ReadOptions options;
  options.separator = read.separator.value_or(format == FileFormat::tsv ? '\t' : ',');
  options.validate_utf8 = !read.bytes;
  options.source_name = name;
  return options;
}

unsigned jobs_threads(unsigned jobs) {
  return jobs != 0 ? jobs : parallel_threads(ParallelOptions{});
}

ston::ReadOptions ston_reader_options(const ReadOptions& read, const std::string& name) {
  ston::ReadOptions options;
  options.allow_comments = read.comments;
  options.source_name = name;
  return options;
}

}  // namespace bufstream::cli
