// lottie-web's picture of a Lottie file at some frames, for tests/gui/lottie_art.rs: a reference
// the art is compared with, and the only one where rlottie draws a file otherwise (the test says
// where and why).
//
//   node lottie_frame.mjs [--size WxH] FILE OUTDIR FRAME...
//
// lottie-web (npm `lottie-web`, the format's reference player) loads FILE with its SVG renderer
// in jsdom, as players.mjs does, and for each FRAME (counted from the composition's `ip`, as
// rlottie counts; fractional frames allowed) is sent `goToAndStop(FRAME, true)`. The SVG it
// built is serialised and rasterised with resvg (npm `@resvg/resvg-js`) at the composition's
// size, one SVG unit to one pixel (or scaled to `--size`, as `clipscope render --size` scales),
// transparent background: OUTDIR/FRAME.png, straight RGBA.
//
// The player is `lottie_light.js`, lottie-web's SVG player without its expressions plugin: what
// the keys alone draw, which is what clipscope draws (it lists expressions as not evaluated).
// The plugin also fails on some files without any expression (its interface for a polystar
// throws while the layer is built, and lottie-web then leaves the layer out). A precomp layer
// whose asset is missing is drawn empty; image files beside FILE are inlined for resvg.
//
// Prints one line per frame written. Exits 2 on bad usage, 1 when lottie-web or resvg fail
// (the message on stderr names the file and the frame).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
let size = null;
while (args[0] && args[0].startsWith('--')) {
	const flag = args.shift();
	if (flag === '--size' && /^\d+x\d+$/.test(args[0] || '')) size = args.shift().split('x').map(Number);
	else args.unshift('');
}
const [file, outDir, ...frames] = args;
if (!file || !outDir || frames.length === 0 || frames.some((f) => !Number.isFinite(Number(f)))) {
	console.error('usage: node lottie_frame.mjs [--size WxH] FILE OUTDIR FRAME...');
	process.exit(2);
}

const { JSDOM } = await import('jsdom');
const dom = new JSDOM('<!DOCTYPE html><div id="stage"></div>', { pretendToBeVisual: true });
// lottie-web's start-up asks for a 2D context once; the SVG renderer draws nothing with it.
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
const lottie = require('lottie-web/build/player/lottie_light.js');
const { Resvg } = require('@resvg/resvg-js');

/** Makes every precomp layer whose asset is missing an empty shape layer: lottie-web fails on
 * such a file, lottie-ios and rlottie draw nothing for the layer (as players.mjs plays it). */
function emptyMissingPrecomps(data) {
	const ids = new Set((data.assets || []).map((a) => String(a.id)));
	const fix = (layers) => {
		for (const l of layers || []) {
			if (l && l.ty === 0 && !ids.has(String(l.refId))) {
				l.ty = 4;
				l.shapes = [];
				delete l.refId;
			}
		}
	};
	fix(data.layers);
	for (const a of data.assets || []) fix(a.layers);
}

const data = JSON.parse(fs.readFileSync(file, 'utf8'));
emptyMissingPrecomps(data);
const { w, h } = data;
const stage = document.getElementById('stage');
const anim = lottie.loadAnimation({
	container: stage,
	renderer: 'svg',
	loop: false,
	autoplay: false,
	animationData: data,
	rendererSettings: { preserveAspectRatio: 'xMidYMid meet' },
});
// lottie-web catches what fails while it builds or renders a frame and reports it as an event.
let failure = null;
anim.addEventListener('error', (e) => {
	failure = failure || (e && e.nativeError) || e;
});
const svg = stage.querySelector('svg');
// The root's CSS (100 % of the container, a 3D translate) means nothing to a rasteriser: the
// picture is the composition's w × h (its viewBox) at the size asked for.
svg.removeAttribute('style');
const [width, height] = size || [w, h];
// resvg sizes the offscreen layer of a clipped group from its content's bounds but no wider
// than twice the canvas, starting at the content's left edge: nested precomp clips around a
// shape reaching far left of the composition (Boat_Loader's "Air") lose its right part. A
// margin of one composition on each side (a 3 × 3 canvas, cropped back to the middle) keeps
// the layers of such files whole.
svg.setAttribute('viewBox', `${-w} ${-h} ${3 * w} ${3 * h}`);
svg.setAttribute('width', String(3 * width));
svg.setAttribute('height', String(3 * height));
// lottie-web sets `xmlns` as a plain attribute too, which the serialiser then writes twice.
svg.removeAttribute('xmlns');
const serializer = new dom.window.XMLSerializer();
const XLINK = 'http://www.w3.org/1999/xlink';
/** Image files beside the JSON (lottie-web links them as `u` + `p`) inlined as data URLs, which
 * resvg draws: it does not load relative links. */
function inlineImages() {
	for (const img of svg.querySelectorAll('image')) {
		const href = img.getAttributeNS(XLINK, 'href') || img.getAttribute('href');
		if (!href || href.startsWith('data:')) continue;
		const local = path.resolve(path.dirname(file), href);
		if (!fs.existsSync(local)) continue;
		const mime = /\.jpe?g$/i.test(local) ? 'image/jpeg' : /\.webp$/i.test(local) ? 'image/webp' : 'image/png';
		img.setAttributeNS(XLINK, 'href', `data:${mime};base64,${fs.readFileSync(local).toString('base64')}`);
	}
}
fs.mkdirSync(outDir, { recursive: true });
for (const frame of frames) {
	anim.goToAndStop(Number(frame), true);
	if (failure) {
		console.error(`${file} frame ${frame}: lottie-web failed: ${failure.message || failure}`);
		process.exit(1);
	}
	inlineImages();
	const text = serializer.serializeToString(svg);
	let png;
	try {
		const resvg = new Resvg(text, {
			fitTo: { mode: 'original' },
			crop: { left: width, top: height, right: 2 * width, bottom: 2 * height },
			font: { loadSystemFonts: false },
			logLevel: 'off',
		});
		png = resvg.render().asPng();
	} catch (e) {
		console.error(`${file} frame ${frame}: resvg failed: ${e.message || e}`);
		process.exit(1);
	}
	const out = path.join(outDir, `${frame}.png`);
	fs.writeFileSync(out, png);
	console.log(out);
}
anim.destroy();
