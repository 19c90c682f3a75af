#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"

// Command-line text that becomes part of a duel's configuration: a command given as text
// (--baseline, --candidate, --command) and a --cpus value; shared by compare and calibrate.
namespace perfduel::cli {

// Puts `text` (the command-line option `option`) into `slot` as a command: split into words as a
// shell would, or with `shell` run by /bin/sh -c. Keeps the slot's working directory and
// environment. Throws perfduel::Error for an empty command or unbalanced quotes.
void set_command_text(std::optional<CommandSpec>& slot, const std::string& text, bool shell,
                      const std::string& option);

// Fails before any run when `command` (the `side`, from `origin`) is missing or cannot start:
// no such program, no such working directory.
void check_command_runs(const std::optional<CommandSpec>& command, const std::string& side,
                        const std::string& origin);

// Applies a --cpus value (auto, none or a CPU list; empty: the configuration's) to `config`.
void apply_cpus_text(Config& config, const std::string& cpus);

}  // namespace perfduel::cli
