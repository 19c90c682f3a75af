#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"
#include "duel/duel.hpp"
#include "machine/facts.hpp"
#include "machine/pinning.hpp"

// A duel on this machine, set up the one way `compare` and `calibrate` both need (their commands
// checked before, cli/command_text.hpp): the CPUs planned (CTest's allocation, the configuration's list or
// perfduel's own choice), perfduel-exec and Valgrind found when the metrics need them, then
// run_duel_unless_identical through a ProcessExecutor.
namespace perfduel {

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
