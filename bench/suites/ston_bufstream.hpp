// bufstream's STON variants: one function per op, taking the stream (see stream_variants.hpp).
#pragma once

#include <filesystem>

#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// ston::Writer, call by call: `[[1,-1,1.0,1.0,'one'],...]`, no Value built first.
void write_ston_bufstream(WriteStream& out, const DataSet& set);
/// ston::Reader into the library's STON value (a Document of lists).
Checksum read_ston_bufstream(ReadStream& in, Stopwatch& watch);
/// The checksum of a STON file, read with ston::parse from memory: checks written files once.
Checksum read_back_ston(const std::filesystem::path& path);

}  // namespace bufstream::bench
