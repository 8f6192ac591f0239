namespace N1 {
struct MyStruct {};
template <typename T> void my_function(T);
template <typename T> void two_args(T, int);
} // namespace N1

namespace N2 {
template <typename T> int my_function(T) { return 1; }
template <typename T> void run(T in) { my_function(in); }
template <typename T> void run_qualified(T in) { N2::my_function(in); }
template <typename T> int two_args(T) { return 2; }
template <typename T> void run_two(T in) { two_args(in); }
} // namespace N2

#if CASE == 1
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
#elif CASE == 2
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __device__ { };
  N2::run_qualified(lambda1);
}
#elif CASE == 3
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __host__ __device__ { };
  N2::run(lambda1);
}
#elif CASE == 4
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __device__ { };
  N2::run_two(lambda1);
}
#elif CASE == 5
void bar(int in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
#elif CASE == 6
struct Holder {
  void method(N1::MyStruct in) {
    auto lambda1 = [=] __device__ { };
    N2::run(lambda1);
  }
};
#elif CASE == 7
N1::MyStruct make() {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
  return {};
}
#elif CASE == 8
void bar(const N1::MyStruct *in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
#elif CASE == 9
template <typename T> struct Box {};
void bar(Box<N1::MyStruct> in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
#elif CASE == 10
namespace N3 {
void bar(int in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
template <typename T> void my_function(T);
}
#elif CASE == 11
namespace N1 {
void bar(int in) {
  auto lambda1 = [=] __device__ { };
  N2::run(lambda1);
}
}
#elif CASE == 12
void bar(int in) {
  N1::MyStruct s;
  auto lambda1 = [=] __device__ { (void)s; };
  N2::run(lambda1);
}
#elif CASE == 13
void bar(int in) {
  auto lambda1 = [] __host__ __device__ (N1::MyStruct) { };
  N2::run(lambda1);
}
#elif CASE == 14
void bar(int in) {
  auto lambda1 = [] __device__ (N1::MyStruct) { };
  N2::run(lambda1);
}
#elif CASE == 15
void bar(N1::MyStruct in) {
  using N2::my_function;
  auto lambda1 = [=] __device__ { };
  my_function(lambda1);
}
#elif CASE == 16
template <typename F> struct Wrap { F f; };
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __device__ { };
  Wrap<decltype(lambda1)> w{lambda1};
  N2::run(w);
}
#elif CASE == 17
void bar(N1::MyStruct in) {
  auto lambda1 = [=] __device__ { };
  N2::run(&lambda1);
}
#endif
