# cmake -DFUZZER=… -DSEEDS=… -DWORK=… -DNAME=… -DSECONDS=N -P run_fuzzer.cmake
set(corpus ${WORK}/fuzz-corpus/${NAME})
set(artifacts ${WORK}/fuzz-artifacts/${NAME})
file(MAKE_DIRECTORY ${corpus} ${artifacts})
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=4096
          -max_len=8192 -print_final_stats=1
          -artifact_prefix=${artifacts}/
          ${corpus} ${SEEDS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); see ${artifacts}")
endif()
