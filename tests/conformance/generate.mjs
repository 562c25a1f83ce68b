// Generates the three.js r187 conformance fixtures in ../fixtures/conformance.
//
// Every input file is made from a seeded PRNG (mulberry32), so running this script again gives
// byte-identical fixtures. For each input `caseNNN.input.json` it writes `caseNNN.expected.json`
// with what three.js computes for it (sample / optimize / trim / resetDuration / validate), and it
// writes `ops.json` for library-level operations the CLI does not expose. See README.md.

import * as THREE from 'three';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const OUT_DIR = process.env.CONFORMANCE_OUT ? path.resolve(process.env.CONFORMANCE_OUT) : path.join(HERE, '..', 'fixtures', 'conformance');

// ------------------------------------------------------------------------------------------------
// Utilities

/** mulberry32: a tiny seeded 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed) {
	let a = seed >>> 0;
	return function () {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Runs `fn` with console.error/warn/log captured, so three.js warnings stay out of the output. */
export function quiet(fn, sink = []) {
	const saved = [console.error, console.warn, console.log];
	const capture = (...args) => sink.push(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' '));
	console.error = capture;
	console.warn = capture;
	console.log = capture;
	try {
		return fn();
	} finally {
		[console.error, console.warn, console.log] = saved;
	}
}

/** One number as JSON text: `-0` keeps its sign, non-finite numbers become "NaN"/"Infinity"/"-Infinity" strings. */
function numberText(x) {
	if (Number.isNaN(x)) return '"NaN"';
	if (x === Infinity) return '"Infinity"';
	if (x === -Infinity) return '"-Infinity"';
	if (Object.is(x, -0)) return '-0';
	return JSON.stringify(x);
}

/**
 * JSON text like JSON.stringify(value, null, 1) but with arrays of primitives on one line,
 * `-0` kept, and non-finite numbers written as strings (see numberText). `undefined` object
 * fields are dropped like JSON.stringify does.
 */
export function toText(value, indent = '') {
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'number') return numberText(value);
	if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
	if (ArrayBuffer.isView(value)) value = Array.from(value);
	const inner = indent + ' ';
	if (Array.isArray(value)) {
		if (value.length === 0) return '[]';
		if (value.every((v) => v === null || typeof v !== 'object')) {
			return '[' + value.map((v) => toText(v)).join(',') + ']';
		}
		return '[\n' + value.map((v) => inner + toText(v, inner)).join(',\n') + '\n' + indent + ']';
	}
	const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
	if (entries.length === 0) return '{}';
	return '{\n' + entries.map(([k, v]) => inner + JSON.stringify(k) + ': ' + toText(v, inner)).join(',\n') + '\n' + indent + '}';
}

/** Parses a file's text into an array of three.js clips (a single clip object gives one clip). */
export function parseClips(text) {
	const json = JSON.parse(text);
	const list = Array.isArray(json) ? json : [json];
	return list.map((c) => THREE.AnimationClip.parse(c));
}

/**
 * What `clipscope sample FILE --times ...` prints: key "<clip name>|<track name>", value one
 * entry per time, each `Array.from(interpolant.evaluate(t))`. One interpolant per track,
 * evaluated in the given time order (its cache is part of the behaviour). Later keys overwrite
 * earlier ones like a JS object.
 */
export function sampleClips(clips, times) {
	const result = {};
	for (const clip of clips) {
		for (const track of clip.tracks) {
			const interpolant = track.createInterpolant();
			result[clip.name + '|' + track.name] = times.map((t) => Array.from(interpolant.evaluate(t)));
		}
	}
	return result;
}

// ------------------------------------------------------------------------------------------------
// Random inputs

class Gen {
	constructor(seed) {
		this.r = mulberry32(seed);
	}
	f() {
		return this.r();
	}
	chance(p) {
		return this.r() < p;
	}
	int(lo, hi) {
		// inclusive
		return lo + Math.floor(this.r() * (hi - lo + 1));
	}
	pick(list) {
		return list[Math.floor(this.r() * list.length)];
	}
	/** Picks from [[weight, value], ...]. */
	weighted(pairs) {
		const total = pairs.reduce((s, [w]) => s + w, 0);
		let x = this.r() * total;
		for (const [w, v] of pairs) {
			if ((x -= w) < 0) return v;
		}
		return pairs[pairs.length - 1][1];
	}
	/** A decimal with `digits` fraction digits in [lo, hi] (mostly not representable in f32). */
	dec(lo, hi, digits = 2) {
		const p = 10 ** digits;
		return Math.round((lo + (hi - lo) * this.r()) * p) / p + 0; // + 0: never -0
	}
	gauss() {
		const u = Math.max(this.r(), 1e-12);
		const v = this.r();
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
	}
	shuffle(list) {
		for (let i = list.length - 1; i > 0; i--) {
			const j = Math.floor(this.r() * (i + 1));
			[list[i], list[j]] = [list[j], list[i]];
		}
		return list;
	}
}

const KINDS = {
	number: {
		names: ['.morphTargetInfluences[smile]', 'cube.material.opacity', '.material.roughness', '.morphTargetInfluences[0]', 'light.intensity'],
		aliases: ['number', 'number', 'number', 'scalar', 'double', 'float', 'integer', 'Number'],
	},
	vector: {
		names: ['.bones[hip].position', '.position', '.scale', 'Armature/Bone.001.position', '.bones[spine].scale', 'plane.material.map.offset'],
		aliases: ['vector', 'vector', 'vector', 'vector2', 'vector3', 'vector4', 'Vector3'],
	},
	color: { names: ['.material.color', 'cube.material.emissive', 'light.color'], aliases: ['color', 'color', 'Color'] },
	quaternion: {
		names: ['Armature/Bone.001.quaternion', '.bones[hip].quaternion', '.quaternion', 'Bone.002.quaternion'],
		aliases: ['quaternion', 'quaternion', 'quaternion', 'Quaternion'],
	},
	bool: { names: ['.visible', 'light.castShadow', 'cube.visible'], aliases: ['bool', 'bool', 'boolean'] },
	string: { names: ['.name', 'label.text', '.userData.state'], aliases: ['string', 'string', 'String'] },
};

const CLIP_NAMES = ['walk', 'run', 'idle', 'Take 001', '', 'jump', 'mixamo.com', 'Action', 'wave'];
const STRINGS = ['idle', 'walk', 'run', '', 'x', 'A long label', '急須', '0'];

/** Sorted key times (seconds, or frames when `fps`), with duplicates and offsets. */
function genTimes(g, n, fps, plain = false) {
	const times = [];
	if (fps) {
		let t = g.weighted([[6, 0], [2, g.int(1, 20)], [1, -g.int(1, 10)]]);
		for (let i = 0; i < n; i++) {
			if (i > 0) t += g.chance(0.12) ? 0 : g.weighted([[6, g.int(1, 8)], [1, g.dec(0.5, 4, 1)]]);
			times.push(t);
		}
		return times;
	}
	const start = g.weighted([
		[8, 0],
		[3, g.dec(0.1, 3, 2)],
		[2, -g.dec(0.1, 2, 2)],
		[plain ? 0 : 1, 1e-30],
	]);
	const base = plain ? g.pick([0.1, 1 / 30, 0.25, 0.5, 0.2]) : g.pick([0.1, 1 / 30, 0.25, 0.04, 0.5, 1, 0.0333, 0.2, 1e-30, 1000]);
	let t = start;
	for (let i = 0; i < n; i++) {
		if (i > 0) {
			if (g.chance(0.12)) {
				// duplicate the previous time
			} else if (base === 1 / 30) {
				t = start + i / 30;
			} else {
				const step = base * g.weighted([[6, 1], [2, g.int(2, 4)], [1, g.dec(0.3, 2.5, 2)]]);
				t = base === 1e-30 ? t + step : Math.round((t + step) * 1e6) / 1e6; // keep tiny steps tiny
			}
		}
		times.push(t);
	}
	return times;
}

function randomQuat(g) {
	let q = [g.gauss(), g.gauss(), g.gauss(), g.gauss()];
	const len = Math.hypot(...q) || 1;
	return q.map((x) => x / len);
}

function scalar(g, mode) {
	switch (mode) {
		case 'unit':
			return g.weighted([[5, g.dec(0, 1, 2)], [1, 0], [1, 1]]);
		case 'int':
			return g.int(-5, 5);
		case 'extreme':
			return g.pick([3e38, -3e38, 3.4028234663852886e38, 1e-30, -1e-30, 0, 1e-45, 1e-40, 0.1, 1e30, -0, -3.4028234663852886e38, 1e38]);
		case 'tiny':
			return g.dec(-5, 5, 2) * 1e-30;
		default:
			return g.weighted([[5, g.dec(-10, 10, 2)], [2, g.dec(-1, 1, 1)], [1, g.dec(-100, 100, 3)], [1, 0]]);
	}
}

/** Values for `n` keys of `vs` components. */
function genValues(g, kind, n, vs) {
	const values = [];
	let prev = null;
	const runP = g.pick([0, 0.2, 0.5, 0.8]);
	if (kind === 'bool') {
		for (let i = 0; i < n; i++) {
			const v = prev !== null && g.chance(runP) ? prev : g.chance(0.5);
			values.push(v);
			prev = v;
		}
		return values;
	}
	if (kind === 'string') {
		for (let i = 0; i < n; i++) {
			const v = prev !== null && g.chance(runP) ? prev : g.pick(STRINGS);
			values.push(v);
			prev = v;
		}
		return values;
	}
	if (kind === 'quaternion') {
		const nonNormal = g.chance(0.15);
		for (let i = 0; i < n; i++) {
			let key = [];
			for (let c = 0; c < vs; c += 4) {
				let q;
				const p = prev ? prev.slice(c, c + 4) : null;
				const how = p ? g.weighted([[5, 'random'], [2, 'same'], [2, 'negated'], [2, 'near'], [1, 'rounded']]) : 'random';
				if (how === 'same') q = p;
				else if (how === 'negated') q = p.map((x) => -x);
				else if (how === 'near') {
					const d = g.pick([1e-3, 1e-2, 1e-5]);
					q = p.map((x) => x + d * g.gauss());
					const len = Math.hypot(...q);
					q = q.map((x) => x / len);
				} else if (how === 'rounded') q = [g.dec(-1, 1, 1), g.dec(-1, 1, 1), g.dec(-1, 1, 1), g.dec(-1, 1, 1)];
				else q = randomQuat(g);
				if (nonNormal && g.chance(0.5)) q = q.map((x) => x * g.pick([2, 0.5, 1.7]));
				if (nonNormal && g.chance(0.05)) q = [0, 0, 0, 0];
				key.push(...q);
			}
			values.push(...key);
			prev = key;
		}
		return values;
	}
	const mode = kind === 'color' ? g.weighted([[5, 'unit'], [1, 'default']]) : g.weighted([[8, 'default'], [2, 'int'], [2, 'extreme'], [1, 'tiny']]);
	const sameAcross = g.chance(0.15);
	for (let i = 0; i < n; i++) {
		let key;
		if (prev && g.chance(runP)) {
			key = prev.slice();
			if (vs > 1 && g.chance(0.3)) key[g.int(0, vs - 1)] = scalar(g, mode); // only one component moves
		} else if (sameAcross) {
			const v = scalar(g, mode);
			key = new Array(vs).fill(v);
		} else {
			key = [];
			for (let c = 0; c < vs; c++) key.push(scalar(g, mode));
		}
		values.push(...key);
		prev = key;
	}
	return values;
}

/** Random Bezier handles ([time, value] per key per component), some of them non-monotone in time. */
function genTangents(g, times, values, vs) {
	const n = times.length;
	const inT = [];
	const outT = [];
	const wild = g.chance(0.3);
	const r3 = (x) => Math.max(-3.4e38, Math.min(3.4e38, Number(x.toPrecision(4)))) + 0; // + 0 turns -0 into 0; stays inside the f32 range
	for (let k = 0; k < n; k++) {
		const dPrev = k > 0 ? times[k] - times[k - 1] : k + 1 < n ? times[k + 1] - times[k] : 1;
		const dNext = k + 1 < n ? times[k + 1] - times[k] : dPrev;
		for (let c = 0; c < vs; c++) {
			const v = values[k * vs + c];
			const a = wild && g.chance(0.5) ? g.dec(0.6, 2.5, 2) : g.dec(0, 0.6, 2);
			const b = wild && g.chance(0.5) ? g.dec(0.6, 2.5, 2) : g.dec(0, 0.6, 2);
			const slope = g.dec(-5, 5, 2);
			inT.push(r3(times[k] - a * dPrev), r3(v - slope * a * (dPrev || 1)));
			outT.push(r3(times[k] + b * dNext), r3(v + (g.chance(0.8) ? slope : g.dec(-5, 5, 2)) * b * (dNext || 1)));
		}
	}
	return { inTangents: inT, outTangents: outT };
}

function genTrack(g, fps, opts = {}) {
	const kind = opts.kind || g.weighted([[4, 'number'], [5, 'vector'], [2, 'color'], [4, 'quaternion'], [1, 'bool'], [1, 'string']]);
	const spec = KINDS[kind];
	const n = g.weighted([[1, 1], [2, 2], [3, g.int(3, 5)], [3, g.int(6, 10)], [1, g.int(11, 16)]]);
	let vs = 1;
	let type = g.chance(0.25) ? g.pick(spec.aliases) : kind;
	if (kind === 'vector') vs = { vector2: 2, vector3: 3, vector4: 4, Vector3: 3 }[type] || g.pick([2, 3, 3, 3, 4]);
	if (kind === 'color') vs = 3;
	if (kind === 'quaternion') vs = g.chance(0.03) ? 8 : 4;
	const times = genTimes(g, n, fps, opts.plainTimes);
	const values = genValues(g, kind, n, vs);
	const numeric = kind !== 'bool' && kind !== 'string';
	let interpolation = g.weighted([
		[4, undefined],
		[2, 2300],
		[2, 2301],
		[3, 2302],
		[numeric ? 3 : 1, 2303],
		[0.15, 9999],
	]);
	let settings;
	if (numeric && (interpolation === 2303 ? g.chance(0.85) : g.chance(0.05))) {
		settings = genTangents(g, times, values, vs);
	}
	const track = { name: g.pick(spec.names), times, values };
	if (interpolation !== undefined) track.interpolation = interpolation;
	if (settings) track.settings = settings;
	track.type = type;
	return track;
}

function genClip(g, opts = {}) {
	const fps = opts.noFps ? undefined : g.weighted([[7, undefined], [1, 30], [1, 24], [0.3, 25], [0.2, 0], [0.3, 12.5]]);
	const nTracks = g.weighted([[1, 1], [3, g.int(2, 4)], [2, g.int(5, 8)]]);
	const tracks = [];
	for (let i = 0; i < nTracks; i++) {
		tracks.push(genTrack(g, fps, { plainTimes: opts.plainTimes }));
		// sometimes the same name twice in one clip (the later one wins in `sample`)
		if (g.chance(0.05)) tracks.push({ ...genTrack(g, fps, { plainTimes: opts.plainTimes }), name: tracks[tracks.length - 1].name });
	}
	const clip = { name: opts.name !== undefined ? opts.name : g.pick(CLIP_NAMES) };
	if (fps !== undefined) clip.fps = fps;
	const maxT = Math.max(...tracks.map((t) => t.times[t.times.length - 1]));
	const durationChoice = g.weighted([[4, 'missing'], [3, 'max'], [2, 'less'], [2, 'more'], [0.5, 'zero'], [0.5, 'minus']]);
	const scale = fps ? 1 / fps : 1;
	switch (durationChoice) {
		case 'max':
			clip.duration = fps && g.chance(0.5) ? maxT : maxT * scale; // frames: three.js does not scale the duration
			break;
		case 'less':
			clip.duration = Math.round(maxT * scale * g.dec(0.3, 0.9, 2) * 1000) / 1000;
			break;
		case 'more':
			clip.duration = Math.round(maxT * scale * g.dec(1.1, 2, 2) * 1000) / 1000 + 0.1;
			break;
		case 'zero':
			clip.duration = 0;
			break;
		case 'minus':
			clip.duration = -1;
			break;
	}
	clip.tracks = tracks;
	if (g.chance(0.7)) clip.uuid = uuidFrom(g);
	const bm = g.weighted([[4, undefined], [4, 2500], [2, 2501]]);
	if (bm !== undefined) clip.blendMode = bm;
	const ud = g.weighted([[3, undefined], [3, '{}'], [2, '{"author":"clipscope","n":1.5,"tags":["a","b"]}'], [1, ''], [1, '{"nested":{"x":[1,2,{"y":null}]}}']]);
	if (ud !== undefined) clip.userData = ud;
	return clip;
}

function uuidFrom(g) {
	const hex = () => Math.floor(g.f() * 16).toString(16);
	const part = (k) => Array.from({ length: k }, hex).join('');
	return `${part(8)}-${part(4)}-4${part(3)}-${g.pick(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`;
}

/** Makes clip `c` invalid for `validate()` in one of several ways; returns a short label. */
function breakClip(g, c, how) {
	const tracks = c.tracks;
	const tr = tracks[g.int(0, tracks.length - 1)];
	switch (how) {
		case 'order': {
			if (tr.times.length < 2) tr.times.push(tr.times[0] - 1), extendValues(tr);
			else {
				const k = g.int(1, tr.times.length - 1);
				tr.times[k] = tr.times[k - 1] - g.dec(0.1, 1, 2);
			}
			if (tr.settings) delete tr.settings, delete tr.interpolation;
			return 'out-of-order times';
		}
		case 'count': {
			if (tr.times.length === 1) tr.times.push(tr.times[0] + 1);
			do tr.values.push(tr.values[0]);
			while (tr.values.length % tr.times.length === 0);
			if (tr.settings) delete tr.settings, delete tr.interpolation;
			return 'value count not a multiple of the key count';
		}
		case 'nanValue': {
			const num = tracks.filter((t) => !['bool', 'boolean', 'string', 'String'].includes(t.type));
			const t = num.length ? g.pick(num) : null;
			if (!t) return breakClip(g, c, 'order');
			t.values[g.int(0, t.values.length - 1)] = 'x';
			return 'non-number "x" in values';
		}
		case 'nanTime': {
			tr.times[g.int(0, tr.times.length - 1)] = 'x';
			return 'non-number "x" in times';
		}
	}
}

function extendValues(tr) {
	const vs = tr.values.length / (tr.times.length - 1);
	tr.values.push(...tr.values.slice(0, vs));
}

// ------------------------------------------------------------------------------------------------
// Expected outputs for one input file

function pickSampleTimes(g, clips) {
	const all = [];
	for (const clip of clips) for (const track of clip.tracks) for (const t of track.times) if (!Number.isNaN(t)) all.push(t);
	const keyTimes = [...new Set(all)].sort((a, b) => a - b);
	if (keyTimes.length === 0) keyTimes.push(0);
	const lo = keyTimes[0];
	const hi = keyTimes[keyTimes.length - 1];
	const times = [];
	const span = hi - lo || 1;
	times.push(lo - g.pick([1, 0.5, 0.01]) * span);
	times.push(hi + g.pick([1, 0.5, 0.01]) * span);
	// duplicated key times
	const dup = [];
	for (const clip of clips)
		for (const track of clip.tracks) for (let i = 1; i < track.times.length; i++) if (track.times[i] === track.times[i - 1]) dup.push(track.times[i]);
	if (dup.length) times.push(g.pick(dup));
	const nExact = g.int(4, 6);
	for (let i = 0; i < nExact; i++) times.push(g.pick(keyTimes));
	times.push(lo, hi);
	const nMid = g.int(3, 6);
	for (let i = 0; i < nMid && keyTimes.length > 1; i++) {
		const k = g.int(1, keyTimes.length - 1);
		const a = keyTimes[k - 1];
		const b = keyTimes[k];
		let t = a + (b - a) * g.dec(0.05, 0.95, 2);
		const rounded = Number(t.toPrecision(4));
		if (rounded > a && rounded < b) t = rounded; // short decimal text where possible
		times.push(t);
	}
	// a decimal near a key: f32(0.1) is 0.10000000149..., the decimal 0.1 is just before it
	const near = g.pick(keyTimes);
	times.push(Number(near.toPrecision(7)));
	while (times.length < 12) times.push(lo + span * g.dec(0, 1, 3));
	while (times.length > 20) times.pop();
	g.shuffle(times);
	if (g.chance(0.5)) times.push(times[times.length - 1]); // the same time twice in a row (cache reuse)
	return times.map((t) => (Object.is(t, -0) ? 0 : t));
}

function expectedFor(g, text) {
	const log = [];
	const expected = {};
	let clips;
	try {
		clips = quiet(() => parseClips(text), log);
	} catch (e) {
		return { parseError: e.message };
	}
	const times = pickSampleTimes(g, clips);
	const timesArg = times.map(String).join(',');
	expected.sample = { times, timesArg };
	const integral = clips.every((c) => c.tracks.every((t) => Number.isInteger(t.getValueSize())));
	if (integral) {
		expected.sample.result = quiet(() => sampleClips(parseClips(text), times), log);
	} else {
		// three.js evaluate() loops forever on a fractional value size (`i !== stride` never holds)
		expected.sample.error = 'skipped: a track has a non-integer value size';
	}
	if (integral) {
		expected.optimize = quiet(() => parseClips(text).map((c) => THREE.AnimationClip.toJSON(c.optimize())), log);
	} else {
		// three.js optimize() can loop forever on a fractional value size
		expected.optimizeError = 'skipped: a track has a non-integer value size';
	}
	expected.trim = quiet(() => parseClips(text).map((c) => THREE.AnimationClip.toJSON(c.trim())), log);
	expected.resetDuration = quiet(() => parseClips(text).map((c) => c.resetDuration().duration), log);
	expected.valid = quiet(() => parseClips(text).map((c) => c.validate()), log);
	return expected;
}

// ------------------------------------------------------------------------------------------------
// The case files

function genCases(g) {
	const cases = [];
	const N_RANDOM = Number(process.env.CONFORMANCE_CASES || 50);
	for (let i = 0; i < N_RANDOM; i++) {
		const multi = g.chance(0.35);
		let input;
		if (multi) {
			const n = g.int(2, 3);
			input = [];
			for (let k = 0; k < n; k++) input.push(genClip(g));
			if (g.chance(0.3)) input[n - 1].name = input[0].name; // duplicate clip name: later wins in `sample`
		} else input = genClip(g);
		cases.push({ input, note: multi ? 'random clips' : 'random clip' });
	}
	// deliberately invalid for validate()
	const breaks = ['order', 'count', 'nanValue', 'nanTime', 'order', 'count', 'nanValue', 'order', 'nanTime', 'count'];
	for (const how of breaks) {
		const multi = g.chance(0.5);
		let input;
		let note;
		if (multi) {
			input = [genClip(g), genClip(g), genClip(g)];
			const k = g.int(0, 2);
			note = `clip ${k}: ` + breakClip(g, input[k], how);
		} else {
			input = genClip(g);
			note = breakClip(g, input, how);
		}
		cases.push({ input, note: 'invalid: ' + note });
	}
	// files three.js cannot parse
	const bad = [];
	{
		const c = genClip(g);
		c.tracks[0].type = 'vector5';
		bad.push({ input: c, note: 'parse error: unknown track type' });
	}
	{
		const c = genClip(g);
		delete c.tracks[c.tracks.length - 1].type;
		bad.push({ input: [genClip(g), c], note: 'parse error: missing track type (clip 1)' });
	}
	{
		const c = genClip(g);
		c.tracks[0].times = [];
		c.tracks[0].values = [];
		bad.push({ input: c, note: 'parse error: empty times' });
	}
	{
		const c = genClip(g);
		delete c.tracks[0].name;
		bad.push({ input: c, note: 'parse error: missing track name' });
	}
	{
		const c = genClip(g);
		c.tracks[0].type = 'matrix4';
		bad.push({ input: [c], note: 'parse error: unknown track type in a one-clip array' });
	}
	cases.push(...bad);
	return cases;
}

// ------------------------------------------------------------------------------------------------
// ops.json: library-level operations

const toJSON = (clip) => THREE.AnimationClip.toJSON(clip);
const withoutUuid = (json) => {
	const { uuid, ...rest } = json;
	return rest;
};

function genOpsClip(g) {
	const clip = genClip(g, { noFps: true, plainTimes: true });
	// ops cases are valid and carry no fps field, so any reader can load them as-is
	clip.duration = undefined;
	delete clip.duration;
	if (g.chance(0.5)) {
		// a reference-style duplicate: same name, different type (makeClipAdditive skips it)
		const t = genTrack(g, undefined, { kind: 'number', plainTimes: true });
		t.name = clip.tracks[0].name;
		clip.tracks.push(t);
	}
	if (g.chance(0.5)) clip.tracks.push(genTrack(g, undefined, { kind: g.pick(['bool', 'string']), plainTimes: true }));
	clip.uuid = uuidFrom(g);
	return clip;
}

/** A reference clip for makeClipAdditive: some tracks of `clip` with other values, some with other types. */
function genReferenceClip(g, clip) {
	const tracks = [];
	for (const t of clip.tracks) {
		if (g.chance(0.2)) continue;
		const kind = Object.keys(KINDS).find((k) => KINDS[k].aliases.includes(t.type) || k === t.type) || 'number';
		const vs = t.values.length / t.times.length;
		const other = genTrack(g, undefined, { kind: g.chance(0.85) ? kind : 'number', plainTimes: true });
		other.name = t.name;
		if (other.type === t.type || KINDS[kind].aliases.includes(other.type)) {
			// same type: keep the value size of the target track
			const n = other.times.length;
			other.values = genValues(g, kind, n, vs);
			if (other.settings) other.settings = genTangents(g, other.times, other.values, vs);
		}
		tracks.push(other);
	}
	if (tracks.length === 0) tracks.push(genTrack(g));
	return { name: 'reference', tracks, uuid: uuidFrom(g), blendMode: 2500, userData: '{}' };
}

function genOps(g) {
	const cases = [];
	for (let i = 0; i < 15; i++) {
		const clipJson = genOpsClip(g);
		const text = JSON.stringify(clipJson);
		const fresh = () => THREE.AnimationClip.parse(JSON.parse(text));
		const caseOut = { id: `ops${String(i).padStart(3, '0')}`, clip: JSON.parse(text) };
		quiet(() => {
			const keyTimes = [...new Set(fresh().tracks.flatMap((t) => Array.from(t.times)))].sort((a, b) => a - b);
			// a frame number near a key time: exactly on it, between keys, or a little off
			const frameNear = (fps) => {
				const k = g.int(0, keyTimes.length - 1);
				const t = g.weighted([[2, keyTimes[k]], [2, k + 1 < keyTimes.length ? (keyTimes[k] + keyTimes[k + 1]) / 2 : keyTimes[k] + 0.5], [1, keyTimes[k] + 0.01]]);
				return Math.round(t * fps * 10) / 10 + 0;
			};
			caseOut.subclip = [];
			for (let k = 0; k < 3; k++) {
				const fps = g.pick([30, 24, 1, 10, 12.5, 60]);
				const a = g.weighted([[2, 0], [4, frameNear(fps)], [1, -g.int(1, 5)]]);
				const b = g.weighted([[4, Math.max(a + 1, frameNear(fps))], [1, a], [1, a + 0.5], [1, 1e9]]);
				const res = THREE.AnimationUtils.subclip(fresh(), 'sub', a, b, fps);
				caseOut.subclip.push({ name: 'sub', startFrame: a, endFrame: b, fps, result: withoutUuid(toJSON(res)) });
			}
			caseOut.makeClipAdditive = [];
			{
				const res = THREE.AnimationUtils.makeClipAdditive(fresh());
				caseOut.makeClipAdditive.push({ referenceFrame: 0, referenceClip: null, fps: 30, result: toJSON(res) });
			}
			for (let k = 0; k < 2; k++) {
				const fps = g.pick([30, 24, 1, 0, -5, 10]);
				const frame = g.weighted([[2, 0], [4, frameNear(fps > 0 ? fps : 30)], [1, -g.int(1, 10)], [1, 1e6]]);
				const res = THREE.AnimationUtils.makeClipAdditive(fresh(), frame, undefined, fps);
				caseOut.makeClipAdditive.push({ referenceFrame: frame, referenceClip: null, fps, result: toJSON(res) });
			}
			{
				const refJson = genReferenceClip(g, clipJson);
				const refText = JSON.stringify(refJson);
				const fps = g.pick([30, 1, 10]);
				const frame = g.weighted([[1, 0], [3, frameNear(fps)]]);
				const res = THREE.AnimationUtils.makeClipAdditive(fresh(), frame, THREE.AnimationClip.parse(JSON.parse(refText)), fps);
				caseOut.makeClipAdditive.push({ referenceFrame: frame, referenceClip: JSON.parse(refText), fps, result: toJSON(res) });
			}
			caseOut.clone = withoutUuid(toJSON(fresh().clone()));
			caseOut.shift = [0, g.dec(-2, 2, 2), 0.1, -1 / 3].map((dt) => ({
				dt,
				result: fresh().tracks.map((t) => THREE.KeyframeTrack.toJSON(t.shift(dt))),
			}));
			caseOut.scale = [1, g.dec(0.1, 3, 2), 1 / 30, -1, 0].map((s) => ({
				s,
				result: fresh().tracks.map((t) => THREE.KeyframeTrack.toJSON(t.scale(s))),
			}));
		});
		cases.push(caseOut);
	}
	const POOL = ['Walk_001', 'Walk_002', 'Walk_003', 'run12', 'run13', 'run7', 'bad.1', '007', '008', 'crdeath0059', 'crdeath0060', 'idle', 'flamingo_flyA_003', 'flamingo_flyA_004', 'a-b-1', 'über1', 'Walk_010', '1', 'x_'];
	const morph = [];
	for (let i = 0; i < 12; i++) {
		const n = g.int(1, 8);
		const names = [];
		for (let k = 0; k < n; k++) names.push(g.pick(POOL));
		const fps = g.pick([30, 24, 1, 10, 0.5, 12.5]);
		const noLoop = g.chance(0.3);
		const clips = quiet(() => THREE.AnimationClip.CreateClipsFromMorphTargetSequences(names.map((name) => ({ name })), fps, noLoop));
		morph.push({ names, fps, noLoop, result: clips.map((c) => withoutUuid(toJSON(c))) });
	}
	return { threeRevision: THREE.REVISION, seed: OPS_SEED, cases, morphTargetSequences: morph };
}

// ------------------------------------------------------------------------------------------------

// CONFORMANCE_SEED / CONFORMANCE_CASES / CONFORMANCE_OUT make a larger, differently seeded batch
// elsewhere (a soak test of clips nobody has seen; see README.md); the committed set uses the defaults.
const SEED = Number(process.env.CONFORMANCE_SEED || 187);
const OPS_SEED = 1870;

function main() {
	if (THREE.REVISION !== '187') throw new Error('expected three r187, got ' + THREE.REVISION);
	fs.mkdirSync(OUT_DIR, { recursive: true });
	for (const f of fs.readdirSync(OUT_DIR)) if (/^case\d+\.(input|expected)\.json$/.test(f) || f === 'ops.json' || f === 'index.json') fs.unlinkSync(path.join(OUT_DIR, f));
	const g = new Gen(SEED);
	const cases = genCases(g);
	const index = [];
	cases.forEach((c, i) => {
		const id = 'case' + String(i).padStart(3, '0');
		const text = toText(c.input) + '\n';
		const expected = { note: c.note, ...expectedFor(g, text) };
		const kind = expected.parseError ? 'parse error' : expected.valid.every((v) => v) ? 'random' : 'invalid';
		if (!c.note.startsWith(kind)) throw new Error(`${id}: meant as "${c.note}" but three.js says ${kind}`);
		fs.writeFileSync(path.join(OUT_DIR, id + '.input.json'), text);
		fs.writeFileSync(path.join(OUT_DIR, id + '.expected.json'), toText(expected) + '\n');
		index.push({ id, note: c.note });
	});
	fs.writeFileSync(path.join(OUT_DIR, 'ops.json'), toText(genOps(new Gen(OPS_SEED))) + '\n');
	console.log(`wrote ${cases.length} cases and ops.json to ${path.relative(process.cwd(), OUT_DIR)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
