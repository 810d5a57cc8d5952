// Which format a file is in: from --format/--from/--to, else from the file's extension.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bufstream::cli {

enum class FileFormat { json, jsonl, csv, tsv, ston };

std::string_view format_name(FileFormat format) noexcept;
std::optional<FileFormat> parse_format_name(std::string_view name) noexcept;
/// `.json`, `.jsonl`/`.ndjson`, `.csv`, `.tsv`/`.tab`, `.ston` (case-insensitive), before a
/// `.gz` or `.zst` if there is one: `data.csv.gz` is CSV.
std::optional<FileFormat> format_from_extension(std::string_view path) noexcept;

/// The format an option gave (--format, --from or --to), else the one the path's extension
/// tells. When neither tells, throws CLI::ValidationError (a usage error) saying to give
/// `option_name` (such as "--format").
FileFormat resolve_format(std::optional<FileFormat> option, const std::string& path,
                          std::string_view option_name);

}  // namespace bufstream::cli
