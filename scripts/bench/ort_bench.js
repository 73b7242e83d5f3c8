// Times ONNX Runtime (onnxruntime-node's CPU library) on one model:
//   node ort_bench.js MODEL.onnx INPUT.npy RUNS WARMUP THREADS OUT.bin
// (INPUT.npy: float32 or int64, the model's first input)
// ORT_OPT_LEVEL chooses the graph optimizations (default 'all'; 'disabled'
// runs the model as written).
// Prints one JSON line {median_ms, min_ms, p90_ms} and writes the first
// output's float32 values to OUT.bin.
const path = require('path');
const ort = require(path.resolve(process.env.ORT_NODE_DIR, 'onnxruntime-node'));
const fs = require('fs');

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.slice(10, 10 + headerLength).toString();
  const int64 = header.includes("'<i8'");
  if (!(int64 || header.includes("'<f4'")) ||
      header.includes("'fortran_order': True"))
    throw new Error(file + ': expected a C-order float32 or int64 array');
  const shape = header.match(/\(([^)]*)\)/)[1].split(',')
                    .filter(s => s.trim()).map(Number);
  const start = bytes.byteOffset + 10 + headerLength;
  const raw = bytes.buffer.slice(start, bytes.byteOffset + bytes.length);
  return int64 ? new ort.Tensor('int64', new BigInt64Array(raw), shape)
               : new ort.Tensor('float32', new Float32Array(raw), shape);
}

(async () => {
  const [model, input, runs, warmup, threads, out] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: process.env.ORT_OPT_LEVEL || 'all',
  });
  const feeds = {[session.inputNames[0]]: readNpy(input)};
  let result;
  for (let i = 0; i < Number(warmup); ++i) result = await session.run(feeds);
  const times = [];
  for (let i = 0; i < Number(runs); ++i) {
    const start = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = q => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(JSON.stringify(
      {median_ms: at(0.5), min_ms: times[0], p90_ms: at(0.9)}));
  const output = result[session.outputNames[0]].data;
  fs.writeFileSync(out, Buffer.from(output.buffer, output.byteOffset,
                                    output.byteLength));
})().catch(e => { console.error(e); process.exit(2); });
