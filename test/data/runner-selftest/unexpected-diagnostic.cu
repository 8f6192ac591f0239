// Deliberately wrong: a hazard that no annotation expects.
void f(int k) {
  auto l = [&k] __device__ (int i) { return i * k; };
  (void)l;
}
