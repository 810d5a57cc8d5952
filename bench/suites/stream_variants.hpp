// How a bufstream variant plugs into a suite: one function per suite, op and format that takes
// the stream, run over the raw descriptor stream (`unbuffered`: one system call per stream
// operation) and over the same stream in a 64 KiB BufferedWriteStream/BufferedReadStream
// (`buffered`). The format code is the same in both; only the stream differs.
#pragma once

#include <functional>

#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "suites/serialization_suite.hpp"

namespace bufstream::bench {

/// Writes the data set into `out`; the caller closes the stream.
using StreamWriteFn = std::function<void(WriteStream& out, const DataSet& set)>;
/// Reads the whole stream into a user-facing structure, stops `watch`, returns its checksum.
using StreamReadFn = std::function<Checksum(ReadStream& in, Stopwatch& watch)>;

/// Opens the path with FdWriteStream and writes through it directly; closes it.
WriteFn over_unbuffered(StreamWriteFn write);
/// Opens the path with FdWriteStream wrapped in a 64 KiB BufferedWriteStream; closes both.
WriteFn over_buffered(StreamWriteFn write);
/// Reads the path with FdReadStream directly.
ReadFn over_unbuffered(StreamReadFn read);
/// Reads the path with FdReadStream wrapped in a 64 KiB BufferedReadStream.
ReadFn over_buffered(StreamReadFn read);

}  // namespace bufstream::bench
