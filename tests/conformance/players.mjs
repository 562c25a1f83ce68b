// Plays written clip files in the players they ship to and prints what each player shows, for
// tests/formats/players.rs (the Rust test drives it; one node process per player per batch).
//
//   node players.mjs PLAYER MANIFEST.json
//
// MANIFEST is a JSON array of jobs `{"file": PATH, "times": [seconds, ...], "clipTimes"?: {clip
// name: [seconds, ...]}}` (a file with several clips checks each at its own times). PLAYER is
// one of:
//
// * `threejs`: three.js r187. A clip file (one clip object or an array) goes through
//   `AnimationClip.parse`, an object file (`metadata` + `object`) through `ObjectLoader`; every
//   clip plays alone on an `AnimationMixer` (once, clamped at its end) over the loaded object,
//   or over a scene made from the track names. Reports `"<clip>|<track name>"`: the bound
//   property's value at each time (`PropertyBinding.getValue`).
// * `gltf`: three.js r187 `GLTFLoader` + `AnimationMixer` the same way (keys as three.js names
//   the tracks: `<node>.position`, …; a morph weights track also per target,
//   `<node>.morphTargetInfluences[<name or index>]`), plus the Khronos glTF-Validator's report
//   of the file.
// * `threejs-legacy`: the JSON model format 3's player, three.js r150 (npm alias `three-legacy`,
//   the last release with it): `AnimationClip.parseAnimation(animation, bones)` for each of the
//   model's `animations` (or `animation`), played like `threejs`.
// * `pc-anim`: the PlayCanvas engine (npm `playcanvas`): `AnimClipHandler.open`, an entity
//   tree made from the curves' entity paths with an anim component on its root, the clip
//   assigned to a state whose time is set, `anim.update(0)`. Reports `"<entity path>|<property>"`
//   for transform curves: localPosition, localScale and localRotation (for localEulerAngles
//   curves too, as the quaternion the engine set) as the entity holds them. With `loopTimes`
//   (seconds past the clip's end), the clip also plays looping, as the anim state does by
//   default, advanced by `anim.update(dt)` from 0 through those times: `looped` holds the same
//   keys, `loopTimes` the clip time the engine wrapped each to.
// * `pc-animation`: the engine's legacy animation asset: its JSON parser
//   (`_parseAnimationV<version>`, as `load` dispatches) and a `Skeleton` over a graph with one
//   node per animation node; `currentTime = t`, `updateGraph()`. Reports
//   `"<node>|position"`, `"|rotation"`, `"|scale"`; a node the skeleton did not write at a time is
//   NaN.
// * `lottie`: lottie-web 5.12.2 (svg renderer in jsdom): `goToAndStop(t · fr, true)`, then each
//   layer of the main composition: `"@<layer index>|p"` (px), `|a`, `|s` (percent), `|r`
//   (degrees), `|o` (0–100), `|px` `|py` `|pz` (a split position's components), `|rx` `|ry`
//   `|or` (a 3D layer's rotations and orientation, degrees), `|sk` `|sa` (skew and skew axis,
//   degrees), also under clipscope's name of the layer (`"<name>|p"`, …); `null` at times the
//   layer is out of its in/out range (lottie-web does not evaluate hidden layers). Each
//   precomposition's layers as they play in the first precomp layer showing it at that time:
//   `"#<clip>/@<layer index>|p"`, `"#<clip>/<name>|p"`, … with `"#<clip>|time"` the
//   precomposition's own time (seconds) at each check. A file with expressions is also played
//   without them (`keysOnly`, the same keys): what its keys alone play. A file lottie-web fails
//   on because a precomp layer's asset is missing is played with those layers empty
//   (`patched` says so), as lottie-ios and rlottie play it.
//
// Prints one JSON array, a result per job: `{"file", "values": {key: [[...] per time]},
// "error"?, "validator"?}`. Exits 2 on bad usage; a file a player refuses is an `error` entry.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [player, manifestPath] = process.argv.slice(2);
if (!player || !manifestPath) {
	console.error('usage: node players.mjs threejs|gltf|threejs-legacy|pc-anim|pc-animation|lottie MANIFEST.json');
	process.exit(2);
}
const jobs = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

/** Plain numbers of a value (number, bool, array, vector, quaternion, color). */
function numbers(v) {
	if (typeof v === 'number' || typeof v === 'boolean') return [Number(v)];
	if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, Number);
	if (v && typeof v.toArray === 'function') return v.toArray();
	return [NaN];
}

// ---------------------------------------------------------------------------------------------
// three.js

async function threePlayers(legacy) {
	// three.js's FileLoader (which GLTFLoader uses for data URIs) reports progress events.
	if (!globalThis.ProgressEvent) {
		globalThis.ProgressEvent = class ProgressEvent {
			constructor(type, init = {}) {
				Object.assign(this, { type }, init);
			}
		};
	}
	const THREE = await import(legacy ? 'three-legacy' : 'three');
	const { GLTFLoader } = legacy ? {} : await import('three/examples/jsm/loaders/GLTFLoader.js');

	/** A placeholder for a property of `type` (a KeyframeTrack ValueTypeName) holding `size`. */
	function placeholder(type, size) {
		switch (type) {
			case 'quaternion': return new THREE.Quaternion();
			case 'color': return new THREE.Color();
			case 'bool': return false;
			case 'string': return '';
			case 'vector':
				if (size === 2) return new THREE.Vector2();
				if (size === 3) return new THREE.Vector3();
				if (size === 4) return new THREE.Vector4();
				return new Array(size).fill(0);
			default: return size === 1 ? 0 : new Array(size).fill(0);
		}
	}

	/** A scene a clip file's tracks bind to: a root with one child per node name, bones,
	 * morph target influences and material properties as the names ask. */
	function sceneFor(clips) {
		const root = new THREE.Object3D();
		const nodes = new Map();
		const node = (name) => {
			if (!name) return root;
			if (!nodes.has(name)) {
				const n = new THREE.Object3D();
				n.name = name;
				root.add(n);
				nodes.set(name, n);
			}
			return nodes.get(name);
		};
		for (const clip of clips) {
			for (const track of clip.tracks) {
				const p = THREE.PropertyBinding.parseTrackName(track.name);
				let target = node(p.nodeName);
				const size = track.getValueSize();
				if (p.objectName === 'bones') {
					target.skeleton = target.skeleton || { bones: [] };
					let bone = target.skeleton.bones.find((b) => b.name === p.objectIndex);
					if (!bone) {
						bone = new THREE.Bone();
						bone.name = p.objectIndex;
						target.skeleton.bones.push(bone);
					}
					target = bone;
				} else if (p.objectName === 'materials' || p.objectName === 'material') {
					target.material = target.material || {};
					target = target.material;
				} else if (p.objectName) {
					target[p.objectName] = target[p.objectName] || {};
					target = target[p.objectName];
				}
				const name = p.propertyName;
				if (name === 'morphTargetInfluences') {
					const count = 64;
					target.morphTargetInfluences = target.morphTargetInfluences || new Array(count).fill(0);
					target.morphTargetDictionary = target.morphTargetDictionary || {};
					target.geometry = target.geometry || { isBufferGeometry: true, morphAttributes: { position: [] } };
					if (p.propertyIndex !== undefined && isNaN(Number(p.propertyIndex))) {
						const dict = target.morphTargetDictionary;
						if (!(p.propertyIndex in dict)) dict[p.propertyIndex] = Object.keys(dict).length;
					}
					target.geometry.morphAttributes.position.length = count;
					continue;
				}
				if (target[name] === undefined) {
					target[name] = p.propertyIndex !== undefined ? new Array(16).fill(0) : placeholder(track.ValueTypeName, size);
				}
			}
		}
		return root;
	}

	/** What each clip of `clips` makes the bound properties of `root` hold at the job's times
	 * for that clip (`clipTimes[name]`, else `times`). */
	function play(root, clips, job) {
		const values = {};
		for (const clip of clips) {
			const times = (job.clipTimes && job.clipTimes[clip.name]) || job.times;
			const mixer = new THREE.AnimationMixer(root);
			const action = mixer.clipAction(clip);
			action.setLoop(THREE.LoopOnce);
			action.clampWhenFinished = true;
			action.play();
			const bindings = clip.tracks.map((track) => {
				try {
					const b = THREE.PropertyBinding.create(root, track.name);
					b.bind();
					return b.getValue === b._getValue_unbound ? null : b;
				} catch {
					return null;
				}
			});
			const rows = clip.tracks.map(() => []);
			for (const t of times) {
				action.time = t;
				mixer.update(0);
				clip.tracks.forEach((track, i) => {
					const b = bindings[i];
					if (!b) return rows[i].push(null);
					const out = [];
					b.getValue(out, 0);
					rows[i].push(out.length ? out.map(Number) : numbers(b.resolvedProperty));
				});
			}
			const aliases = job.aliases ? job.aliases(clip) : clip.tracks.map(() => []);
			const clipIndex = clips.indexOf(clip);
			clip.tracks.forEach((track, i) => {
				values[`${clip.name}|${track.name}`] = rows[i];
				values[`#${clipIndex}|${track.name}`] = rows[i];
				for (const a of aliases[i]) {
					values[`${clip.name}|${a}`] = rows[i];
					values[`#${clipIndex}|${a}`] = rows[i];
				}
				// Each morph target of a weights track on its own, by name and by index.
				const b = bindings[i];
				if (b && /\.morphTargetInfluences$/.test(track.name) && b.node && b.node.morphTargetDictionary) {
					for (const [name, index] of Object.entries(b.node.morphTargetDictionary)) {
						const column = rows[i].map((r) => (r ? [r[index]] : null));
						for (const c of [clip.name, `#${clipIndex}`]) {
							for (const n of [track.name, ...aliases[i]]) {
								values[`${c}|${n}[${name}]`] = column;
								values[`${c}|${n}[${index}]`] = column;
							}
						}
					}
				}
			});
			mixer.stopAllAction();
			mixer.uncacheRoot(root);
		}
		return values;
	}

	async function threejs(job) {
		const json = JSON.parse(fs.readFileSync(job.file, 'utf8'));
		let list = Array.isArray(json) ? json : [json];
		let objectLoader;
		if (json && json.metadata && json.object) {
			try {
				const object = await new THREE.ObjectLoader().parseAsync(json);
				const clips = object.animations || [];
				return { values: play(object, clips, job), objectLoader: 'ok' };
			} catch (e) {
				// ObjectLoader r187 refuses some older object files (format 4.4's "Geometry");
				// their clips still go through AnimationClip.parse.
				objectLoader = String(e.message || e);
				list = json.animations || [];
			}
		}
		const clips = list.map((c) => THREE.AnimationClip.parse(c));
		const valid = clips.map((c) => c.validate());
		return { values: play(sceneFor(clips), clips, job), valid, objectLoader };
	}

	/** The glTF JSON of a .gltf or .glb file as text GLTFLoader parses without a browser:
	 * every buffer inline (a data URI; a GLB's own BIN chunk too), and images and textures left
	 * out (node has no image decoder; animations do not need them). */
	function loadable(file) {
		const bytes = fs.readFileSync(file);
		let json;
		let bin = null;
		if (bytes.readUInt32LE(0) === 0x46546c67) {
			// GLB: a JSON chunk, then an optional BIN chunk.
			const jsonLength = bytes.readUInt32LE(12);
			json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
			const next = 20 + jsonLength;
			if (next + 8 <= bytes.length) {
				const binLength = bytes.readUInt32LE(next);
				bin = bytes.subarray(next + 8, next + 8 + binLength);
			}
		} else {
			json = JSON.parse(bytes.toString('utf8'));
		}
		const dataUri = (b) => 'data:application/octet-stream;base64,' + Buffer.from(b).toString('base64');
		(json.buffers || []).forEach((buffer, i) => {
			if (buffer.uri === undefined) {
				if (i === 0 && bin) buffer.uri = dataUri(bin);
			} else if (!buffer.uri.startsWith('data:')) {
				buffer.uri = dataUri(fs.readFileSync(path.resolve(path.dirname(file), decodeURIComponent(buffer.uri))));
			}
		});
		delete json.images;
		delete json.textures;
		delete json.samplers;
		const strip = (o) => {
			if (!o || typeof o !== 'object') return;
			for (const k of Object.keys(o)) {
				if (/Texture$/.test(k)) delete o[k];
				else strip(o[k]);
			}
		};
		strip(json.materials);
		if (json.extensionsUsed) {
			json.extensionsUsed = json.extensionsUsed.filter((e) => !/texture|KHR_materials_variants/i.test(e));
		}
		if (json.extensionsRequired) {
			json.extensionsRequired = json.extensionsRequired.filter((e) => !/texture/i.test(e));
		}
		return JSON.stringify(json);
	}

	async function gltf(job) {
		const bytes = fs.readFileSync(job.file);
		const loaded = await new Promise((resolve, reject) =>
			new GLTFLoader().parse(loadable(job.file), path.dirname(job.file) + '/', resolve, reject),
		);
		// clipscope names an unnamed glTF node `node_<index>`; three.js names its tracks by the
		// object's name or uuid. Each track is also reported under the glTF node's index name.
		const nodeIndex = new Map();
		for (const [object, a] of loaded.parser.associations) {
			if (a && a.nodes !== undefined && object && object.uuid) nodeIndex.set(object, a.nodes);
		}
		job.aliases = (clip) =>
			clip.tracks.map((track) => {
				const p = THREE.PropertyBinding.parseTrackName(track.name);
				const object = THREE.PropertyBinding.findNode(loaded.scene, p.nodeName);
				const index = object ? nodeIndex.get(object) : undefined;
				if (index === undefined) return [];
				const rest = track.name.slice(p.nodeName.length);
				return [`node_${index}${rest}`];
			});
		const result = { values: play(loaded.scene, loaded.animations, job) };
		const validator = (await import('gltf-validator')).default;
		const validate = async (file) =>
			(
				await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
					uri: path.basename(file),
					maxIssues: 1000,
					externalResourceFunction: (uri) =>
						fs.promises
							.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)))
							.then((d) => new Uint8Array(d)),
				})
			).issues.messages.filter((m) => m.severity <= 1);
		// Findings the glTF source has too (its mesh data, copied as it is) are not the
		// writer's own.
		const inherited = new Set();
		if (job.source && /\.(gltf|glb)$/i.test(job.source)) {
			for (const m of await validate(job.source)) inherited.add(`${m.code} ${m.pointer}`);
		}
		const own = (await validate(job.file)).filter((m) => !inherited.has(`${m.code} ${m.pointer}`));
		result.validator = {
			numErrors: own.filter((m) => m.severity === 0).length,
			numWarnings: own.filter((m) => m.severity === 1).length,
			inherited: inherited.size,
			messages: own.map(({ code, severity, pointer, message }) => ({ code, severity, pointer, message })),
		};
		return result;
	}
	function threejsLegacy(job) {
		const json = JSON.parse(fs.readFileSync(job.file, 'utf8'));
		// As the JSONLoader of the model format did (three.js r98's parseAnimations): the
		// `animation` and `animations` entries, then clips from morph target name sequences at
		// 10 fps.
		let animations = json.animation ? [json.animation] : [];
		if (json.animations) animations = animations.concat(json.animations.length !== undefined ? json.animations : [json.animations]);
		const bones = json.bones || [];
		let clips = animations.map((a) => THREE.AnimationClip.parseAnimation(a, bones)).filter(Boolean);
		if (json.morphTargets && json.morphTargets.length) {
			clips = clips.concat(THREE.AnimationClip.CreateClipsFromMorphTargetSequences(json.morphTargets, 10));
		}
		return { values: play(sceneFor(clips), clips, job) };
	}
	return { threejs, gltf, 'threejs-legacy': threejsLegacy };
}

// ---------------------------------------------------------------------------------------------
// PlayCanvas

async function playcanvasPlayers() {
	// The engine only touches a few browser globals at start-up; a null graphics device needs
	// no canvas of its own.
	globalThis.window = globalThis.window || {
		addEventListener() {},
		removeEventListener() {},
		devicePixelRatio: 1,
		navigator: { userAgent: 'node' },
	};
	if (!globalThis.navigator) globalThis.navigator = { userAgent: 'node' };
	const pc = await import('playcanvas');
	const base = 'playcanvas/build/playcanvas/src/';
	const { JsonAnimationParser } = await import(base + 'framework/parsers/json-animation.js');
	const canvas = {
		addEventListener() {},
		removeEventListener() {},
		getBoundingClientRect: () => ({ left: 0, top: 0, width: 1, height: 1 }),
		style: {},
		width: 1,
		height: 1,
	};
	const app = new pc.AppBase(canvas);
	const options = new pc.AppOptions();
	options.graphicsDevice = new pc.NullGraphicsDevice(canvas);
	options.componentSystems = [pc.AnimComponentSystem];
	options.resourceHandlers = [pc.AnimClipHandler];
	app.init(options);
	const handler = new pc.AnimClipHandler(app);
	const TRANSFORMS = ['localPosition', 'localRotation', 'localEulerAngles', 'localScale'];
	// A value no clip sets: a transform the engine leaves alone shows it (and fails the check).
	const unset = () => [1234.5, 1234.5, 1234.5];

	function pcAnim(job) {
		const data = JSON.parse(fs.readFileSync(job.file, 'utf8'));
		const track = handler.open(job.file, data);
		const curves = data.curves.filter((c) => c.path && Array.isArray(c.path.entityPath));
		if (curves.length !== data.curves.length) {
			return { error: 'a curve path is not an {entityPath, component, propertyPath} object (the engine cannot bind it)' };
		}
		const rootName = curves.length ? curves[0].path.entityPath[0] : 'root';
		/** An entity tree for the curves with the clip on its anim component's base layer,
		 * looping or not, and the transforms to watch. */
		const build = (loop) => {
			const root = new pc.Entity(rootName, app);
			app.root.addChild(root);
			const entities = new Map([[rootName, root]]);
			const entityAt = (names) => {
				let parent = root;
				for (let i = 1; i < names.length; i++) {
					const key = names.slice(0, i + 1).join('/');
					if (!entities.has(key)) {
						const e = new pc.Entity(names[i], app);
						parent.addChild(e);
						entities.set(key, e);
					}
					parent = entities.get(key);
				}
				return parent;
			};
			const watched = [];
			for (const c of curves) {
				const prop = c.path.propertyPath.join('.');
				if (!TRANSFORMS.includes(prop) || !['entity', 'graph'].includes(c.path.component)) continue;
				const e = c.path.entityPath[0] === rootName ? entityAt(c.path.entityPath) : null;
				if (e) e.setLocalPosition(...unset());
				const key = `${c.path.entityPath.join('/')}|${prop === 'localEulerAngles' ? 'localRotation' : prop}`;
				watched.push({ key, entity: e, prop });
			}
			root.addComponent('anim', { speed: 1, activate: true });
			root.anim.assignAnimation('clip', track, undefined, 1, loop);
			return { root, watched, layer: root.anim.baseLayer };
		};
		const read = (w) => {
			if (!w.entity) return null;
			if (w.prop === 'localPosition') return numbers(w.entity.getLocalPosition());
			if (w.prop === 'localScale') return numbers(w.entity.getLocalScale());
			const q = w.entity.getLocalRotation();
			return [q.x, q.y, q.z, q.w];
		};
		// Played once (not looping), as the source plays in clipscope's model.
		const once = build(false);
		const values = {};
		for (const w of once.watched) values[w.key] = [];
		for (const t of job.times) {
			once.layer.activeStateCurrentTime = t;
			once.root.anim.update(0);
			for (const w of once.watched) values[w.key].push(read(w));
		}
		once.root.destroy();
		// Looping, as the anim state plays by default: played from 0 in steps through the
		// loop times (past the clip's end), each with the clip time the engine wrapped to.
		const looped = {};
		let loopTimes;
		if (job.loopTimes && job.loopTimes.length) {
			const loop = build(true);
			for (const w of loop.watched) looped[w.key] = [];
			loopTimes = [];
			loop.layer.activeStateCurrentTime = 0;
			loop.root.anim.update(0);
			let now = 0;
			for (const t of job.loopTimes) {
				loop.root.anim.update(t - now);
				now = t;
				// The state's time keeps growing; the clip's own time is the one that wraps.
				const clip = loop.layer._controller.animEvaluator.clips[0];
				loopTimes.push(clip ? clip.time : NaN);
				for (const w of loop.watched) looped[w.key].push(read(w));
			}
			loop.root.destroy();
		}
		return { values, looped, loopTimes };
	}

	function pcAnimation(job) {
		const data = JSON.parse(fs.readFileSync(job.file, 'utf8'));
		const parser = new JsonAnimationParser();
		const parse = parser[`_parseAnimationV${data.animation.version}`];
		if (!parse) return { error: `no parser for animation version ${data.animation.version}` };
		const animation = parse.call(parser, data);
		const graph = new pc.GraphNode('clipscope-players-root');
		const nodes = new Map();
		for (const n of animation.nodes) {
			if (!nodes.has(n._name)) {
				const g = new pc.GraphNode(n._name);
				graph.addChild(g);
				nodes.set(n._name, g);
			}
		}
		const skeleton = new pc.Skeleton(graph);
		skeleton.animation = animation;
		skeleton.looping = true;
		skeleton.setGraph(graph);
		const values = {};
		for (const name of nodes.keys()) {
			for (const p of ['position', 'rotation', 'scale']) values[`${name}|${p}`] = [];
		}
		for (const t of job.times) {
			for (const g of nodes.values()) {
				g.setLocalPosition(NaN, NaN, NaN);
				g.setLocalRotation(NaN, NaN, NaN, NaN);
				g.setLocalScale(NaN, NaN, NaN);
			}
			// A node the skeleton does not write at t keeps what it had; show that as NaN.
			for (const k of skeleton._interpolatedKeys) k._written = false;
			// The check times are f32 values; the last may lie a hair past the duration, where a
			// looping skeleton would start over.
			skeleton.currentTime = Math.min(t, animation.duration);
			for (const [name, g] of nodes) {
				const q = g.getLocalRotation();
				values[`${name}|position`].push(numbers(g.getLocalPosition()));
				values[`${name}|rotation`].push([q.x, q.y, q.z, q.w]);
				values[`${name}|scale`].push(numbers(g.getLocalScale()));
			}
		}
		return { values };
	}
	return { 'pc-anim': pcAnim, 'pc-animation': pcAnimation };
}

// ---------------------------------------------------------------------------------------------
// lottie-web

async function lottiePlayers() {
	const { JSDOM } = await import('jsdom');
	const dom = new JSDOM('<!DOCTYPE html><div id="stage"></div>', { pretendToBeVisual: true });
	// lottie-web draws nothing here; its start-up asks for a 2D context once.
	const inert = new Proxy(function () {}, {
		get: (_, key) => (key === 'measureText' ? () => ({ width: 0 }) : inert),
		apply: () => inert,
		set: () => true,
	});
	dom.window.HTMLCanvasElement.prototype.getContext = () => inert;
	// jsdom lays out no text; lottie-web measures text layers' glyphs once when building them.
	dom.window.SVGElement.prototype.getComputedTextLength = () => 0;
	globalThis.window = dom.window;
	globalThis.document = dom.window.document;
	globalThis.navigator = dom.window.navigator;
	const require = createRequire(import.meta.url);
	const lottie = require('lottie-web/build/player/lottie_svg.js');
	const { PropertyBinding } = await import('three');

	/** clipscope's track-name prefix of each layer (formats/lottie/read.rs `layer_names`): the
	 * sanitized name (`layer` without one), `#<ind>` (else `#<position>`) where several share it. */
	function layerNames(layers) {
		const base = layers.map((l) => PropertyBinding.sanitizeNodeName(l.nm || '') || 'layer');
		const names = base.map((n, i) => {
			if (base.filter((b) => b === n).length < 2) return n;
			return layers[i].ind !== undefined ? `${n}#${layers[i].ind}` : `${n}#${i}`;
		});
		for (let i = 0; i < names.length; i++) {
			if (names.slice(0, i).includes(names[i])) names[i] = `${names[i]}#${i}`;
		}
		return names;
	}
	const deg = 180 / Math.PI;

	function layerValues(el) {
		const t = el.finalTransform && el.finalTransform.mProp;
		if (!t) return {};
		const out = {};
		if (t.p) out.p = numbers(t.p.v).slice(0, 2);
		else if (t.px) out.p = [t.px.v, t.py.v];
		// A split position's components on their own (clipscope's `position[x]`, …).
		if (t.px) {
			out.px = [t.px.v];
			out.py = [t.py.v];
			if (t.pz) out.pz = [t.pz.v];
		}
		if (t.a) out.a = numbers(t.a.v).slice(0, 2);
		if (t.s) out.s = numbers(t.s.v).slice(0, 2).map((x) => x * 100);
		if (t.r) out.r = [t.r.v * deg];
		else if (t.rz) out.r = [t.rz.v * deg];
		if (t.rx) out.rx = [t.rx.v * deg];
		if (t.ry) out.ry = [t.ry.v * deg];
		if (t.or) out.or = numbers(t.or.v).map((x) => x * deg);
		if (t.sk) out.sk = [t.sk.v * deg];
		if (t.sa) out.sa = [t.sa.v * deg];
		if (t.o) out.o = [t.o.v * 100];
		return out;
	}

	const KEYS = ['p', 'a', 's', 'r', 'o', 'px', 'py', 'pz', 'rx', 'ry', 'or', 'sk', 'sa'];

	/** Every precomposition asset clipscope reads as a clip (assets with `layers`), by id: its
	 * clip index in the file (1 + its place among them), its layers and frame rate. */
	function precomps(data) {
		const out = new Map();
		(data.assets || [])
			.filter((a) => a.layers !== undefined)
			.forEach((a, i) =>
				out.set(String(a.id), { clip: i + 1, layers: a.layers, names: layerNames(a.layers), fr: a.fr > 0 ? a.fr : data.fr }),
			);
		return out;
	}

	/** The composition elements (precomp layers) under `elements`, depth first. */
	function compElements(elements, out = []) {
		for (const el of elements || []) {
			if (el && el.data && el.data.ty === 0 && el.elements) {
				out.push(el);
				compElements(el.elements, out);
			}
		}
		return out;
	}

	/** What lottie-web shows at the job's times: the main composition's layers (`"@<layer
	 * index>|p"`, `"<name>|p"`, …) and, for each precomposition, its layers as they play inside
	 * the first precomp layer showing it (`"#<clip>/@<layer index>|p"`, `"#<clip>/<name>|p"`)
	 * with the precomposition's own time at each check (`"#<clip>|time"`, seconds: the frame
	 * lottie-web renders it at over its frame rate), null where that precomp layer or the
	 * layer is not shown. */
	function values(data, job) {
		const stage = document.getElementById('stage');
		const anim = lottie.loadAnimation({ container: stage, renderer: 'svg', loop: false, autoplay: false, animationData: data });
		const values = {};
		const push = (key, v) => {
			values[key] = values[key] || [];
			values[key].push(v);
		};
		const layers = data.layers || [];
		const names = layerNames(layers);
		const pre = precomps(data);
		// The precompositions some precomp layer shows (the others play nowhere).
		const referenced = new Set();
		const refs = (layers) => (layers || []).forEach((l) => l && l.ty === 0 && referenced.add(String(l.refId)));
		refs(data.layers);
		(data.assets || []).forEach((a) => refs(a.layers));
		// lottie-web catches what fails while it builds or renders a frame and reports it as an
		// event; a frame it could not render is a refusal, not values.
		let failure = null;
		anim.addEventListener('error', (e) => {
			failure = failure || (e && e.nativeError) || e;
		});
		for (const t of job.times) {
			anim.goToAndStop(t * data.fr, true);
			if (failure) {
				anim.destroy();
				stage.innerHTML = '';
				throw failure;
			}
			const elements = anim.renderer.elements;
			layers.forEach((layer, i) => {
				const el = elements[i];
				const shown = el && el.isInRange !== false;
				const got = el ? layerValues(el) : {};
				for (const k of KEYS) {
					const v = shown && got[k] ? got[k] : null;
					push(`@${i}|${k}`, v);
					push(`${names[i]}|${k}`, v);
				}
			});
			// Each precomposition in the first precomp layer that shows it at this time (and
			// whose parents up the tree are shown).
			const chosen = new Map();
			const visit = (elements, shownAbove) => {
				for (const el of elements || []) {
					if (!el || !el.data || el.data.ty !== 0 || !el.elements) continue;
					const shown = shownAbove && el.isInRange !== false;
					const id = String(el.data.refId);
					if (shown && !chosen.has(id)) chosen.set(id, el);
					visit(el.elements, shown);
				}
			};
			visit(elements, true);
			for (const [id, p] of pre) {
				if (!referenced.has(id)) continue;
				const el = chosen.get(id);
				push(`#${p.clip}|time`, el ? [el.renderedFrame / p.fr] : null);
				p.layers.forEach((layer, i) => {
					const child = el && el.elements[i];
					const on = child && child.isInRange !== false;
					const got = on ? layerValues(child) : {};
					for (const k of KEYS) {
						const v = on && got[k] ? got[k] : null;
						push(`#${p.clip}/@${i}|${k}`, v);
						push(`#${p.clip}/${p.names[i]}|${k}`, v);
					}
				});
			}
		}
		anim.destroy();
		stage.innerHTML = '';
		return { values, names, layers };
	}

	/** `data` without its expressions (every `x` of a property object removed), and whether it
	 * had any. */
	function withoutExpressions(data) {
		let found = false;
		const strip = (o) => {
			if (Array.isArray(o)) return o.forEach(strip);
			if (!o || typeof o !== 'object') return;
			if (typeof o.x === 'string' && 'k' in o) {
				delete o.x;
				found = true;
			}
			for (const v of Object.values(o)) strip(v);
		};
		const copy = JSON.parse(JSON.stringify(data));
		strip(copy.layers);
		strip(copy.assets);
		return { copy, found };
	}

	/** `data` with every precomp layer whose asset is missing made an empty layer (lottie-web
	 * fails on such a file; lottie-ios and rlottie draw nothing for the layer and keep its
	 * transform for its children), and how many there were. */
	function withoutMissingAssets(data) {
		const ids = new Set((data.assets || []).map((a) => String(a.id)));
		let count = 0;
		const fix = (layers) => {
			for (const l of layers || []) {
				if (l && l.ty === 0 && !ids.has(String(l.refId))) {
					// An empty shape layer (it may be another layer's track matte).
					l.ty = 4;
					l.shapes = [];
					delete l.refId;
					count += 1;
				}
			}
		};
		const copy = JSON.parse(JSON.stringify(data));
		fix(copy.layers);
		for (const a of copy.assets || []) fix(a.layers);
		return { copy, count };
	}

	function play(job) {
		const read = () => JSON.parse(fs.readFileSync(job.file, 'utf8'));
		let data = read();
		let played;
		let patched;
		try {
			played = values(data, job);
		} catch (e) {
			// lottie-web changes the data it loads: start again from the file.
			const { copy, count } = withoutMissingAssets(read());
			if (!count) throw e;
			data = copy;
			played = values(data, job);
			patched = `lottie-web fails on the file (${String(e.message || e)}); played with its ${count} precomp layer(s) without an asset as empty layers`;
		}
		const { values: v, names, layers } = played;
		// Whether each layer has a parent (its position is relative to the parent's origin).
		const parents = Object.fromEntries(names.map((n, i) => [n, layers[i].parent !== undefined]));
		const result = { values: v, names, parents, patched };
		// Properties driven by an expression play what lottie-web's expression computes; the
		// same file without its expressions shows what the keys alone play.
		const { copy, found } = withoutExpressions(patched ? withoutMissingAssets(read()).copy : read());
		if (found) result.keysOnly = values(copy, job).values;
		return result;
	}
	return { lottie: play };
}

// ---------------------------------------------------------------------------------------------

const players = {
	...(['threejs', 'gltf'].includes(player) ? await threePlayers(false) : {}),
	...(player === 'threejs-legacy' ? await threePlayers(true) : {}),
	...(['pc-anim', 'pc-animation'].includes(player) ? await playcanvasPlayers() : {}),
	...(player === 'lottie' ? await lottiePlayers() : {}),
};
const run = players[player];
if (!run) {
	console.error(`unknown player '${player}'`);
	process.exit(2);
}
const results = [];
for (const job of jobs) {
	try {
		results.push({ file: job.file, ...(await run(job)) });
	} catch (e) {
		results.push({ file: job.file, error: String(e && e.stack ? e.stack.split("\n").slice(0, 4).join(" | ") : e) });
	}
}
process.stdout.write(JSON.stringify(results, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)));
process.stdout.write('\n');
