// The body benchmark's table: reads every result JSON given (gait's and the peers'), recomputes
// the sanity figures from each one's raw final feet and path lengths with the same code for all,
// and prints one table per scene with each runtime's cost relative to gait's mover.
//   node body_report.mjs --scene PREFIX RESULT.json... [--scene PREFIX2 RESULT.json...]
// A gait result written by `gait bench --whole` holds two runs, the whole step and the mover
// (its "mover" member): both get a row.
//
// Sanity figures: mean horizontal path, stuck (path < 10 % of ideal); with a terrain: fell
// through (> 0.5 m under it), off the map, a capsule axis point inside a box by > 2 cm, the mean
// feet height over the terrain of those standing on it; with none (a level): out of the level
// (outside its bounds in x, z, or > 1 m under its lowest triangle) and a capsule axis point
// inside the level's solid matter by > 2 cm (odd crossings of two of three oblique rays, and no
// triangle within 2 cm: meaningful for levels of closed solids, as tests/bench/level.h makes).
import { readFileSync } from 'node:fs';
import { scene } from './body_common.mjs';

const groups = [];
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (a === '--scene') groups.push({ prefix: process.argv[++i], files: [] });
	else if (groups.length) groups[groups.length - 1].files.push(a);
	else throw new Error('usage: node body_report.mjs --scene PREFIX RESULT.json... [--scene PREFIX2 ...]');
}

// ---- sanity figures ---------------------------------------------------------------------------

function terrainAt(s, x, z) {
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

// Ray o + t d (t > 0) across triangle k of T (Moller-Trumbore).
function crosses(T, k, ox, oy, oz, dx, dy, dz) {
	const o = 9 * k;
	const e1x = T[o + 3] - T[o], e1y = T[o + 4] - T[o + 1], e1z = T[o + 5] - T[o + 2];
	const e2x = T[o + 6] - T[o], e2y = T[o + 7] - T[o + 1], e2z = T[o + 8] - T[o + 2];
	const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
	const det = e1x * px + e1y * py + e1z * pz;
	if (det === 0) return 0;
	const inv = 1 / det, tx = ox - T[o], ty = oy - T[o + 1], tz = oz - T[o + 2];
	const u = (tx * px + ty * py + tz * pz) * inv;
	if (u < 0 || u > 1) return 0;
	const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
	const v = (dx * qx + dy * qy + dz * qz) * inv;
	if (v < 0 || u + v > 1) return 0;
	return (e2x * qx + e2y * qy + e2z * qz) * inv > 0 ? 1 : 0;
}

// Squared distance from p to triangle k (Ericson, Real-Time Collision Detection 5.1.5).
function dist2(T, k, px, py, pz) {
	const o = 9 * k, a = [T[o], T[o + 1], T[o + 2]], b = [T[o + 3], T[o + 4], T[o + 5]], c = [T[o + 6], T[o + 7], T[o + 8]];
	const sub = (u, w) => [u[0] - w[0], u[1] - w[1], u[2] - w[2]], dot = (u, w) => u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
	const p = [px, py, pz], ab = sub(b, a), ac = sub(c, a), ap = sub(p, a), bp = sub(p, b), cp = sub(p, c);
	const d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d4 = dot(ac, bp), d5 = dot(ab, cp), d6 = dot(ac, cp);
	const va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
	let r;
	if (d1 <= 0 && d2 <= 0) r = a;
	else if (d3 >= 0 && d4 <= d3) r = b;
	else if (vc <= 0 && d1 >= 0 && d3 <= 0) r = a.map((x, i) => x + ab[i] * (d1 / (d1 - d3)));
	else if (d6 >= 0 && d5 <= d6) r = c;
	else if (vb <= 0 && d2 >= 0 && d6 <= 0) r = a.map((x, i) => x + ac[i] * (d2 / (d2 - d6)));
	else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) r = b.map((x, i) => x + (c[i] - x) * ((d4 - d3) / (d4 - d3 + (d5 - d6))));
	else { const inv = 1 / (va + vb + vc); r = a.map((x, i) => x + ab[i] * vb * inv + ac[i] * vc * inv); }
	const e = sub(r, p);
	return dot(e, e);
}

const DIRS = [[0.5773, 0.6124, 0.5401], [-0.6311, -0.4723, 0.6153], [0.4027, -0.7311, -0.5509]];
function insideSolid(s, x, y, z, margin) {
	const T = s.tris, n = T.length / 9;
	let odd = 0;
	for (const [dx, dy, dz] of DIRS) {
		let c = 0;
		for (let k = 0; k < n; k++) c += crosses(T, k, x, y, z, dx, dy, dz);
		odd += c & 1;
	}
	if (odd < 2) return false;
	for (let k = 0; k < n; k++) if (dist2(T, k, x, y, z) < margin * margin) return false;
	return true;
}

function bounds(s) {
	if (s.bounds) return s.bounds;
	const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
	for (let i = 0; i < s.tris.length; i++) {
		const a = i % 3;
		b[a] = Math.min(b[a], s.tris[i]);
		b[3 + a] = Math.max(b[3 + a], s.tris[i]);
	}
	return (s.bounds = b);
}

function figures(s, run) {
	const H = s.h, n = run.pathLen.length, ideal = H.speed * H.dt * run.timedSteps, level = !s.grid;
	let path = 0, stuck = 0, fell = 0, off = 0, inside = 0, above = 0, nAbove = 0;
	const axis = [s.r, s.r + s.half, s.r + 2 * s.half];
	for (let i = 0; i < n; i++) {
		const x = run.finalFeet[3 * i], y = run.finalFeet[3 * i + 1], z = run.finalFeet[3 * i + 2];
		path += run.pathLen[i];
		if (run.pathLen[i] < 0.1 * ideal) stuck++;
		if (level) {
			const b = bounds(s);
			if (!(x >= b[0] && x <= b[3] && z >= b[2] && z <= b[5])) off++;
			else if (y < b[1] - 1) fell++;
			if (!H.openMesh && axis.some((dy) => insideSolid(s, x, y + dy, z, 0.02))) inside++;
		} else {
			const h = terrainAt(s, x, z);
			if (Number.isNaN(h)) off++;
			else {
				if (y < h - 0.5) fell++;
				if (y - h < 0.3) { above += y - h; nAbove++; }
			}
			if (s.boxes.some((b) => axis.some((dy) => inBox(b, x, y + dy, z)))) inside++;
		}
	}
	return { path: path / n, stuck, fell, off, inside, above: nAbove ? above / nAbove : NaN };
}

// ---- the table --------------------------------------------------------------------------------

const pad = (v, w) => String(v).padEnd(w);
const lpad = (v, w) => String(v).padStart(w);
let status = 0;
for (const grp of groups) {
	const s = scene(grp.prefix, 0);
	const H = s.h, level = !s.grid;
	// one row per run: a gait --whole result gives its whole step and its mover
	const rows = [];
	for (const f of grp.files) {
		const r = JSON.parse(readFileSync(f, 'utf8'));
		if (r.peer === 'gait' && r.mover) {
			rows.push({ ...r, peer: 'gait', variant: `${r.variant.replace(/-whole$/, '')} mover`, ...r.mover, timedSteps: r.timedSteps, numCharacters: r.numCharacters });
			rows.push({ ...r, peer: 'gait', variant: `${r.variant.replace(/-whole$/, '')} whole step` });
		} else if (r.peer === 'gait') {
			rows.push({ ...r, variant: `${r.variant} mover` });
		} else rows.push(r);
	}
	const name = grp.prefix.split('/').pop();
	console.log(`\n${name}: ${H.numTriangles} triangles (${level ? 'no terrain: a level' : `${H.numTerrainTriangles} terrain`}); ` +
		`µs per character-step = median of the repetitions; ratio = that / gait's mover`);
	console.log(`${pad('runtime', 14)}${pad('variant', 26)}${lpad('chars', 6)}${lpad('µs/step', 9)}${lpad('ratio', 8)}` +
		`${lpad('path m', 8)}${lpad('stuck', 6)}${lpad('fell', 5)}${lpad(level ? 'out' : 'off', 4)}${lpad(level ? 'solid' : 'inbox', 6)}` +
		`${level ? '' : lpad('feet-terr', 10)}${lpad('reps=', 6)}${lpad('allocs', 7)}`);
	// gait's reference row: its mover with the most characters, the heightfield one when there is one
	const movers = rows.filter((r) => r.peer === 'gait' && / mover$/.test(r.variant) && !/x4/.test(r.variant))
		.sort((a, b) => (b.numCharacters - a.numCharacters) || (/heightfield/.test(b.variant) - /heightfield/.test(a.variant)));
	const gait = movers[0];
	for (const r of rows) {
		const f = figures(s, r);
		const ratio = gait ? r.medianUsPerCharStep / gait.medianUsPerCharStep : NaN;
		console.log(`${pad(r.peer, 14)}${pad(r.variant, 26)}${lpad(r.numCharacters, 6)}${lpad(r.medianUsPerCharStep.toFixed(3), 9)}` +
			`${lpad(ratio.toFixed(1) + 'x', 8)}${lpad(f.path.toFixed(1), 8)}${lpad(f.stuck, 6)}${lpad(f.fell, 5)}${lpad(f.off, 4)}` +
			`${lpad(f.inside, 6)}${level ? '' : lpad(Number.isNaN(f.above) ? '-' : (Math.abs(f.above) < 5e-5 ? 0 : f.above).toFixed(4), 10)}` +
			`${lpad(r.repsBitIdentical ? 'yes' : 'no', 6)}${lpad(r.allocsDuringTimedSteps ?? '-', 7)}`);
	}
	if (!gait) continue;
	// like for like: gait's mesh mover against the peers' triangle meshes, its heightfield mover
	// against Jolt's heightfield
	const peers = rows.filter((r) => r.peer !== 'gait');
	const gaitRow = (v) => rows.find((r) => r.peer === 'gait' && r.variant === `${v} mover` &&
		r.numCharacters === gait.numCharacters);
	const pairs = [['mesh', 'three-octree', 'all-triangles', 3], ['mesh', 'jolt-wasm', 'mesh', 10],
		['heightfield', 'jolt-wasm', 'heightfield', 10]];
	for (const [gv, key, pv, target] of pairs) {
		const g = gaitRow(gv), p = peers.find((r) => r.peer === key && r.variant === pv);
		if (g && p) console.log(`gait's ${gv} mover vs ${key} ${pv}: ${(p.medianUsPerCharStep / g.medianUsPerCharStep).toFixed(1)}x faster` +
			` (target >= ${target}x)`);
	}
	const x4 = rows.find((r) => r.peer === 'gait' && /x4 mover/.test(r.variant));
	if (x4) console.log(`4x triangles: ${(x4.medianUsPerCharStep / gait.medianUsPerCharStep).toFixed(2)}x the mover's cost (target < 1.3x)`);
	const whole = rows.find((r) => r.peer === 'gait' && / whole step$/.test(r.variant) && r.variant.split(' ')[0] === gait.variant.split(' ')[0]);
	if (whole) console.log(`whole step: ${whole.medianUsPerCharStep.toFixed(3)} µs per character-step (target <= ${level ? 2 : 1.2} µs)`);
	if (rows.some((r) => r.allocsDuringTimedSteps > 0)) status = 1;
}
process.exit(status);
