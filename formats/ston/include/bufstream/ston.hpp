/// \namespace bufstream::ston
/// bufstream::ston: STON (Smalltalk Object Notation) over bufstream's streams, Pharo's format for
/// object graphs (docs/STON.md).
///
///     #include <bufstream/ston.hpp>
///     namespace ston = bufstream::ston;
///
///     ston::Document doc = ston::parse(in);                 // one value from a ReadStream
///     doc.root().as_tagged("Class").at("name").as_symbol();
///     std::string text = ston::to_string(doc.root(), {.indent = 1});  // Pharo's pretty layout
///     User u = ston::from_value<User>(doc.root());          // typed, through from_ston
///
/// The Reader and Writer classes (reader.hpp, writer.hpp) give finer control: several values in
/// one stream, streaming writes; well_known.hpp converts Pharo's well-known tags.
#pragma once

#include <bufstream/ston/document.hpp>
#include <bufstream/ston/numbers.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/typed.hpp>
#include <bufstream/ston/value.hpp>
#include <bufstream/ston/well_known.hpp>
#include <bufstream/ston/writer.hpp>
