#!/usr/bin/env node
// A reference implementation of the clipscope CLI contract (sample / optimize / trim / validate)
// on top of three.js r187. It exists to check the fixtures and the Rust harness:
//   CLIPSCOPE_CONFORMANCE_BIN=$PWD/tests/conformance/threejs_cli.mjs \
//     cargo test --no-default-features --test formats conformance::
// must pass. It is not part of clipscope.

import fs from 'node:fs';
import * as THREE from 'three';
import { parseClips, quiet, sampleClips, toText } from './generate.mjs';

const args = process.argv.slice(2);
const command = args.shift();
const option = (name) => {
	for (let i = 0; i < args.length; i++) {
		if (args[i] === name) return args[i + 1];
		if (args[i].startsWith(name + '=')) return args[i].slice(name.length + 1);
	}
	return undefined;
};
const file = args.find((a, i) => !a.startsWith('-') && (i === 0 || !['-o', '--times', '--format'].includes(args[i - 1])));

function load() {
	const text = fs.readFileSync(file, 'utf8');
	const single = !Array.isArray(JSON.parse(text));
	const clips = quiet(() => parseClips(text));
	return { clips, single };
}

const integral = (clips) => clips.every((c) => c.tracks.every((t) => Number.isInteger(t.getValueSize())));

try {
	switch (command) {
		case 'sample': {
			const { clips } = load();
			if (!integral(clips)) throw new Error('fractional value size');
			const times = option('--times').split(',').map(Number);
			console.log(toText(quiet(() => sampleClips(clips, times))));
			break;
		}
		case 'optimize':
		case 'trim': {
			const { clips, single } = load();
			if (command === 'optimize' && !integral(clips)) throw new Error('fractional value size');
			const out = quiet(() => clips.map((c) => THREE.AnimationClip.toJSON(c[command]())));
			fs.writeFileSync(option('-o'), toText(single ? out[0] : out) + '\n');
			break;
		}
		case 'validate': {
			let problems = [];
			let code = 0;
			try {
				const { clips } = load();
				clips.forEach((c, i) => {
					if (!quiet(() => c.validate())) problems.push({ severity: 'error', code: 'invalid', clip: i, track: null, key: null, message: 'validate() is false' });
				});
				code = problems.length ? 1 : 0;
			} catch (e) {
				problems = [{ severity: 'error', code: 'parse', clip: null, track: null, key: null, message: e.message }];
				code = 2;
			}
			console.log(JSON.stringify({ files: [{ path: file, format: 'threejs', ok: code === 0, problems }] }));
			process.exit(code);
		}
		default:
			console.error('unknown command ' + command);
			process.exit(2);
	}
} catch (e) {
	console.error(e.message);
	process.exit(2);
}
