// Reductions: a default by-reference capture, and a correct look-alike.
#include "demo/launch.cuh"

void sumBad(const float *in, float *out, int n) {
  demo::launch(n, [&] __device__(int i) { atomicAdd(out, in[i]); });
}

void sumGood(const float *in, float *out, int n) {
  demo::launch(n, [in, out] __device__(int i) { atomicAdd(out, in[i]); });
}

__device__ float twice(float x) {
  // Not an extended lambda: it is inside device code.
  auto f = [&x] { return x * 2; };
  return f();
}
