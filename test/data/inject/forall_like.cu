// Host code in the forall(n, body) idiom of a run-time dispatching wrapper
// (hazard-injection corpus, issue 29).
#include "portable_for.hpp"
#include <cstdio>

int main() {
  const int n = 512;
  float *a = pf::device_alloc<float>(n);
  float *b = pf::device_alloc<float>(n);
  pf::forall(n, PF_LAMBDA(int i) { a[i] = float(i); });
  pf::forall(n, [=] PF_HOST_DEVICE (int i) { b[i] = 2.0f * a[i]; });
  std::printf("%f\n", b[n - 1]);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
