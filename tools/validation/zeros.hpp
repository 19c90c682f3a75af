// The zero-readings tables: CPU time quantized to a scheduler tick (docs/validation.md).
#pragma once

#include "options.hpp"

namespace perfduel::validation {

// Prints the fixed-sample coverage, the zero rule's sweep and the gates on quantized readings
// (`options.gates` A/A gates, `options.detection_gates` per δ).
void validate_zeros(const Options& options);

}  // namespace perfduel::validation
