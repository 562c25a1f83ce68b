// The three.js side of `cargo bench --bench mixer`: one AnimationMixer playing one clip on a scene
// where every track binds, updated by 1/60 s per frame, timed in node with three.js r187.
//
// The clip file is three.js JSON (one `AnimationClip.toJSON` object or an array of them; the first
// clip plays). The scene is a root Object3D whose `skeleton` (a THREE.Skeleton, no SkinnedMesh)
// holds one Bone per node the tracks address (`.bones[name].…` or `name.…`), so every track binds,
// as on clipscope's proxy rig. The action repeats (three.js's default loop). After WARMUP updates
// (letting V8 optimize), FRAMES updates are timed with process.hrtime.bigint() in ROUNDS rounds;
// the result is printed as one JSON line: the mean µs per update of every round, the best round
// and the mean of all rounds, the mixer time, and the final pose (every bone's position,
// quaternion and scale), which `cargo bench --bench mixer` compares with its own, bit for bit,
// after as many updates.
//
// usage: node bench_mixer.mjs CLIP.json [FRAMES=20000] [ROUNDS=10] [WARMUP=20000]
import { readFileSync } from 'node:fs';
import { AnimationClip, AnimationMixer, Bone, Object3D, PropertyBinding, Skeleton } from 'three';

const [input, framesArg, roundsArg, warmupArg] = process.argv.slice(2);
if (!input) {
	console.error('usage: node bench_mixer.mjs CLIP.json [FRAMES] [ROUNDS] [WARMUP]');
	process.exit(2);
}
const FRAMES = Number(framesArg ?? 20000);
const ROUNDS = Number(roundsArg ?? 10);
const WARMUP = Number(warmupArg ?? 20000);

const json = JSON.parse(readFileSync(input, 'utf8'));
const clip = AnimationClip.parse(Array.isArray(json) ? json[0] : json);

// One bone per addressed node, in track order.
const names = [];
for (const track of clip.tracks) {
	const path = PropertyBinding.parseTrackName(track.name);
	const node = path.objectName === 'bones' ? path.objectIndex : path.nodeName;
	if (node && !names.includes(node)) names.push(node);
}
const root = new Object3D();
root.name = 'proxy';
const bones = names.map((name) => {
	const bone = new Bone();
	bone.name = name;
	root.add(bone);
	return bone;
});
root.skeleton = new Skeleton(bones);

const mixer = new AnimationMixer(root);
const action = mixer.clipAction(clip);
action.play();
const dt = 1 / 60;

for (let i = 0; i < WARMUP; i++) mixer.update(dt);

// Bindings resolve on first use; one that did not resolve has no resolved property.
const unbound = action._propertyBindings.filter((p) => p.binding.resolvedProperty === undefined).length;

const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
	const start = process.hrtime.bigint();
	for (let i = 0; i < FRAMES; i++) mixer.update(dt);
	const ns = Number(process.hrtime.bigint() - start);
	rounds.push(ns / 1000 / FRAMES);
}

const pose = {};
for (const bone of bones) {
	pose[bone.name] = [...bone.position.toArray(), ...bone.quaternion.toArray(), ...bone.scale.toArray()];
}

console.log(
	JSON.stringify({
		three: '0.187.0',
		tracks: clip.tracks.length,
		bones: bones.length,
		unbound,
		frames: FRAMES,
		updates: WARMUP + ROUNDS * FRAMES,
		rounds,
		best_us: Math.min(...rounds),
		mean_us: rounds.reduce((a, b) => a + b, 0) / rounds.length,
		time: mixer.time,
		pose,
	}),
);
