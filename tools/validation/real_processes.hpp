// The real-process part (--real): the drift program through the perfduel binary and through an
// A-then-B loop, in wall-clock time.
#pragma once

#include "options.hpp"

namespace perfduel::validation {

// Prints the real-process table: `options.real_repeats` duels of `options.drift_program`
// against itself through `options.perfduel`, each followed by A-then-B with as many runs.
void validate_real(const Options& options);

}  // namespace perfduel::validation
