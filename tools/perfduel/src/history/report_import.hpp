#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "history/store.hpp"
#include "util/expected.hpp"

namespace perfduel::history {

// The parts of a `perfduel compare --json` report that history keeps: per metric the
// candidate's median (the value to trend), its raw samples (measured rounds, warm-up
// dropped), the baseline median, change, CI and verdict; the overall verdict, the
// perfduel version, the start time and the machine from "environment". Commit and branch
// are left for the caller. Errors name `source`.
util::Expected<Record> record_from_report(const nlohmann::ordered_json& report, std::string_view source);

}  // namespace perfduel::history
