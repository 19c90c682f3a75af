// A shared library whose content depends on FINGERPRINT_VALUE: built twice (1 and 2) under one
// file name, so that tests/unit/duel/test_programs.cpp can put either beside fingerprint_app and see
// whether the fingerprint follows the library the loader resolves.
#ifndef FINGERPRINT_VALUE
#error FINGERPRINT_VALUE must be defined
#endif

extern "C" int fingerprint_value() {
  return FINGERPRINT_VALUE;
}
