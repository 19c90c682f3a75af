#pragma once

#include <cstddef>
#include <cstdint>

#include "config/config.hpp"

// The order of a duel's runs and what randomizes their layout: seeded coins, each a hash of
// (seed, round or run), so a report's order can be checked against its seed.
namespace perfduel {

// The order of the two runs in measured round `round`: true when the candidate goes first.
// Random order is a seeded coin per round (`seed`); ABBA alternates AB, BA, AB, ...
bool candidate_first(Order order, int round, std::uint64_t seed);

// Order duet: whether the candidate runs on the second CPU of the pair in measured round
// `round` (the baseline on the first). For Order::duet balanced in pairs of rounds, the pair's
// way round a seeded coin; for Order::duet_fixed always true.
bool duet_candidate_on_second(Order order, int round, std::uint64_t seed);

// The PERFDUEL_PAD length of run `run_index` of a duel seeded `seed`: uniform in [0, 4096), a
// hash of (seed, run index) like the order coin, so both sides draw from one distribution, a
// seed reproduces the layouts, and the round order is unaffected.
std::size_t env_padding_bytes(std::uint64_t seed, std::uint64_t run_index);

}  // namespace perfduel
