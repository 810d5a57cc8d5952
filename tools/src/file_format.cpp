#include "file_format.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <CLI/Error.hpp>

#include "compression.hpp"

namespace bufstream::cli {

std::string_view format_name(FileFormat format) noexcept {
  switch (format) {
    case FileFormat::json: return "json";
    case FileFormat::jsonl: return "jsonl";
    case FileFormat::csv: return "csv";
    case FileFormat::tsv: return "tsv";
    case FileFormat::ston: return "ston";
  }
  return "?";
}

std::optional<FileFormat> parse_format_name(std::string_view name) noexcept {
  for (FileFormat f :
       {FileFormat::json, FileFormat::jsonl, FileFormat::csv, FileFormat::tsv, FileFormat::ston}) {
    if (format_name(f) == name) return f;
  }
  return std::nullopt;
}

std::optional<FileFormat> format_from_extension(std::string_view path) noexcept {
  path = without_compression_suffix(path);  // "out.csv.gz" is CSV
  const auto dot = path.rfind('.');
  const auto slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return std::nullopt;
  std::string ext(path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "json") return FileFormat::json;
  if (ext == "jsonl" || ext == "ndjson") return FileFormat::jsonl;
  if (ext == "csv") return FileFormat::csv;
  if (ext == "tsv" || ext == "tab") return FileFormat::tsv;
  if (ext == "ston") return FileFormat::ston;
  return std::nullopt;
}

FileFormat resolve_format(std::optional<FileFormat> option, const std::string& path,
                          std::string_view option_name) {
  if (option) return *option;
  if (auto f = format_from_extension(path)) return *f;
  if (path.empty() || path == "-") {
    throw CLI::ValidationError(
        fmt::format("cannot tell the format of standard input or output: give {}", option_name));
  }
  throw CLI::ValidationError(
      fmt::format("cannot tell the format of '{}' from its name: give {}", path, option_name));
}

}  // namespace bufstream::cli
