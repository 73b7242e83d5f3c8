#!/bin/sh
# aicc-run under NVIDIA's compute-sanitizer, for the conformance runner's
# --aicc-run (scripts/device/gpu-run.sh sanitize): runs the bundle under
# memcheck, then under racecheck, each with its log in
# $AICC_SANITIZER_LOGS. Exits with aicc-run's status when both tools find
# nothing, with 86 when either reports an error (the runner then counts the
# test as failed, and the logs say why).
set -u
aicc_run=${AICC_RUN:?AICC_RUN names the aicc-run to check}
logs=${AICC_SANITIZER_LOGS:?AICC_SANITIZER_LOGS names a folder}
name=$(basename "$1" .bin)
status=0
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 86 \
    --log-file "$logs/$name.$tool.log" "$aicc_run" "$@"
  result=$?
  if [ $result -eq 86 ]; then
    status=86
  elif [ $status -eq 0 ]; then
    status=$result
  fi
done
exit $status
