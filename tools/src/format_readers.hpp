// Reader options built from the command line, shared by check, convert and fmt.
#pragma once

#include <string>

#include <bufstream/csv/options.hpp>
#include <bufstream/ston/reader.hpp>

#include "command_line.hpp"
#include "file_format.hpp"

namespace bufstream::cli {

/// The separator: --separator if given (exactly one byte), else ',' for csv and tab for tsv.
char csv_separator(FileFormat format, const ParsedArgs& args);

/// Strict RFC 4180 reading (the library's default) with the separator and the input's name;
/// every field must be UTF-8 unless --bytes was given.
csv::ReadOptions csv_reader_options(FileFormat format, const ParsedArgs& args,
                                    const std::string& name);

/// STON reading, with comments when --comments was given.
ston::ReadOptions ston_reader_options(const ParsedArgs& args, const std::string& name);

}  // namespace bufstream::cli
