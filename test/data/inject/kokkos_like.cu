// Host code in the Kokkos-like idiom (hazard-injection corpus, issue 29).
#include "mini_kokkos.hpp"
#include <cstdio>

struct Axpy {
  float a;
  mk::View<float> x, y;
  MK_INLINE_FUNCTION void operator()(int i) const { y(i) = a * x(i) + y(i); }
};

int main() {
  const int n = 1024;
  mk::View<float> x("x", n), y("y", n);
  mk::parallel_for("init", n, MK_LAMBDA(const int i) {
    x(i) = 1.0f;
    y(i) = 2.0f;
  });
  mk::parallel_for("axpy", n, Axpy{3.0f, x, y});
  mk::fence();
  std::printf("done\n");
  return 0;
}
