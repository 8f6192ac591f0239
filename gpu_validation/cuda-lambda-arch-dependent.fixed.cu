// HAZARD: H06  VARIANT: fixed  OWNER: cuda-lambda-arch-dependent
// EXPECT: with the conditional moved inside the lambda's body, both passes
// see the same lambdas in the same order, and the kernel stores 4.
#include "common.cuh"

__device__ int result;

template <typename F> __global__ void store(F f) { result = f(); }

void launch_add_four() {
  // The conditional moved inside the body: both passes see both lambdas.
  auto device_only = [] __device__ {
#if defined(__CUDA_ARCH__)
    return 100;
#else
    return -100;
#endif
  };
  (void)device_only;
  auto add_four = [] __device__ { return 4; };
  store<<<1, 1>>>(add_four);
}
int main() {
  int initial = -1;
  REQUIRE_CUDA(cudaMemcpyToSymbol(result, &initial, sizeof(int)));
  launch_add_four();
  std::string error = sync_error();
  int observed = -1;
  REQUIRE_CUDA(cudaMemcpyFromSymbol(&observed, result, sizeof(int)));
  bool ok = report("cuda-lambda-arch-dependent.fixed", "cudaSuccess, 4",
                   error + ", " + std::to_string(observed),
                   error == "cudaSuccess" && observed == 4);
  return ok ? 0 : 1;
}
