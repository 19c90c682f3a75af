// A memory-bound benchmark for measuring order: duet (tools/bench/duet.sh): sums an array far
// larger than the caches, PASSES times, so that its time is set by memory bandwidth, which two
// programs running at once share. --passes 440 against --passes 400 is a known +10 % of the
// summing work (the allocation and first touch are the same on both).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// As many loads as `passes` over all of `data` (one per 64-byte line), within its first
// `span_mib` MiB only, round and round: the same instructions whatever the span, and a span
// that fits the caches hits them where the whole array does not (--span-mib, for the test of a
// slowdown that instructions do not explain).
long walk_span(std::vector<long>& data, long passes, std::size_t span_mib) {
  const std::size_t span = span_mib * (1U << 20U) / sizeof(long);
  const std::size_t loads = static_cast<std::size_t>(passes) * data.size() / 8;
  long sum = 0;
  std::size_t i = 0;
  for (std::size_t k = 0; k < loads; ++k) {
    sum += data[i];
    i += 8;
    i = i < span ? i : 0;
  }
  return sum;
}

int main(int argc, char** argv) {
  long mib = 128;
  long passes = 10;
  long span_mib = 0;  // 0: walk the whole array
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--mib") == 0) {
      mib = std::atol(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--passes") == 0) {
      passes = std::atol(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--span-mib") == 0) {
      span_mib = std::atol(argv[i + 1]);
    } else {
      std::fprintf(stderr, "usage: stream_bench [--mib N] [--passes N] [--span-mib N]\n");
      return 2;
    }
  }
  if (mib <= 0 || passes <= 0) {
    std::fprintf(stderr, "stream_bench: --mib and --passes must be positive\n");
    return 2;
  }
  std::vector<long> data(static_cast<std::size_t>(mib) * (1U << 20U) / sizeof(long), 1);
  long sum = 0;
  if (span_mib > 0 && span_mib <= mib) {
    std::printf("sum: %ld\n", walk_span(data, passes, static_cast<std::size_t>(span_mib)));
    return 0;
  }
  for (long pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i < data.size(); i += 8) {  // one load per 64-byte line
      sum += data[i];
    }
    data[static_cast<std::size_t>(pass) % data.size()] += 1;  // keeps the passes from being folded
  }
  std::printf("sum: %ld\n", sum);
  return 0;
}
