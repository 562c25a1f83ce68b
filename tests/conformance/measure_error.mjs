// How far a reduced (or otherwise changed) animation file strays from the original, measured
// by the players themselves: three.js r187 for glTF/GLB, lottie-web for Lottie.
//
//   node measure_error.mjs ORIGINAL CHANGED [--shells SHELLS.json] [--max-vertices N] [--times T,…]
//
// --times adds moments to the ones below (seconds of each animation; for Lottie, seconds from
// the root composition's in point): the test passes the time `clipscope reduce` reports its
// worst error at, so the player checks the reported number where it was found even when that
// moment lies between the original's keys (motion paths baked finer than their keyframes).
//
// glTF/GLB (GLTFLoader with three.js's MeshoptDecoder for EXT_meshopt_compression; buffers in
// the GLB or in data: URIs): each animation of ORIGINAL is
// played with an AnimationMixer (LoopOnce, held at its end) on both files' scenes, at every key
// time of the original animation and every midpoint between two. At each time the scene's
// world matrices are updated and compared: the world position of every node of the file, every
// vertex of every mesh (Mesh.getVertexPosition: morph targets, then for a SkinnedMesh the
// skeleton's bones; then the mesh's world matrix). With
// --shells (a JSON object {node name: radius}, what `clipscope reduce --json` reports as each
// node's `shell`), the points one radius along each named node's local x, y and z axes too.
// --max-vertices measures every k-th vertex of a mesh larger than N.
//
// Lottie (lottie-web's SVG renderer in jsdom): both files are drawn at every key frame of the
// original's layer transforms and every midpoint between two (frames of nested compositions
// mapped through their precomposition layers), and every layer in its in/out range is compared
// in composition space (lottie-web's finalTransform.mat through its parents and the
// precompositions above it): the corners of solids and images, and the points of every shape
// path (vertices and points along each bezier segment, through the shape groups' transforms).
//
// Prints one JSON object: {"format", "samples", "max", "worst": {...}, and per kind of point
// the largest error: "nodes", "vertices", "shells" (glTF) or "content" (Lottie)}. "seen" is
// the largest error of what a viewer sees: for a glTF with meshes, the nodes and vertices (the
// shells only stand in for geometry a file without meshes lacks); otherwise "max".

import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const shellsFile = option('--shells');
const maxVertices = Number(option('--max-vertices') ?? Infinity);
const extraTimes = (option('--times') ?? '').split(',').filter((t) => t !== '').map(Number).filter(Number.isFinite);
const [original, changed] = args;
if (!original || !changed) {
  console.error('usage: node measure_error.mjs ORIGINAL CHANGED [--shells FILE] [--max-vertices N] [--times T,…]');
  process.exit(2);
}

/// Sorted distinct times with every midpoint between two neighbours.
function withMidpoints(times) {
  const sorted = [...new Set(times.filter(Number.isFinite))].sort((a, b) => a - b);
  const out = [];
  sorted.forEach((t, k) => {
    if (k > 0) out.push(sorted[k - 1] + (t - sorted[k - 1]) / 2);
    out.push(t);
  });
  return out;
}

/// `times` (sorted, distinct) with `extra` added, sorted and distinct.
function withExtra(times, extra) {
  return [...new Set([...times, ...extra])].sort((a, b) => a - b);
}

/// The larger of two {error, ...} records.
const larger = (a, b) => (!a || (b && b.error > a.error) ? b : a);

function isLottie(bytes) {
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'glTF') return false;
  try {
    const json = JSON.parse(bytes.toString('utf8'));
    return Array.isArray(json.layers) && json.asset === undefined;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- glTF through three.js

async function loadGltf(file) {
  globalThis.ProgressEvent ??= class ProgressEvent {
    constructor(type, init = {}) {
      Object.assign(this, { type }, init);
    }
  };
  const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
  const { MeshoptDecoder } = await import('three/examples/jsm/libs/meshopt_decoder.module.js');
  await MeshoptDecoder.ready;
  const bytes = fs.readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new GLTFLoader()
    .setMeshoptDecoder(MeshoptDecoder)
    .parseAsync(buffer, path.dirname(file) + '/');
}

/// The file's nodes (by node index) and meshes (in traversal order).
function gltfParts(gltf) {
  const nodes = new Map();
  const meshes = [];
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined && !nodes.has(a.nodes)) nodes.set(a.nodes, o);
    if (o.isMesh) meshes.push(o);
  });
  return { nodes, meshes };
}

async function measureGltf() {
  const [a, b] = [await loadGltf(original), await loadGltf(changed)];
  const shells = shellsFile ? JSON.parse(fs.readFileSync(shellsFile, 'utf8')) : {};
  const pa = gltfParts(a);
  const pb = gltfParts(b);
  if (pa.nodes.size !== pb.nodes.size || pa.meshes.length !== pb.meshes.length) {
    throw new Error('the two files have different node trees');
  }
  const result = { format: 'gltf', samples: 0, max: 0, worst: null, nodes: null, vertices: null, shells: null, clips: [] };
  const va = new THREE.Vector3();
  const vb = new THREE.Vector3();
  const axes = [new THREE.Vector3(1, 0, 0), new THREE.Vector3(0, 1, 0), new THREE.Vector3(0, 0, 1)];
  for (const [index, clipA] of a.animations.entries()) {
    const clipB = b.animations.find((c) => c.name === clipA.name) ?? b.animations[index];
    const inClip = extraTimes.filter((t) => t >= 0 && t <= clipA.duration);
    const times = withExtra(withMidpoints(clipA.tracks.flatMap((t) => Array.from(t.times))), inClip);
    const play = (gltf, clip) => {
      const mixer = new THREE.AnimationMixer(gltf.scene);
      const action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      return (t) => {
        action.reset();
        mixer.setTime(t);
        gltf.scene.updateMatrixWorld(true);
      };
    };
    const [poseA, poseB] = [play(a, clipA), clipB ? play(b, clipB) : () => b.scene.updateMatrixWorld(true)];
    const clip = { name: clipA.name, samples: times.length, nodes: null, vertices: null, shells: null };
    for (const t of times) {
      poseA(t);
      poseB(t);
      for (const [i, na] of pa.nodes) {
        const nb = pb.nodes.get(i);
        const name = na.name || `node_${i}`;
        va.setFromMatrixPosition(na.matrixWorld);
        vb.setFromMatrixPosition(nb.matrixWorld);
        clip.nodes = larger(clip.nodes, { error: va.distanceTo(vb), node: name, time: t });
        const r = shells[name];
        if (r > 0) {
          axes.forEach((axis, k) => {
            va.copy(axis).multiplyScalar(r).applyMatrix4(na.matrixWorld);
            vb.copy(axis).multiplyScalar(r).applyMatrix4(nb.matrixWorld);
            clip.shells = larger(clip.shells, { error: va.distanceTo(vb), node: name, axis: 'xyz'[k], time: t });
          });
        }
      }
      pa.meshes.forEach((ma, m) => {
        const mb = pb.meshes[m];
        const count = ma.geometry.attributes.position.count;
        const step = count > maxVertices ? Math.ceil(count / maxVertices) : 1;
        for (let v = 0; v < count; v += step) {
          ma.getVertexPosition(v, va).applyMatrix4(ma.matrixWorld);
          mb.getVertexPosition(v, vb).applyMatrix4(mb.matrixWorld);
          const d = va.distanceTo(vb);
          if (!clip.vertices || d > clip.vertices.error) {
            clip.vertices = { error: d, mesh: ma.name, vertex: v, time: t };
          }
        }
      });
    }
    result.samples += times.length;
    for (const kind of ['nodes', 'vertices', 'shells']) result[kind] = larger(result[kind], clip[kind]);
    result.clips.push(clip);
  }
  result.seen = 0;
  for (const kind of ['nodes', 'vertices', 'shells']) {
    const w = result[kind];
    if (w && w.error > result.max) {
      result.max = w.error;
      result.worst = { kind, ...w };
    }
    if (w && (kind !== 'shells' || !result.vertices)) result.seen = Math.max(result.seen, w.error);
  }
  return result;
}

// ---------------------------------------------------------------- Lottie through lottie-web

async function loadLottieWeb() {
  const { JSDOM } = await import('jsdom');
  const dom = new JSDOM('<!DOCTYPE html><body></body>', { pretendToBeVisual: true });
  globalThis.window = dom.window;
  globalThis.document = dom.window.document;
  globalThis.navigator ??= dom.window.navigator;
  // lottie-web asks for a 2D context at load time; the SVG renderer never draws with it.
  const noop = () => {};
  dom.window.HTMLCanvasElement.prototype.getContext = () =>
    new Proxy({}, { get: (t, k) => (k in t ? t[k] : noop), set: (t, k, v) => ((t[k] = v), true) });
  return (await import('lottie-web')).default;
}

/// Every keyframe time of a layer list's transforms, in the frames of that list's composition.
function transformKeyFrames(layers) {
  const out = [];
  const visit = (prop) => {
    if (!prop || typeof prop !== 'object') return;
    if (Array.isArray(prop.k) && typeof prop.k[0] === 'object' && prop.k[0] !== null) {
      for (const key of prop.k) if (typeof key.t === 'number') out.push(key.t);
    }
  };
  for (const layer of layers ?? []) {
    const ks = layer.ks ?? {};
    for (const [key, prop] of Object.entries(ks)) {
      if (key === 'p' && prop?.s) ['x', 'y', 'z'].forEach((c) => visit(prop[c]));
      else visit(prop);
    }
  }
  return out;
}

/// The frames of the root composition to draw: its own layers' key frames, and those of
/// every precomposition mapped into root frames through the layers that show it.
function lottieFrames(json) {
  const assets = new Map((json.assets ?? []).filter((a) => a.layers).map((a) => [a.id, a]));
  const frames = transformKeyFrames(json.layers);
  const mapped = (layers, toRoot, depth) => {
    if (depth > 8) return;
    for (const layer of layers ?? []) {
      if (layer.ty !== 0 || !assets.has(layer.refId) || layer.tm) continue;
      const sr = layer.sr || 1;
      const st = layer.st ?? 0;
      const inner = (f) => toRoot(st + f * sr);
      const asset = assets.get(layer.refId);
      for (const f of transformKeyFrames(asset.layers)) frames.push(inner(f));
      mapped(asset.layers, inner, depth + 1);
    }
  };
  mapped(json.layers, (f) => f, 0);
  const ip = json.ip ?? 0;
  const op = json.op ?? ip;
  const fr = json.fr > 0 ? json.fr : 30;
  const extra = extraTimes.map((t) => ip + t * fr).filter((f) => f >= ip && f <= op);
  return withExtra(withMidpoints(frames.map((f) => Math.min(Math.max(f, ip), op))), extra);
}

/// `p · M` for lottie-web's row-vector 4×4 `props`, x and y as drawn.
const apply = (m, x, y) => [x * m[0] + y * m[4] + m[12], x * m[1] + y * m[5] + m[13]];

/// `a · b` for row-major 4×4 arrays.
function mul(a, b) {
  const out = new Array(16).fill(0);
  for (let r = 0; r < 4; r += 1) for (let c = 0; c < 4; c += 1) for (let k = 0; k < 4; k += 1) out[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
  return out;
}

/// The content points of a layer element in layer space, with what each is.
function contentPoints(element, assets) {
  const data = element.data;
  const box = (w, h) => [[0, 0], [w, 0], [w, h], [0, h]].map((p, k) => ({ p, what: `corner ${k}` }));
  if (data.ty === 1) return box(data.sw, data.sh);
  if (data.ty === 2) {
    const asset = assets.get(data.refId);
    return asset ? box(asset.w, asset.h) : [];
  }
  if (data.ty !== 4 || !element.shapes) return [];
  const out = [];
  for (const item of element.shapes) {
    if (!item.sh || !item.sh.paths) continue;
    let m = null;
    for (let k = (item.transformers?.length ?? 0) - 1; k >= 0; k -= 1) {
      const props = Array.from(item.transformers[k].mProps.v.props);
      m = m ? mul(m, props) : props;
    }
    const at = (x, y) => (m ? apply(m, x, y) : [x, y]);
    const paths = item.sh.paths;
    for (let s = 0; s < paths._length; s += 1) {
      const shape = paths.shapes[s];
      const n = shape._length;
      for (let j = 0; j < n; j += 1) {
        out.push({ p: at(shape.v[j][0], shape.v[j][1]), what: `path vertex ${j}` });
        const next = (j + 1) % n;
        if (next === 0 && !shape.c) continue;
        // Points along the bezier segment to the next vertex.
        const [p0, p1, p2, p3] = [shape.v[j], shape.o[j], shape.i[next], shape.v[next]];
        for (const u of [0.25, 0.5, 0.75]) {
          const w = [(1 - u) ** 3, 3 * (1 - u) ** 2 * u, 3 * (1 - u) * u * u, u ** 3];
          const x = w[0] * p0[0] + w[1] * p1[0] + w[2] * p2[0] + w[3] * p3[0];
          const y = w[0] * p0[1] + w[1] * p1[1] + w[2] * p2[1] + w[3] * p3[1];
          out.push({ p: at(x, y), what: `path ${j} at ${u}` });
        }
      }
    }
  }
  return out;
}

/// Every visible layer element with its composition-space matrix.
function visibleLayers(elements, above, out) {
  for (const e of elements ?? []) {
    if (!e || !e.finalTransform || !e.isInRange || e.data.hd) continue;
    const local = Array.from(e.finalTransform.mat.props);
    const world = above ? mul(local, above) : local;
    out.push({ element: e, world });
    if (e.elements) visibleLayers(e.elements, world, out);
  }
  return out;
}

async function measureLottie() {
  const lottie = await loadLottieWeb();
  const load = (file) => {
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    const container = document.createElement('div');
    document.body.appendChild(container);
    const anim = lottie.loadAnimation({ container, renderer: 'svg', loop: false, autoplay: false, animationData: json });
    return { json, anim, assets: new Map((json.assets ?? []).map((a) => [a.id, a])) };
  };
  const [a, b] = [load(original), load(changed)];
  const frames = lottieFrames(a.json);
  const ip = a.json.ip ?? 0;
  const result = { format: 'lottie', samples: frames.length, max: 0, worst: null, content: null, layers: 0 };
  const measured = new Set();
  for (const frame of frames) {
    a.anim.goToAndStop(frame - ip, true);
    b.anim.goToAndStop(frame - ip, true);
    const la = visibleLayers(a.anim.renderer.elements, null, []);
    const lb = visibleLayers(b.anim.renderer.elements, null, []);
    if (la.length !== lb.length) throw new Error(`frame ${frame}: the files show different layers`);
    la.forEach((x, i) => {
      const y = lb[i];
      const pa = contentPoints(x.element, a.assets);
      const pb = contentPoints(y.element, b.assets);
      if (pa.length) measured.add(x.element.data.nm ?? i);
      pa.forEach((point, k) => {
        const q = pb[k];
        if (!q) return;
        const [ax, ay] = apply(x.world, point.p[0], point.p[1]);
        const [bx, by] = apply(y.world, q.p[0], q.p[1]);
        const d = Math.hypot(ax - bx, ay - by);
        if (!result.content || d > result.content.error) {
          result.content = { error: d, layer: x.element.data.nm, point: point.what, frame };
        }
      });
    });
  }
  result.layers = measured.size;
  result.seen = result.content ? result.content.error : 0;
  if (result.content) {
    result.max = result.content.error;
    result.worst = { kind: 'content', ...result.content };
  }
  return result;
}

const bytes = fs.readFileSync(original);
const result = isLottie(bytes) ? await measureLottie() : await measureGltf();
console.log(JSON.stringify(result));
process.exit(0);
