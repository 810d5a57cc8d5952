// The suites bufstream-bench runs, one function each (one file each).
#pragma once

#include "suites/suite.hpp"

namespace bufstream::bench {

/// Byte at a time through buffered and unbuffered streams, stdio and iostreams (issue 2).
void run_streams_suite(SuiteContext& context);
/// JSON write and read, bufstream against nlohmann, RapidJSON and simdjson.
void run_json_suite(SuiteContext& context);
/// The standard JSON benchmark files read and written by bufstream, nlohmann, RapidJSON and
/// simdjson.
void run_json_files_suite(SuiteContext& context);
/// The data sets' rows as JSON Lines, read value after value by bufstream, nlohmann, RapidJSON
/// and simdjson.
void run_json_lines_suite(SuiteContext& context);
/// Many small JSON documents (twitter.json's statuses, citm_catalog.json's events), each
/// parsed on its own from memory: the fixed cost of a parse (issue 42).
void run_json_small_suite(SuiteContext& context);
/// One large JSON document read a row at a time by JSON Pointer (json::Selection), against
/// reading it whole and simdjson's On-Demand API; and one value near its start (json::seek).
void run_json_select_suite(SuiteContext& context);
/// STON write and read, bufstream over unbuffered and buffered streams.
void run_ston_suite(SuiteContext& context);
/// CSV write and read, bufstream against stdio, iostreams and libcsv.
void run_csv_suite(SuiteContext& context);
/// The csv suite's file read whole into typed values: csv::Table with types inferred and with
/// types given, csv::Schema rows, and csv::Reader records converted in place (issue 43).
void run_csv_table_suite(SuiteContext& context);
/// The CSV and JSON rows as .gz and .zst files: the decorators against one-shot
/// (de)compression in memory and against a zcat/zstdcat pipe.
void run_compressed_suite(SuiteContext& context);
/// Decimal text to double and double to shortest text: bufstream against fast_float,
/// std::from_chars/to_chars and {fmt}, on the floats data set and on canada.json's numbers.
void run_numbers_suite(SuiteContext& context);
/// CSV and JSON Lines read on 1, 2 and every core (bufstream::read_chunks), against the
/// sequential readers (issue 42).
void run_parallel_suite(SuiteContext& context);
/// Loading CC-CEDICT: the 2005 blog series' four iterations against bufstream's loader.
void run_cedict_suite(SuiteContext& context);

}  // namespace bufstream::bench
