// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a class sets a pointer member to its std::vector member's data()
// in its constructor and a const member function launches a kernel on that
// pointer: nvcc 13 is silent, the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

__global__ void halve(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

class Weights {
public:
  explicit Weights(int n) : values_(n, 1.0f), ptr_(values_.data()), n_(n) {}
  void halve_all() const { halve<<<(n_ + 255) / 256, 256>>>(ptr_, n_); }

private:
  std::vector<float> values_;
  float *ptr_;
  int n_;
};

int main() {
  Weights weights(1 << 16);
  weights.halve_all();
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.member.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
