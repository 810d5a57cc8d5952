// The kernels' SWAR words: bufstream::detail::swar (<bufstream/detail/swar.hpp>, installed with
// the digit words that json's event walk scans numbers with), named here as the kernels use it.
#pragma once

#include <bufstream/detail/swar.hpp>

namespace bufstream::kernels {

namespace swar = bufstream::detail::swar;

}  // namespace bufstream::kernels
