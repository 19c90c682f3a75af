#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

// JSON files as perfduel writes them, and the time stamps they carry.
namespace perfduel::util {

// Writes `json` to `path` atomically (a temporary file renamed into place, write_file_atomically),
// so a reader or an interrupted run never sees half a file; bytes that are not UTF-8 become
// U+FFFD. Throws perfduel::Error naming the file.
void write_json_file(const std::filesystem::path& path, const nlohmann::ordered_json& json);

// The current time as ISO 8601 UTC, e.g. "2026-11-21T10:00:00Z".
std::string now_iso8601();

}  // namespace perfduel::util
