// A CPU-bound, deterministic benchmark: a dependent chain of xorshift steps (~15 ms).
// The scenarios change k_work to make a commit slower.
#include <cstdint>
#include <cstdio>

constexpr std::uint64_t k_work = 1;

int main() {
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t i = 0; i < k_work * 12'000'000ULL; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
  }
  std::printf("%llu\n", static_cast<unsigned long long>(state));
  return 0;
}
