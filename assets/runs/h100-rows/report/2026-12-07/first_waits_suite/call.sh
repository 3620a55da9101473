# What ran, two calls on GPU-586f0232 (2026-12-07 14:33 UTC; the second warm, about 14:43), the pack
# of first_waits_catalog.patch (scripts/experiments/) on 8288313, PACK_RENDER=0, .gpupack carried:
scripts/gpu-unpack.sh && mkdir -p $OUT && { nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u; } > $OUT/device.txt
REDLAB_REQUIRE_GPU=1 timeout 570 .gpu/run.sh .gpu/bin/gpu_test > $OUT/gpu_test.txt 2>&1   # cut at 570 s, after MatrixTraces
# the second call: the tests the first had not reached, then three sanitizers over the first-waits test
REDLAB_REQUIRE_GPU=1 timeout 230 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='-Gpu.TracesEqual*:Gpu.NarrowTraces*:Gpu.HalfAndBf16Stall*:Gpu.LadderRuns*:Gpu.NarrowTimedSums*:Gpu.NarrowMatrixTraces*:Gpu.MatrixTraces*' > $OUT/gpu_test_rest.txt 2>&1
for tool in memcheck racecheck synccheck; do
  REDLAB_REQUIRE_GPU=1 timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*' > $OUT/san_$tool.txt 2>&1
done
