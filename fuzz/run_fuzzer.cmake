# cmake -DFUZZER=… -DSEEDS=… -DWORK=… -DSECONDS=N -P run_fuzzer.cmake
file(MAKE_DIRECTORY ${WORK}/fuzz-corpus ${WORK}/fuzz-artifacts)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=4096
          -max_len=4096 -print_final_stats=1
          -artifact_prefix=${WORK}/fuzz-artifacts/
          ${WORK}/fuzz-corpus ${SEEDS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); see ${WORK}/fuzz-artifacts")
endif()
