// HAZARD: H06  VARIANT: buggy  OWNER: cuda-lambda-arch-dependent
// EXPECT: an extra extended lambda that only the device pass sees shifts the
// numbering nvcc uses to pair host and device lambdas; nvcc 13 compiles it
// silently, and the host's launch of 'add_four' runs the device-only lambda's
// code (stores 100) or a kernel that was never built.
#include "common.cuh"

__device__ int result;

template <typename F> __global__ void store(F f) { result = f(); }

void launch_add_four() {
#if defined(__CUDA_ARCH__)
  // Seen by the device pass only: it becomes extended lambda #0 there.
  auto device_only = [] __device__ { return 100; };
  store<<<1, 1>>>(device_only);
#endif
  // Lambda #0 for the host pass, #1 for the device pass.
  auto add_four = [] __device__ { return 4; };
  store<<<1, 1>>>(add_four);
}
int main() {
  int initial = -1;
  REQUIRE_CUDA(cudaMemcpyToSymbol(result, &initial, sizeof(int)));
  launch_add_four();
  std::string error = sync_error();
  int observed = -1;
  if (error == "cudaSuccess")
    REQUIRE_CUDA(cudaMemcpyFromSymbol(&observed, result, sizeof(int)));
  // The correct program stores 4; the hazard shows as another value or a
  // launch error.
  bool hazard_seen = error != "cudaSuccess" || observed != 4;
  report("cuda-lambda-arch-dependent.buggy", "not (cudaSuccess and 4)",
         error + ", " + std::to_string(observed), hazard_seen);
  return hazard_seen ? 0 : 1;
}
