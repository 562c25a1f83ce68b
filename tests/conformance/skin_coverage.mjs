// What three.js r187 draws of a skinned model, as a coverage mask: loads the file, poses it
// with an AnimationMixer, skins every vertex on the CPU (SkinnedMesh.getVertexPosition after
// scene.updateMatrixWorld and skeleton.update), projects the triangles through a
// PerspectiveCamera and counts, for every pixel, the samples of the standard 4× multisample
// pattern that a triangle covers (both sides).
//
// Usage: node skin_coverage.mjs JOB.json
//   JOB: {"file", "kind": "gltf" | "legacy", "clip": index, "times": [s...],
//         "camera": {"eye": [x,y,z], "target": [x,y,z], "fov": degrees}, "width", "height",
//         "firstSetOnly": true to skin with JOINTS_0/WEIGHTS_0 alone, as three.js draws it}
// Prints {"masks": [base64 of width*height bytes: samples covered of the standard 4× multisample
//         pattern, 0–4, rows top first], "triangles",
//         "vertices", "skinned", "secondSet"}.
//
// glTF: GLTFLoader (images and textures are removed first: coverage needs no pixels, and node
// has no image decoder). three.js reads only JOINTS_0/WEIGHTS_0 (GLTFLoader maps no second
// set); for primitives with JOINTS_1/WEIGHTS_1 the sum of applyBoneTransform is carried over
// all eight influences with the same bone matrices (bone.matrixWorld · boneInverse, between
// bindMatrix and bindMatrixInverse), the file's weights normalized over all eight as glTF says
// (normalizeSkinWeights, which GLTFLoader runs over the first four, is held back for them).
//
// Legacy three.js models (format 3, the old JSONLoader + SkinnedMesh, gone from r187): the
// geometry is built the way JSONLoader did (each face corner its own vertex, quads split into
// (a,b,d) and (b,c,d), influencesPerVertex numbers per vertex, at most 4 used), the bones
// hang from the SkinnedMesh (roots) with inverses from the rest pose (Skeleton after
// updateMatrixWorld), and the hierarchy keys become tracks like AnimationClip.parseAnimation.

import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// A track that binds to nothing would silently leave its node at rest: fail instead.
const warnings = [];
for (const level of ['warn', 'error']) {
	const original = console[level];
	console[level] = (...args) => {
		warnings.push(args.map(String).join(' '));
		original.apply(console, args.map((a) => (typeof a === 'object' ? String(a) : a)));
	};
}

// FileLoader (which GLTFLoader reads data: URIs with) reports progress with the browser's
// ProgressEvent, which node lacks.
globalThis.ProgressEvent ??= class extends Event {
	constructor(type, init = {}) {
		super(type);
		Object.assign(this, init);
	}
};

/** The glTF JSON with images and textures removed (materials keep their factors). */
function withoutImages(json) {
	delete json.images;
	delete json.textures;
	delete json.samplers;
	for (const m of json.materials || []) {
		const pbr = m.pbrMetallicRoughness;
		if (pbr) {
			delete pbr.baseColorTexture;
			delete pbr.metallicRoughnessTexture;
		}
		delete m.normalTexture;
		delete m.occlusionTexture;
		delete m.emissiveTexture;
	}
	if (json.extensionsUsed) {
		json.extensionsUsed = json.extensionsUsed.filter((e) => !e.startsWith('KHR_texture'));
	}
	return json;
}

/** Buffers given as files beside the glTF file, as data URIs (node's fetch reads no files). */
function inlineBuffers(json, dir) {
	for (const b of json.buffers || []) {
		if (b.uri && !b.uri.startsWith('data:')) {
			const bytes = fs.readFileSync(path.join(dir, decodeURIComponent(b.uri)));
			b.uri = 'data:application/octet-stream;base64,' + bytes.toString('base64');
		}
	}
	return json;
}

/** The file as GLTFLoader input: a GLB with its JSON chunk edited, or the edited JSON text. */
function gltfInput(file) {
	const bytes = fs.readFileSync(file);
	if (bytes.subarray(0, 4).toString('latin1') === 'glTF') {
		const jsonLength = bytes.readUInt32LE(12);
		const json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
		const rest = bytes.subarray(20 + jsonLength);
		let text = Buffer.from(JSON.stringify(withoutImages(json)), 'utf8');
		const pad = (4 - (text.length % 4)) % 4;
		text = Buffer.concat([text, Buffer.alloc(pad, 0x20)]);
		const header = Buffer.alloc(20);
		header.write('glTF', 0, 'latin1');
		header.writeUInt32LE(2, 4);
		header.writeUInt32LE(20 + text.length + rest.length, 8);
		header.writeUInt32LE(text.length, 12);
		header.write('JSON', 16, 'latin1');
		const out = Buffer.concat([header, text, rest]);
		return out.buffer.slice(out.byteOffset, out.byteOffset + out.length);
	}
	const json = inlineBuffers(withoutImages(JSON.parse(bytes.toString('utf8'))), path.dirname(file));
	return JSON.stringify(json);
}

/** The second influence set of each primitive read by GLTFLoader, by mesh object. */
async function secondSets(gltf) {
	const parser = gltf.parser;
	const sets = new Map();
	const jobs = [];
	gltf.scene.traverse((object) => {
		if (!object.isSkinnedMesh) return;
		const assoc = parser.associations.get(object);
		if (!assoc || assoc.meshes === undefined) return;
		const prim = parser.json.meshes[assoc.meshes].primitives[assoc.primitives];
		const a = prim.attributes;
		if (a.JOINTS_1 === undefined || a.WEIGHTS_1 === undefined) return;
		jobs.push(Promise.all([
			parser.getDependency('accessor', a.JOINTS_0),
			parser.getDependency('accessor', a.WEIGHTS_0),
			parser.getDependency('accessor', a.JOINTS_1),
			parser.getDependency('accessor', a.WEIGHTS_1),
		]).then(([j0, w0, j1, w1]) => sets.set(object, { j0, w0, j1, w1 })));
	});
	await Promise.all(jobs);
	return sets;
}

async function loadGltf(file) {
	const loader = new GLTFLoader();
	// GLTFLoader normalizes the first set's weights in place (over four); the raw weights are
	// kept until we know whether a second set follows, then normalized as three.js does, or over
	// all eight.
	const normalize = THREE.SkinnedMesh.prototype.normalizeSkinWeights;
	THREE.SkinnedMesh.prototype.normalizeSkinWeights = function () {};
	let gltf;
	try {
		gltf = await new Promise((resolve, reject) =>
			loader.parse(gltfInput(file), path.dirname(file) + '/', resolve, reject));
	} finally {
		THREE.SkinnedMesh.prototype.normalizeSkinWeights = normalize;
	}
	const second = await secondSets(gltf);
	gltf.scene.traverse((o) => {
		if (o.isSkinnedMesh && (!second.has(o) || job.firstSetOnly)) o.normalizeSkinWeights();
	});
	return { scene: gltf.scene, root: null, clips: gltf.animations, second };
}

/** A legacy format-3 skinned model built like the old JSONLoader and SkinnedMesh. */
function loadLegacy(file) {
	const json = JSON.parse(fs.readFileSync(file, 'utf8'));
	const scale = json.scale !== undefined ? 1 / json.scale : 1;
	const v = json.vertices.map((x) => x * scale);
	const per = json.influencesPerVertex !== undefined ? json.influencesPerVertex : 2;
	const uvLayers = (json.uvs || []).filter((l) => l.length > 0).length;
	const positions = [];
	const skinIndex = [];
	const skinWeight = [];
	const corner = (i) => {
		positions.push(v[i * 3], v[i * 3 + 1], v[i * 3 + 2]);
		const w = [0, 0, 0, 0];
		const j = [0, 0, 0, 0];
		for (let k = 0; k < Math.min(per, 4); k++) {
			w[k] = json.skinWeights[i * per + k];
			j[k] = json.skinIndices[i * per + k];
			if (w[k] === 0) j[k] = 0;
		}
		skinIndex.push(...j);
		skinWeight.push(...w);
	};
	const f = json.faces;
	let o = 0;
	while (o < f.length) {
		const type = f[o++];
		const bit = (b) => (type & (1 << b)) !== 0 ? 1 : 0;
		const quad = bit(0);
		const n = quad ? 4 : 3;
		const c = f.slice(o, o + n);
		o += n + bit(1) + bit(2) * uvLayers + bit(3) * uvLayers * n + bit(4) + bit(5) * n + bit(6) + bit(7) * n;
		const tris = quad ? [[c[0], c[1], c[3]], [c[1], c[2], c[3]]] : [[c[0], c[1], c[2]]];
		for (const t of tris) t.forEach(corner);
	}
	const geometry = new THREE.BufferGeometry();
	geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
	geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
	geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
	const mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
	mesh.normalizeSkinWeights();
	const bones = json.bones.map((b) => {
		const bone = new THREE.Bone();
		bone.name = b.name;
		bone.position.fromArray(b.pos);
		bone.quaternion.fromArray(b.rotq);
		if (b.scl !== undefined) bone.scale.fromArray(b.scl);
		return bone;
	});
	json.bones.forEach((b, i) => {
		if (b.parent !== -1 && b.parent !== null && bones[b.parent] !== undefined) bones[b.parent].add(bones[i]);
		else mesh.add(bones[i]);
	});
	mesh.updateMatrixWorld(true);
	mesh.bind(new THREE.Skeleton(bones), mesh.matrixWorld);
	const scene = new THREE.Group();
	scene.add(mesh);
	const animations = json.animations || (json.animation ? [json.animation] : []);
	const clips = animations.map((a) => {
		const tracks = [];
		a.hierarchy.forEach((h, i) => {
			const keys = h.keys || [];
			for (const [field, property, Track] of [['pos', 'position', THREE.VectorKeyframeTrack],
				['rot', 'quaternion', THREE.QuaternionKeyframeTrack], ['scl', 'scale', THREE.VectorKeyframeTrack]]) {
				const with_ = keys.filter((k) => k[field] !== undefined);
				if (with_.length === 0) continue;
				tracks.push(new Track(`.bones[${json.bones[i].name}].${property}`,
					with_.map((k) => k.time), with_.flatMap((k) => k[field])));
			}
		});
		return new THREE.AnimationClip(a.name || 'default', a.length === undefined ? -1 : a.length, tracks);
	});
	// Legacy clips address `.bones[name]`: they play on the SkinnedMesh itself.
	return { scene, root: mesh, clips, second: new Map() };
}

/** The world position of vertex `i` of `mesh` (skinned over `set`'s eight influences). */
function vertexPosition(mesh, i, set, out) {
	if (!set || job.firstSetOnly) return mesh.getVertexPosition(i, out).applyMatrix4(mesh.matrixWorld);
	// Morphs, then the eight-influence version of SkinnedMesh.applyBoneTransform.
	THREE.Mesh.prototype.getVertexPosition.call(mesh, i, out);
	const base = new THREE.Vector4(out.x, out.y, out.z, 1).applyMatrix4(mesh.bindMatrix);
	const joints = [];
	const weights = [];
	for (const [j, w] of [[set.j0, set.w0], [set.j1, set.w1]]) {
		for (let k = 0; k < 4; k++) {
			joints.push(j.getComponent(i, k));
			weights.push(w.getComponent(i, k));
		}
	}
	const total = weights.reduce((a, b) => a + Math.abs(b), 0);
	out.set(0, 0, 0);
	const m = new THREE.Matrix4();
	const t = new THREE.Vector4();
	for (let k = 0; k < 8; k++) {
		const w = total > 0 ? weights[k] / total : (k === 0 ? 1 : 0);
		if (w === 0) continue;
		const bone = mesh.skeleton.bones[joints[k]];
		m.multiplyMatrices(bone.matrixWorld, mesh.skeleton.boneInverses[joints[k]]);
		out.addScaledVector(t.copy(base).applyMatrix4(m), w);
	}
	return out.applyMatrix4(mesh.bindMatrixInverse).applyMatrix4(mesh.matrixWorld);
}

/** The standard 4× multisample positions (Vulkan, D3D), as fractions of a pixel. */
const SAMPLES = [[0.375, 0.125], [0.875, 0.375], [0.125, 0.625], [0.625, 0.875]];

/** Marks, in bit k of each pixel, whether the triangle (pixel coordinates) covers its k-th
 * sample, so the mask holds what a 4× multisampled rasteriser covers. */
function fill(mask, w, h, a, b, c) {
	const minX = Math.max(0, Math.floor(Math.min(a.x, b.x, c.x)));
	const maxX = Math.min(w - 1, Math.ceil(Math.max(a.x, b.x, c.x)));
	const minY = Math.max(0, Math.floor(Math.min(a.y, b.y, c.y)));
	const maxY = Math.min(h - 1, Math.ceil(Math.max(a.y, b.y, c.y)));
	const area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
	if (area === 0 || !Number.isFinite(area)) return;
	const s = Math.sign(area);
	for (let y = minY; y <= maxY; y++) {
		for (let x = minX; x <= maxX; x++) {
			for (let k = 0; k < 4; k++) {
				const px = x + SAMPLES[k][0];
				const py = y + SAMPLES[k][1];
				const e0 = ((b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)) * s;
				const e1 = ((c.x - b.x) * (py - b.y) - (c.y - b.y) * (px - b.x)) * s;
				const e2 = ((a.x - c.x) * (py - c.y) - (a.y - c.y) * (px - c.x)) * s;
				if (e0 >= 0 && e1 >= 0 && e2 >= 0) mask[y * w + x] |= 1 << k;
			}
		}
	}
}

const { scene, root, clips, second } = job.kind === 'legacy' ? loadLegacy(job.file) : await loadGltf(job.file);
const { width, height } = job;
const camera = new THREE.PerspectiveCamera(job.camera.fov, width / height, 0.01, 1e6);
camera.position.fromArray(job.camera.eye);
camera.lookAt(new THREE.Vector3().fromArray(job.camera.target));
camera.updateMatrixWorld(true);
const mixer = new THREE.AnimationMixer(root || scene);
const clip = clips[job.clip || 0];
if (clip) {
	const action = mixer.clipAction(clip);
	action.setLoop(THREE.LoopOnce);
	action.clampWhenFinished = true;
	action.play();
}
const meshes = [];
scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
let triangles = 0;
let vertices = 0;
const masks = job.times.map((time) => {
	mixer.setTime(time);
	scene.updateMatrixWorld(true);
	const mask = new Uint8Array(width * height);
	const p = new THREE.Vector3();
	triangles = 0;
	vertices = 0;
	for (const mesh of meshes) {
		if (mesh.isSkinnedMesh) mesh.skeleton.update();
		const position = mesh.geometry.attributes.position;
		const screen = [];
		for (let i = 0; i < position.count; i++) {
			vertexPosition(mesh, i, second.get(mesh), p);
			p.project(camera);
			screen.push({ x: (p.x + 1) / 2 * width, y: (1 - p.y) / 2 * height, z: p.z });
		}
		vertices += position.count;
		const index = mesh.geometry.index;
		const count = index ? index.count : position.count;
		for (let k = 0; k + 2 < count; k += 3) {
			const [a, b, c] = [0, 1, 2].map((d) => screen[index ? index.getX(k + d) : k + d]);
			triangles++;
			// Everything is in front of the camera in these tests; a corner behind it is skipped.
			if (a.z > 1 || b.z > 1 || c.z > 1 || a.z < -1 || b.z < -1 || c.z < -1) continue;
			fill(mask, width, height, a, b, c);
		}
	}
	// Covered samples per pixel, 0 to 4.
	const counts = mask.map((m) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1));
	return Buffer.from(counts).toString('base64');
});
const unbound = warnings.filter((w) => w.includes('PropertyBinding'));
if (unbound.length > 0) {
	console.error(`${unbound.length} track(s) bind to nothing in three.js`);
	process.exit(1);
}
console.log(JSON.stringify({
	masks,
	triangles,
	vertices,
	skinned: meshes.some((m) => m.isSkinnedMesh),
	secondSet: second.size > 0,
}));
