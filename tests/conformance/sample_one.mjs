// Prints what `clipscope sample FILE --times T1,T2,...` should print, computed by three.js r187.
// Usage: node sample_one.mjs FILE T1,T2,...
// Numbers are written as JSON numbers (f32 values widened to f64); -0 keeps its sign and
// non-finite results are written as the strings "NaN", "Infinity", "-Infinity".

import fs from 'node:fs';
import { parseClips, quiet, sampleClips, toText } from './generate.mjs';

const [file, timesArg] = process.argv.slice(2);
if (!file || timesArg === undefined) {
	console.error('usage: node sample_one.mjs FILE T1,T2,...');
	process.exit(2);
}
const times = timesArg.split(',').map((s) => Number(s.trim()));
const text = fs.readFileSync(file, 'utf8');
const log = [];
const result = quiet(() => sampleClips(parseClips(text), times), log);
for (const line of log) console.error(line);
console.log(toText(result));
