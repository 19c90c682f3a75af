// The reference's greedy dynamic programme (jumpavg classify()), and a faster form of it
// that provably chooses the same partition.
//
// closed[i] is the best partition of the first i runs. At step i every "open" partition
// j < i (closed[j] plus one group holding runs j..i-1) takes run i into its last group,
// and a new open partition starts a group at run i after closed[i]. closed[i + 1] is the
// open partition with the fewest bits; on a tie the new one wins, then the one whose last
// group starts earliest: the reference tries them in that order and replaces its record
// only on strictly fewer bits.
//
// The straightforward form computes the exact bits of every open partition at every step:
// about 70 ns each, 0.15 s for 2,000 points. The fast form keeps the exact running stats
// of every open partition (they feed later steps bit for bit) but first computes a cheap
// lower bound of each one's bits, and computes exact bits only where the bound is not
// already above an exact upper bound of the minimum. A skipped partition has more bits
// than the winner, so it could neither win nor tie: the choice is the reference's.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "trend/bit_model.hpp"

namespace perfduel::trend {

namespace {

// The best partition of a prefix, by the last group's start (the rest is found by
// following starts back).
struct Closed {
  std::size_t last_start = 0;
  RunStats last_stats;
  double last_bits = 0.0;
  double total_bits = 0.0;
};

std::vector<Group> follow_back(const std::vector<Closed>& closed) {
  std::vector<Group> groups;
  for (std::size_t end = closed.size() - 1; end > 0;) {
    const Closed& last = closed[end];
    Group group;
    group.start = last.last_start;
    group.runs = end - last.last_start;
    // Every group but the last was copied once more when the next one opened.
    group.stats = groups.empty() ? last.last_stats : restate(last.last_stats);
    group.bits = last.last_bits;
    groups.push_back(group);
    end = last.last_start;
  }
  return {groups.rbegin(), groups.rend()};
}

std::int64_t total_size(std::span<const RunStats> runs) {
  std::int64_t total = 0;
  for (const RunStats& run : runs) {
    total += run.size;
  }
  return total;
}

// Bounds of ln x for x ≥ 1 without calling log(): x = 2^e · m with m in [1, 2), and
// ln m = ln 1.5 + ln(1 + t) with t = (m − 1.5)/1.5 in [−1/3, 1/3).
//  - lower_log: the degree-8 Taylor polynomial of ln(1 + t), whose remainder is at most
//    (1/3)^9 · 1.5/9 = 8.5e-6, minus k_log_error. The sphere term multiplies this log by
//    the group size, so it needs the precision.
//  - upper_log: ln(1 + t) ≤ t. At most 0.072 too high; it bounds a term of weight one.
// Rounding adds less than 1e-13 to either.
constexpr double k_log_error = 1e-5;
constexpr double k_ln2 = 0.69314718055994530942;
constexpr double k_inverse_ln2 = 1.44269504088896340736;
constexpr double k_ln_1_5 = 0.40546510810816438198;
constexpr std::uint64_t k_mantissa_mask = 0x000FFFFFFFFFFFFFULL;
constexpr std::uint64_t k_one_bits = 0x3FF0000000000000ULL;
constexpr std::uint64_t k_two_52_bits = 0x4330000000000000ULL;  // 2^52: turns small integers into doubles
constexpr double k_two_52 = 4503599627370496.0;

// Taylor coefficients of ln(1 + t): (−1)^(k+1)/k, highest first (Horner).
constexpr int k_taylor_degree = 8;
constexpr double k_taylor[k_taylor_degree] = {-1.0 / 8, 1.0 / 7, -1.0 / 6, 1.0 / 5,
                                              -1.0 / 4, 1.0 / 3, -1.0 / 2, 1.0};

// e·ln 2 + ln 1.5 and t of `x`.
struct LogParts {
  double head;
  double t;
};

LogParts log_parts(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const double exponent = std::bit_cast<double>((bits >> 52) | k_two_52_bits) - k_two_52 - 1023.0;
  const double mantissa = std::bit_cast<double>((bits & k_mantissa_mask) | k_one_bits);
  return LogParts{exponent * k_ln2 + k_ln_1_5, (mantissa - 1.5) * (2.0 / 3.0)};
}

double lower_log(double x) {
  const LogParts parts = log_parts(x);
  double p = k_taylor[0];
  for (int k = 1; k < k_taylor_degree; ++k) {
    p = p * parts.t + k_taylor[k];
  }
  return parts.head + p * parts.t - k_log_error;
}

double upper_log(double x) {
  const LogParts parts = log_parts(x);
  return parts.head + parts.t;
}

#if defined(__SSE2__)
void log_parts(__m128d x, __m128d& head, __m128d& t) {
  const __m128i bits = _mm_castpd_si128(x);
  const __m128i biased =
      _mm_or_si128(_mm_srli_epi64(bits, 52), _mm_set1_epi64x(static_cast<long long>(k_two_52_bits)));
  const __m128d exponent =
      _mm_sub_pd(_mm_sub_pd(_mm_castsi128_pd(biased), _mm_set1_pd(k_two_52)), _mm_set1_pd(1023.0));
  const __m128i mantissa_bits =
      _mm_or_si128(_mm_and_si128(bits, _mm_set1_epi64x(static_cast<long long>(k_mantissa_mask))),
                   _mm_set1_epi64x(static_cast<long long>(k_one_bits)));
  head = _mm_add_pd(_mm_mul_pd(exponent, _mm_set1_pd(k_ln2)), _mm_set1_pd(k_ln_1_5));
  t = _mm_mul_pd(_mm_sub_pd(_mm_castsi128_pd(mantissa_bits), _mm_set1_pd(1.5)), _mm_set1_pd(2.0 / 3.0));
}

__m128d lower_log(__m128d x) {
  __m128d head;
  __m128d t;
  log_parts(x, head, t);
  __m128d p = _mm_set1_pd(k_taylor[0]);
  for (int k = 1; k < k_taylor_degree; ++k) {
    p = _mm_add_pd(_mm_mul_pd(p, t), _mm_set1_pd(k_taylor[k]));
  }
  return _mm_sub_pd(_mm_add_pd(head, _mm_mul_pd(p, t)), _mm_set1_pd(k_log_error));
}

__m128d upper_log(__m128d x) {
  __m128d head;
  __m128d t;
  log_parts(x, head, t);
  return _mm_add_pd(head, t);
}
#endif

// Lower-bound terms of a group's bits that depend only on its size n: the length bits
// and, from two samples on, the stdev cut-off and the sphere terms without the radius;
// and the weight of ln(stdev + 1): the sphere's (n − 2) plus 2 for log2((s + 1)(s + 2)) ≥
// 2 log2(s + 1).
struct SizeTerms {
  std::vector<double> constant;
  std::vector<double> radius_weight;
};

// The open partitions, as parallel arrays indexed by the start of their last group.
struct OpenColumns {
  std::vector<double> size;
  std::vector<double> avg;
  std::vector<double> stdev;
  std::vector<double> base;            // exact bits of closed[start]
  std::vector<double> bound_constant;  // base plus the average bits that do not depend on the average
  std::vector<double> avg_weight;      // 0 for the first group (uniform average), 1 after
  std::vector<double> previous_units;  // the previous group's average in units
  std::vector<PreviousAverage> previous;
  std::vector<double> lower;  // this step's lower bound of the total bits

  void reserve(std::size_t count) {
    for (auto* column : {&size, &avg, &stdev, &base, &bound_constant, &avg_weight, &previous_units, &lower}) {
      column->reserve(count);
    }
    previous.reserve(count);
  }
};

// One step of an open partition's stats, operation for operation as the reference: the
// copy restates the stats, the append merges the restated stats and the run.
struct Step {
  double run_size;
  double run_avg;
  double run_stdev;
  double inverse_unit;
};

// Appends the run of `step` to open partitions [from, to) of `open` and stores a lower
// bound of each one's total bits, using `terms`. Scalar form; the SSE2 form below does the
// same arithmetic on two partitions at once.
void advance_scalar(OpenColumns& open, std::size_t from, std::size_t to, const Step& step,
                    const SizeTerms& terms) {
  for (std::size_t j = from; j < to; ++j) {
    const double n = open.size[j];
    // Copy: restate.
    const double avg_1 = 0.0 + open.avg[j] * n / n;
    const double stdev_1 = std::sqrt(open.stdev[j] * open.stdev[j] * n / n);
    // Append: restate again inside the merge, then add the run.
    double avg = 0.0 + avg_1 * n / n;
    double moment_2 = stdev_1 * stdev_1 * n;
    const double delta = step.run_avg - avg;
    const double total = n + step.run_size;
    avg += delta * step.run_size / total;
    moment_2 += step.run_stdev * step.run_stdev * step.run_size;
    moment_2 += delta * delta * n * step.run_size / total;
    const double stdev = std::sqrt(moment_2 / total);
    open.size[j] = total;
    open.avg[j] = avg;
    open.stdev[j] = stdev;
    const auto index = static_cast<std::size_t>(total);
    const double step_log = upper_log(std::fabs(avg * step.inverse_unit - open.previous_units[j]) + 1);
    const double radius_log = lower_log(stdev * step.inverse_unit + 1);
    open.lower[j] = open.bound_constant[j] + terms.constant[index] -
                    open.avg_weight[j] * step_log * k_inverse_ln2 + terms.radius_weight[index] * radius_log;
  }
}

void advance(OpenColumns& open, std::size_t count, const Step& step, const SizeTerms& terms) {
  std::size_t j = 0;
#if defined(__SSE2__)
  const __m128d run_size = _mm_set1_pd(step.run_size);
  const __m128d run_avg = _mm_set1_pd(step.run_avg);
  const __m128d run_variance_part = _mm_set1_pd(step.run_stdev * step.run_stdev * step.run_size);
  const __m128d inverse_unit = _mm_set1_pd(step.inverse_unit);
  const __m128d zero = _mm_setzero_pd();
  const __m128d one = _mm_set1_pd(1.0);
  const __m128d sign_mask = _mm_castsi128_pd(_mm_set1_epi64x(0x7FFFFFFFFFFFFFFFLL));
  const __m128d inverse_ln2 = _mm_set1_pd(k_inverse_ln2);
  for (; j + 2 <= count; j += 2) {
    const __m128d n = _mm_loadu_pd(&open.size[j]);
    const __m128d old_avg = _mm_loadu_pd(&open.avg[j]);
    const __m128d old_stdev = _mm_loadu_pd(&open.stdev[j]);
    const __m128d avg_1 = _mm_add_pd(zero, _mm_div_pd(_mm_mul_pd(old_avg, n), n));
    const __m128d stdev_1 = _mm_sqrt_pd(_mm_div_pd(_mm_mul_pd(_mm_mul_pd(old_stdev, old_stdev), n), n));
    __m128d avg = _mm_add_pd(zero, _mm_div_pd(_mm_mul_pd(avg_1, n), n));
    __m128d moment_2 = _mm_mul_pd(_mm_mul_pd(stdev_1, stdev_1), n);
    const __m128d delta = _mm_sub_pd(run_avg, avg);
    const __m128d total = _mm_add_pd(n, run_size);
    avg = _mm_add_pd(avg, _mm_div_pd(_mm_mul_pd(delta, run_size), total));
    moment_2 = _mm_add_pd(moment_2, run_variance_part);
    moment_2 = _mm_add_pd(moment_2,
                          _mm_div_pd(_mm_mul_pd(_mm_mul_pd(_mm_mul_pd(delta, delta), n), run_size), total));
    const __m128d stdev = _mm_sqrt_pd(_mm_div_pd(moment_2, total));
    _mm_storeu_pd(&open.size[j], total);
    _mm_storeu_pd(&open.avg[j], avg);
    _mm_storeu_pd(&open.stdev[j], stdev);

    alignas(16) double sizes[2];
    _mm_store_pd(sizes, total);
    const auto index_0 = static_cast<std::size_t>(sizes[0]);
    const auto index_1 = static_cast<std::size_t>(sizes[1]);
    const __m128d constant = _mm_set_pd(terms.constant[index_1], terms.constant[index_0]);
    const __m128d radius_weight = _mm_set_pd(terms.radius_weight[index_1], terms.radius_weight[index_0]);
    const __m128d distance = _mm_and_pd(
        _mm_sub_pd(_mm_mul_pd(avg, inverse_unit), _mm_loadu_pd(&open.previous_units[j])), sign_mask);
    const __m128d step_log = upper_log(_mm_add_pd(distance, one));
    const __m128d radius_log = lower_log(_mm_add_pd(_mm_mul_pd(stdev, inverse_unit), one));
    __m128d lower = _mm_add_pd(_mm_loadu_pd(&open.bound_constant[j]), constant);
    lower =
        _mm_sub_pd(lower, _mm_mul_pd(_mm_mul_pd(_mm_loadu_pd(&open.avg_weight[j]), step_log), inverse_ln2));
    lower = _mm_add_pd(lower, _mm_mul_pd(radius_weight, radius_log));
    _mm_storeu_pd(&open.lower[j], lower);
  }
#endif
  advance_scalar(open, j, count, step, terms);
}

SizeTerms size_terms(const BitModel& model, std::int64_t max_size) {
  SizeTerms terms;
  const auto count = static_cast<std::size_t>(max_size) + 1;
  terms.constant.resize(count, 0.0);
  terms.radius_weight.resize(count, 0.0);
  for (std::size_t size = 1; size < count; ++size) {
    terms.constant[size] = model.size_only_bits(static_cast<std::int64_t>(size));
    terms.radius_weight[size] = size >= 2 ? static_cast<double>(size) / k_ln2 : 0.0;
  }
  return terms;
}

// The exact bits of open partition `j`'s last group with the stats `stats`.
double exact_bits(const OpenColumns& open, const BitModel& model, std::size_t j, const RunStats& stats) {
  return j == 0 ? model.first_group_bits(stats) : model.later_group_bits(stats, open.previous[j]);
}

// Open partition `j`'s last group's stats.
RunStats open_stats(const OpenColumns& open, std::size_t j) {
  return RunStats{static_cast<std::int64_t>(open.size[j]), open.avg[j], open.stdev[j]};
}

// The cheapest way to close the partition at run `i`: `record` (the new partition), or an open one
// whose exact total is lower; open ones whose lower bound exceeds the best so far are skipped.
Closed best_closing(const OpenColumns& open, const BitModel& model, std::size_t i, Closed record) {
  // An exact upper bound of the minimum: the new partition, or the one with the lowest bound.
  const auto lowest =
      std::min_element(open.lower.begin(), open.lower.begin() + static_cast<std::ptrdiff_t>(i));
  double limit = record.total_bits;
  std::size_t lowest_index = i;
  double lowest_total = 0.0;
  double lowest_bits = 0.0;
  if (i > 0) {
    lowest_index = static_cast<std::size_t>(lowest - open.lower.begin());
    lowest_bits = exact_bits(open, model, lowest_index, open_stats(open, lowest_index));
    lowest_total = open.base[lowest_index] + lowest_bits;
    limit = std::min(limit, lowest_total);
  }
  // Rounding in the bound and in the exact sums is below 1e-12 of the total; keep far clear.
  limit += 1e-8 * (std::fabs(limit) + 1.0);
  for (std::size_t j = 0; j < i; ++j) {
    if (open.lower[j] > limit) {
      continue;
    }
    const RunStats stats = open_stats(open, j);
    const double bits = j == lowest_index ? lowest_bits : exact_bits(open, model, j, stats);
    const double total = j == lowest_index ? lowest_total : open.base[j] + bits;
    if (total < record.total_bits) {
      record = Closed{j, stats, bits, total};
    }
  }
  return record;
}

}  // namespace

std::vector<Group> partition(std::span<const RunStats> runs, double max_value, double unit) {
  const std::size_t count = runs.size();
  const std::int64_t samples = total_size(runs);
  const BitModel model(max_value, unit, samples);
  const SizeTerms terms = size_terms(model, samples);

  OpenColumns open;
  open.reserve(count);
  std::vector<Closed> closed(count + 1);

  for (std::size_t i = 0; i < count; ++i) {
    const RunStats& run = runs[i];
    advance(open, i, Step{static_cast<double>(run.size), run.avg, run.stdev, 1.0 / unit}, terms);

    // The new open partition (the reference copies closed[i], restating its last group).
    const RunStats new_stats = restate(run);
    const double base = closed[i].total_bits;
    if (i == 0) {
      open.previous.push_back(PreviousAverage{});
      open.bound_constant.push_back(base + model.uniform_avg_bits());
      open.avg_weight.push_back(0.0);
    } else {
      open.previous.push_back(model.previous_average(restate(closed[i].last_stats).avg));
      open.bound_constant.push_back(base + std::log(open.previous.back().norm) / k_ln2);
      open.avg_weight.push_back(1.0);
    }
    open.previous_units.push_back(open.previous.back().units);
    const double new_bits = exact_bits(open, model, i, new_stats);
    closed[i + 1] = best_closing(open, model, i, Closed{i, new_stats, new_bits, base + new_bits});

    open.size.push_back(static_cast<double>(new_stats.size));
    open.avg.push_back(new_stats.avg);
    open.stdev.push_back(new_stats.stdev);
    open.base.push_back(base);
    open.lower.push_back(0.0);
  }
  return follow_back(closed);
}

std::vector<Group> partition_exhaustive(std::span<const RunStats> runs, double max_value, double unit) {
  const std::size_t count = runs.size();
  const BitModel model(max_value, unit, total_size(runs));
  std::vector<RunStats> open_stats;
  std::vector<double> open_base;
  std::vector<PreviousAverage> open_previous;
  std::vector<Closed> closed(count + 1);
  for (std::size_t i = 0; i < count; ++i) {
    const RunStats& run = runs[i];
    const RunStats new_stats = restate(run);
    double new_bits = 0.0;
    if (i == 0) {
      open_previous.push_back(PreviousAverage{});
      new_bits = model.first_group_bits(new_stats);
    } else {
      open_previous.push_back(model.previous_average(restate(closed[i].last_stats).avg));
      new_bits = model.later_group_bits(new_stats, open_previous.back());
    }
    open_stats.push_back(new_stats);
    open_base.push_back(closed[i].total_bits);

    Closed record{i, new_stats, new_bits, closed[i].total_bits + new_bits};
    for (std::size_t j = 0; j < i; ++j) {
      const RunStats stats = append_run(restate(open_stats[j]), run);
      open_stats[j] = stats;
      const double bits =
          j == 0 ? model.first_group_bits(stats) : model.later_group_bits(stats, open_previous[j]);
      const double total = open_base[j] + bits;
      if (total < record.total_bits) {
        record = Closed{j, stats, bits, total};
      }
    }
    closed[i + 1] = record;
  }
  return follow_back(closed);
}

}  // namespace perfduel::trend
