// HAZARD: H02  VARIANT: buggy  OWNER: cuda-lambda-this-capture
// EXPECT: '[=]' in a member function captures 'this', a host pointer; the
// kernel dereferences it and fails with cudaErrorIllegalAddress (the GPU has
// no access to host memory without HMM). nvcc compiles this silently.
#include "common.cuh"

struct Scaler {
  float factor = 3.0f;
  void apply(float *data, int n) {
    launch(n, [=] __device__ (int i) { data[i] *= factor; });
  }
};

int main() {
  const int n = 1024;
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  Scaler scaler;
  scaler.apply(d, n);
  std::string error = sync_error();
  bool ok = report("cuda-lambda-this-capture.buggy",
                   "cudaErrorIllegalAddress", error,
                   error == "cudaErrorIllegalAddress");
  return ok ? 0 : 1;
}
