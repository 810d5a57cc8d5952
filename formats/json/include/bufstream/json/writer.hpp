// json::Writer: writes JSON into any WriteStream, value by value, without building a DOM.
//
//     bufstream::StringWriteStream out;
//     json::Writer w(out);
//     w.begin_object().key("name").value("Ada").key("born").value(1815).end_object();
//     w.finish();                         // out.view() == R"({"name":"Ada","born":1815})"
//
// Besides scalars the writer takes whole nlohmann::json values, standard containers (vector,
// array, map and unordered_map with string keys, tuple, pair, optional) and user types that
// describe themselves (see write_json.hpp). Calls in the wrong order (a value where a key is
// due, a key outside an object, a container left open at `finish`) throw bufstream::UsageError
// before anything is written, so the output stays well-formed up to the faulty call; so do
// invalid values (NaN by default, strings that are not UTF-8).
//
// `finish()` is where an incomplete document is reported and where write errors surface at
// the latest. A Writer destroyed without `finish()` reports nothing itself; the stream keeps
// its own policy for bytes it cannot write (see BufferedWriteStream).
#pragma once

#include <bufstream/json/write_json.hpp>
#include <bufstream/json/writer_core.hpp>
