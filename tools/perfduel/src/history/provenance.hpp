#pragma once

#include <optional>
#include <string>
#include <string_view>

// Where and when a result was measured: the defaults `perfduel record` fills in.
namespace perfduel::history {

// The current time as ISO 8601 UTC, e.g. "2026-11-21T10:00:00Z".
std::string utc_now_iso();

// Whether `text` looks like an ISO 8601 date or date-time ("2026-11-21", "2026-11-21T10:00:00Z").
bool is_iso_time(std::string_view text);

// `git rev-parse HEAD` in the current directory; none outside a git work tree.
std::optional<std::string> git_commit();

// `git rev-parse --abbrev-ref HEAD`; none outside a git work tree or on a detached HEAD.
std::optional<std::string> git_branch();

// This machine as "host | CPU model | kernel".
std::string local_machine();

// The machine string of `host`, `cpu_model` and `kernel`.
std::string machine_description(std::string_view host, std::string_view cpu_model, std::string_view kernel);

// A short stable id of `machine` (16 hex digits of FNV-1a): equal machines, equal ids.
std::string machine_id(std::string_view machine);

}  // namespace perfduel::history
