// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the pointer member holds a device copy of the vector (cudaMalloc,
// cudaMemcpy in the constructor): every weight is halved.
#include "common.cuh"
#include <vector>

__global__ void halve(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

class Weights {
public:
  explicit Weights(int n) : values_(n, 1.0f), n_(n) {
    cudaMalloc(&ptr_, n * sizeof(float));
    cudaMemcpy(ptr_, values_.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  }
  void halve_all() const { halve<<<(n_ + 255) / 256, 256>>>(ptr_, n_); }
  const float *device_data() const { return ptr_; }

private:
  std::vector<float> values_;
  float *ptr_ = nullptr;
  int n_;
};

int main() {
  const int n = 1 << 16;
  Weights weights(n);
  weights.halve_all();
  const float *w = weights.device_data();
  return report_device_values("cuda-host-pointer-in-device-code.member.fixed", w, n, 0.5f);
}
