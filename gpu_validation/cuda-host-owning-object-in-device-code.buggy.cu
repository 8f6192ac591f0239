// HAZARD: H39  VARIANT: buggy  OWNER: cuda-host-owning-object-in-device-code
// EXPECT: a framework Vector (deriving from std::vector) captured by [=] and
// read through a __host__ __device__ accessor: the device's copy holds the
// host's heap pointer and the kernel faults (cudaErrorLaunchFailure on the
// H200, or cudaErrorIllegalAddress); nvcc warns #20011-D/#20014-D and
// compiles it.
#include "common.cuh"
#include <vector>

template <class T> class Vector : public std::vector<T> {
public:
  using std::vector<T>::vector;
  __host__ __device__ const T *dataPtr() const { return this->data(); }
};

struct BCRec {
  int lo[3], hi[3];
};

__host__ __device__ int low_face(const Vector<BCRec> &bcs, int comp) {
  return bcs.dataPtr()[comp].lo[0];
}

int main() {
  const int n = 1 << 16;
  Vector<BCRec> bcs(n);
  for (int i = 0; i < n; ++i)
    bcs[i] = BCRec{{i, i, i}, {-i, -i, -i}};
  int *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(int)));
  launch(n, [=] __device__ (int comp) { out[comp] = low_face(bcs, comp); });
  std::string error = sync_error();
  // A read through the host heap pointer faults: the H200 reported it as
  // cudaErrorLaunchFailure (an unspecified launch failure), other GPUs and
  // drivers as cudaErrorIllegalAddress.
  bool hazard_seen = error == "cudaErrorIllegalAddress" ||
                     error == "cudaErrorLaunchFailure";
  report("cuda-host-owning-object-in-device-code.buggy",
         "cudaErrorIllegalAddress or cudaErrorLaunchFailure", error,
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
