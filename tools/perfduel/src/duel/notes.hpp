#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "duel/analysis.hpp"
#include "duel/levels.hpp"

// The notes of an analysis (duel/analysis.hpp, Note): what a reader needs beside the verdicts to
// read them, written from what duel/analysis.cpp planned and found. Each function appends to
// `notes` (or to `analysis.notes`) in the order the report shows them.
namespace perfduel {

// That detected warm-up dropped the first `drop` measured rounds, found in `where` (a metric and
// a series: "wall_time baseline") with `shift` (log) against the rest.
void note_warmup(std::size_t drop, const std::string& where, double shift, std::vector<Note>& notes);

// The levels of `plan` (for `config`): the Bonferroni correction over several gated metrics, and
// under hybrid stopping how α is split between the width rule and the sequences.
void note_levels(const Config& config, const LevelPlan& plan, std::vector<Note>& notes);

// The notes of one judged metric `result`, before Holm's step-down: its zero readings (`zeros`,
// as zero_counts says; empty when it read none or has no ratio), that it was deterministic, that
// its sign sequence showed a regression, and its estimate's note (key while it is undecided).
// `finality` final: the end of the duel.
void note_metric(const Config& config, const MetricResult& result, const std::string& zeros,
                 Finality finality, std::vector<Note>& notes);

// That the counted metric `spec` is not deterministic: its runs of one side, `baseline` or
// `candidate`, differ by more than T/100 (duel/determinism.hpp), so it needs the rounds of a
// measured metric. Nothing when they agree, when `spec` is not counted or not gated, or when
// a side has fewer than two positive values.
void note_varying_count(const MetricSpec& spec, std::span<const double> baseline,
                        std::span<const double> candidate, std::vector<Note>& notes);

// That Holm's step-down was asked for but anytime stopping decides with Bonferroni.
void note_holm_declined(std::vector<Note>& notes);

// That Holm's step-down decided over the gated ones of `metrics` at family `confidence`, and which
// of them it found a regression or an improvement where the Bonferroni interval did not
// (`decisions`, one per gated metric in order, after the metrics took their verdicts).
void note_holm(std::span<const MetricResult> metrics, std::span<const HolmDecision> decisions,
               double confidence, std::vector<Note>& notes);

// When more than a few gated metrics are undecided at the end, their key notes become details
// and one key note sums them up.
void summarize_undecided(Analysis& analysis);

// The notes of a duet: the CPUs' difference per gated metric, largest first (a few), or
// for duet-fixed that it is in every change.
void note_cpu_effects(const Config& config, std::span<const RunRecord> runs, const Analysis& analysis,
                      std::vector<Note>& notes);

// Order duet: how much the two sides' runs slowed each other (note_duet_interference in notes.cpp).
void note_duet_interference(const Config& config, std::span<const RunRecord> runs, std::vector<Note>& notes);

}  // namespace perfduel
