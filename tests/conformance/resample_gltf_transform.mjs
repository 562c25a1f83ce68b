// glTF-Transform's `resample` as a user runs it: read a glTF/GLB file, resample every animation
// sampler with the given tolerance, write the result. The reduction benchmark
// (benches/reduce.rs) compares clipscope's `reduce` with it at equal measured world error.
//
//   node resample_gltf_transform.mjs IN OUT TOLERANCE [TOLERANCE OUT ...]
//
// Prints one JSON line per output: {"tolerance", "out", "ms"} (the time of the resample and
// write, after reading); the process as a whole is what the benchmark times.
import { NodeIO } from '@gltf-transform/core';
import { resample } from '@gltf-transform/functions';

const [input, ...rest] = process.argv.slice(2);
if (!input || rest.length < 2 || rest.length % 2) {
  console.error('usage: node resample_gltf_transform.mjs IN OUT TOLERANCE [OUT TOLERANCE ...]');
  process.exit(2);
}
const io = new NodeIO();
for (let i = 0; i < rest.length; i += 2) {
  const [out, tolerance] = [rest[i], Number(rest[i + 1])];
  const doc = await io.read(input);
  const t0 = performance.now();
  await doc.transform(resample({ tolerance }));
  await io.write(out, doc);
  console.log(JSON.stringify({ tolerance, out, ms: performance.now() - t0 }));
}
