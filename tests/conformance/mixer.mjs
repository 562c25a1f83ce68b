// Generates ../fixtures/mixer.json: a multi-action AnimationMixer run recorded frame by frame by
// three.js r187 itself, for tests/formats/conformance_mixer.rs.
//
// Scene: one Object3D root. Clips: "walk" (linear position + quaternion, repeat), "run" (smooth
// position + quaternion, different duration), "sway" (made additive with makeClipAdditive,
// ping-pong with 3 repetitions, weight 0.6). Walk plays, sway is added on top, and at frame 12
// run cross-fades in from walk with warping. Each frame records the root's position and
// quaternion, every action's effective weight / time scale / time, and the events.
//
//   cd tests/conformance && npm ci && node mixer.mjs

import * as THREE from 'three';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toText } from './generate.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'fixtures', 'mixer.json');

const q = (deg, axis) => new THREE.Quaternion().setFromAxisAngle(axis, (deg * Math.PI) / 180).toArray();
const Y = new THREE.Vector3(0, 1, 0);
const X = new THREE.Vector3(1, 0, 0);

const walk = new THREE.AnimationClip('walk', 1, [
	new THREE.VectorKeyframeTrack('.position', [0, 0.4, 1], [0, 0, 0, 0.5, 0.2, 0.1, 1, 0, 0.3]),
	new THREE.QuaternionKeyframeTrack('.quaternion', [0, 0.5, 1], [...q(0, Y), ...q(40, Y), ...q(80, Y)]),
]);
const runPos = new THREE.VectorKeyframeTrack('.position', [0, 0.2, 0.45, 0.7], [0, 0, 0, 0.3, 0.4, 0, 0.9, 0.1, 0.2, 1.4, 0, 0.1]);
runPos.setInterpolation(THREE.InterpolateSmooth);
const run = new THREE.AnimationClip('run', 0.7, [
	runPos,
	new THREE.QuaternionKeyframeTrack('.quaternion', [0, 0.35, 0.7], [...q(10, Y), ...q(-30, Y), ...q(60, Y)]),
]);
const sway = new THREE.AnimationClip('sway', 0.5, [
	new THREE.VectorKeyframeTrack('.position', [0, 0.25, 0.5], [0, 1, 0, 0.1, 1.2, 0, 0, 1, 0.05]),
	new THREE.QuaternionKeyframeTrack('.quaternion', [0, 0.25, 0.5], [...q(5, X), ...q(25, X), ...q(-10, X)]),
]);
THREE.AnimationUtils.makeClipAdditive(sway);

const root = new THREE.Object3D();
const mixer = new THREE.AnimationMixer(root);
const actions = { walk: mixer.clipAction(walk), run: mixer.clipAction(run), sway: mixer.clipAction(sway) };
const names = new Map(Object.entries(actions).map(([k, v]) => [v, k]));
let events = [];
mixer.addEventListener('loop', (e) => events.push({ type: 'loop', action: names.get(e.action), loopDelta: e.loopDelta }));
mixer.addEventListener('finished', (e) => events.push({ type: 'finished', action: names.get(e.action), direction: e.direction }));

actions.walk.play();
actions.sway.setLoop(THREE.LoopPingPong, 3);
actions.sway.setEffectiveWeight(0.6);
actions.sway.play();

const dt = 1 / 30;
const frames = [];
for (let frame = 0; frame < 90; frame++) {
	if (frame === 12) {
		actions.run.play();
		actions.run.crossFadeFrom(actions.walk, 0.5, true);
	}
	events = [];
	mixer.update(dt);
	const state = {};
	for (const [k, a] of Object.entries(actions)) {
		state[k] = { weight: a.getEffectiveWeight(), timeScale: a.getEffectiveTimeScale(), time: a.time, running: a.isRunning() };
	}
	frames.push({ time: mixer.time, position: root.position.toArray(), quaternion: root.quaternion.toArray(), actions: state, events });
}

const track = (t) => ({ name: t.name, type: t.ValueTypeName, times: Array.from(t.times), values: Array.from(t.values), interpolation: t.getInterpolation() });
const clip = (c) => ({ name: c.name, duration: c.duration, blendMode: c.blendMode, tracks: c.tracks.map(track) });
const fixture = {
	generator: 'tests/conformance/mixer.mjs, three ' + THREE.REVISION,
	dt,
	crossFadeFrame: 12,
	clips: [walk, run, sway].map(clip),
	frames,
};
fs.writeFileSync(OUT, toText(fixture) + '\n');
console.log('wrote', OUT, frames.length, 'frames');
