// A benchmark that needs no library, for the roots of roots_test.sh: linked statically, it runs
// where nothing but the release archive is. `count N` does N million dependent xorshift steps and
// prints "steps: N", a count that no load changes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const long millions = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1;
  std::uint64_t x = 88172645463325252ULL;
  for (long i = 0; i < millions * 1000000L; ++i) {
    x ^= x << 13U;
    x ^= x >> 7U;
    x ^= x << 17U;
  }
  std::printf("steps: %ld\nstate: %llu\n", millions, static_cast<unsigned long long>(x));
  return 0;
}
