// Bridges between the public Integer and the internal Natural arithmetic.
#pragma once

#include <bufstream/ston/numbers.hpp>

#include "natural.hpp"

namespace bufstream::ston::detail {

struct Magnitude {
  bool negative;
  Natural magnitude;
};

Magnitude magnitude_of(const Integer& i);
Integer integer_from_magnitude(bool negative, const Natural& magnitude);

}  // namespace bufstream::ston::detail
