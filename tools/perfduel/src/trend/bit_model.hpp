#pragma once

// Internal to the trend grouping: the reference's arithmetic, operation by operation.
// Not part of the public interface (see jumpavg.hpp).

#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <vector>

#include "trend/jumpavg.hpp"

namespace perfduel::trend {

// The running sums of the reference's Welford merge (AvgStdevStats.for_runs). The
// reference keeps the second moment only inside one merge and stores the stdev between
// merges, so `stats()` is where its rounding happens; callers reproduce that by merging
// through RunStats exactly where the reference does.
class Accumulator {
 public:
  // Adds `run` (one value is a run of size 1 with stdev 0).
  void add(const RunStats& run) {
    const double old_size = static_cast<double>(m_size);
    const double run_size = static_cast<double>(run.size);
    const double delta = run.avg - m_avg;
    m_size += run.size;
    const double total_size = static_cast<double>(m_size);
    m_avg += delta * run_size / total_size;
    m_moment_2 += run.stdev * run.stdev * run_size;
    m_moment_2 += delta * delta * old_size * run_size / total_size;
  }

  RunStats stats() const {
    if (m_size < 1) {
      return RunStats{};
    }
    return RunStats{m_size, m_avg, std::sqrt(m_moment_2 / static_cast<double>(m_size))};
  }

 private:
  std::int64_t m_size = 0;
  double m_avg = 0.0;
  double m_moment_2 = 0.0;
};

// `run` passed once through the merge, as the reference does whenever it copies stats;
// usually the identity, but one time in ten it moves the last bit.
inline RunStats restate(const RunStats& run) {
  Accumulator accumulator;
  accumulator.add(run);
  return accumulator.stats();
}

// `total` (restated) with `run` appended, as BitCountingGroup.append.
inline RunStats append_run(const RunStats& total, const RunStats& run) {
  Accumulator accumulator;
  accumulator.add(total);
  accumulator.add(run);
  return accumulator.stats();
}

// What a later group needs to know of the group before it: its average in units and the
// normalisation of the "opposite triangle" density around it.
struct PreviousAverage {
  double units = 0.0;
  double norm = 0.0;
};

// The bit-counting model for one series: the largest value and the unit are fixed, the
// terms that depend only on a group's size are tabulated.
class BitModel {
 public:
  // `max_value` and `unit` of the series; `max_size`: the largest group size asked for.
  BitModel(double max_value, double unit, std::int64_t max_size);

  // The average of the previous group `previous_avg`, prepared for later_group_bits.
  PreviousAverage previous_average(double previous_avg) const {
    const double units = previous_avg / m_unit;
    double norm = units * units;
    norm -= (units - 1) * m_max_units;
    norm += m_max_units * m_max_units / 2;
    return PreviousAverage{units, norm};
  }

  // Bits of the first group with `stored` stats (restated first, as the reference).
  double first_group_bits(const RunStats& stored) const {
    const RunStats stats = restate(stored);
    double bits = 0.0;
    bits += m_size_bits[index(stats.size)];
    // The first average is uniform between zero and the maximum.
    bits += m_uniform_avg_bits;
    return add_spread_bits(bits, stats);
  }

  // Bits of a later group with `stored` stats after a group described by `previous`.
  double later_group_bits(const RunStats& stored, const PreviousAverage& previous) const {
    const RunStats stats = restate(stored);
    double bits = 0.0;
    bits += m_size_bits[index(stats.size)];
    // Opposite triangle: an average far from the previous one is cheap, a small step is
    // expensive, which discourages splitting a flat series.
    const double avg = stats.avg / m_unit;
    bits -= std::log((std::fabs(avg - previous.units) + 1) / previous.norm) / k_ln2;
    return add_spread_bits(bits, stats);
  }

  // The bits of a uniformly distributed first average.
  double uniform_avg_bits() const { return m_uniform_avg_bits; }

  // The part of a group's bits that depends only on its `size`: the length and, from two
  // samples on, the stdev cut-off and the sphere terms without the radius. (For bounds.)
  double size_only_bits(std::int64_t size) const {
    const std::size_t i = index(size);
    if (size < 2) {
      return m_size_bits[i];
    }
    return m_size_bits[i] + m_stdev_cutoff_bits + (m_sphere_head[i] + m_sphere_tail[i]) / k_ln2;
  }

 private:
  static constexpr double k_ln2 = std::numbers::ln2;

  static std::size_t index(std::int64_t size) { return static_cast<std::size_t>(size); }

  // `bits` plus the stdev bits and the sample bits of `stats` (none for one sample).
  double add_spread_bits(double bits, const RunStats& stats) const;

  double m_unit;
  double m_max_units;
  double m_uniform_avg_bits;
  double m_stdev_cutoff_bits;
  std::vector<double> m_size_bits;    // log2(n (n + 1)): the length of the group
  std::vector<double> m_sphere_head;  // ln 2 + ln π (n − 1)/2 − lnΓ((n − 1)/2)
  std::vector<double> m_sphere_tail;  // ln n (n − 2)/2
};

// The reference's greedy dynamic programme over `runs` with `max_value` and `unit`;
// returns the groups with stats and bits, changes not yet classified. Skips the exact bits
// of partitions that a lower bound proves worse than the winner.
std::vector<Group> partition(std::span<const RunStats> runs, double max_value, double unit);

// The same, computing every partition's exact bits as the reference does: the yardstick
// the fast form is tested against.
std::vector<Group> partition_exhaustive(std::span<const RunStats> runs, double max_value, double unit);

}  // namespace perfduel::trend
