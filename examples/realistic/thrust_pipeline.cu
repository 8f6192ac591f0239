// Correct, idiomatic thrust code with extended lambdas: no cuda-* check may
// fire on it. Also a benchmark input (thrust-heavy).
// NVCC: accepted
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/execution_policy.h>
#include <cstdio>

struct Particle {
  float x, y, mass;
};

float total_kinetic_energy(const thrust::device_vector<float> &vx,
                           const thrust::device_vector<float> &mass) {
  auto energy = [] __device__ (float v, float m) { return 0.5f * m * v * v; };
  thrust::device_vector<float> e(vx.size());
  thrust::transform(vx.begin(), vx.end(), mass.begin(), e.begin(), energy);
  return thrust::reduce(e.begin(), e.end(), 0.0f, thrust::plus<float>());
}

void sort_by_distance(thrust::device_vector<Particle> &particles, float cx,
                      float cy) {
  thrust::device_vector<float> keys(particles.size());
  thrust::transform(particles.begin(), particles.end(), keys.begin(),
                    [cx, cy] __device__ (const Particle &p) {
                      float dx = p.x - cx, dy = p.y - cy;
                      return dx * dx + dy * dy;
                    });
  thrust::sort_by_key(keys.begin(), keys.end(), particles.begin());
}

int count_above(const thrust::device_vector<int> &values, int threshold) {
  auto above = [threshold] __host__ __device__ (int v) -> int {
    return v > threshold ? 1 : 0;
  };
  auto first = thrust::make_transform_iterator(values.begin(), above);
  auto last = thrust::make_transform_iterator(values.end(), above);
  return thrust::reduce(first, last);
}

void fill_squares(int n, int *out) {
  thrust::for_each(thrust::device, thrust::counting_iterator<int>(0),
                   thrust::counting_iterator<int>(n),
                   [out] __device__ (int i) { out[i] = i * i; });
}

class Histogram {
public:
  explicit Histogram(int bins) : bins_(bins), counts_(bins) {}

  void add(const thrust::device_vector<float> &samples, float lo, float hi) {
    // Members are copied into locals before the device lambda captures them.
    int bins = bins_;
    int *counts = thrust::raw_pointer_cast(counts_.data());
    float scale = bins / (hi - lo);
    thrust::for_each(samples.begin(), samples.end(),
                     [=] __device__ (float s) {
                       int b = static_cast<int>((s - lo) * scale);
                       b = b < 0 ? 0 : (b >= bins ? bins - 1 : b);
                       atomicAdd(counts + b, 1);
                     });
  }

  int total() const { return thrust::reduce(counts_.begin(), counts_.end()); }

private:
  int bins_;
  thrust::device_vector<int> counts_;
};

int main() {
  const int n = 1 << 12;
  thrust::device_vector<float> vx(n, 2.0f), mass(n, 1.0f);
  std::printf("%f\n", total_kinetic_energy(vx, mass));
  thrust::device_vector<Particle> particles(n, Particle{1.0f, 2.0f, 1.0f});
  sort_by_distance(particles, 0.0f, 0.0f);
  thrust::device_vector<int> values(n);
  thrust::sequence(values.begin(), values.end());
  std::printf("%d\n", count_above(values, n / 2));
  fill_squares(n, thrust::raw_pointer_cast(values.data()));
  Histogram h(16);
  h.add(vx, 0.0f, 4.0f);
  std::printf("%d\n", h.total());
}
