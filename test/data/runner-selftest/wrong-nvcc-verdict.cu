// Deliberately wrong: nvcc rejects this, but the verdict says it accepts it.
// NVCC: accepted
void f(int k) {
  auto l = [&k] __device__ (int i) { return i * k; };
  (void)l;
}
