// HAZARD: H30  VARIANT: buggy  OWNER: cuda-static-in-host-device-function
// EXPECT: a __host__ __device__ counter keeps its state in a function-scope
// static. The host calls it three times (host count 3); the kernel's first
// call then returns 1, not 4: the device has a copy of its own that never saw
// the host's calls.
#include "common.cuh"

__host__ __device__ int next_ticket() {
  static int issued = 0;
  return ++issued;
}

__global__ void take_ticket(int *out) { *out = next_ticket(); }

int main() {
  int host_last = 0;
  for (int i = 0; i < 3; ++i)
    host_last = next_ticket();
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, sizeof(int)));
  take_ticket<<<1, 1>>>(d);
  std::string error = sync_error();
  int device_ticket = 0;
  REQUIRE_CUDA(cudaMemcpy(&device_ticket, d, sizeof(int), cudaMemcpyDeviceToHost));
  bool hazard_seen = host_last == 3 && device_ticket == 1;
  report("cuda-static-in-host-device-function.buggy",
         "host count 3, kernel's first ticket 1 (not 4)",
         "host count " + std::to_string(host_last) + ", kernel's ticket " +
             std::to_string(device_ticket) + ", " + error,
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
