// bufstream's CSV variants: one function per op, taking the stream (see stream_variants.hpp).
#pragma once

#include <bufstream/csv.hpp>
#include <bufstream/read_stream.hpp>
#include <bufstream/write_stream.hpp>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/results.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// csv::Writer, field by field, LF line ends (as the peers write), quoting as needed.
void write_csv_bufstream(WriteStream& out, const DataSet& set);
/// csv::RowReader through a Schema<Row>: typed fields (integer, integer, double, double,
/// string) into std::vector<Row>, as NeoCSV did in the Smalltalk experiment.
Checksum read_csv_bufstream(ReadStream& in, Stopwatch& watch);

/// Adds every record left in `reader` to `sum` (a RowChecksum, or anything with its `add`),
/// each of the five fields converted in place from the record's views: the records variants.
template <class Sum>
void add_records(csv::Reader& reader, Sum& sum) {
  while (const csv::Record* r = reader.next()) {
    if (r->size() != 5) throw ValidationError("a record does not have 5 fields");
    const csv::Record& f = *r;
    sum.add(csv::FieldConverter<std::int64_t>::parse(f[0]),
            csv::FieldConverter<std::int64_t>::parse(f[1]),
            csv::FieldConverter<double>::parse(f[2]), csv::FieldConverter<double>::parse(f[3]),
            f[4]);
  }
}

}  // namespace bufstream::bench
