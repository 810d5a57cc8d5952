// Whole-file helpers for preparing inputs and checking outputs (never inside a timed part).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace bufstream::bench {

class Stopwatch;

/// The whole file, in one read(2) of its size. Throws `std::system_error` naming the path.
std::string read_file(const std::filesystem::path& path);
/// Replaces the file's content, in one write(2) unless the kernel takes less, and closes it
/// (a failing close is an error too). Throws `std::system_error` naming the path.
void write_file(const std::filesystem::path& path, std::string_view bytes);
std::uint64_t size_of_file(const std::filesystem::path& path);

/// Starts a writing run on new files: removes `outputs` (the last run's), then restarts the
/// clock. A file truncated and written again makes ext4 start its writeback at close
/// (auto_da_alloc): device I/O in the timed part, whose cost varies from run to run.
void start_on_new_files(Stopwatch& watch, std::initializer_list<std::filesystem::path> outputs);

/// Throws `std::system_error` from errno: "WHAT PATH: reason".
[[noreturn]] void io_failed(const char* what, const std::filesystem::path& path);

/// A stdio file for the peers that read and write through stdio; closed when destroyed.
struct StdioCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using StdioFile = std::unique_ptr<std::FILE, StdioCloser>;
/// `fopen`; throws `std::system_error` naming the path.
StdioFile open_stdio(const std::filesystem::path& path, const char* mode);
/// Closes a written file, throwing if any write or the close failed (a full disk shows up
/// only here).
void close_stdio(StdioFile f, const std::filesystem::path& path);

}  // namespace bufstream::bench
