// The body benchmark's table: reads every result JSON given (gait's and the peers'), recomputes
// the sanity figures of docs/meadow-v1.md from each one's raw final feet and path lengths with the same
// code for all, and prints one table with each runtime's cost relative to gait's.
//   node body_report.mjs --scene PREFIX RESULT.json...
import { readFileSync } from 'node:fs';
import { scene } from './body_common.mjs';

const argv = process.argv.slice(2);
const si = argv.indexOf('--scene');
if (si < 0) throw new Error('usage: node body_report.mjs --scene PREFIX RESULT.json...');
const prefix = argv[si + 1];
const files = argv.filter((_, i) => i !== si && i !== si + 1);
const s = scene(prefix, 0);
const H = s.h;

function terrainAt(x, z) {
	const g = s.grid, cells = g - 1;
	if (!(x >= 0 && x <= cells && z >= 0 && z <= cells)) return NaN;
	const ix = Math.min(Math.floor(x), cells - 1), iz = Math.min(Math.floor(z), cells - 1), fx = x - ix, fz = z - iz;
	const a = s.heights[iz * g + ix], b = s.heights[iz * g + ix + 1], c = s.heights[(iz + 1) * g + ix], d = s.heights[(iz + 1) * g + ix + 1];
	return fz >= fx ? a + fz * (c - a) + fx * (d - c) : a + fx * (b - a) + fz * (d - b);
}
function inBox(b, x, y, z) {
	const dx = x - b.cx, dz = z - b.cz, c = Math.cos(b.angle), sn = Math.sin(b.angle);
	const lx = dx * c - dz * sn, lz = dx * sn + dz * c, m = 0.02;
	return Math.abs(lx) < b.hx - m && Math.abs(lz) < b.hz - m && y > b.y0 + m && y < b.y1 - m;
}
function figures(res) {
	const n = res.pathLen.length, ideal = H.speed * H.dt * res.timedSteps;
	let path = 0, stuck = 0, fell = 0, off = 0, box = 0, above = 0, nAbove = 0;
	for (let i = 0; i < n; i++) {
		const x = res.finalFeet[3 * i], y = res.finalFeet[3 * i + 1], z = res.finalFeet[3 * i + 2];
		path += res.pathLen[i];
		if (res.pathLen[i] < 0.1 * ideal) stuck++;
		const h = terrainAt(x, z);
		if (Number.isNaN(h)) off++;
		else {
			if (y < h - 0.5) fell++;
			if (y - h < 0.3) { above += y - h; nAbove++; }
		}
		const axis = [s.r, s.r + s.half, s.r + 2 * s.half];
		if (s.boxes.some((b) => axis.some((dy) => inBox(b, x, y + dy, z)))) box++;
	}
	return { path: path / n, stuck, fell, off, box, above: nAbove ? above / nAbove : NaN };
}

const rows = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
// gait's reference row: its heightfield variant with the most characters (the peers' count)
const gait = rows.filter((r) => r.peer === 'gait' && r.variant === 'heightfield')
	.sort((a, b) => b.numCharacters - a.numCharacters)[0];
const pad = (v, w) => String(v).padEnd(w);
const lpad = (v, w) => String(v).padStart(w);
console.log(`meadow: ${H.numTriangles} triangles (${H.numTerrainTriangles} terrain), ${H.numBoxes} boxes; ` +
	`µs per character-step = median of the repetitions; ratio = that / gait's`);
console.log(`${pad('runtime', 14)}${pad('variant', 26)}${lpad('chars', 6)}${lpad('µs/step', 9)}${lpad('ratio', 8)}` +
	`${lpad('path m', 8)}${lpad('stuck', 6)}${lpad('fell', 5)}${lpad('off', 4)}${lpad('inbox', 6)}${lpad('feet-terr', 10)}` +
	`${lpad('reps=', 6)}${lpad('allocs', 7)}`);
for (const r of rows) {
	const f = figures(r);
	const ratio = gait ? r.medianUsPerCharStep / gait.medianUsPerCharStep : NaN;
	console.log(`${pad(r.peer, 14)}${pad(r.variant, 26)}${lpad(r.numCharacters, 6)}${lpad(r.medianUsPerCharStep.toFixed(3), 9)}` +
		`${lpad(ratio.toFixed(1) + 'x', 8)}${lpad(f.path.toFixed(1), 8)}${lpad(f.stuck, 6)}${lpad(f.fell, 5)}${lpad(f.off, 4)}` +
		`${lpad(f.box, 6)}${lpad(Number.isNaN(f.above) ? '-' : (Math.abs(f.above) < 5e-5 ? 0 : f.above).toFixed(4), 10)}${lpad(r.repsBitIdentical ? 'yes' : 'no', 6)}` +
		`${lpad(r.allocsDuringTimedSteps ?? '-', 7)}`);
}
if (gait) {
	const peers = rows.filter((r) => r.peer !== 'gait');
	if (peers.length) {
		const best = peers.reduce((a, b) => (a.medianUsPerCharStep < b.medianUsPerCharStep ? a : b));
		console.log(`fastest peer: ${best.peer} ${best.variant} ${best.medianUsPerCharStep.toFixed(3)} µs -> gait is ` +
			`${(best.medianUsPerCharStep / gait.medianUsPerCharStep).toFixed(1)}x faster (target >= 10x)`);
	}
	const x4 = rows.find((r) => r.peer === 'gait' && /x4/.test(r.variant));
	if (x4) console.log(`4x triangles: ${(x4.medianUsPerCharStep / gait.medianUsPerCharStep).toFixed(2)}x the cost (target < 1.3x)`);
	const few = rows.filter((r) => r.peer === 'gait' && r.numCharacters !== gait.numCharacters && r.variant === gait.variant);
	for (const r of few)
		console.log(`${r.numCharacters} vs ${gait.numCharacters} characters: ${r.medianUsPerCharStep.toFixed(3)} vs ` +
			`${gait.medianUsPerCharStep.toFixed(3)} µs per character-step (linear when about equal)`);
	console.log('gait reads the meadow terrain as its heightfield (its design); the boxes are one landmark octree.');
}
