// HAZARD: H06  VARIANT: fixed  OWNER: cuda-lambda-arch-dependent
// EXPECT: the same lambda with 'scale' captured explicitly, as the check's
// message says: both passes capture the same variables and the device
// computes bias * scale = 6.
#include "common.cuh"

#ifdef __CUDA_ARCH__
#define GRID_DEVICE_COMPILE 1
#else
#define GRID_DEVICE_COMPILE 0
#endif

__device__ float result;

template <typename F> __global__ void store(F f) { result = f(); }

void launch(float bias, float scale) {
  auto f = [bias, scale] __device__ () {
    float v = bias;
#if GRID_DEVICE_COMPILE
    v *= scale;
#endif
    return v;
  };
  store<<<1, 1>>>(f);
}

int main() {
  float initial = -1;
  REQUIRE_CUDA(cudaMemcpyToSymbol(result, &initial, sizeof(float)));
  launch(2.0f, 3.0f);
  std::string error = sync_error();
  float observed = -1;
  if (error == "cudaSuccess")
    REQUIRE_CUDA(cudaMemcpyFromSymbol(&observed, result, sizeof(float)));
  bool correct = error == "cudaSuccess" && observed == 6.0f;
  report("cuda-lambda-arch-dependent.derived-macro.fixed", "cudaSuccess, 6",
         error + ", " + std::to_string(observed), correct);
  return correct ? 0 : 1;
}
