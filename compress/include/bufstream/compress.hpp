/// \namespace bufstream::compress
/// bufstream::compress: gzip, zlib and Zstandard decorators over bufstream's streams.
///
///     #include <bufstream/compress.hpp>
///
///     bufstream::compress::GzipReadStream in(buffered_file);   // the decompressed bytes
///     bufstream::compress::ZstdWriteStream out(buffered_sink, {.level = 3});
///     ...
///     out.close();                                             // the trailer; closes the sink
///
/// Built when zlib, libzstd and ISA-L are installed (target bufstream::compress).
#pragma once

#include <bufstream/compress/compress_write_stream.hpp>
#include <bufstream/compress/decompress_read_stream.hpp>
#include <bufstream/compress/gzip.hpp>
#include <bufstream/compress/zstd.hpp>
