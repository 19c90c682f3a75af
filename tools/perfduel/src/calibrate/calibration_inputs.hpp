#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/calibration.hpp"
#include "duel/duel.hpp"

// What calibration measures noise from, gathered one of three ways: an A/A duel of a program
// against itself, the rounds of saved reports, or the gate's records in the history. The noise
// and the thresholds it gives are duel/calibration.hpp's, which the duel's early note shares.
namespace perfduel {

// The runs calibration measures noise from, and what they are.
struct CalibrationInput {
  Config config;  // the user's settings, benchmark patterns expanded
  std::vector<RunRecord> runs;
  // Instead of runs: each metric's stand-ins for one round's log-ratios (the history's samples).
  std::optional<std::vector<std::vector<double>>> ratios;
  double seconds_per_round = 0;
  std::string source;  // "30 rounds of ./bench against itself"
  // Whether `config` says which metrics are the gate's own entries: not for reports read without
  // the gate's configuration, whose metrics are all written out one by one.
  bool own_entries_known = true;
};

// The calibration of `input`'s metrics from its runs or its stand-in ratios
// (duel/calibration.hpp), no metric taken for an entry of the gate's own where `input` cannot
// tell.
Calibration calibrate_input(const CalibrationInput& input);

// An A/A duel of `config`'s candidate against itself (its commands checked, CPUs and seed set):
// measured even when its fingerprints are equal (that shortcut would measure nothing), for
// exactly `rounds` rounds (at most max_rounds), the width rule alone. `cpus_origin` names where a
// CPU list came from; `progress` is called after each round. Throws perfduel::Error when a run
// failed or the duel was interrupted.
CalibrationInput measure_against_itself(Config config, int rounds, const std::string& cpus_origin,
                                        const ProgressCallback& progress);

// The runs of the saved reports at `paths`, one after the other (rounds renumbered), with the
// first report's configuration, whose metrics must be in every report. With a `gate` (another
// configuration), its budget and levels, and its settings of each metric it names (by name, or a
// benchmark pattern by the benchmarks it matches), instead of the report's.
CalibrationInput read_report_inputs(const std::vector<std::string>& paths, const std::optional<Config>& gate);

// Where the history's records come from and which of them count.
struct HistorySelection {
  std::optional<std::string> db;      // --db: the history's location (empty: the default)
  std::optional<std::string> branch;  // only records of this branch
  int last = 20;                      // the last records with runs of each metric
  double seconds_per_round = 0;       // a round's time, for max_seconds (0: max_rounds alone)
};

// The noise of the metrics of `gate` (read from `gate_path`) from the history `selection`
// names: per gated metric, the candidate's samples of its last records that hold at least 3
// (paired_sample_differences); a benchmark pattern stands for each recorded benchmark it
// matches (expand_recorded_patterns). Throws perfduel::Error when no record holds any.
CalibrationInput read_history_inputs(const Config& gate, const std::string& gate_path,
                                     const HistorySelection& selection);

}  // namespace perfduel
