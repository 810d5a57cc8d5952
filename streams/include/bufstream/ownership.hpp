// Whether a stream closes the descriptor it was given.
#pragma once

namespace bufstream {

/// `owned`: the stream closes the descriptor when it is closed or destroyed (descriptors 0, 1
/// and 2 are never closed implicitly, only by an explicit `close()`). `borrowed`: the caller
/// keeps the descriptor open and closes it.
enum class Ownership { borrowed, owned };

}  // namespace bufstream
