// Plays a baked clip in three.js r187 the way an app would: AnimationClip.parse, validate(),
// an AnimationMixer on a group with one child per animated node, setTime(t) for each time.
// Usage: node play_baked.mjs FILE T1,T2,...
// Prints {"valid": bool, "name", "duration", "poses": [{node: {position, quaternion, scale}}]}.

import fs from 'node:fs';
import * as THREE from 'three';

const [file, timesArg] = process.argv.slice(2);
if (!file || timesArg === undefined) {
	console.error('usage: node play_baked.mjs FILE T1,T2,...');
	process.exit(2);
}
const times = timesArg.split(',').map(Number);
const json = JSON.parse(fs.readFileSync(file, 'utf8'));
const clip = THREE.AnimationClip.parse(Array.isArray(json) ? json[0] : json);
const root = new THREE.Group();
const nodes = {};
for (const track of clip.tracks) {
	const name = THREE.PropertyBinding.parseTrackName(track.name).nodeName;
	if (!nodes[name]) {
		nodes[name] = new THREE.Object3D();
		nodes[name].name = name;
		root.add(nodes[name]);
	}
}
const mixer = new THREE.AnimationMixer(root);
mixer.clipAction(clip).play();
const poses = times.map((t) => {
	mixer.setTime(t);
	const pose = {};
	for (const [name, node] of Object.entries(nodes)) {
		pose[name] = {
			position: node.position.toArray(),
			quaternion: node.quaternion.toArray(),
			scale: node.scale.toArray(),
		};
	}
	return pose;
});
console.log(JSON.stringify({ valid: clip.validate(), name: clip.name, duration: clip.duration, poses }));
