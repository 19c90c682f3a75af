#pragma once

#include <string>

#include "run/executor.hpp"

namespace perfduel {

// One line saying how `run` failed ("exited with code 3", "timed out after 60 s and was killed
// ..."), `timeout_seconds` the limit it ran under; empty when it succeeded.
std::string describe_failure(const RunResult& run, double timeout_seconds);

}  // namespace perfduel
