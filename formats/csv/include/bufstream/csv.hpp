/// \namespace bufstream::csv
/// bufstream::csv: RFC 4180 CSV over bufstream's streams, with typed rows (NeoCSV's design).
///
/// csv::Reader reads records (as strings or zero-copy views) from any ReadStream; csv::Writer
/// writes them to any WriteStream; csv::Schema declares a row type once, csv::RowReader reads
/// rows of it, Schema::write_row writes them; csv::Table reads a whole input into typed
/// columns, the dialect and the types inferred as DuckDB's sniffer does.
#pragma once

#include <bufstream/csv/field_converter.hpp>
#include <bufstream/csv/header.hpp>
#include <bufstream/csv/options.hpp>
#include <bufstream/csv/parallel.hpp>
#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/record.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/csv/schema.hpp>
#include <bufstream/csv/table.hpp>
#include <bufstream/csv/writer.hpp>
