// Whole-file helpers for preparing inputs and checking outputs (never inside a timed part).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace bufstream::bench {

/// The whole file. Throws `std::system_error` naming the path.
std::string read_file(const std::filesystem::path& path);
/// Replaces the file's content. Throws `std::system_error` naming the path.
void write_file(const std::filesystem::path& path, std::string_view bytes);
std::uint64_t size_of_file(const std::filesystem::path& path);

}  // namespace bufstream::bench
