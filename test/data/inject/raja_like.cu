// Host code in the RAJA-like idiom (hazard-injection corpus, issue 29).
#include "mini_raja.hpp"
#include <cstdio>

using exec_policy = mr::cuda_exec<256>;

void scale(float *d_x, float alpha, int n) {
  mr::forall<exec_policy>(mr::RangeSegment(0, n), [=] MR_DEVICE (int i) {
    d_x[i] *= alpha;
  });
}

int main() {
  const int n = 1000;
  float *d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(float));
  mr::forall<exec_policy>(mr::RangeSegment(0, n), [=] MR_DEVICE (int i) { d_x[i] = 1.0f; });
  scale(d_x, 2.0f, n);
  cudaDeviceSynchronize();
  cudaFree(d_x);
  std::printf("done\n");
  return 0;
}
