//===--- NvccTranslation.cpp - cuda-lambda-tidy -------------------------===//

#include "NvccTranslation.h"
#include "CudaInvocation.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace cuda_lambda_tidy {

namespace {

/// What becomes of one nvcc option.
enum class Kind {
  Drop, ///< code generation, linking, build driving: nothing for a parser
  Keep, ///< the same flag means the same to clang
  Compile,
  DeviceC,
  DeviceW,
  Output,
  PreInclude,
  Define,
  Undefine,
  IncludePath,
  SystemInclude,
  Debug,
  Optimize,
  Std,
  Language,
  ExtendedLambda,
  RelaxedConstexpr,
  Rdc,
  Arch,
  Code,
  GenerateCode,
  Xcompiler,
  OptionsFile,
  DefaultStream,
  DisableWarnings,
  TemplateDepth,
  TemplateBacktraceLimit,
  NoExceptions,
};

struct NvccOption {
  const char *Long;  ///< without dashes, '_' spelled '-'; "" if none
  const char *Short; ///< without the dash; "" if none
  bool TakesValue;
  Kind What;
};

// nvcc 13.0's options (`nvcc --help`), plus the hidden ones build systems
// write (-Xcudafe, -Xfatbin) and -MQ. nvcc accepts each with one or two
// dashes and '_' for '-'.
constexpr NvccOption NvccOptions[] = {
    {"cuda", "cuda", false, Kind::Drop},
    {"cubin", "cubin", false, Kind::Drop},
    {"fatbin", "fatbin", false, Kind::Drop},
    {"ptx", "ptx", false, Kind::Drop},
    {"optix-ir", "optix-ir", false, Kind::Drop},
    {"ltoir", "ltoir", false, Kind::Drop},
    {"preprocess", "E", false, Kind::Drop},
    {"generate-dependencies", "M", false, Kind::Drop},
    {"generate-nonsystem-dependencies", "MM", false, Kind::Drop},
    {"generate-dependencies-with-compile", "MD", false, Kind::Drop},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, Kind::Drop},
    {"dependency-output", "MF", true, Kind::Drop},
    {"generate-dependency-targets", "MP", false, Kind::Drop},
    {"dependency-target-name", "MT", true, Kind::Drop},
    {"", "MQ", true, Kind::Drop},
    {"compile", "c", false, Kind::Compile},
    {"device-c", "dc", false, Kind::DeviceC},
    {"device-w", "dw", false, Kind::DeviceW},
    {"device-link", "dlink", false, Kind::Drop},
    {"link", "link", false, Kind::Drop},
    {"lib", "lib", false, Kind::Drop},
    {"run", "run", false, Kind::Drop},
    {"output-file", "o", true, Kind::Output},
    {"pre-include", "include", true, Kind::PreInclude},
    {"objdir-as-tempdir", "objtemp", false, Kind::Drop},
    {"library", "l", true, Kind::Drop},
    {"define-macro", "D", true, Kind::Define},
    {"undefine-macro", "U", true, Kind::Undefine},
    {"include-path", "I", true, Kind::IncludePath},
    {"system-include", "isystem", true, Kind::SystemInclude},
    {"library-path", "L", true, Kind::Drop},
    {"output-directory", "odir", true, Kind::Drop},
    {"compiler-bindir", "ccbin", true, Kind::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false,
     Kind::Drop},
    {"archiver-binary", "arbin", true, Kind::Drop},
    {"cudart", "cudart", true, Kind::Drop},
    {"cudadevrt", "cudadevrt", true, Kind::Drop},
    {"libdevice-directory", "ldir", true, Kind::Drop},
    {"target-directory", "target-dir", true, Kind::Drop},
    {"use-local-env", "use-local-env", false, Kind::Drop},
    {"force-cl-env-setup", "force-cl-env-setup", false, Kind::Drop},
    {"profile", "pg", false, Kind::Drop},
    {"debug", "g", false, Kind::Debug},
    {"device-debug", "G", false, Kind::Drop},
    {"generate-line-info", "lineinfo", false, Kind::Drop},
    {"optimization-info", "opt-info", true, Kind::Drop},
    {"optimize", "O", true, Kind::Optimize},
    {"Ofast-compile", "Ofc", true, Kind::Drop},
    {"dopt", "dopt", true, Kind::Drop},
    {"dlink-time-opt", "dlto", false, Kind::Drop},
    {"lto", "lto", false, Kind::Drop},
    {"gen-opt-lto", "gen-opt-lto", false, Kind::Drop},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", true,
     Kind::TemplateBacktraceLimit},
    {"ftemplate-depth", "ftemplate-depth", true, Kind::TemplateDepth},
    {"no-exceptions", "noeh", false, Kind::NoExceptions},
    {"shared", "shared", false, Kind::Drop},
    {"x", "x", true, Kind::Language},
    {"std", "std", true, Kind::Std},
    {"no-host-device-initializer-list", "nohdinitlist", false, Kind::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", false, Kind::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false,
     Kind::RelaxedConstexpr},
    {"extended-lambda", "extended-lambda", false, Kind::ExtendedLambda},
    {"expt-extended-lambda", "expt-extended-lambda", false,
     Kind::ExtendedLambda},
    {"machine", "m", true, Kind::Drop},
    {"m64", "m64", false, Kind::Drop},
    {"compiler-options", "Xcompiler", true, Kind::Xcompiler},
    {"linker-options", "Xlinker", true, Kind::Drop},
    {"archive-options", "Xarchive", true, Kind::Drop},
    {"ptxas-options", "Xptxas", true, Kind::Drop},
    {"nvlink-options", "Xnvlink", true, Kind::Drop},
    {"", "Xfatbin", true, Kind::Drop},
    {"", "Xcudafe", true, Kind::Drop},
    {"static-global-template-stub", "static-global-template-stub", true,
     Kind::Drop},
    {"device-entity-has-hidden-visibility",
     "device-entity-has-hidden-visibility", true, Kind::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, Kind::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false,
     Kind::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", false, Kind::Drop},
    {"dont-use-profile", "noprof", false, Kind::Drop},
    {"dryrun", "dryrun", false, Kind::Drop},
    {"verbose", "v", false, Kind::Drop},
    {"threads", "t", true, Kind::Drop},
    {"split-compile", "split-compile", true, Kind::Drop},
    {"split-compile-extended", "split-compile-extended", true, Kind::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, Kind::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", true, Kind::Drop},
    {"keep", "keep", false, Kind::Drop},
    {"keep-dir", "keep-dir", true, Kind::Drop},
    {"save-temps", "save-temps", false, Kind::Drop},
    {"clean-targets", "clean", false, Kind::Drop},
    {"time", "time", true, Kind::Drop},
    {"run-args", "run-args", true, Kind::Drop},
    {"input-drive-prefix", "idp", true, Kind::Drop},
    {"dependency-drive-prefix", "ddp", true, Kind::Drop},
    {"drive-prefix", "dp", true, Kind::Drop},
    {"no-align-double", "no-align-double", false, Kind::Drop},
    {"no-device-link", "nodlink", false, Kind::Drop},
    {"gpu-architecture", "arch", true, Kind::Arch},
    {"gpu-code", "code", true, Kind::Code},
    {"generate-code", "gencode", true, Kind::GenerateCode},
    {"relocatable-device-code", "rdc", true, Kind::Rdc},
    {"entries", "e", true, Kind::Drop},
    {"maxrregcount", "maxrregcount", true, Kind::Drop},
    {"use-fast-math", "use-fast-math", false, Kind::Drop},
    {"ftz", "ftz", true, Kind::Drop},
    {"prec-div", "prec-div", true, Kind::Drop},
    {"prec-sqrt", "prec-sqrt", true, Kind::Drop},
    {"fmad", "fmad", true, Kind::Drop},
    {"extra-device-vectorization", "extra-device-vectorization", false,
     Kind::Drop},
    {"default-stream", "default-stream", true, Kind::DefaultStream},
    {"disable-warnings", "w", false, Kind::DisableWarnings},
    {"keep-device-functions", "keep-device-functions", false, Kind::Drop},
    {"source-in-ptx", "src-in-ptx", false, Kind::Drop},
    {"restrict", "restrict", false, Kind::Drop},
    {"Wreorder", "Wreorder", false, Kind::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, Kind::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, Kind::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false,
     Kind::Drop},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false,
     Kind::Keep},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false,
     Kind::Drop},
    // nvcc's -Werror takes only nvcc's own kinds (cross-execution-space-call,
    // reorder, ...); a host -Werror=x must come through -Xcompiler.
    {"Werror", "Werror", true, Kind::Drop},
    {"resource-usage", "res-usage", false, Kind::Drop},
    {"extensible-whole-program", "ewp", false, Kind::Drop},
    {"no-compress", "no-compress", false, Kind::Drop},
    {"qpp-config", "qpp-config", false, Kind::Drop},
    {"compile-as-tools-patch", "astoolspatch", false, Kind::Drop},
    {"list-gpu-code", "code-ls", false, Kind::Drop},
    {"list-gpu-arch", "arch-ls", false, Kind::Drop},
    {"display-error-number", "err-no", false, Kind::Drop},
    {"no-display-error-number", "no-err-no", false, Kind::Drop},
    {"diag-error", "diag-error", true, Kind::Drop},
    {"diag-suppress", "diag-suppress", true, Kind::Drop},
    {"diag-warn", "diag-warn", true, Kind::Drop},
    {"host-linker-script", "hls", true, Kind::Drop},
    {"augment-host-linker-script", "aug-hls", false, Kind::Drop},
    {"relocatable-link", "r", false, Kind::Drop},
    {"brief-diagnostics", "brief-diag", true, Kind::Drop},
    {"jump-table-density", "jtd", true, Kind::Drop},
    {"relocatable-ptx", "reloc-ptx", false, Kind::Drop},
    {"device-stack-protector", "device-stack-protector", true, Kind::Drop},
    {"compress-mode", "compress-mode", true, Kind::Drop},
    {"frandom-seed", "frandom-seed", true, Kind::Drop},
    {"sanitize", "sanitize", true, Kind::Drop},
    {"jobserver", "jobserver", false, Kind::Drop},
    {"help", "h", false, Kind::Drop},
    {"version", "V", false, Kind::Drop},
    {"options-file", "optf", true, Kind::OptionsFile},
};

const llvm::StringMap<const NvccOption *> &optionsByName() {
  static const llvm::StringMap<const NvccOption *> Map = [] {
    llvm::StringMap<const NvccOption *> M;
    for (const NvccOption &O : NvccOptions) {
      if (*O.Long)
        M[O.Long] = &O;
      if (*O.Short)
        M[O.Short] = &O;
    }
    return M;
  }();
  return Map;
}

/// The single-letter options whose value may be attached: `-DX`, `-I/p`.
const NvccOption *attachedValueOption(llvm::StringRef Name) {
  if (Name.empty() || !llvm::StringRef("DUILlO").contains(Name.front()))
    return nullptr;
  return optionsByName().lookup(Name.take_front(1));
}

std::string normalizedName(llvm::StringRef Name) {
  std::string Result = Name.str();
  std::replace(Result.begin(), Result.end(), '_', '-');
  return Result;
}

/// How clang's driver reads the words \p Flag: the number of values still
/// missing (a flag such as `-isystem` wants one more word), or -1 when it is
/// not one clang flag with its values (unknown, an input, several flags).
int clangDriverFlagMissing(llvm::ArrayRef<std::string> Flag) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Argv;
  for (const std::string &Word : Flag)
    Argv.push_back(Word.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed =
      Table.ParseArgs(Argv, MissingIndex, MissingCount,
                      llvm::opt::Visibility(clang::options::ClangOption));
  unsigned Options = 0;
  for (const llvm::opt::Arg *A : Parsed) {
    if (A->getOption().getID() == clang::options::OPT_UNKNOWN ||
        A->getOption().getID() == clang::options::OPT_INPUT)
      return -1;
    ++Options;
  }
  if (MissingCount != 0)
    return Options == 0 ? static_cast<int>(MissingCount) : -1;
  return Options == 1 ? 0 : -1;
}

bool isClangDriverFlag(llvm::StringRef Flag) {
  return clangDriverFlagMissing({Flag.str()}) == 0;
}

llvm::SmallVector<llvm::StringRef, 4> splitList(llvm::StringRef Value) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
  return Parts;
}

/// The number in "sm_80", "sm_90a": 80, 90.
unsigned archNumber(llvm::StringRef Arch) {
  unsigned N = 0;
  Arch.drop_front(3).consumeInteger(10, N);
  return N;
}

class Translator {
public:
  Translator(llvm::StringRef Directory, const NvccEnvironment &Env)
      : Directory(Directory), Env(Env) {}

  void run(llvm::ArrayRef<std::string> Args, int Depth);
  TranslatedCommand finish(llvm::StringRef Nvcc);

private:
  void apply(const NvccOption &O, llvm::StringRef Value);
  void unknown(llvm::StringRef Flag);
  void hostCompilerFlags(llvm::ArrayRef<std::string> Words);
  void expandOptionsFile(llvm::StringRef File, int Depth);

  llvm::StringRef Directory;
  const NvccEnvironment &Env;
  std::vector<std::string> Body; ///< translated flags and inputs, in order
  std::vector<std::string> Inputs;
  std::vector<std::string> ArchCandidates, CodeCandidates;
  std::string Language; ///< nvcc's -x value
  bool ExtendedLambda = false, RelaxedConstexpr = false, Rdc = false;
  llvm::StringSet<> SeenUnknown;
  TranslatedCommand Result;
  int PendingDepth = 0;
  /// Options files read for this command. Nesting alone is capped at 8, but
  /// a file that names itself k times would still be read k^8 times (the
  /// fuzzer found that hang), so the total is capped too.
  int OptionsFilesRead = 0;
};

void Translator::unknown(llvm::StringRef Flag) {
  // nvcc forwards what it does not know to the host compiler (with
  // -forward-unknown-to-host-compiler); clang is the host compiler here.
  if (isClangDriverFlag(Flag)) {
    Body.push_back(Flag.str());
    return;
  }
  if (SeenUnknown.insert(Flag).second)
    Result.UnknownFlags.push_back(Flag.str());
}

/// Whether the host compiler flag \p Flag turns warnings into errors. The
/// host compiler's warnings are not clang's: CCCL's own tests build with
/// `-Xcompiler=-Werror`, and clang, parsing what gcc compiled cleanly, would
/// stop at its first warning (and make every finding an error).
bool isWarningsAsErrors(llvm::StringRef Flag) {
  return Flag == "-Werror" || Flag.starts_with("-Werror=") ||
         Flag == "-pedantic-errors" || Flag == "-Wfatal-errors";
}

void Translator::hostCompilerFlags(llvm::ArrayRef<std::string> Words) {
  // The host compiler reads these words as its own command line, so a flag
  // that takes its value as the next word (`-isystem,/p`, `-include,f.h`)
  // takes it here too.
  for (size_t I = 0; I < Words.size(); ++I) {
    if (isWarningsAsErrors(Words[I]))
      continue;
    int Missing = clangDriverFlagMissing({Words[I]});
    if (Missing > 0 && I + static_cast<size_t>(Missing) < Words.size()) {
      llvm::ArrayRef<std::string> Flag =
          llvm::ArrayRef(Words).slice(I, Missing + 1);
      if (clangDriverFlagMissing(Flag) == 0) {
        Body.insert(Body.end(), Flag.begin(), Flag.end());
        I += Missing;
        continue;
      }
    }
    unknown(Words[I]);
  }
}

void Translator::expandOptionsFile(llvm::StringRef File, int Depth) {
  llvm::SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path) && !Directory.empty()) {
    Path = Directory;
    llvm::sys::path::append(Path, File);
  }
  std::optional<std::string> Text = Env.ReadFile ? Env.ReadFile(Path.str())
                                                 : std::nullopt;
  if (!Text) {
    Result.Problems.push_back("cannot read nvcc options file '" +
                              Path.str().str() + "'");
    return;
  }
  if (Depth >= 8) {
    Result.Problems.push_back("nvcc options files nested too deep at '" +
                              Path.str().str() + "'");
    return;
  }
  if (++OptionsFilesRead > 64) {
    if (OptionsFilesRead == 65)
      Result.Problems.push_back("more than 64 nvcc options files in one "
                                "command; ignoring '" +
                                Path.str().str() + "' and the rest");
    return;
  }
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine(*Text, Saver, Tokens);
  std::vector<std::string> Args(Tokens.begin(), Tokens.end());
  run(Args, Depth + 1);
}

void Translator::apply(const NvccOption &O, llvm::StringRef Value) {
  switch (O.What) {
  case Kind::Drop:
    return;
  case Kind::Keep:
    Body.push_back(std::string("-") + O.Short);
    return;
  case Kind::Compile:
  case Kind::DeviceW:
    Body.push_back("-c");
    return;
  case Kind::DeviceC:
    Body.push_back("-c");
    Rdc = true;
    return;
  case Kind::Output:
    Body.insert(Body.end(), {"-o", Value.str()});
    return;
  case Kind::PreInclude:
    for (llvm::StringRef V : splitList(Value))
      Body.insert(Body.end(), {"-include", V.str()});
    return;
  // nvcc splits -D and -U values at commas: -DA=1,B=2 defines A and B.
  case Kind::Define:
    for (llvm::StringRef V : splitList(Value))
      Body.push_back("-D" + V.str());
    return;
  case Kind::Undefine:
    for (llvm::StringRef V : splitList(Value))
      Body.push_back("-U" + V.str());
    return;
  case Kind::IncludePath:
    for (llvm::StringRef V : splitList(Value))
      Body.push_back("-I" + V.str());
    return;
  case Kind::SystemInclude:
    for (llvm::StringRef V : splitList(Value))
      Body.insert(Body.end(), {"-isystem", V.str()});
    return;
  case Kind::Debug:
    Body.push_back("-g");
    return;
  case Kind::Optimize:
    Body.push_back("-O" + Value.str());
    return;
  case Kind::Std:
    Body.push_back("-std=" + Value.str());
    return;
  case Kind::Language:
    Language = Value.str();
    return;
  case Kind::ExtendedLambda:
    ExtendedLambda = true;
    return;
  case Kind::RelaxedConstexpr:
    RelaxedConstexpr = true;
    return;
  case Kind::Rdc:
    Rdc = Value.equals_insensitive("true");
    return;
  case Kind::Arch:
    for (llvm::StringRef V : splitList(Value))
      ArchCandidates.push_back(V.str());
    return;
  case Kind::Code:
    for (llvm::StringRef V : splitList(Value.trim("[]\"'")))
      CodeCandidates.push_back(V.trim("[]\"' ").str());
    return;
  case Kind::GenerateCode: {
    // arch=compute_80,code=[compute_80,sm_80]  or  arch=...,code=sm_80
    llvm::StringRef Rest = Value;
    for (size_t At; (At = Rest.find("arch=")) != llvm::StringRef::npos;) {
      Rest = Rest.drop_front(At + 5);
      ArchCandidates.push_back(
          Rest.take_until([](char C) { return C == ',' || C == ' '; })
              .trim("\"'")
              .str());
    }
    Rest = Value;
    for (size_t At; (At = Rest.find("code=")) != llvm::StringRef::npos;) {
      Rest = Rest.drop_front(At + 5);
      llvm::StringRef Codes;
      if (Rest.consume_front("[") || Rest.consume_front("\"")) {
        Codes = Rest.take_until([](char C) { return C == ']' || C == '"'; });
      } else {
        Codes = Rest.take_until([](char C) { return C == ','; });
      }
      for (llvm::StringRef V : splitList(Codes))
        CodeCandidates.push_back(V.trim("\"' ").str());
    }
    return;
  }
  case Kind::Xcompiler:
    // Host compiler flags, split at commas and, as the host compiler's
    // command line, at spaces ("-Xcompiler '-O2 -fPIC'"). clang is the host
    // compiler here: those it does not know (MSVC's, some of GCC's) go the
    // way of unknown flags.
    {
      std::vector<std::string> Words;
      for (llvm::StringRef V : splitList(Value)) {
        llvm::BumpPtrAllocator Alloc;
        llvm::StringSaver Saver(Alloc);
        llvm::SmallVector<const char *, 4> Tokens;
        llvm::cl::TokenizeGNUCommandLine(V, Saver, Tokens);
        Words.insert(Words.end(), Tokens.begin(), Tokens.end());
      }
      hostCompilerFlags(Words);
    }
    return;
  case Kind::OptionsFile:
    for (llvm::StringRef V : splitList(Value))
      expandOptionsFile(V, PendingDepth);
    return;
  case Kind::DefaultStream:
    Body.push_back(std::string("-fgpu-default-stream=") +
                   (Value == "per-thread" ? "per-thread" : "legacy"));
    return;
  case Kind::DisableWarnings:
    Body.push_back("-w");
    return;
  case Kind::TemplateDepth:
    Body.push_back("-ftemplate-depth=" + Value.str());
    return;
  case Kind::TemplateBacktraceLimit:
    Body.push_back("-ftemplate-backtrace-limit=" + Value.str());
    return;
  case Kind::NoExceptions:
    Body.push_back("-fno-exceptions");
    return;
  }
}

void Translator::run(llvm::ArrayRef<std::string> Args, int Depth) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.size() < 2 || !Arg.starts_with("-")) {
      Body.push_back(Arg.str());
      Inputs.push_back(Arg.str());
      continue;
    }
    llvm::StringRef Spelled = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Name, Attached] = Spelled.split('=');
    bool HasAttached = Spelled.contains('=');
    const NvccOption *O = optionsByName().lookup(normalizedName(Name));
    if (!O) {
      if ((O = attachedValueOption(Spelled)) && !Arg.starts_with("--")) {
        PendingDepth = Depth;
        apply(*O, Spelled.drop_front(1));
      } else if (Spelled.starts_with("M")) {
        // Dependency-file flags of the host compiler, -MQ and friends.
      } else {
        unknown(Arg);
      }
      continue;
    }
    llvm::StringRef Value;
    if (O->TakesValue) {
      if (HasAttached)
        Value = Attached;
      else if (I + 1 < Args.size())
        Value = Args[++I];
    } else if (HasAttached) {
      unknown(Arg);
      continue;
    }
    PendingDepth = Depth;
    apply(*O, Value);
  }
}

TranslatedCommand Translator::finish(llvm::StringRef Nvcc) {
  Result.ExtendedLambda = ExtendedLambda;
  Result.Inputs = Inputs;
  if (Language == "cuda") // clang's spelling, which nvcc itself rejects
    Language = "cu";
  if (!Language.empty())
    Result.IsCuda = Language == "cu";
  else
    Result.IsCuda = llvm::any_of(Inputs, [](const std::string &In) {
      return llvm::sys::path::extension(In) == ".cu";
    });

  // The lowest architecture; a virtual one (arch=) decides __CUDA_ARCH__.
  std::vector<std::string> &Candidates =
      ArchCandidates.empty() ? CodeCandidates : ArchCandidates;
  for (const std::string &Candidate : Candidates) {
    std::string Arch = gpuArchOf(Candidate);
    if (Arch.empty())
      continue;
    if (Result.GpuArch.empty() ||
        archNumber(Arch) < archNumber(Result.GpuArch) ||
        (archNumber(Arch) == archNumber(Result.GpuArch) &&
         Arch.size() < Result.GpuArch.size()))
      Result.GpuArch = Arch;
  }

  std::vector<std::string> Translated;
  if (!Language.empty())
    Translated.insert(Translated.end(),
                      {"-x", Language == "cu" ? std::string("cuda")
                                              : Language});
  Translated.insert(Translated.end(), Body.begin(), Body.end());
  if (Result.IsCuda) {
    if (Rdc)
      Translated.push_back("-fgpu-rdc");
    if (!Result.GpuArch.empty())
      Translated.push_back("--cuda-gpu-arch=" + Result.GpuArch);
  }
  Translated.push_back(std::string("-D") + FromNvccMacro + "=1");
  if (ExtendedLambda)
    Translated.push_back("-D__CUDACC_EXTENDED_LAMBDA__=1");
  if (RelaxedConstexpr)
    Translated.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
  // nvcc defines it with -rdc=true; clang's -fgpu-rdc only __CLANG_RDC__.
  // cub keys its device-side (CDP) paths on it.
  if (Rdc && Result.IsCuda)
    Translated.push_back("-D__CUDACC_RDC__=1");

  Result.Arguments = {Env.ClangDriver};
  if (Result.IsCuda) {
    std::optional<CudaToolkit> Toolkit =
        Env.ToolkitOf ? Env.ToolkitOf(Nvcc) : std::nullopt;
    if (Toolkit) {
      std::vector<std::string> Flags =
          cudaParseFlags(*Toolkit, Translated, Env.NvccCompatHeader);
      Result.Arguments.insert(Result.Arguments.end(), Flags.begin(),
                              Flags.end());
    } else if (!Env.FallbackDir.empty()) {
      std::vector<std::string> Flags =
          fallbackParseFlags(Env.FallbackDir, Translated, Env.NvccCompatHeader);
      Result.Arguments.insert(Result.Arguments.end(), Flags.begin(),
                              Flags.end());
      Result.UsesFallback = true;
    } else {
      Result.Problems.push_back("no CUDA toolkit found for '" + Nvcc.str() +
                                "'");
      if (Language.empty())
        Result.Arguments.insert(Result.Arguments.end(), {"-x", "cuda"});
    }
  }
  Result.Arguments.insert(Result.Arguments.end(), Translated.begin(),
                          Translated.end());
  return std::move(Result);
}

bool isNvcc(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

/// Kokkos's `nvcc_wrapper`: a script with a host compiler's command line
/// that runs nvcc (CMAKE_CXX_COMPILER for Kokkos, Trilinos and their users).
bool isNvccWrapper(llvm::StringRef Program) {
  return llvm::sys::path::filename(Program) == "nvcc_wrapper";
}

bool isLauncher(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  return Name == "ccache" || Name == "sccache" || Name == "buildcache";
}

bool isNvccOrWrapper(llvm::StringRef Program) {
  return isNvcc(Program) || isNvccWrapper(Program);
}

} // namespace

bool isNvccProgram(llvm::StringRef Program) {
  return isNvccOrWrapper(Program);
}

bool isNvccCommand(llvm::ArrayRef<std::string> Command) {
  if (Command.empty())
    return false;
  if (isNvccOrWrapper(Command[0]))
    return true;
  return Command.size() > 1 && isLauncher(Command[0]) &&
         isNvccOrWrapper(Command[1]);
}

std::vector<std::string>
nvccCommandOfWrapper(llvm::ArrayRef<std::string> Args) {
  // What nvcc_wrapper does with each word of its command line, in its order
  // of cases: sources are compiled as CUDA (`-x cu`), nvcc's own flags go to
  // nvcc, flags both understand go to both, and the rest to the host
  // compiler, through one -Xcompiler list.
  std::vector<std::string> Cuda, Shared, Host, Sources, Output;
  std::string Optimize, Std;
  bool Compile = false;
  auto Next = [&](size_t &I) -> std::string {
    return I + 1 < Args.size() ? Args[++I] : std::string();
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    llvm::StringRef Ext = llvm::sys::path::extension(Arg);
    if (Arg == "--show" || Arg == "--nvcc-wrapper-show" ||
        Arg == "--host-only" || Arg == "--host-version" ||
        Arg == "--replace-pragma-ident" ||
        Arg == "--remove-duplicate-link-files")
      continue;
    if (!Arg.starts_with("-") &&
        llvm::is_contained({".cpp", ".cxx", ".cc", ".C", ".c++", ".cu"}, Ext)) {
      Sources.push_back(Arg.str());
    } else if (Arg.starts_with("-O")) {
      Optimize = Arg == "-O" ? "-O2" : Arg.str(); // nvcc takes one, the last
    } else if (Arg.starts_with("-D") || Arg.starts_with("-I") ||
               Arg.starts_with("-L") || Arg.starts_with("-l") ||
               llvm::is_contained({"-g", "-E", "-M", "-shared", "-w"}, Arg)) {
      Shared.push_back(Arg.str());
    } else if (Arg == "-c") {
      Compile = true;
    } else if (Arg == "-o") {
      Output = {"-o", Next(I)};
    } else if (Arg == "-MD" || Arg == "-MMD") {
    } else if (Arg == "-MF" || Arg == "-MT") {
      Next(I);
    } else if (Arg.starts_with("-std=") || Arg.starts_with("--std=")) {
      llvm::StringRef Value = Arg.split('=').second;
      if (Value == "c++98")
        continue;
      std::string Standard =
          Value.consume_front("gnu") ? "c" + Value.str() : Value.str();
      if (llvm::is_contained({"c++1y", "c++1z", "c++2a"}, Standard))
        Standard = "c++14"; // what nvcc_wrapper falls back to
      Std = "-std=" + Standard;
    } else if (llvm::is_contained(
                   {"-pedantic", "-Wpedantic", "-ansi", "-Woverloaded-virtual"},
                   Arg)) {
    } else if (Arg == "-Xcompiler") {
      std::string Value = Next(I);
      if (Value == "-o")
        Output = {"-o", Next(I)};
      else
        Host.push_back(Value);
    } else if (Arg == "-x") {
      Next(I); // the sources are CUDA whatever the host language
    } else if (Arg == "-+") {
    } else if (Arg == "-Xlinker") {
      Next(I);
    } else if (Arg.starts_with("-Wl,") || Arg.starts_with("@") ||
               llvm::is_contained({".a", ".so", ".o", ".obj", ".dylib"}, Ext) ||
               Arg.contains(".so.")) {
    } else {
      // nvcc's own flags (whichever of them the script's version lists:
      // a build that works sent each to nvcc), with their values.
      llvm::StringRef Spelled = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
      auto [Name, Attached] = Spelled.split('=');
      const NvccOption *O =
          Arg.starts_with("-") ? optionsByName().lookup(normalizedName(Name))
                               : nullptr;
      if (O && O->What != Kind::SystemInclude && O->What != Kind::Language) {
        Cuda.push_back(Arg.str());
        if (O->TakesValue && !Spelled.contains('='))
          Cuda.push_back(Next(I));
      } else {
        Host.push_back(Arg.str());
      }
    }
  }
  std::vector<std::string> Command = {"nvcc"};
  Command.insert(Command.end(), Cuda.begin(), Cuda.end());
  if (!Optimize.empty())
    Command.push_back(Optimize);
  if (!Std.empty())
    Command.push_back(Std);
  Command.insert(Command.end(), Shared.begin(), Shared.end());
  if (!Host.empty())
    Command.insert(Command.end(), {"-Xcompiler", llvm::join(Host, ",")});
  if (!Sources.empty()) {
    Command.insert(Command.end(), {"-x", "cu"});
    Command.insert(Command.end(), Sources.begin(), Sources.end());
  }
  if (Compile)
    Command.push_back("-c");
  Command.insert(Command.end(), Output.begin(), Output.end());
  return Command;
}

std::string gpuArchOf(llvm::StringRef Value) {
  Value = Value.trim("\"' ");
  if (!Value.consume_front("sm_") && !Value.consume_front("compute_") &&
      !Value.consume_front("lto_"))
    return "";
  if (Value.empty() || !llvm::isDigit(Value.front()) ||
      !llvm::all_of(Value, [](char C) { return llvm::isAlnum(C); }))
    return "";
  return "sm_" + Value.str();
}

TranslatedCommand translateNvccCommand(llvm::ArrayRef<std::string> Command,
                                       llvm::StringRef Directory,
                                       const NvccEnvironment &Env) {
  if (Command.size() > 1 && isLauncher(Command[0]) &&
      isNvccOrWrapper(Command[1]))
    Command = Command.drop_front();
  std::vector<std::string> FromWrapper;
  if (!Command.empty() && isNvccWrapper(Command[0])) {
    FromWrapper = nvccCommandOfWrapper(Command.drop_front());
    Command = FromWrapper;
  }
  Translator T(Directory, Env);
  if (!Command.empty())
    T.run(Command.drop_front(), 0);
  return T.finish(Command.empty() ? "nvcc" : llvm::StringRef(Command[0]));
}

std::vector<std::string> stripPluginFlags(std::vector<std::string> &Args) {
  std::vector<std::string> Removed, Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.starts_with("-fplugin=") || Arg.starts_with("-fpass-plugin=") ||
        Arg.starts_with("-fplugin-arg-")) {
      Removed.push_back(Arg.str());
      continue;
    }
    if (Arg == "-Xclang" && I + 1 < Args.size()) {
      llvm::StringRef Next = Args[I + 1];
      if (Next == "-load" || Next == "-plugin" || Next == "-add-plugin" ||
          Next.starts_with("-plugin-arg-") || Next.starts_with("-load=")) {
        std::string Flag = "-Xclang " + Next.str();
        I += 1;
        // The value comes as a second -Xclang.
        if (!Next.contains('=') && I + 2 < Args.size() &&
            Args[I + 1] == "-Xclang") {
          Flag += " -Xclang " + Args[I + 2];
          I += 2;
        }
        Removed.push_back(Flag);
        continue;
      }
    }
    Kept.push_back(Args[I]);
  }
  Args = std::move(Kept);
  return Removed;
}

} // namespace cuda_lambda_tidy
