// HAZARD: H39  VARIANT: buggy  OWNER: cuda-host-owning-object-in-device-code
// EXPECT: a member function launches a [*this] lambda of a class holding a
// framework Vector (a std::vector): the closure's copy of the object holds
// the host's heap pointer, read on the device through a __host__ __device__
// accessor, and the kernel faults (cudaErrorIllegalAddress or
// cudaErrorLaunchFailure); nvcc warns #20011-D/#20014-D and compiles it.
#include "common.cuh"
#include <vector>

template <class T> class Vector : public std::vector<T> {
public:
  using std::vector<T>::vector;
  __host__ __device__ const T *dataPtr() const { return this->data(); }
};

class Grid {
public:
  explicit Grid(int n) : cells_(n, 2.0f), n_(n) {}
  void copy_to(float *d) const {
    launch(n_, [*this, d] __device__ (int i) { d[i] = cells_.dataPtr()[i]; });
  }

private:
  Vector<float> cells_;
  int n_;
};

int main() {
  const int n = 1 << 16;
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  Grid grid(n);
  grid.copy_to(out);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress" ||
                     error == "cudaErrorLaunchFailure";
  report("cuda-host-owning-object-in-device-code.star-this.buggy",
         "cudaErrorIllegalAddress or cudaErrorLaunchFailure", error,
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
