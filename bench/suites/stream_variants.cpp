#include "suites/stream_variants.hpp"

#include <utility>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>

namespace bufstream::bench {

WriteFn over_unbuffered(StreamWriteFn write) {
  return [write = std::move(write)](const DataSet& set, const std::filesystem::path& path) {
    FdWriteStream out(path);
    write(out, set);
    out.close();
  };
}

WriteFn over_buffered(StreamWriteFn write) {
  return [write = std::move(write)](const DataSet& set, const std::filesystem::path& path) {
    FdWriteStream file(path);
    BufferedWriteStream out(file);
    write(out, set);
    out.close();  // drains the buffer and closes `file`
  };
}

ReadFn over_unbuffered(StreamReadFn read) {
  return [read = std::move(read)](const std::filesystem::path& path, Stopwatch& watch) {
    FdReadStream in(path);
    return read(in, watch);
  };
}

ReadFn over_buffered(StreamReadFn read) {
  return [read = std::move(read)](const std::filesystem::path& path, Stopwatch& watch) {
    FdReadStream file(path);
    BufferedReadStream in(file);
    return read(in, watch);
  };
}

}  // namespace bufstream::bench
