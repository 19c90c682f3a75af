#pragma once

#include <string>

#include "run/executor.hpp"

// How a duel's run failed, in the words of its failure message ("candidate run in round 3:
// exited with code 1"), and whether running it again could help.
namespace perfduel {

// One line saying how `run` failed, or empty when it succeeded; `timeout_seconds`: the timeout
// it ran with, named when it timed out.
std::string describe_failure(const RunResult& run, double timeout_seconds);

// Whether a run that ended with `status` would end so again if run again: it did not start, or
// it ran to its end but its counts could not be read.
bool fails_again(RunStatus status);

}  // namespace perfduel
