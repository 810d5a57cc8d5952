// convert -j N: a CSV, TSV or JSON Lines file converted chunk by chunk on N threads, each
// chunk's output written to a string and the strings written in input order, so that the
// output is byte for byte what one reader writes. The conversions that run so: CSV or TSV to
// CSV, TSV, JSON Lines or JSON, and JSON Lines to JSON Lines or JSON, from a regular file
// that is neither compressed nor decoded, without --flush-each, --typed or --select; the
// others read with one reader, as before.
#pragma once

#include <bufstream/csv/options.hpp>
#include <bufstream/json/options.hpp>

#include "commands.hpp"
#include "file_format.hpp"
#include "io.hpp"

namespace bufstream::cli {

/// What a parallel conversion takes from convert's plan.
struct ParallelConversion {
  FileFormat from;
  FileFormat to;
  const ConvertArgs& args;
  csv::ReadOptions csv_in;      ///< for CSV input
  csv::WriteOptions csv_out;    ///< for CSV output
  json::WriteOptions json_out;  ///< for JSON output
};

/// Converts `input` into `output` on `threads` threads when the conversion is one that can
/// (see the file comment) and returns true; false, having read nothing, when it is not.
bool convert_in_parallel(const ParallelConversion& conversion, Input& input, Output& output,
                         unsigned threads);

}  // namespace bufstream::cli
