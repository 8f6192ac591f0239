// HAZARD: H34  VARIANT: buggy  OWNER: cuda-kernel-param-reference-member
// EXPECT: a functor holding 'const float &' to a host local is handed to a
// forall wrapper that launches it in a kernel when a GPU is present; the
// device reads through the host's stack address and fails with
// cudaErrorIllegalAddress. nvcc compiles this silently.
#include "common.cuh"

struct Scale {
  const float &factor;
  float *out;
  __host__ __device__ void operator()(int i) const { out[i] *= factor; }
};

int main() {
  const int n = 1 << 16;
  float *d = nullptr;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemset(d, 0, n * sizeof(float)));
  float factor = 0.5f;
  forall(n, Scale{factor, d});
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-kernel-param-reference-member.launch-wrapper.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
