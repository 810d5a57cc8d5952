// bufstream's JSON variants: one function per op, taking the stream, so that the same code
// runs over the unbuffered and the buffered stream (see stream_variants.hpp).
#pragma once

#include <bufstream/json/writer.hpp>
#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// json::Writer, value by value: `[[1,-1,1.0,1.0,"one"],...]`, no DOM built first.
void write_json_bufstream(WriteStream& out, const DataSet& set);
/// One row as `[i, -i, x, y, words]` (x and y as integers in the integers set).
void write_json_row(json::Writer& writer, const Row& row, bool integral);
/// json::Reader into nlohmann::json (the DOM a user already has).
Checksum read_json_bufstream_dom(ReadStream& in, Stopwatch& watch);
/// json::Reader straight into std::vector<Row> (typed reading, no DOM in between).
Checksum read_json_bufstream_typed(ReadStream& in, Stopwatch& watch);

}  // namespace bufstream::bench
