#include "format_readers.hpp"

#include <fmt/format.h>

namespace bufstream::cli {

char csv_separator(FileFormat format, const ParsedArgs& args) {
  if (auto s = args.value("separator")) {
    if (*s == "\\t" || *s == "tab") return '\t';
    if (s->size() != 1 || *s == "\"" || *s == "\r" || *s == "\n") {
      throw UsageError(fmt::format(
          "the separator must be one byte other than a quote or a line end, not '{}'", *s));
    }
    return (*s)[0];
  }
  return format == FileFormat::tsv ? '\t' : ',';
}

csv::ReadOptions csv_reader_options(FileFormat format, const ParsedArgs& args,
                                    const std::string& name) {
  csv::ReadOptions options;
  options.separator = csv_separator(format, args);
  options.validate_utf8 = !args.has("bytes");
  options.source_name = name;
  return options;
}

ston::ReadOptions ston_reader_options(const ParsedArgs& args, const std::string& name) {
  ston::ReadOptions options;
  options.allow_comments = args.has("comments");
  options.source_name = name;
  return options;
}

}  // namespace bufstream::cli
