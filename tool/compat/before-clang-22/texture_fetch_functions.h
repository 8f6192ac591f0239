// cuda-lambda-tidy: CUDA 13 removed texture references and this header with
// them; the CUDA runtime wrapper of clang 21 and older still includes it
// (clang 22's does only below CUDA 13). Empty, as CUDA 13 has nothing to
// declare here: a use of the removed tex1Dfetch(texture<...>) stays an
// error. On the include path of the plugin in clang-tidy-19 only
// (docs/integration.md, "clang-tidy 19").
