// A deliberate -Wall warning (an unused variable), and nothing else to complain about.
int probe() {
  int unused = 0;
  return 1;
}
