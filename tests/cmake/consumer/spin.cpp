// A CPU-bound, deterministic benchmark: a dependent chain of xorshift steps (~15 ms).
// The scenarios change k_work to make a commit slower. Besides the chain's end state (so that
// the loop cannot be optimised away) it prints the steps it took, "work: N": a count that
// does not depend on how fast the machine is, which the scenarios gate on (run_scenario.cmake).
#include <cstdint>
#include <cstdio>

constexpr std::uint64_t k_work = 1;

int main() {
  constexpr std::uint64_t k_steps = k_work * 12'000'000ULL;
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t i = 0; i < k_steps; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
  }
  std::printf("%llu\nwork: %llu\n", static_cast<unsigned long long>(state),
              static_cast<unsigned long long>(k_steps));
  return 0;
}
