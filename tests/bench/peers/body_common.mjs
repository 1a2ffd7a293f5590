// The body benchmark's shared driver for peers (gait's own side is `gait bench`, in C).
// Reads a meadow-v1 scene (docs/meadow-v1.md), runs the scene's motion on
// a peer through a small adapter, and writes a result JSON in docs/meadow-v1.md's format.
//
// An adapter is { name, variant, versions, config, buildMs, reset(), step(k), feet(i, out) }:
// reset() puts every character on its spawn (vertical velocity 0, not grounded); step(k) runs
// fixed step k for every character (this alone is timed); feet(i, out) reads character i's feet.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export function args(argv = process.argv.slice(2)) {
	const o = { scene: 'meadow', chars: 0, reps: 0, out: '', variant: '' };
	for (let i = 0; i < argv.length; i++) {
		const k = argv[i], v = argv[i + 1];
		if (k === '--scene') { o.scene = v; i++; }
		else if (k === '--chars') { o.chars = Number(v); i++; }
		else if (k === '--reps') { o.reps = Number(v); i++; }
		else if (k === '--out') { o.out = v; i++; }
		else if (k === '--variant') { o.variant = v; i++; }
		else throw new Error(`body peers: unknown option ${k}`);
	}
	return o;
}

// The scene: header, triangles (Float32Array, 9 per triangle), terrain heights, boxes.
export function scene(prefix, chars) {
	const h = JSON.parse(readFileSync(`${prefix}.json`, 'utf8'));
	if (h.format && h.format !== 'meadow-v1') throw new Error(`${prefix}.json is ${h.format}, not meadow-v1`);
	const raw = readFileSync(`${prefix}.bin`);
	const tris = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
	if (tris.length !== 9 * h.numTriangles) throw new Error(`${prefix}.bin holds ${tris.length / 9} triangles, the header ${h.numTriangles}`);
	const grid = h.terrain ? h.terrain.grid : 0;
	const heights = new Float32Array(grid * grid);
	for (let t = 0; t < h.numTerrainTriangles; t++)
		for (let v = 0; v < 3; v++) {
			const o = 9 * t + 3 * v;
			heights[Math.round(tris[o + 2]) * grid + Math.round(tris[o])] = tris[o + 1];
		}
	const boxes = [];
	for (let b = 0; b < h.numBoxes; b++) {
		const [cx, cz, hx, hz, angle, y0, y1] = h.boxes.slice(7 * b, 7 * b + 7);
		boxes.push({ cx, cz, hx, hz, angle, y0, y1 });
	}
	const n = chars > 0 ? Math.min(chars, h.numCharacters) : h.numCharacters;
	return { h, tris, grid, heights, boxes, n, r: h.capsule.radius, half: h.capsule.halfSegment };
}

// Heading (rad) of character i at step k; desired velocity = speed (cos a, 0, sin a).
export const headingAt = (s, i, k) => s.h.headings[i * s.h.numSegments + Math.floor(k / s.h.headingPeriod)];

export function pkgVersion(name) {
	return JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

// Runs the warm-up and timed steps `reps` times and writes the result JSON.
export function bench(s, peer, opts) {
	const n = s.n, H = s.h, reps = opts.reps || H.repetitions, total = H.warmupSteps + H.timedSteps;
	const us = [], p = [0, 0, 0];
	let last = null, path = null, identical = true;
	for (let r = 0; r < reps; r++) {
		peer.reset();
		const prev = new Float64Array(3 * n);
		path = new Float64Array(n);
		let ns = 0n;
		for (let k = 0; k < total; k++) {
			if (k === H.warmupSteps)
				for (let i = 0; i < n; i++) { peer.feet(i, p); prev.set(p, 3 * i); }
			if (k < H.warmupSteps) { peer.step(k); continue; }
			const t0 = process.hrtime.bigint();
			peer.step(k);
			ns += process.hrtime.bigint() - t0;
			for (let i = 0; i < n; i++) {
				peer.feet(i, p);
				path[i] += Math.hypot(p[0] - prev[3 * i], p[2] - prev[3 * i + 2]);
				prev.set(p, 3 * i);
			}
		}
		us.push(Number(ns) / 1e3 / (n * H.timedSteps));
		if (last && last.some((v, j) => v !== prev[j])) identical = false;
		last = prev;
		process.stderr.write(`  ${peer.name} ${peer.variant} rep ${r + 1}/${reps}: ${us[r].toFixed(3)} us/char-step\n`);
	}
	const sorted = [...us].sort((a, b) => a - b);
	const median = reps % 2 ? sorted[reps >> 1] : (sorted[reps / 2 - 1] + sorted[reps / 2]) / 2;
	const out = {
		peer: peer.name, variant: peer.variant, versions: peer.versions, config: peer.config,
		numCharacters: n, timedSteps: H.timedSteps, reps, buildMs: peer.buildMs,
		usPerCharStep: us, medianUsPerCharStep: median, repsBitIdentical: identical, node: process.version,
		finalFeet: Array.from(last, (v) => Math.round(v * 1e5) / 1e5),
		pathLen: Array.from(path, (v) => Math.round(v * 1e5) / 1e5),
	};
	if (opts.out) {
		mkdirSync(dirname(opts.out), { recursive: true });
		writeFileSync(opts.out, JSON.stringify(out));
	}
	console.log(`${peer.name} ${peer.variant}: median ${median.toFixed(3)} us/char-step`);
	return out;
}
