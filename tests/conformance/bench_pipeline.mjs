// The reference pipeline for `cargo bench --bench threejs_pipeline`: what `clipscope optimize IN -o OUT`
// does, done by three.js r187 in node: JSON.parse + AnimationClip.parse, clip.optimize(), and
// JSON.stringify(AnimationClip.toJSON(clip)) written to OUT.
//
// usage: node bench_pipeline.mjs IN.json OUT.json
import { readFileSync, writeFileSync } from 'node:fs';
import { AnimationClip } from 'three';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
	console.error('usage: node bench_pipeline.mjs IN.json OUT.json');
	process.exit(2);
}
const json = JSON.parse(readFileSync(input, 'utf8'));
const clips = (Array.isArray(json) ? json : [json]).map((c) => AnimationClip.parse(c));
for (const clip of clips) clip.optimize();
const out = clips.map((c) => AnimationClip.toJSON(c));
writeFileSync(output, JSON.stringify(Array.isArray(json) ? out : out[0]));
