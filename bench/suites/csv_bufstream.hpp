// bufstream's CSV variants: one function per op, taking the stream (see stream_variants.hpp).
#pragma once

#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// csv::Writer, field by field, LF line ends (as the peers write), quoting as needed.
void write_csv_bufstream(WriteStream& out, const DataSet& set);
/// csv::RowReader through a Schema<Row>: typed fields (integer, integer, double, double,
/// string) into std::vector<Row>, as NeoCSV did in the Smalltalk experiment.
Checksum read_csv_bufstream(ReadStream& in, Stopwatch& watch);

}  // namespace bufstream::bench
