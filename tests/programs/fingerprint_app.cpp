// A program that loads fingerprint_lib from its own directory (RUNPATH $ORIGIN): see
// fingerprint_lib.cpp.
#include <cstdio>

extern "C" int fingerprint_value();

int main() {
  std::printf("value: %d\n", fingerprint_value());
  return 0;
}
