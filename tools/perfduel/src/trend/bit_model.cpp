#include "trend/bit_model.hpp"

#include <numbers>

namespace perfduel::trend {

BitModel::BitModel(double max_value, double unit, std::int64_t max_size)
    : m_unit(unit), m_max_units(max_value / unit) {
  m_uniform_avg_bits = std::log(m_max_units + 1) / k_ln2;
  // The stdev is coded like a length, (s + 1)(s + 2), cut off at the maximum.
  m_stdev_cutoff_bits = std::log(1 - 1 / (m_max_units + 2)) / k_ln2;
  const auto count = static_cast<std::size_t>(max_size) + 1;
  m_size_bits.resize(count, 0.0);
  m_sphere_head.resize(count, 0.0);
  m_sphere_tail.resize(count, 0.0);
  const double ln_pi = std::log(std::numbers::pi);
  for (std::size_t size = 1; size < count; ++size) {
    const auto n = static_cast<double>(size);
    // The length: P(k samples) = 1/k − 1/(k + 1), so k costs log2(k (k + 1)) bits.
    m_size_bits[size] = std::log(n * (n + 1)) / k_ln2;
    // The samples lie on a (n − 2)-sphere of radius stdev·sqrt(n) around the average;
    // its area is 2 π^((n−1)/2) / Γ((n−1)/2) · r^(n−2). Only n ≥ 2 uses these.
    double head = std::log(2.0);
    head += ln_pi * ((n - 1) / 2);
    head -= std::lgamma((n - 1) / 2);
    m_sphere_head[size] = head;
    m_sphere_tail[size] = std::log(n) * ((n - 2) / 2);
  }
}

double BitModel::add_spread_bits(double bits, const RunStats& stats) const {
  if (stats.size < 2) {
    return bits;
  }
  const double stdev = stats.stdev / m_unit;
  const auto n = static_cast<double>(stats.size);
  // The terms are added to the running sum one by one, in the reference's order, so that
  // equal partitions compare equal here too.
  bits += std::log((stdev + 1) * (stdev + 2)) / k_ln2;
  bits += m_stdev_cutoff_bits;
  double sphere = m_sphere_head[index(stats.size)];
  sphere += std::log(stdev + 1) * (n - 2);
  sphere += m_sphere_tail[index(stats.size)];
  return bits + sphere / k_ln2;
}

}  // namespace perfduel::trend
