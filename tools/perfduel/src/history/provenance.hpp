#pragma once

#include <optional>
#include <string>
#include <string_view>

// When and at which commit a result was measured: the defaults `perfduel record` fills in
// (the machine comes from machine/facts).
namespace perfduel::history {

// Whether `text` looks like an ISO 8601 date or date-time ("2026-11-21", "2026-11-21T10:00:00Z").
bool is_iso_time(std::string_view text);

// `git rev-parse HEAD` in the current directory; none outside a git work tree.
std::optional<std::string> git_commit();

// `git rev-parse --abbrev-ref HEAD`; none outside a git work tree or on a detached HEAD.
std::optional<std::string> git_branch();

}  // namespace perfduel::history
