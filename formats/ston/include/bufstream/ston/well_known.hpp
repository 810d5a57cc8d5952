// The well-known tags of STON.md as C++ types, with the typed-access conversions (typed.hpp):
//
//     ByteArray['0a1bff']                   std::vector<std::byte>   (hex, lower case written)
//     Character['a']                        ston::Character
//     Point[1,2]                            ston::Point
//     Date['2012-01-01Z']                   ston::Date
//     Time['06:30:15']                      ston::Time
//     DateAndTime['2012-01-01T06:30:15+01:00']   ston::DateAndTime
//
// Float[#nan], Float[#infinity] and Float[#negativeInfinity] need no type: the reader turns them
// into doubles and the writer writes non-finite doubles that way.
//
//     ston::Document doc;
//     ston::Value when = ston::to_value(doc, ston::Date{.year = 2012, .month = 1, .day = 1});
//     auto date = ston::from_value<ston::Date>(when);
//
// Reading a tag whose text is malformed (`Date['2012-13-01']`) throws AccessError naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <bufstream/ston/document.hpp>
#include <bufstream/ston/typed.hpp>

namespace bufstream::ston {

/// A Unicode scalar value: ``Character['a']``.
struct Character {
  char32_t code_point = 0;  ///< The character.
  /// Equal when the code points are.
  friend bool operator==(const Character&, const Character&) = default;
};

/// `Point[x,y]`; the coordinates are any numbers (Pharo's Points hold integers or floats).
struct Point {
  Value x;  ///< The x coordinate.
  Value y;  ///< The y coordinate.
};

/// ``Date['2012-01-01Z']``: a calendar date with an optional UTC offset (Pharo writes one).
struct Date {
  int year = 1901;                    ///< The year.
  unsigned month = 1;                 ///< 1..12
  unsigned day = 1;                   ///< 1..31 (checked against the month)
  std::optional<int> offset_minutes;  ///< Z is 0; none when the text has no offset.
  /// Equal when every member is.
  friend bool operator==(const Date&, const Date&) = default;
};

/// ``Time['06:30:15']`` or with a fraction ``Time['06:30:15.5']``.
struct Time {
  unsigned hour = 0;             ///< 0..23
  unsigned minute = 0;           ///< 0..59
  unsigned second = 0;           ///< 0..59
  std::uint32_t nanosecond = 0;  ///< The fraction of the second.
  /// Equal when every member is.
  friend bool operator==(const Time&, const Time&) = default;
};

/// ``DateAndTime['2012-01-01T06:30:15+01:00']``, ISO 8601 with an optional fraction of a second
/// and an offset `Z` or `+hh:mm` / `-hh:mm` (written `+hh:mm`, `+00:00` for UTC).
struct DateAndTime {
  int year = 1901;         ///< The year.
  unsigned month = 1;      ///< 1..12
  unsigned day = 1;        ///< 1..31
  Time time;               ///< The time of day.
  int offset_minutes = 0;  ///< The UTC offset.
  /// Equal when every member is.
  friend bool operator==(const DateAndTime&, const DateAndTime&) = default;
};

/// ``ByteArray['0a1bff']``, the bytes in hex (lower case written).
Value to_ston(Document& doc, const std::vector<std::byte>& bytes);
/// From ``ByteArray['...']``.
void from_ston(const Value& v, std::vector<std::byte>& bytes);
/// ``Character['a']``.
Value to_ston(Document& doc, const Character& c);
/// From ``Character['a']``.
void from_ston(const Value& v, Character& c);
/// ``Point[x,y]``.
Value to_ston(Document& doc, const Point& p);
/// From ``Point[x,y]``.
void from_ston(const Value& v, Point& p);
/// ``Date['2012-01-01Z']``.
Value to_ston(Document& doc, const Date& d);
/// From ``Date['...']``.
void from_ston(const Value& v, Date& d);
/// ``Time['06:30:15']``.
Value to_ston(Document& doc, const Time& t);
/// From ``Time['...']``.
void from_ston(const Value& v, Time& t);
/// ``DateAndTime['2012-01-01T06:30:15+01:00']``.
Value to_ston(Document& doc, const DateAndTime& t);
/// From ``DateAndTime['...']``.
void from_ston(const Value& v, DateAndTime& t);

}  // namespace bufstream::ston
