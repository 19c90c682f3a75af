#include "duel/notes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "duel/determinism.hpp"
#include "stats/descriptive.hpp"

namespace perfduel {

namespace {

// Many undecided metrics, each with its key note of why, would bury the verdict (a suite of 13
// benchmarks, 13 notes of a widened interval): beyond k_undecided_notes_shown their notes become
// details, and one key note sums them up: how many, after how many rounds, and how far their
// intervals still are from their thresholds.
constexpr std::size_t k_undecided_notes_shown = 2;

// Order duet: how much longer runs took at the same time than alone, from the runs made alone
// after the warm-up (RunRecord::alone) against the median of each side's measured runs, in
// wall time. Where the two CPUs share a core (SMT), caches or memory bandwidth, each run is
// slowed while the other runs and speeds up once it is alone again, so the longer run's extra
// time is partly made at full speed: a change shows smaller than it is (on a 2-vCPU VM whose
// runs slowed by 35 %, a +6.1 % change read +4.8 %, docs/performance.md, "Duet"). A slowdown beyond
// k_duet_interference_limit is a key note that says so; one alone run per side is a rough
// measure (a few percent), enough to tell 1.4 from 1.0.
constexpr double k_duet_interference_limit = 0.05;

// The hybrid stopping note's words for the sign sequence: its level, or why it does not run.
std::string sign_sequence_text(const LevelPlan& plan) {
  if (!plan.signs) {
    return " (no sign sequence: it needs order: random)";
  }
  return fmt::format(
      ", or the sign sequence's test of a regression at one-sided α = {:.3g} (any "
      "round)",
      (1.0 - plan.confidence) * k_sign_share / static_cast<double>(plan.gated_count));
}

}  // namespace

std::vector<std::string> note_texts(std::span<const Note> notes) {
  std::vector<std::string> texts;
  texts.reserve(notes.size());
  for (const auto& note : notes) {
    texts.push_back(note.text);
  }
  return texts;
}

void note_warmup(std::size_t drop, const std::string& where, double shift, std::vector<Note>& notes) {
  notes.push_back({NoteWeight::key, fmt::format("warm-up detected: dropped the first {} measured rounds ({} "
                                                "{:+.1f} % against the rest)",
                                                drop, where, 100 * std::expm1(shift))});
}

void note_levels(const Config& config, const LevelPlan& plan, std::vector<Note>& notes) {
  const std::size_t gated_count = plan.gated_count;
  if (gated_count > 1) {
    notes.push_back(
        {NoteWeight::detail,
         fmt::format(
             "Bonferroni: {} gated metrics, each interval at {:.4g} % confidence (family-wise {:.4g} %) "
             "for a regression or an improvement; no change needs no correction: a metric whose "
             "interval at {:.4g} % lies inside its tolerance band has none (the pass claim errs "
             "with at most {:.4g} %)",
             gated_count, 100 * per_metric_confidence(plan.confidence, gated_count, 1.0),
             100 * plan.confidence, 100 * plan.confidence, 100 * (1 - plan.confidence))});
  }
  if (!plan.hybrid) {
    return;
  }
  const double sign_share = plan.signs ? k_sign_share : 0.0;
  notes.push_back(
      {NoteWeight::detail,
       fmt::format(
           "stopping: per gated metric the width rule's interval at {:.4g} %, the confidence sequence at "
           "{:.4g} % (mean and trimmed estimators){}, whichever settles first (α split {:.0f} : {:.0f} : "
           "{:.0f}){}",
           100 * per_metric_confidence(plan.confidence, gated_count, 1.0 - k_sequence_share),
           100 * per_metric_confidence(plan.confidence, gated_count, k_sequence_share - sign_share),
           sign_sequence_text(plan), 100 * (1 - k_sequence_share), 100 * (k_sequence_share - sign_share),
           100 * sign_share,
           config.min_rounds < k_sequence_burn_in_rounds
               ? fmt::format("; the confidence sequence from round {} (min_rounds {} applies to the width "
                             "rule and to deterministic metrics)",
                             k_sequence_burn_in_rounds, config.min_rounds)
               : "")});
}

void note_varying_count(const MetricSpec& spec, std::span<const double> baseline,
                        std::span<const double> candidate, std::vector<Note>& notes) {
  if (spec.gating != Gating::gated || determinism_of(spec) != Determinism::counted ||
      is_deterministic(spec, baseline, candidate)) {
    return;
  }
  double spread = 0;
  for (const auto side : {baseline, candidate}) {
    const auto [low, high] = std::minmax_element(side.begin(), side.end());
    if (side.size() < 2 || !(*low > 0)) {
      return;
    }
    spread = std::max(spread, *high / *low - 1);
  }
  notes.push_back(
      {NoteWeight::key,
       fmt::format(
           "{}: counted, yet the runs of one side differ by up to {:.2g} % (more than a hundredth of its "
           "{:.3g} % threshold): its work depends on something besides the program, such as the clock; "
           "judged as a measured metric, with its rounds",
           spec.name, 100 * spread, 100 * spec.threshold)});
}

void note_metric(const Config& config, const MetricResult& result, const std::string& zeros,
                 Finality finality, std::vector<Note>& notes) {
  const MetricSpec& spec = result.spec;
  const bool gated = spec.gating == Gating::gated;
  if (!zeros.empty()) {
    // The legend names the estimator of each metric; the counts are a detail.
    notes.push_back(
        {NoteWeight::detail,
         fmt::format("{}: {}, at its resolution: change estimated as the ratio of means (delta-method "
                     "interval)",
                     spec.name, zeros)});
  }
  if (gated && result.enough_rounds && result.min_rounds < config.min_rounds && finality == Finality::final) {
    const std::string agreement =
        determinism_of(spec) == Determinism::counted
            ? fmt::format("every run of each side within {:.3g} % of the others", spec.threshold)
            : std::string("every run of each side read the same value");
    notes.push_back(
        {NoteWeight::detail, fmt::format("{}: {}: deterministic, so {} rounds sufficed (min_rounds {})",
                                         spec.name, agreement, result.min_rounds, config.min_rounds)});
  }
  if (result.settled_by == SettledBy::signs) {
    notes.push_back(
        {gated ? NoteWeight::key : NoteWeight::detail,
         fmt::format("{}: regression shown by its sign sequence: {} of {} rounds {} by more than {:.3g} % "
                     "(a test valid at any round, from each round's random order)",
                     spec.name, result.signs_beyond, result.signs_rounds,
                     spec.direction == Direction::higher_is_better ? "lower" : "higher",
                     100 * signs_bound(spec))});
  }
  if (gated && !result.estimate.note.empty()) {
    // Why a metric is still undecided is what a reader of this verdict needs; for a settled
    // metric the note (batching, a widened interval) is a detail.
    // So is a count from or to 0, whose note says what no ratio can ("0 → 3 allocs/iter").
    notes.push_back({is_undecided(result.verdict) || result.zero_side ? NoteWeight::key : NoteWeight::detail,
                     fmt::format("{}: {}", spec.name, result.estimate.note)});
  }
}

void note_holm_declined(std::vector<Note>& notes) {
  notes.push_back({NoteWeight::detail,
                   "correction: Holm requested, but anytime stopping decides with Bonferroni-level "
                   "confidence sequences"});
}

void note_holm(std::span<const MetricResult> metrics, std::span<const HolmDecision> decisions,
               double confidence, std::vector<Note>& notes) {
  notes.push_back(
      {NoteWeight::key,
       fmt::format("correction: Holm's step-down decides over {} gated metrics at family-wise {:.4g} % "
                   "confidence; intervals are shown at the Bonferroni level",
                   decisions.size(), 100 * confidence)});
  std::size_t i = 0;
  for (const auto& result : metrics) {
    if (result.spec.gating != Gating::gated) {
      continue;
    }
    const HolmDecision& decision = decisions[i++];
    if (decision.by_holm) {
      notes.push_back(
          {NoteWeight::key,
           fmt::format("{}: {} by Holm (p = {:.3g} ≤ {:.3g}); its Bonferroni interval still touches the "
                       "tolerance band",
                       result.spec.name, to_string(result.verdict), result.estimate.p_value,
                       decision.level)});
    }
  }
}

void summarize_undecided(Analysis& analysis) {
  std::vector<Note*> why;
  std::size_t gated = 0;
  std::size_t undecided = 0;
  double narrowest = std::numeric_limits<double>::infinity();
  double widest = 0;
  double most_widened = 1;
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated) {
      continue;
    }
    ++gated;
    if (!is_undecided(result.verdict)) {
      continue;
    }
    ++undecided;
    if (std::isfinite(result.stopping_width) && result.spec.threshold > 0) {
      narrowest = std::min(narrowest, result.stopping_width / result.spec.threshold);
      widest = std::max(widest, result.stopping_width / result.spec.threshold);
    }
    most_widened = std::max(most_widened, result.estimate.spread_inflation);
    for (auto& note : analysis.notes) {
      if (note.weight == NoteWeight::key && note.text.starts_with(result.spec.name + ": ")) {
        why.push_back(&note);
      }
    }
  }
  if (why.size() <= k_undecided_notes_shown) {
    return;
  }
  for (Note* note : why) {
    note->weight = NoteWeight::detail;
  }
  std::string text = fmt::format("{} of {} gated metrics undecided after {} rounds", undecided, gated,
                                 analysis.measured_rounds - analysis.dropped_rounds);
  if (widest > 0) {
    text += fmt::format(": interval widths {:.1f}–{:.1f}× their thresholds", narrowest, widest);
  }
  if (most_widened > 1.001) {
    text += fmt::format(" (widened up to ×{:.2f} for autocorrelation not yet ruled out)", most_widened);
  }
  analysis.notes.push_back({NoteWeight::key, text + "; --verbose says why for each"});
}

void note_cpu_effects(const Config& config, std::span<const RunRecord> runs, const Analysis& analysis,
                      std::vector<Note>& notes) {
  int low = std::numeric_limits<int>::max();
  int high = -1;
  for (const auto& run : runs) {
    if (run.cpu >= 0) {
      low = std::min(low, run.cpu);
      high = std::max(high, run.cpu);
    }
  }
  if (high < 0) {
    return;
  }
  if (config.order == Order::duet_fixed) {
    notes.push_back(
        {NoteWeight::key,
         fmt::format("order: duet-fixed: the baseline ran on one CPU and the candidate on the other "
                     "(CPUs {} and {}) in every round, so each change includes the two CPUs' "
                     "difference; order: duet balances it out",
                     low, high)});
    return;
  }
  std::vector<const MetricResult*> measured;
  for (const auto& result : analysis.metrics) {
    if (result.cpu_effect && result.spec.gating == Gating::gated) {
      measured.push_back(&result);
    }
  }
  if (measured.empty()) {
    return;
  }
  std::stable_sort(measured.begin(), measured.end(), [](const MetricResult* x, const MetricResult* y) {
    return std::abs(*x->cpu_effect) > std::abs(*y->cpu_effect);
  });
  constexpr std::size_t k_shown = 3;
  std::vector<std::string> effects;
  for (std::size_t i = 0; i < measured.size() && i < k_shown; ++i) {
    effects.push_back(fmt::format("{} {:+.2f} % ({:+.2f} % to {:+.2f} %)", measured[i]->spec.name,
                                  100 * *measured[i]->cpu_effect, 100 * measured[i]->cpu_effect_ci.lo,
                                  100 * measured[i]->cpu_effect_ci.hi));
  }
  if (measured.size() > k_shown) {
    effects.push_back(fmt::format("{} more", measured.size() - k_shown));
  }
  notes.push_back({NoteWeight::detail,
                   fmt::format("duet: CPU {} against CPU {}, the same program (95 %): {}; the balanced "
                               "assignment keeps the difference out of each change, and the analysis takes "
                               "its share out of the rounds' noise",
                               high, low, fmt::join(effects, ", "))});
}

void note_duet_interference(const Config& config, std::span<const RunRecord> runs, std::vector<Note>& notes) {
  const auto wall = std::find_if(config.metrics.begin(), config.metrics.end(),
                                 [](const MetricSpec& m) { return m.source == MetricSource::wall_time; });
  if (!is_duet(config.order) || wall == config.metrics.end()) {
    return;
  }
  const auto m = static_cast<std::size_t>(wall - config.metrics.begin());
  std::array<double, 2> alone{0, 0};
  std::array<std::vector<double>, 2> together;
  for (const auto& run : runs) {
    const std::size_t side = run.side == Side::baseline ? 0 : 1;
    if (run.alone) {
      alone[side] = run.values.at(m);
    } else if (!run.warmup) {
      together[side].push_back(run.values.at(m));
    }
  }
  if (!(alone[0] > 0 && alone[1] > 0) || together[0].empty() || together[1].empty()) {
    return;
  }
  const double slowdown =
      std::sqrt(stats::median(together[0]) / alone[0] * stats::median(together[1]) / alone[1]) - 1;
  if (slowdown > k_duet_interference_limit) {
    notes.push_back(
        {NoteWeight::key,
         fmt::format("duet: at the same time runs took {:+.0f} % longer than alone (warm-up): the two "
                     "CPUs share a core, caches or memory bandwidth, so a change shows smaller than it "
                     "is; check with order: random before relying on duet on this machine",
                     100 * slowdown)});
  } else {
    notes.push_back(
        {NoteWeight::detail,
         fmt::format("duet: at the same time runs took {:+.1f} % against alone (warm-up): the two "
                     "CPUs hardly slow each other",
                     100 * slowdown)});
  }
}

}  // namespace perfduel
