#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "machine/facts.hpp"
#include "machine/pinning.hpp"

// A duel on this machine, set up the one way `compare` and `calibrate` both need: the commands
// checked before anything runs, the CPUs planned (CTest's allocation, the configuration's list or
// perfduel's own choice), perfduel-exec and Valgrind found when the metrics need them, then
// run_duel_unless_identical through a ProcessExecutor.
namespace perfduel {

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

// What a duel run on this machine gives besides its outcome.
struct LocalDuel {
  DuelOutcome outcome;
  MachineFacts facts;
  Pinning pinning;         // the CPUs of the measured rounds and why
  bool exec_stub = false;  // the runs started through perfduel-exec
};

// Runs the duel of `config` (commands checked, `config.seed` set) on this machine: plans the
// CPUs (`cpus_origin` names where a CPU list came from, for messages; `config.cpus` becomes the
// warm-up's), checks counters and Valgrind, starts runs through perfduel-exec where a gated max
// RSS or a duet needs it, and re-pins after the warm-up. Throws perfduel::Error for what stops the
// duel before its first run; a failing benchmark is in the outcome.
LocalDuel run_local_duel(Config& config, const std::string& cpus_origin, const ProgressCallback& progress,
                         const NoteCallback& on_note);

}  // namespace perfduel
