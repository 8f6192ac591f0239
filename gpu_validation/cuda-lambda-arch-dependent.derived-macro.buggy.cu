// HAZARD: H06  VARIANT: buggy  OWNER: cuda-lambda-arch-dependent
// EXPECT: a '[=]' device lambda that reads 'scale' only under '#if
// GRID_DEVICE_COMPILE' (a project macro derived from __CUDA_ARCH__) captures
// 'scale' in the device pass only. nvcc 13's capture-count assertion
// rejects that lambda alone, but not once the file also has an extended
// lambda in another function of the same signature (measured): then it
// compiles without a word, and on the H200 the launch fails with
// cudaErrorInvalidDeviceFunction (the host's closure type has no kernel).
#include "common.cuh"

#ifdef __CUDA_ARCH__
#define GRID_DEVICE_COMPILE 1
#else
#define GRID_DEVICE_COMPILE 0
#endif

__device__ float result;

template <typename F> __global__ void store(F f) { result = f(); }

void launch(float bias, float scale) {
  auto f = [=] __device__ () {
    float v = bias;
#if GRID_DEVICE_COMPILE
    v *= scale;
#endif
    return v;
  };
  store<<<1, 1>>>(f);
}

// Another function of the same signature, correct on its own.
void launch_scaled(float bias, float scale) {
  auto g = [bias, scale] __device__ () { return bias + scale; };
  store<<<1, 1>>>(g);
}

int main() {
  float initial = -1;
  REQUIRE_CUDA(cudaMemcpyToSymbol(result, &initial, sizeof(float)));
  launch(2.0f, 3.0f);
  std::string error = sync_error();
  float observed = -1;
  if (error == "cudaSuccess")
    REQUIRE_CUDA(cudaMemcpyFromSymbol(&observed, result, sizeof(float)));
  // The correct program stores bias * scale = 6.
  bool hazard_seen = error != "cudaSuccess" || observed != 6.0f;
  report("cuda-lambda-arch-dependent.derived-macro.buggy",
         "not (cudaSuccess and 6)", error + ", " + std::to_string(observed),
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
