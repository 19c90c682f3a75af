#pragma once

#include <map>
#include <string_view>

#include "config/config.hpp"
#include "run/profile.hpp"

// A benchmark's allocations per iteration, read from the calls its profile counted: the
// allocator preloaded into a counted run (src/alloc_counter.cpp, libperfduel-alloc.so) calls
// one marker function per allocation the program asked for and one per set bit k of the size
// asked for; callgrind counts calls exactly, and the profile per iteration (the slope between
// two windows, run/benchmark_counts.hpp; the sizing stretches, run/catch2_counts.hpp) divides
// them like the instructions. Pure: a profile in, counts out.
namespace perfduel {

// The marker functions' names as callgrind shows them.
inline constexpr std::string_view k_allocation_marker = "perfduel_allocation";
inline constexpr std::string_view k_allocated_bit_marker = "perfduel_alloc_bit_";
// The file name of the preloaded allocator, found beside the driver (find_helper).
inline constexpr std::string_view k_allocation_counter_library = "libperfduel-alloc.so";

// Sets `counts`' allocations (calls of k_allocation_marker) and allocated_bytes (Σ calls of
// k_allocated_bit_marker<k> · 2^k) from `profile`; nothing when it has no call of the first (a
// window without allocations, or a run without the counter: an allocation metric of a counted
// benchmark then reads 0, as the duel preloads the counter whenever one is configured).
void add_allocation_counts(const Profile& profile, std::map<CountedEvent, double>& counts);

}  // namespace perfduel
