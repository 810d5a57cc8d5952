// Reader options built from the command line, shared by check, convert and fmt.
#pragma once

#include <optional>
#include <string>

#include <bufstream/csv/options.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/ston/reader.hpp>

#include "file_format.hpp"

namespace bufstream::cli {

/// How check, convert and fmt read their input; each offers the options that apply to it.
struct ReadOptions {
  std::optional<char> separator;     // --separator: the CSV field separator
  bool bytes = false;                // --bytes: CSV fields need not be UTF-8
  bool comments = false;             // --comments: STON comments allowed
  std::optional<Encoding> encoding;  // --encoding: the input's text encoding
};

/// Strict RFC 4180 reading (the library's default) with the input's name and the separator:
/// --separator if given, else ',' for csv and tab for tsv; every field must be UTF-8 unless
/// --bytes was given.
csv::ReadOptions csv_reader_options(FileFormat format, const ReadOptions& read,
                                    const std::string& name);

/// The threads -j asks for: N, or every core for 0 (no -j).
unsigned jobs_threads(unsigned jobs);

/// STON reading, with comments when --comments was given.
ston::ReadOptions ston_reader_options(const ReadOptions& read, const std::string& name);

}  // namespace bufstream::cli
