#include "duel/run_order.hpp"

namespace perfduel {

std::size_t env_padding_bytes(std::uint64_t seed, std::uint64_t run_index) {
  constexpr std::uint64_t k_max_env_padding = 4096;
  std::uint64_t x = (seed ^ 0xD1B54A32D192ED03ULL) + 0x9E3779B97F4A7C15ULL * (run_index + 1);
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return static_cast<std::size_t>(x % k_max_env_padding);
}

bool candidate_first(Order order, int round, std::uint64_t seed) {
  if (order == Order::abba) {
    return round % 2 == 1;
  }
  // The coin of round r is a hash of (seed, r) (splitmix64's finaliser), so the order of a
  // round does not depend on how many rounds came before and a report can be checked
  // against its seed; it costs nothing per round.
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(round) + 1);
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return (x >> 63U) != 0;
}

bool duet_candidate_on_second(Order order, int round, std::uint64_t seed) {
  if (order != Order::duet) {
    return true;  // duet-fixed: the baseline on the first CPU, always
  }
  // Rounds go in pairs, 2k and 2k + 1, which swap the CPUs: every two rounds each side has had
  // each CPU once, so the CPUs' difference cancels in the change and can be measured apart
  // from it. A coin per pair (the order coin's hash, of the pair's index and another seed)
  // decides which way round the pair starts.
  const bool coin = candidate_first(Order::random, round / 2, seed ^ 0x5DEECE66DULL);
  return coin != (round % 2 == 1);
}

}  // namespace perfduel
